"""Application/Traffic/CBR on one-way TCP and TFRC agents (ns-2.35 tools/cbr_traffic.cc
`CBR_Traffic::start` sends at once, `next_interval` recomputes (packetSize_ << 3) / rate_ at
each packet and jitters it with `random_`, stops after maxpkts_; trafgen.cc
`TrafficGenerator::timeout` hands the agent packetSize_ bytes, which `TcpAgent::sendmsg` and
`TfrcAgent::sendmsg` count in whole packets of the agent's size). Live against ns-2.35: the
packet traces, with the interval changed during the run, a stop and a second start."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 8
{agents}
$ns connect $src $sink
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ {size}
$cbr set interval_ 0.05
{extra}
$cbr attach-agent $src
$ns at 0.1 "$cbr start"
$ns at 1.0 "$cbr set interval_ 0.004"
$ns at 2.0 "$cbr set rate_ 200Kb"
$ns at 3.0 "$cbr stop"
$ns at 4.0 "$cbr start"
$ns at 6.0 "$ns flush-trace; close $tr; exit 0"
$ns run
"""
TCP = """set src [new Agent/{agent}]
$ns attach-agent $n0 $src
set sink [new Agent/{sink}]
$ns attach-agent $n2 $sink"""
TFRC = """Agent/TFRC set SndrType_ {sndr}
set src [new Agent/TFRC]
$ns attach-agent $n0 $src
set sink [new Agent/TFRCSink]
$ns attach-agent $n2 $sink"""


@pytest.mark.parametrize(("agents", "size", "extra"), [
    (TCP.format(agent="TCP/Reno", sink="TCPSink"), 210, ""),
    (TCP.format(agent="TCP/Sack1", sink="TCPSink/Sack1"), 1500, "$cbr set maxpkts_ 400"),
    (TCP.format(agent="TCP/Newreno", sink="TCPSink/DelAck"), 500, "$cbr set random_ 1"),
    (TFRC.format(sndr=1), 1000, ""),
    (TFRC.format(sndr=0), 1000, ""),
])
def test_cbr_on_tcp_and_tfrc_as_ns2(vs_ns2: Any, agents: str, size: int, extra: str) -> None:
    both = vs_ns2(SCRIPT.format(agents=agents, size=size, extra=extra))
    trace = both.same("out.tr")["out.tr"].splitlines()
    assert len(trace) > 1000
    # Data went out in each of the two runs of the source (before the stop, after the start).
    sent = [float(line.split()[1]) for line in trace
            if line.startswith("+ ") and line.split()[2:4] == ["0", "1"]]
    assert min(sent) < 0.2 and max(sent) > 4.0
