"""ns-2.35's event trace of the one-way TCP agents (`$ns eventtrace-all`, issue 28): the `E`
lines `TcpAgent::trace_event` writes at a timeout (TIMEOUT), at Tahoe's, Reno's, NewReno's
and Sack1's fast retransmit (FAST_RETX, RENO_FAST_RETX, NEWRENO_FAST_RETX, FAST_RECOVERY),
on each of NewReno's inflating duplicates (NEWRENO_FAST_RECOVERY) and in `slowdown`
(SLOW_START), with t_seqno_ and int(cwnd_), into trace-all's file in order with the packet
lines, or into a file of their own. The held-back testReno suite's tests read them."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
    set ns [new Simulator]
    set all [open all.tr w]
    set ev [open ev.tr w]
    $ns trace-all $all
    $ns eventtrace-all EVENTS
    set n0 [$ns node]
    set n1 [$ns node]
    set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 2ms DropTail
    $ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
    $ns queue-limit $n1 $n2 8
    set em [new ErrorModel/List]
    $em droplist {14 15 40}
    $ns lossmodel $em $n1 $n2
    set tcp [new CLASS]
    $tcp set window_ 30
    $tcp set fid_ 1
    $ns attach-agent $n0 $tcp
    set sink [new SINK]
    $ns attach-agent $n2 $sink
    $ns connect $tcp $sink
    set ftp [$tcp attach-app FTP]
    $ns at 0.0 "$ftp start"
    $ns at 6.0 "$ns flush-trace; close $all; close $ev; exit 0"
    $ns run
"""

AGENTS = [("Agent/TCP", "Agent/TCPSink"), ("Agent/TCP/Reno", "Agent/TCPSink"),
          ("Agent/TCP/Newreno", "Agent/TCPSink"), ("Agent/TCP/Sack1", "Agent/TCPSink/Sack1")]


def script(cls: str, sink: str, events: str) -> str:
    return SCRIPT.replace("CLASS", cls).replace("SINK", sink).replace("EVENTS", events)


@pytest.mark.parametrize(("cls", "sink"), AGENTS)
def test_events_in_trace_alls_file(vs_ns2: Any, cls: str, sink: str) -> None:
    got = vs_ns2(script(cls, sink, "")).same("all.tr")
    events = [x.split()[5] for x in got["all.tr"].splitlines() if x.startswith("E ")]
    # Congestion events happened: the fast retransmit's and a slow start's at least.
    assert any("FAST_R" in e for e in events) and "SLOW_START" in events, events


def test_events_in_a_file_of_their_own(vs_ns2: Any) -> None:
    got = vs_ns2(script("Agent/TCP/Newreno", "Agent/TCPSink", "$ev")).same("all.tr", "ev.tr")
    assert "E " not in got["all.tr"]
    kinds = {x.split()[5] for x in got["ev.tr"].splitlines()}
    assert {"NEWRENO_FAST_RETX", "NEWRENO_FAST_RECOVERY"} <= kinds, kinds
