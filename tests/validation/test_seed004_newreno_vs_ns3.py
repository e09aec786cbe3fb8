"""The `ns3` profile's TcpNewReno against ns-3.44 itself, run live: seed 004's single flow
(validation/seed004_vs_ns3.py --newreno, ns-3's FlowMonitor) with the losses of a 10-packet
queue, where the ssthresh of every recovery is `TcpNewReno::GetSsThresh`'s max(2 segments,
bytesInFlight / 2). Measured when this test was written (2026-11-28): with 1200-byte segments
over 10 s both send 1342 packets, deliver 1322 and lose 11 at n3; with 1000-byte segments over
10.7 s 1901 / 1873 / 10. With cwnd / 2 instead (before) ackclock gave 1349 / 1318 / 12 and
1913 / 1882 / 12.
"""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")
pytestmark = pytest.mark.ns3_live

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("segment", "seconds"), [(1200, 10.0), (1000, 10.7)])
def test_newreno_flowmon_counts_equal_ns3s(segment: int, seconds: float) -> None:
    v: dict[str, Any] = runpy.run_path(str(ROOT / "validation" / "seed004_vs_ns3.py"))
    run: dict[str, Any] = runpy.run_path(str(ROOT / "examples" / "seeds" / "004" / "run.py"))
    n = v["ns3_flowmon"](v["ns3_program"](),
                         ["--qdisc=default", "--cc=ns3::TcpNewReno", "--q=10",
                          f"--time={seconds:g}", f"--seg={segment}"])
    ours = run["flowmon"](run["network"](queue=10, tcp={"cc": "TcpNewReno",
                                                        "packet_size": segment}), seconds)
    theirs = (*n[("0.1", "3.2")], n[("drops", "")][0])
    assert theirs[2] > 0, "the case must have losses"
    assert (ours["tx_packets"], ours["rx_packets"], ours["dropped"]) == theirs
