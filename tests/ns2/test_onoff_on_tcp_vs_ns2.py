"""Application/Traffic/Exponential and /Pareto on one-way TCP and TFRC agents, live against
ns-2.35 (tools/expoo.cc `EXPOO_Traffic`, tools/pareto.cc `POO_Traffic`, trafgen.cc
`TrafficGenerator`):

- `init` at each start: interval_ = (packetSize_ << 3) / rate_, the burst parameters from it,
  and `agent_->set_pkttype(PT_EXP)` (`PT_PARETO`) on the agent, TCP's too, so the segments
  print as `exp` (`pareto`) from the start on, their sequence number 0 (`Trace::get_seqno`
  reads an `exp` packet's RTP header, which the TCP agent never sets);
- `TrafficGenerator::start` sends nothing at once: the first send is one `next_interval`
  later, which draws the first burst's length and the silence before it from the default
  generator (here shared with RED's early-drop draws on the bottleneck);
- each send hands the agent packetSize_ bytes (`TcpAgent::sendmsg`: whole packets of its own
  size); a stop and a second start begin a new burst.

Also `$node color` during the run (ns-namsupp.tcl `Node instproc color`: an `n ... -S COLOR`
line in the nam trace at that time)."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set nf [open out.nam w]
$ns namtrace-all $nf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 {bottleneck} 20ms RED
$ns queue-limit $n1 $n2 12
{agents}
$ns connect $src $sink
set app [new Application/Traffic/{kind}]
{extra}
$app attach-agent $src
$ns at 0.1 "$app start"
$ns at 0.5 "$n0 color red"
$ns at 3.0 "$app stop"
$ns at 3.5 "$app start"
$ns at 6.0 "$ns flush-trace; close $tr; close $nf; exit 0"
$ns run
"""
TCP = """set src [new Agent/{agent}]
$ns attach-agent $n0 $src
set sink [new Agent/{sink}]
$ns attach-agent $n2 $sink"""
TFRC = """set src [new Agent/TFRC]
$ns attach-agent $n0 $src
set sink [new Agent/TFRCSink]
$ns attach-agent $n2 $sink"""


@pytest.mark.parametrize(("agents", "kind", "bottleneck", "extra", "ptype"), [
    # The defaults: 210-byte messages at 64 kb/s, bursts of 0.5 s, silences of 0.5 s.
    (TCP.format(agent="TCP/Reno", sink="TCPSink"), "Exponential", "1Mb", "", "exp"),
    (TCP.format(agent="TCP/Newreno", sink="TCPSink/DelAck"), "Exponential", "400Kb",
     "$app set rate_ 600k\n$app set packetSize_ 1500\n$app set burst_time_ 200ms\n"
     "$app set idle_time_ 0.1", "exp"),
    (TCP.format(agent="TCP/Sack1", sink="TCPSink/Sack1"), "Pareto", "500Kb",
     "$app set rate_ 800k\n$app set packetSize_ 1000\n$app set shape_ 1.2", "pareto"),
    (TFRC, "Exponential", "1Mb", "$app set rate_ 300k\n$app set packetSize_ 1000", "exp"),
])
def test_onoff_on_tcp_and_tfrc_as_ns2(vs_ns2: Any, agents: str, kind: str, bottleneck: str,
                                      extra: str, ptype: str) -> None:
    both = vs_ns2(SCRIPT.format(agents=agents, kind=kind, bottleneck=bottleneck, extra=extra))
    files = both.same("out.tr", "out.nam")
    trace = files["out.tr"].splitlines()
    data = [line.split() for line in trace
            if line.startswith("+ ") and line.split()[2:4] == ["0", "1"]]
    assert len(data) > 100
    assert {f[4] for f in data} == {ptype}
    # No send at the start itself, sends in each of the two runs.
    sent = [float(f[1]) for f in data]
    assert min(sent) > 0.1 and max(sent) > 3.6
    assert "-S COLOR -c red -o black" in files["out.nam"]
