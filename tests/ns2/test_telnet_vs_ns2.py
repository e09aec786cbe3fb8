"""Telnet (ns-2.35 apps/telnet.cc `TelnetApp`) on one-way TCP agents, with the agents' timer
rules on an idle connection (tcp/tcp.cc `TcpAgent::newtimer` restarts the retransmission
timer on every new ACK, `TcpAgent::timeout` with nothing outstanding closes cwnd_ to one
segment without backing off: the engine's `idle_rtx_timer`) and `control_increase_`
(`TcpAgent::recv_newack_helper` opens cwnd_ only while `network_limited`). Live against
ns-2.35: the packet trace and traced cwnd_ of Telnet sources whose gaps outlast the timeout,
and the tcp suite's underutilized tests."""

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
$ns queue-limit $n1 $n2 5
set tcp [new Agent/{agent}]
$tcp set control_increase_ {control}
$ns attach-agent $n0 $tcp
set sink [new Agent/{sink}]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set cw [open cwnd.tr w]
$tcp attach $cw
$tcp trace cwnd_
{app}
$tel set interval_ 0.4
$ns at 0.1 "$tel start"
$ns at 3.0 "$tel set interval_ 0.004"
$ns at 5.0 "$tel set interval_ 0.3"
$ns at 8.0 "$tel stop"
$ns at 10.0 "$ns flush-trace; close $tr; close $cw; exit 0"
$ns run
"""
APP = "set tel [$tcp attach-app Telnet]"
SOURCE = "set tel [new Source/Telnet]\n$tel attach $tcp"


@pytest.mark.parametrize(("agent", "sink", "control", "app"), [
    ("TCP", "TCPSink/DelAck", 0, APP),
    ("TCP/Reno", "TCPSink", 0, APP),
    ("TCP/Newreno", "TCPSink", 1, SOURCE),
])
def test_telnet_as_ns2(vs_ns2: Any, agent: str, sink: str, control: int, app: str) -> None:
    both = vs_ns2(SCRIPT.format(agent=agent, sink=sink, control=control, app=app))
    want = both.same("out.tr", "cwnd.tr")
    assert len(want["out.tr"].splitlines()) > 4000
    # The idle timer closed the window between packets (ns-2's slowdown(CLOSE_CWND_ONE)).
    assert sum(" cwnd_ 1.000" in line for line in want["cwnd.tr"].splitlines()) >= 5


def test_tcplib_telnet_is_not_supported(ns2: Any) -> None:
    run = ns2(SCRIPT.format(agent="TCP/Reno", sink="TCPSink", control=0, app=APP)
              .replace("$tel set interval_ 0.4", "$tel set interval_ 0"), name="s.tcl")
    assert run.code == 2
    assert run.err.strip() == ("ackclock: error: s.tcl:20: Application/Telnet with interval_ 0"
                               " (tcplib's telnet inter-arrival distribution) is not supported"
                               " by ackclock yet")


def test_underutilized_tests_as_ns2(suite_states: Any) -> None:
    tests = {"underutilized_100ms", "underutilized_100ms_control_Sack"}
    assert suite_states("tcp", tests) == dict.fromkeys(tests, ("identical", ""))
