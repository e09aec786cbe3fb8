"""ns-2.35's `ErrorModel` with `delay_pkt_ true` (queue/errmodel.cc `ErrorModel::recv`: the
packet the model takes is scheduled to the model's target `delay_` seconds later instead of
being dropped; the engine's loss model `delay`). Live against ns-2.35: a TCP flow whose chosen
packets an ErrorModel/List or /Periodic in an ErrorModule at a link's entry delays, so that
they arrive out of order; the packet trace (a delayed packet's `+` line comes `delay_` later:
ns-2's module sits before the link's enqueue trace) and the traced cwnd_ must be identical.
A delaying model after the link (`$ns link-lossmodel`), or one with `delay_ 0` (which ns-2
schedules at once, behind the events of that time), is refused in one line.

Not here: a NewReno sender whose partial-ACK deflation takes cwnd_ below one
(`NewRenoTcpAgent::partialnewack`: `cwnd_ -= ...`, then `cwnd_ = 1`) writes cwnd_ twice and
ns-2's trace shows both values (0.169, then 1.000), the engine's only the second; reordering
with a delayed-ACK sink brings it about.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

SCRIPT = """
    set ns [new Simulator]
    $ns trace-all [open out.tr w]
    set n0 [$ns node]
    set n1 [$ns node]
    set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 2ms DropTail
    $ns duplex-link $n1 $n2 1.5Mb 10ms DropTail
    $ns queue-limit $n1 $n2 20
    set tcp [new Agent/TCP/{sender}]
    $tcp set window_ 30
    $tcp set fid_ 1
    set sink [new Agent/{sink}]
    $ns attach-agent $n0 $tcp
    $ns attach-agent $n2 $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    set em [new ErrorModule Fid]
    $ns {where} $em $n1 $n2
    {model}
    $em insert $m
    $em bind $m 1
    $m set delay_pkt_ true
    $m set delay_ {delay}
    set cf [open cwnd.tr w]
    $tcp attach $cf
    $tcp trace cwnd_
    $ns at 0 "$ftp start"
    $ns at 4 {{close $cf; exit 0}}
    $ns run
"""

LIST = "set m [new ErrorModel/List]; $m droplist {4 30 31 60}"
PERIODIC = ("set m [new ErrorModel/Periodic]; $m unit pkt; $m set offset_ 20;"
            " $m set period_ 50")


@pytest.mark.parametrize(("sender", "sink", "model", "delay"), [
    ("Reno", "TCPSink", LIST, "0.05"),
    ("Newreno", "TCPSink", PERIODIC, "0.02"),
    ("Reno", "TCPSink/DelAck", PERIODIC, "0.02"),
    ("Sack1", "TCPSink/Sack1", LIST, "0.3"),
])
def test_delay_pkt_delays_instead_of_dropping_as_ns2(vs_ns2: Any, sender: str, sink: str,
                                                     model: str, delay: str) -> None:
    both = vs_ns2(SCRIPT.format(sender=sender, sink=sink, model=model, delay=delay,
                                where="lossmodel"))
    both.same("cwnd.tr", "out.tr")
    trace = [line.split() for line in both.ns.file("out.tr").splitlines()]
    entered = [f for f in trace if f[0] == "+" and f[2:4] == ["1", "2"] and f[4] == "tcp"]
    # Some enter the link out of order: the ones the model delayed.
    seqs = [int(f[10]) for f in entered]
    assert any(b < a for a, b in zip(seqs, seqs[1:], strict=False))


@pytest.mark.parametrize(("where", "delay"), [("link-lossmodel", "0.1"), ("lossmodel", "0")])
def test_delay_pkt_not_supported(ns2: Callable[..., Any], where: str, delay: str) -> None:
    r = ns2(SCRIPT.format(sender="Reno", sink="TCPSink", model=LIST, delay=delay,
                          where=where))
    assert r.code == 2
    assert "delay_pkt_" in r.err and "not supported" in r.err
    assert len(r.err.strip().splitlines()) == 1
