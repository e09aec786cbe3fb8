"""`Agent/TCP/RFC793edu` (ns-2.35 tcp/tcp-rfc793edu.cc, the engine's `rfc793` variant,
tcp/sender/rfc793.rs): live against ns-2.35, a packet trace and the agent's rtt_, srtt_ and
backoff_ read every 100 ms, over a path whose queue overflows, for the textbook agent and
each of its additions (add793fastrtx_, add793slowstart_, add793jacobsonrtt_, add793karnrtt_,
add793expbackoff_); and the rfc793edu suite's eight tests (their outputs are graphs of
the traces and of rtt_)."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
Agent/TCP set tcpTick_ 0.1
Agent/TCP set rtxcur_init_ 3.0
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 800Kb 40ms DropTail
$ns queue-limit $n1 $n2 12
set tcp [new Agent/TCP/RFC793edu]
$tcp set window_ 30
$tcp set packetSize_ 500
{adds}
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
set vars [open vars.tr w]
proc probe {{}} {{
    global ns tcp vars
    puts $vars "[$ns now] [$tcp set rtt_] [$tcp set srtt_] [$tcp set backoff_]"
    $ns at [expr [$ns now] + 0.1] probe
}}
$ns at 0.0 probe
$ns at 0.2 "$ftp start"
$ns at 12.0 "$ns flush-trace; close $tr; close $vars; exit 0"
$ns run
"""

ADDS = {
    "textbook": [],
    "fastrtx": ["add793fastrtx_"],
    "slowstart": ["add793slowstart_"],
    "jacobson": ["add793jacobsonrtt_", "add793slowstart_", "add793fastrtx_"],
    "nokarn": ["!add793karnrtt_", "!add793expbackoff_"],
}


@pytest.mark.parametrize("case", list(ADDS))
def test_rfc793edu_as_ns2(vs_ns2: Any, case: str) -> None:
    adds = "\n".join(f"$tcp set {v.lstrip('!')} {'false' if v.startswith('!') else 'true'}"
                     for v in ADDS[case])
    both = vs_ns2(SCRIPT.format(adds=adds))
    want = both.same("out.tr", "vars.tr")
    lines = want["out.tr"].splitlines()
    assert len(lines) > 2000
    # The queue overflows: every case loses segments and retransmits them.
    assert any(line.startswith("d ") for line in lines)
    # The SYN is segment 0, 40 bytes, and takes the place of a data segment.
    assert lines[0].split()[4:6] == ["tcp", "40"]


def test_the_rfc793edu_suite_as_ns2(suite_states: Any) -> None:
    tests = {"rtt-jacobson", "rtt-rfc793", "seqno-nofastrtx", "seqno-fastrtx", "rto-karn",
             "rto-nokarn", "jacobson88-noss", "jacobson88-ss"}
    assert suite_states("rfc793edu", tests) == dict.fromkeys(tests, ("identical", ""))


# syn_ without delay_growth_ (the rfc793edu suite's agents, whose class sets syn_ true where
# the suite sets delay_growth_ false): ns-2.35's TcpAgent::set_initial_window starts cwnd_ at
# windowInit_, the 40-byte SYN goes out with data in that window, and TcpAgent::recv opens
# the window on the SYN's ACK as on any (the engine's `syn` with `delay_growth` false).
SYN_NO_GROWTH = """
Agent/TCP set delay_growth_ false
Agent/TCP set windowInit_ 3
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 30ms DropTail
$ns queue-limit $n0 $n1 8
set tcp [new Agent/{agent}]
$ns attach-agent $n0 $tcp
set sink [new Agent/{sink}]
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set cw [open cwnd.tr w]
$tcp attach $cw
$tcp trace cwnd_
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 4.0 "$ns flush-trace; close $tr; close $cw; exit 0"
$ns run
"""


@pytest.mark.parametrize(("agent", "sink"), [
    ("TCP", "TCPSink"), ("TCP/Reno", "TCPSink/DelAck"), ("TCP/Sack1", "TCPSink/Sack1"),
    ("TCP/RFC793edu", "TCPSink"),
])
def test_syn_without_delay_growth_as_ns2(vs_ns2: Any, agent: str, sink: str) -> None:
    both = vs_ns2(SYN_NO_GROWTH.format(agent=agent, sink=sink))
    want = both.same("out.tr", "cwnd.tr")
    lines = want["out.tr"].splitlines()
    # The SYN (40 bytes) and two data segments leave at once.
    first = [line.split() for line in lines[:6] if line.startswith("+ 0.1 0 1 tcp")]
    assert [f[5] for f in first] == ["40", "1040", "1040"] or agent == "TCP/RFC793edu"
    assert any(line.startswith("d ") for line in lines)
