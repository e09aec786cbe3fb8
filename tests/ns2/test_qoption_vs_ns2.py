"""`QOption_ 1` on Agent/TCP (ns-2.35 tcp/tcp.cc `TcpAgent::process_qoption_after_send`: after
each data segment sent, a sender idle for an RTO halves its window per RTO idle, one
application-limited for an RTO takes it half way down to the flight it used; with
`EnblRTTCtr_ 1` counted in round trips, `rtt_counting`; the engine's `ns2_qoption`). Live
against ns-2.35: a Telnet source with short, middling and long gaps, packet trace and traced
cwnd_ and ssthresh_ (as the values each instant ends with), and the tcp suite's quiescence
tests."""

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
$ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
$ns queue-limit $n1 $n2 8
Agent/TCP set QOption_ 1
Agent/TCP set EnblRTTCtr_ @COUNT@
set tcp [new Agent/TCP]
$tcp set window_ 40
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set cw [open cwnd.tr w]
$tcp attach $cw
$tcp trace cwnd_
$tcp trace ssthresh_
set tel [$tcp attach-app Telnet]
$tel set interval_ 0.002
$ns at 0.1 "$tel start"
$ns at 1.5 "$tel set interval_ 0.05"
$ns at 4.0 "$tel set interval_ 1.5"
$ns at 8.0 "$tel set interval_ 0.002"
$ns at 9.0 "$tel set interval_ 0.3"
$ns at 12.0 "$ns flush-trace; close $tr; close $cw; exit 0"
$ns run
"""


def _changes(text: str) -> list[str]:
    """A variable trace as the values each variable ends each instant with, where they
    changed: ns-2 traces every assignment slowdown() makes (cwnd_ halved per RTO idle, then
    raised to one, even from one to one), ackclock the value it ends with."""
    last: dict[tuple[str, str], str] = {}
    for line in text.splitlines():
        f = line.split()
        last[(f[0], f[5])] = line
    out, now = [], {}
    for (_, var), line in last.items():
        value = line.split()[6]
        if now.get(var) != value:
            out.append(line)
            now[var] = value
    return out


@pytest.mark.parametrize("count", ["0", "1"])
def test_qoption_as_ns2(vs_ns2: Any, count: str) -> None:
    both = vs_ns2(SCRIPT.replace("@COUNT@", count))
    want = both.same("out.tr")
    assert any(line.startswith("d ") for line in want["out.tr"].splitlines())
    ns_cw = both.ns.file("cwnd.tr")
    assert _changes(both.ac.file("cwnd.tr")) == _changes(ns_cw)
    # The cuts after the idle periods: cwnd_ halved per RTO idle down to one segment.
    assert " cwnd_ 0.500" in ns_cw


def test_qoption_elsewhere_is_refused(vs_ns2: Any) -> None:
    both = vs_ns2(SCRIPT.replace("@COUNT@", "0").replace("Agent/TCP]", "Agent/TCP/Reno]"))
    assert both.ns.code == 0
    assert both.ac.code == 2
    assert "QOption_" in both.ac.err and "not supported" in both.ac.err
    assert len(both.ac.err.strip().splitlines()) == 1


def test_tcp_suite_quiescence_as_ns2(suite_states: Any) -> None:
    tests = {"quiescent_100ms_fine", "quiescent_1ms_coarse", "quiescent_500ms_fine",
             "underutilized_100ms_Q"}
    assert suite_states("tcp", tests) == dict.fromkeys(tests, ("identical", ""))
