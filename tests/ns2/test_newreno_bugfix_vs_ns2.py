"""NewReno's `bugFix_ack_` and `bugFix_ts_` (ns-2.35 tcp/tcp-newreno.cc
`NewRenoTcpAgent::dupack_action`, RFC 6582 section 4.2; the engine's `bugfix_ack` and
`bugfix_ts`, tcp/sender/bugfix.rs): after a timeout, three duplicates of data sent before the
recovery point still start a fast retransmit when the last new ACK advanced the cumulative
ACK by at most `numdupacks_` segments, or echoed the latest transmission's timestamp. Live
against ns-2.35: two NewReno flows through an 8-packet DropTail bottleneck, where the ACK
heuristic changes the trace, and the newreno suite's five tests of them."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
Agent/TCP set bugFix_ack_ {ack}
Agent/TCP set bugFix_ts_ {ts}
Agent/TCP set timestamps_ {ts}
Agent/TCPSink set ts_echo_rfc1323_ {ts}
foreach n {{s1 s2 r1 k1}} {{ set node($n) [$ns node] }}
$ns duplex-link $node(s1) $node(r1) 10Mb 2ms DropTail
$ns duplex-link $node(s2) $node(r1) 10Mb 3ms DropTail
$ns duplex-link $node(r1) $node(k1) 1.5Mb 20ms DropTail
$ns queue-limit $node(r1) $node(k1) 8
foreach i {{1 2}} src {{s1 s2}} {{
    set tcp($i) [$ns create-connection TCP/Newreno $node($src) TCPSink $node(k1) $i]
    $tcp($i) set window_ 40
    set ftp($i) [$tcp($i) attach-app FTP]
}}
$ns at 0.0 "$ftp(1) start"
$ns at 0.3 "$ftp(2) start"
$ns at 10.0 "$ns flush-trace; close $tr; exit 0"
$ns run
"""


@pytest.mark.parametrize(("ack", "ts"), [("true", "false"), ("true", "true")])
def test_bugfix_heuristics_as_ns2(vs_ns2: Any, ack: str, ts: str) -> None:
    both = vs_ns2(SCRIPT.format(ack=ack, ts=ts))
    lines = both.same("out.tr")["out.tr"].splitlines()
    assert len(lines) > 20000
    assert sum(line.startswith("d ") for line in lines) > 40


def test_newreno_suite_bugfix_tests_identical(suite_states: Any) -> None:
    tests = {"newreno_rto_loss_ack", "newreno_rto_loss_tsh", "newreno_rto_dup_ack",
             "newreno_rto_loss_ackf", "newreno_rto_dup_tsh"}
    assert suite_states("newreno", tests) == dict.fromkeys(tests, ("identical", ""))
