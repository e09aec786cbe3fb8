"""ns-2.35's one-way agents answering ECN-Echo at a window of one segment (tcp/tcp.cc):

- `TcpAgent::slowdown` halves cwnd_ with no floor of one (`precisionReduce_`: half a segment),
  so the agent sends nothing until its retransmission timer fires (`TcpAgent::timeout` raises
  cwnd_ to one);
- `TcpAgent::ecn` backs the timer off from the second such reduction in a row on
  (`ecn_backoff_`), and `TcpAgent::newack` ends no backoff while ACKs carry ECN-Echo;
- `TcpSink::ack` stops echoing on a segment with the congestion-action mark, which every
  window reduction sets (a timeout's too), not only an ECN one;
- `RenoTcpAgent::windowd`: an ECN-Echo during fast recovery halves cwnd_ + dupwnd_.

Live against ns-2.35: ECN flows whose packets an ErrorModel/List marks (`markecn_`) through a
RED bottleneck; the packet trace (but for the ECN negotiation's flags on segment 0 and its ACK,
test_ecn_vs_ns2.py) and the traced cwnd_ must be identical."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
    set ns [new Simulator]
    $ns trace-all [open out.tr w]
    set n0 [$ns node]
    set n1 [$ns node]
    set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 2ms DropTail
    $ns duplex-link $n1 $n2 1.5Mb 20ms RED
    set tcp [new Agent/TCP{sender}]
    $tcp set ecn_ 1
    $tcp set window_ 30
    $tcp set fid_ 1
    set sink [new Agent/{sink}]
    $ns attach-agent $n0 $tcp
    $ns attach-agent $n2 $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    set em [new ErrorModule Fid]
    [$ns link {marked}] errormodule $em
    set m [new ErrorModel/List]
    $m droplist {{{marks}}}
    $em insert $m
    $em bind $m 1
    $m set markecn_ true
    set em2 [new ErrorModule Fid]
    [$ns link {dropped}] errormodule $em2
    set m2 [new ErrorModel/List]
    $m2 droplist {{{drops}}}
    $em2 insert $m2
    $em2 bind $m2 1
    set cf [open cwnd.tr w]
    $tcp attach $cf
    $tcp trace cwnd_
    $ns at 0 "$ftp start"
    $ns at 8 {{close $cf; exit 0}}
    $ns run
"""


TAIL = "$n1 $n2", "$n0 $n1"  # marks at the bottleneck, drops (if any) before it


@pytest.mark.parametrize(("sender", "sink", "marks", "drops", "links", "shows"), [
    # Segments 1 and 3 marked: the window falls 2 -> 1 -> 0.5 and waits for the timer.
    ("", "TCPSink", "1 3", "", TAIL, "0.500"),
    # Marks at a window of one, again and again: the timer backed off each time (waits of
    # 0.25 s, 0.31 s, 0.64 s).
    ("", "TCPSink/DelAck", "4 8 9 11 12 13 14 15", "", TAIL, "0.625"),
    ("/Reno", "TCPSink", "4 8 9 11 12 13 14 15", "", TAIL, "0.625"),
    # Reno marked while it recovers from segment 6's loss: 2.5 + 3 halved to 2.75. (The marks
    # come before the drop: ackclock's drop list numbers the flow's transmissions, which
    # are the packets an ns-2 list model sees only when none was lost before it.)
    ("/Reno", "TCPSink", "4 8 9 11 12 13", "6", ("$n0 $n1", "$n1 $n2"), "2.750"),
])
def test_ecn_at_a_window_of_one_as_ns2(vs_ns2: Any, sender: str, sink: str, marks: str,
                                       drops: str, links: tuple[str, str], shows: str) -> None:
    both = vs_ns2(SCRIPT.format(sender=sender, sink=sink, marks=marks, drops=drops,
                                marked=links[0], dropped=links[1]))
    want = both.same("cwnd.tr")
    ours = negotiation_apart(both.ac.file("out.tr"))
    assert ours == negotiation_apart(both.ns.file("out.tr"))
    # The rule is exercised: the window the rule gives is among ns-2's.
    assert any(line.split()[-1] == shows for line in want["cwnd.tr"].splitlines())


def negotiation_apart(trace: str) -> list[list[str]]:
    """The trace's fields, without the flags of segment 0 and its ACK."""
    return [f[:6] + f[7:] if f[10] == "0" else f for f in map(str.split, trace.splitlines())]
