"""ns-2.35's `timerfix_` (tcp/tcp.cc `TcpAgent::newack`): with `timerfix_ false` a new ACK
restarts the retransmission timer (`newtimer`) before `rtt_update` and the backoff reset, so
with the timeout from before the ACK (the engine's `rtx_timer_before_sample`); with true
(ns-2's default) after them. Live: the tcp suite's timersA (false) and timersAfix (true), the
same early drops and window, give different outputs under ns-2.35 and must both be ns-2's."""

from __future__ import annotations

from typing import Any


def test_timerfix_as_ns2(suite_states: Any) -> None:
    tests = {"timersA", "timersAfix"}
    assert suite_states("tcp", tests) == dict.fromkeys(tests, ("identical", ""))
