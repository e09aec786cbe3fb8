"""`overhead_` on ns-2's one-way TCP agents (tcp/tcp.cc `TcpAgent::send_much`, tcp-sack1.cc
`Sack1TcpAgent::send_much`; the engine's `send_overhead`): each burst of new sending waits
`Random::uniform(overhead_)` from the default generator, fast retransmissions go at once. Live
against ns-2.35: the packet trace of two flows through a DropTail bottleneck, each agent type,
and with a REM bottleneck whose early drops draw from the same generator (the rem suite's
setting), so that each draw must come in ns-2's order."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
Agent/TCP set overhead_ {overhead}
foreach n {{s1 s2 r1 r2 s3}} {{ set node($n) [$ns node] }}
$ns duplex-link $node(s1) $node(r1) 10Mb 2ms DropTail
$ns duplex-link $node(s2) $node(r1) 10Mb 3ms DropTail
$ns duplex-link $node(r1) $node(r2) 1.5Mb 20ms {queue}
$ns queue-limit $node(r1) $node(r2) 25
$ns duplex-link $node(s3) $node(r2) 10Mb 4ms DropTail
foreach i {{1 2}} src {{s1 s2}} {{
    set tcp($i) [$ns create-connection TCP{agent} $node($src) TCPSink{sink} $node(s3) $i]
    $tcp($i) set window_ 30
    set ftp($i) [$tcp($i) attach-app FTP]
}}
$ns at 0.0 "$ftp(1) start"
$ns at 0.7 "$ftp(2) start"
$ns at 8.0 "$ns flush-trace; close $tr; exit 0"
$ns run
"""


@pytest.mark.parametrize(("agent", "queue", "overhead"), [
    ("", "DropTail", 0.01),
    ("/Reno", "DropTail", 0.01),
    ("/Newreno", "DropTail", 0.02),
    ("/Sack1", "DropTail", 0.01),
    ("/Sack1", "REM", 0.001),
])
def test_overhead_as_ns2(vs_ns2: Any, agent: str, queue: str, overhead: float) -> None:
    sink = "/Sack1" if agent == "/Sack1" else ""
    both = vs_ns2(SCRIPT.format(agent=agent, sink=sink, queue=queue, overhead=overhead))
    lines = both.same("out.tr")["out.tr"].splitlines()
    assert len(lines) > 5000
    assert sum(line.startswith("d ") for line in lines) > 5
