"""`slow_start_restart_ false` on one-way TCP agents (ns-2.35 tcp/tcp.cc `TcpAgent::timeout`:
the retransmission timer's expiry with nothing outstanding calls no slowdown(), so cwnd_ and
ssthresh_ stay; `RenoTcpAgent::timeout` and `Sack1TcpAgent::timeout` set recover_ first;
the engine's `idle_timeout_keeps_window`). Live against ns-2.35: Telnet sources whose gaps
outlast the timeout, packet trace and traced cwnd_, and the ecn suite's two tests."""

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
$tcp set slow_start_restart_ {restart}
$ns attach-agent $n0 $tcp
set sink [new Agent/{sink}]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set cw [open cwnd.tr w]
$tcp attach $cw
$tcp trace cwnd_
set tel [$tcp attach-app Telnet]
$tel set interval_ 0.4
$ns at 0.1 "$tel start"
$ns at 3.0 "$tel set interval_ 0.004"
$ns at 5.0 "$tel set interval_ 0.3"
$ns at 8.0 "$tel stop"
$ns at 10.0 "$ns flush-trace; close $tr; close $cw; exit 0"
$ns run
"""


@pytest.mark.parametrize(("agent", "sink"), [
    ("TCP", "TCPSink/DelAck"),
    ("TCP/Reno", "TCPSink"),
    ("TCP/Newreno", "TCPSink"),
    ("TCP/Sack1", "TCPSink/Sack1"),
])
def test_no_slow_start_restart_as_ns2(vs_ns2: Any, agent: str, sink: str) -> None:
    both = vs_ns2(SCRIPT.format(agent=agent, sink=sink, restart="false"))
    want = both.same("out.tr", "cwnd.tr")
    assert len(want["out.tr"].splitlines()) > 4000
    assert any(line.startswith("d ") for line in want["out.tr"].splitlines())
    # The idle timeouts leave the window: it closes to one less often than with the restart
    # (ns-2's run with slow_start_restart_ true; Sack1's differs from ackclock's late).
    restart = vs_ns2(SCRIPT.format(agent=agent, sink=sink, restart="true")).ns.file("cwnd.tr")

    def closed(text: str) -> int:
        return sum(" cwnd_ 1.000" in line for line in text.splitlines())

    assert closed(want["cwnd.tr"]) < closed(restart)


def test_other_agents_stay_not_supported(ns2: Any) -> None:
    run = ns2(SCRIPT.format(agent="TCP/Reno", sink="TCPSink", restart="false")
              .replace("$tcp set slow_start_restart_ false",
                       "$tcp set bugFix_ false\n$tcp set slow_start_restart_ false"),
              name="s.tcl")
    assert run.code == 2
    assert run.err.strip() == ("ackclock: error: s.tcl:12: Agent/TCP/Reno variable"
                               " slow_start_restart_ = false is not supported by ackclock yet")


def test_ecn_suite_tests_as_ns2(suite_states: Any) -> None:
    tests = {"ecn_smallwin2Ecn_tahoe", "ecn_smallwin3Ecn_tahoe"}
    assert suite_states("ecn", tests) == dict.fromkeys(tests, ("identical", ""))
