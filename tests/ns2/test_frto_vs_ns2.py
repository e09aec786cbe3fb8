"""F-RTO on ns-2.35's one-way agents (tcp/tcp.cc `TcpAgent::timeout`, `recv_newack_helper`,
`recv_frto_helper`, `spurious_timeout`; tcp/tcp-sack1.cc's SACK-based check with
`sfrto_enabled_`; the engine's `ns2_frto`, tcp/sender/frto.rs) and Sack1's `partial_ack_`
(`Sack1TcpAgent::partial_ack_action`, the engine's `sack_partial_ack`): a Delayer holds the
bottleneck for 0.8 s, so the timer expires while the segments and their ACKs wait, and a
list of losses on the access link makes fast recoveries with partial ACKs. The packet trace
and the agent's counters are ns-2's."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
Agent/TCP set frto_enabled_ [lindex $argv 1]
Agent/TCP set sfrto_enabled_ [lindex $argv 2]
Agent/TCP set partial_ack_ [lindex $argv 3]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
$ns queue-limit $n1 $n2 10
set d [new Delayer]
$ns insert-delayer $n1 $n2 $d
$ns at 1.5 "$d block"
$ns at 2.3 "$d unblock"
set em [new ErrorModule Fid]
set lm [new ErrorModel/List]
$lm droplist [lindex $argv 4]
$em insert $lm
$em bind $lm 1
$ns link-lossmodel $em $n0 $n1
set tcp [new Agent/[lindex $argv 0]]
$tcp set window_ 40
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
$ns at 0.1 "$ftp start"
$ns at 5.0 {
    close $tr
    puts "[$tcp set nrexmitpack_] [$tcp set nrexmit_] [$sink set bytes_]"
    exit 0
}
$ns run
"""


@pytest.mark.parametrize("agent,frto,sfrto,partial,drops", [
    ("TCP", "1", "0", "0", "1000"),
    ("TCP/Reno", "1", "0", "0", "1000"),
    ("TCP/Newreno", "1", "0", "0", "1000"),
    ("TCP/Sack1", "1", "0", "0", "1000"),
    ("TCP/Sack1", "1", "1", "0", "1000"),
    ("TCP", "true", "true", "true", "120 122"),
    ("TCP/Reno", "true", "true", "true", "120 122"),
    ("TCP/Newreno", "true", "true", "true", "120 122"),
    ("TCP/Sack1", "0", "0", "1", "20 22 24 26"),
    ("TCP/Sack1", "1", "1", "1", "20 22 24 26 120 125"),
])
def test_frto_and_partial_ack_as_ns2(vs_ns2: Any, agent: str, frto: str, sfrto: str,
                                     partial: str, drops: str) -> None:
    both = vs_ns2(SCRIPT, agent, frto, sfrto, partial, drops)
    both.same("out.tr")
    # F-RTO changed the run (the spurious timeout is undone): not the run without it.
    if frto == "1" and drops == "1000":
        plain = vs_ns2(SCRIPT, agent, "0", "0", "0", drops)
        plain.same("out.tr")
        assert both.ac.file("out.tr") != plain.ac.file("out.tr")


def test_frto_on_vegas_is_refused(vs_ns2: Any) -> None:
    # VegasTcpAgent runs TcpAgent::timeout but its own recv: not modelled with F-RTO.
    both = vs_ns2(SCRIPT, "TCP/Vegas", "1", "0", "0", "1000")
    assert both.ns.code == 0
    assert both.ac.code == 2
    err = both.ac.err.strip()
    assert len(err.splitlines()) == 1
    assert "s.tcl:2:" in err and "frto_enabled_" in err and "not supported" in err


def test_frto_suite_as_ns2(suite_states: Any) -> None:
    tests = {"immediateAck", "immediateAckReno", "immediateAckNewReno", "noImmediateAckNewReno",
             "noImmediateAckSack", "delaySpikesSack", "dropsNDelaySpikes", "spikeNDupAck"}
    assert suite_states("frto", tests) == dict.fromkeys(tests, ("identical", ""))


def test_partial_ack_suite_tests_as_ns2(suite_states: Any) -> None:
    tests = {"multiple_partial_ack_sack", "multiple2_partial_ack_sack"}
    assert suite_states("tcpVariants", tests) == dict.fromkeys(tests, ("identical", ""))
    assert suite_states("quiescent", {"tcp_onoff"}) == {"tcp_onoff": ("identical", "")}
