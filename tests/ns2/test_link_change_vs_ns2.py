"""ns-2.35's `$ns bandwidth` and `$ns delay` during the run (tcl/lib/ns-lib.tcl: they set the
link's `DelayLink` `bandwidth_` / `delay_` at once; `[$link link] set bandwidth_` does the
same). `LinkDelay::recv` (link/delay.cc) reads both as each packet starts its transmission,
so the packets on the line keep their times and the waiting ones take the new values; a
shorter delay lets later packets overtake those already on the line (ns-2 reorders them).
A DropTail queue's `limit_` during the run (`$ns queue-limit`, `$queue set limit_`:
`DropTail::enque` reads it at each arrival) and `$queue shrink-queue` (`DropTail::shrink_queue`:
the packets beyond it dropped from the tail). Live against ns-2.35: the packet trace and the
traced cwnd_ must be identical, with packets waiting in the queue at the change, and with
reordering.

Not here: Sack1 with that reordering: the packet trace is identical until ns-2's
retransmission timeout, which fires 20 ms before the engine's (a Sack1 sender difference
after reordered ACKs, not the link's). `DelayLink avoidReordering_ true`
(ns-2's guard against that reordering) is refused in one line.
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
    $ns duplex-link $n1 $n2 1Mb 20ms DropTail
    $ns queue-limit $n1 $n2 15
    set tcp [new Agent/TCP/{sender}]
    $tcp set window_ 40
    set sink [new Agent/{sink}]
    $ns attach-agent $n0 $tcp
    $ns attach-agent $n2 $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    set cf [open cwnd.tr w]
    $tcp attach $cf
    $tcp trace cwnd_
    $ns at 0 "$ftp start"
    {changes}
    $ns at 5 {{close $cf; exit 0}}
    $ns run
"""

CHANGES = {
    # Packets wait at each change: their transmissions take the new rate.
    "bandwidth": ('$ns at 1.0 "$ns bandwidth $n1 $n2 300kb duplex";'
                  ' $ns at 2.5 "$ns bandwidth $n1 $n2 2Mb"'),
    # Longer, then shorter: packets sent after 3.0 overtake those on the line.
    "delay": ('$ns at 1.0 "$ns delay $n1 $n2 200ms duplex";'
              ' $ns at 3.0 "$ns delay $n1 $n2 5ms duplex"'),
    # Through the DelayLink object, at time 0 (the friendly suite's way) and later.
    # DropTail's limit_ lowered: the packets waiting stay (change_queue), or with
    # shrink-queue those beyond it are dropped from the tail, traced (queue_shrink); then
    # raised again through the queue object.
    "limit": ('$ns at 0.45 "$ns queue-limit $n1 $n2 4";'
              ' $ns at 1.5 "[[$ns link $n1 $n2] queue] set limit_ 30";'
              ' $ns at 2.2 "$ns queue-limit $n1 $n2 2; [[$ns link $n1 $n2] queue] shrink-queue"'),
    "delaylink": ('$ns at 0.0 "[[$ns link $n1 $n2] link] set bandwidth_ 500kb";'
                  ' $ns at 1.7 "[[$ns link $n1 $n2] link] set delay_ 1ms";'
                  ' $ns at 1.9 "$ns bandwidth $n1 $n2 4Mb"'),
}


@pytest.mark.parametrize(("sender", "sink", "change"), [
    ("Reno", "TCPSink", "bandwidth"),
    ("Reno", "TCPSink", "delay"),
    ("Newreno", "TCPSink/DelAck", "delay"),
    ("Reno", "TCPSink", "delaylink"),
    ("Reno", "TCPSink", "limit"),
    ("Sack1", "TCPSink/Sack1", "limit"),
])
def test_link_changes_during_the_run_as_ns2(vs_ns2: Any, sender: str, sink: str,
                                            change: str) -> None:
    both = vs_ns2(SCRIPT.format(sender=sender, sink=sink, changes=CHANGES[change]))
    both.same("cwnd.tr", "out.tr")
    if change == "delay":
        # The shorter delay reorders: a data packet reaches n2 before one sent earlier.
        trace = [line.split() for line in both.ns.file("out.tr").splitlines()]
        got = [int(f[10]) for f in trace
               if f[0] == "r" and f[2:4] == ["1", "2"] and f[4] == "tcp"]
        assert any(b < a for a, b in zip(got, got[1:], strict=False))
    if change == "limit":
        # shrink-queue drops at 2.2 s, several packets at one instant.
        trace = [line.split() for line in both.ns.file("out.tr").splitlines()]
        assert sum(1 for f in trace if f[0] == "d" and f[1] == "2.2") > 1


def test_avoid_reordering_not_supported(ns2: Callable[..., Any]) -> None:
    r = ns2("DelayLink set avoidReordering_ true\n"
            + SCRIPT.format(sender="Reno", sink="TCPSink", changes=CHANGES["delay"]))
    assert r.code == 2
    assert "avoidReordering_" in r.err and "not supported" in r.err
    assert len(r.err.strip().splitlines()) == 1
