"""ns-2.35's `Delayer` (queue/delayer.cc), put between a link's queue and its line by `$ns
insert-delayer` (tcl/lib/ns-queue.tcl): it holds one packet beyond the queue's limit_ while
the line is busy; `block` / `unblock` hold the line (a delay spike); `spike $int $len` makes
spikes of random length at random intervals (`SpikeTimer::expire`, values drawn from the
RandomVariable objects given). Live against ns-2.35: the packet trace and the traced cwnd_
must be identical, with drops of a full queue behind a blocked line. `alloc` (channel
allocation delay) and a Delayer on a RED queue are refused in one line.

Not here: Sack1 behind a blocked line: the packet trace is identical until ns-2's
retransmission timeout, which fires 200 ms before the engine's (a Sack1 sender difference,
as in test_link_change_vs_ns2.py, not the Delayer's).
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
    $ns duplex-link $n1 $n2 1Mb 20ms {queue}
    $ns queue-limit $n1 $n2 {limit}
    set tcp [new Agent/TCP/{sender}]
    $tcp set window_ 30
    set sink [new Agent/{sink}]
    $ns attach-agent $n0 $tcp
    $ns attach-agent $n2 $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    set d [new Delayer]
    $ns insert-delayer $n1 $n2 $d
    {delayer}
    set cf [open cwnd.tr w]
    $tcp attach $cf
    $tcp trace cwnd_
    $ns at 0 "$ftp start"
    $ns at 6 {{close $cf; exit 0}}
    $ns run
"""

BLOCK = ('$ns at 1.0 "$d block"; $ns at 1.6 "$d unblock"; $ns at 3.3 "$d block";'
         ' $ns after 3.9 "$d unblock"')
SPIKES = ("set len [new RandomVariable/Exponential]; $len set avg_ 0.2;"
          " set int [new RandomVariable/Exponential]; $int set avg_ 0.7; $d spike $int $len")


@pytest.mark.parametrize(("sender", "sink", "limit", "delayer"), [
    ("Reno", "TCPSink", "10", BLOCK),
    ("Newreno", "TCPSink", "6", BLOCK),
    ("Newreno", "TCPSink/DelAck", "10", SPIKES),
    ("Reno", "TCPSink", "20", ""),
])
def test_delayer_as_ns2(vs_ns2: Any, sender: str, sink: str, limit: str,
                        delayer: str) -> None:
    both = vs_ns2(SCRIPT.format(sender=sender, sink=sink, limit=limit, delayer=delayer,
                                queue="DropTail"))
    both.same("cwnd.tr", "out.tr")
    if delayer == BLOCK:
        # Nothing leaves n1 towards n2 while the line is blocked (after the packet on it).
        trace = [line.split() for line in both.ns.file("out.tr").splitlines()]
        starts = [float(f[1]) for f in trace if f[0] == "-" and f[2:4] == ["1", "2"]]
        assert not [t for t in starts if 1.02 < t < 1.6]


@pytest.mark.parametrize(("queue", "delayer", "what"), [
    ("DropTail", "$d alloc [new RandomVariable/Uniform] [new RandomVariable/Uniform]",
     "alloc"),
    ("RED", "", "only DropTail"),
])
def test_delayer_not_supported(ns2: Callable[..., Any], queue: str, delayer: str,
                               what: str) -> None:
    r = ns2(SCRIPT.format(sender="Reno", sink="TCPSink", limit="10", delayer=delayer,
                          queue=queue))
    assert r.code == 2
    assert what in r.err and "not supported" in r.err
    assert len(r.err.strip().splitlines()) == 1
