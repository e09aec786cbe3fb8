"""Three rules of ns-2.35's one-way agents around timeouts (tcp/tcp.cc):

- `ts_resetRTO_` with timestamps (`TcpAgent::newack`, the engine's `ts_reset_rto`): every
  timestamp sample ends the timer's backoff, not only the ACK of the timed segment.
- The ACK of the SYN carries ECN-Echo (the sink echoes the SYN's, `TcpSink::ack`), so after
  a timeout of the SYN `TcpAgent::ecn` cuts the window (`last_cwnd_action_` is a timeout's)
  and the first data segment is marked (cong_action_).
- `max_connects_` (`TcpAgent::output`, the engine's `syn_max_sends`): the SYN goes at most
  that many times; then the connection is abandoned.

ackclock's trace shows a one-way ECN agent's SYN with ECT and without ECN-Echo, and the ACK
of it without ECN-Echo, where ns-2's shows `C` on both (TcpAgent::output's ECN negotiation):
with ECN the packet traces are compared without their flags column, and the congestion
action marks (`A`) are compared by count."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
Agent/TCP set ecn_ [lindex $argv 1]
Agent/TCP set max_connects_ [lindex $argv 2]
Agent/TCP set timestamps_ [lindex $argv 3]
Agent/TCP set ts_resetRTO_ [lindex $argv 3]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms RED
$ns queue-limit $n1 $n2 15
Queue/RED set setbit_ true
set em [new ErrorModule Fid]
set lm [new ErrorModel/List]
$lm droplist [lindex $argv 4]
$em insert $lm
$em bind $lm 1
$ns link-lossmodel $em $n0 $n1
set tcp [new Agent/[lindex $argv 0]]
$tcp set window_ 30
$tcp set fid_ 1
$ns attach-agent $n0 $tcp
if {[lindex $argv 0] == "TCP/Sack1"} {
    set sink [new Agent/TCPSink/Sack1]
} else {
    set sink [new Agent/TCPSink]
}
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp produce 400"
$ns at 30.0 {
    close $tr
    puts "[$tcp set nrexmitpack_] [$tcp set nrexmit_] [$tcp set ndatapack_] [$tcp set backoff_]"
    exit 0
}
$ns run
"""

BURST = " ".join(str(n) for n in range(30, 44))


def _without_flags(text: str) -> list[str]:
    return [" ".join(f[:6] + f[7:]) for f in (line.split() for line in text.splitlines())]


@pytest.mark.parametrize("agent,ecn,connects,ts,drops", [
    ("TCP", "1", "-1", "0", "0"),
    ("TCP", "1", "-1", "0", "0 1 2"),
    ("TCP/Reno", "1", "3", "0", "0 1"),
    ("TCP/Reno", "1", "3", "0", "0 1 2"),
    ("TCP/Sack1", "1", "2", "0", "0 1 2"),
    ("TCP", "0", "-1", "1", BURST),
    ("TCP/Reno", "0", "-1", "1", BURST),
    ("TCP/Newreno", "0", "-1", "1", BURST),
    ("TCP/Sack1", "0", "-1", "1", BURST),
])
def test_timeout_options_as_ns2(vs_ns2: Any, agent: str, ecn: str, connects: str, ts: str,
                                drops: str) -> None:
    both = vs_ns2(SCRIPT, agent, ecn, connects, ts, drops)
    if ecn == "0":
        both.same("out.tr")
        return
    assert both.ns.code == 0 and both.ac.code == 0, both.ac.err
    assert both.ac.out == both.ns.out
    ns, ac = both.ns.file("out.tr"), both.ac.file("out.tr")
    assert _without_flags(ac) == _without_flags(ns)
    marks = [sum("A" in line.split()[6] for line in t.splitlines()) for t in (ns, ac)]
    assert marks[0] == marks[1] > 0


def test_suite_tests_as_ns2(suite_states: Any) -> None:
    tests = {"timeouts_tahoe2", "timeouts_reno2", "timeouts_newreno2", "timeouts_sack2"}
    assert suite_states("tcpOptions", tests) == dict.fromkeys(tests, ("identical", ""))
    tests = {"synack0", "synack0A", "synack-4", "synack-15", "synack-4-maxconnect",
             "synack-5-maxconnect"}
    assert suite_states("ecn-ack", tests) == dict.fromkeys(tests, ("identical", ""))
