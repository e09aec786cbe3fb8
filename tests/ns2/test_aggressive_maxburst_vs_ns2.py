"""`aggressive_maxburst_` (the engine's `old_ack_sends`): an ACK below the highest one
acknowledged still lets a one-way agent send a burst of `maxburst_` (ns-2.35 `TcpAgent::recv`'s
`valid_ack || aggressive_maxburst_`, and Reno's, NewReno's and Sack1's conditions), or not.
tcpOptions' maxburst tests delay one ACK behind later ones with a second ErrorModule on the
ACKs' path, for Tahoe, Reno, NewReno and Sack1, each with aggressive_maxburst_ 0 and 1."""

from __future__ import annotations

from typing import Any

TESTS = {f"maxburst_{agent}{one}" for agent in ("tahoe", "reno", "newreno", "sack")
         for one in ("", "1")}


def test_tcpoptions_maxburst_tests_as_ns2(suite_states: Any) -> None:
    assert suite_states("tcpOptions", TESTS) == dict.fromkeys(TESTS, ("identical", ""))
