"""ns-2.35's `timerfix_` (tcp/tcp.cc `TcpAgent::newack`): with `timerfix_ false` a new ACK
restarts the retransmission timer (`newtimer`) before `rtt_update` and the backoff reset, so
with the timeout from before the ACK (the engine's `rtx_timer_before_sample`); with true
(ns-2's default) after them. Live: the tcp suite's timersA (false) and timersAfix (true), the
same early drops and window, give different outputs under ns-2.35 and must both be ns-2's."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("ns2_test_suites",
                                              ROOT / "validation" / "ns2_test_suites.py")
assert spec is not None and spec.loader is not None
suites = importlib.util.module_from_spec(spec)
sys.modules["ns2_test_suites"] = suites
spec.loader.exec_module(suites)


@pytest.mark.skipif(shutil.which("ns") is None or not suites.NS2_TREE.is_dir(),
                    reason="needs ns-2.35 (`ns`, Debian package ns2) and ../shared/ns2-2.35")
def test_timerfix_as_ns2() -> None:
    [result] = suites.run_suites(["tcp"], suites.NS2_TREE, "ns",
                                 [sys.executable, "-m", "ackclock", "ns2"], timeout=120.0,
                                 only={"timersA", "timersAfix"}, progress=False)
    states = {o.test: (o.state, o.detail) for o in result.outcomes}
    assert states == {"timersA": ("identical", ""), "timersAfix": ("identical", "")}, states
