"""`Agent/TCP/Fack` (ns-2.35 tcp/tcp-fack.cc `FackTcpAgent`, the engine's `fack` variant,
tcp/sender/fack.rs with ns-2's `ScoreBoard` in tcp/sender/ns2_board.rs) and the timestamp a
sink echoes (`TcpSink::ack` with `ts_echo_bugfix_`, `Acker::update_ts`), which FACK reads on
every duplicate ACK (`FackTcpAgent::oldack`'s RTT sample). Live against ns-2.35: two Fack flows
through a DropTail bottleneck (bursts of drops, fast recoveries, timeouts), with SACK and
delayed-SACK sinks, `maxburst_`, timestamps and either echo rule; and the tcpVariants suite's
four Fack tests."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
Agent/TCP set timestamps_ {ts}
Agent/TCPSink set ts_echo_bugfix_ {bugfix}
foreach n {{s1 s2 r1 k1}} {{ set node($n) [$ns node] }}
$ns duplex-link $node(s1) $node(r1) 10Mb 2ms DropTail
$ns duplex-link $node(s2) $node(r1) 10Mb 3ms DropTail
$ns duplex-link $node(r1) $node(k1) 1.5Mb 20ms DropTail
$ns queue-limit $node(r1) $node(k1) {queue}
foreach i {{1 2}} src {{s1 s2}} {{
    set tcp($i) [$ns create-connection TCP/Fack $node($src) {sink} $node(k1) $i]
    $tcp($i) set window_ 40
    $tcp($i) set maxburst_ {burst}
    set ftp($i) [$tcp($i) attach-app FTP]
}}
$ns at 0.0 "$ftp(1) start"
$ns at 0.3 "$ftp(2) start"
$ns at 10.0 "$ns flush-trace; close $tr; exit 0"
$ns run
"""


@pytest.mark.parametrize(("queue", "burst", "sink", "ts", "bugfix"), [
    (8, 0, "TCPSink/Sack1", "false", "true"),
    (5, 4, "TCPSink/Sack1", "false", "true"),
    (20, 0, "TCPSink/Sack1", "false", "true"),
    (8, 0, "TCPSink/Sack1", "false", "false"),
    (8, 0, "TCPSink/Sack1", "true", "true"),
    (8, 0, "TCPSink/Sack1/DelAck", "false", "true"),
])
def test_fack_as_ns2(vs_ns2: Any, queue: int, burst: int, sink: str, ts: str,
                     bugfix: str) -> None:
    both = vs_ns2(SCRIPT.format(queue=queue, burst=burst, sink=sink, ts=ts, bugfix=bugfix))
    lines = both.same("out.tr")["out.tr"].splitlines()
    assert len(lines) > 15000
    assert sum(line.startswith("d ") for line in lines) > 25


def test_tcpvariants_fack_tests_identical(suite_states: Any) -> None:
    tests = {"onedrop_fack", "twodrops_fack", "threedrops_fack", "fourdrops_fack"}
    assert suite_states("tcpVariants", tests) == dict.fromkeys(tests, ("identical", ""))
