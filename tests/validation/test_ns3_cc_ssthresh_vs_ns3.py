"""The `ns3` profile's TcpHighSpeed, TcpScalable, TcpIllinois, TcpHtcp, TcpVeno and TcpYeah
against ns-3.44 itself, run live on ns-3's tcp-variants-comparison path
(validation/ns3_examples.py): each class's `GetSsThresh` from the bytes in flight,
TcpHighSpeed's RFC 3649 table, TcpScalable's whole-segment increase and TcpVeno's per-ACK N
(docs/models/congestion-control.md). Measured when this test was written (2026-11-28): every
class's drops equal ns-3's and its mean cwnd and queue agree to 0.03%; before, with cwnd in
`GetSsThresh` and the formulas, TcpScalable dropped 498 against ns-3's 473, TcpHighSpeed 148
against 144, TcpHtcp 367 against 373, and mean cwnds were up to 1% apart.
"""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")
pytestmark = pytest.mark.ns3_live

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "cls", ["TcpHighSpeed", "TcpScalable", "TcpIllinois", "TcpHtcp", "TcpVeno", "TcpYeah"])
def test_tcp_variants_row_equals_ns3s(cls: str) -> None:
    v: dict[str, Any] = runpy.run_path(str(ROOT / "validation" / "ns3_examples.py"))
    theirs = v["ns3_run"](v["ns3_program"](), cls)
    ours = v["ackclock_run"](cls)
    assert theirs["drops"] > 0, "the case must have losses"
    assert ours["drops"] == theirs["drops"]
    for m in ("mean_cwnd", "mean_queue"):
        assert ours[m] == pytest.approx(theirs[m], rel=1e-3), m
    assert abs(ours["peak_cwnd"] - theirs["peak_cwnd"]) <= 1.0
