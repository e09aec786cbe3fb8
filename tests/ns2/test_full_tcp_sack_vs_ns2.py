"""ns-2.35's two-way SACK agent, `Agent/TCP/FullTcp/Sack` (tcp/tcp-full.cc `SackFullTcpAgent`,
the engine's tcp/sender/sack_full.rs), live against ns-2.35 through its own suites (skipped
without `ns`): every test of test-suite-sack-full.tcl (one to many drops in a window, bugFix_
false, maxburst_, two flows sharing the bottleneck, RED) and the SACK tests of
test-suite-ecn-full.tcl (losses with ECN, bursts of duplicates with and without bugFix_, a
timeout with pipe control still on, delayed ACKs).

What they hold to ns-2: pipe control from the third duplicate (`dupack_action`: the data out
less what the scoreboard holds, the fast retransmission not counted), one segment off the pipe
per duplicate and two per partial ACK (`recv`, `pack_action`), no window growth on a partial
ACK (`open_cwnd_on_pack_` false), cwnd opened by the ACK that ends recovery (`ack_action`, then
`opencwnd`), holes sent in order from `h_seqno_` while a SACKed block lies above them
(`nxt_tseq`), every pure duplicate counted whether or not its blocks are new."""

from __future__ import annotations

from typing import Any

SACK_FULL = {"sack1", "sack1z", "sack1a", "sack1aa", "sack1b", "sack1c", "sack3", "sack5",
             "sack5a", "sackB2", "sackB4", "sackB4a"}
ECN_FULL_SACK = {"ecn_drop_sack_full", "ecn_burstyEcn_sack_full", "ecn_noBugfix_sack_full",
                 "ecn_timeout1_sack_full", "ecn_fourdrops_sack_full",
                 "ecn_drop1_sack_full_delack"}


def test_sack_full_suite_as_ns2(suite_states: Any) -> None:
    states = suite_states("sack-full", SACK_FULL)
    assert set(states) == SACK_FULL
    assert {t: s for t, s in states.items() if s[0] != "identical"} == {}


def test_ecn_full_sack_tests_as_ns2(suite_states: Any) -> None:
    states = suite_states("ecn-full", ECN_FULL_SACK)
    assert set(states) == ECN_FULL_SACK
    assert {t: s for t, s in states.items() if s[0] != "identical"} == {}
