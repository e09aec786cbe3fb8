"""ns-2.35's `ErrorModel` with `markecn_ true` (queue/errmodel.cc `ErrorModel::recv`): the
packets the model takes are marked CE and go on instead of being dropped (the engine's loss
model `mark_ecn`). Live against ns-2.35: an ECN Reno flow whose chosen packets an
ErrorModel/List or /Periodic in an ErrorModule marks; the packet trace (the marked packets
`----E-N` from their `+` on: ns-2's module sits before the link's enqueue trace) and the
traced cwnd_ must be identical, but for the flags of segment 0 and its ACK, where ns-2 writes
the ECN negotiation (test_ecn_vs_ns2.py). `delay_pkt_ true`: test_delay_pkt_vs_ns2.py."""

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
    $ns duplex-link $n1 $n2 1.5Mb 10ms RED
    set tcp [new Agent/TCP/{sender}]
    $tcp set ecn_ 1
    $tcp set window_ 30
    $tcp set fid_ 1
    set sink [new Agent/TCPSink]
    $ns attach-agent $n0 $tcp
    $ns attach-agent $n2 $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    set em [new ErrorModule Fid]
    [$ns link $n1 $n2] errormodule $em
    {model}
    $em insert $m
    $em bind $m 1
    $m set markecn_ true
    set cf [open cwnd.tr w]
    $tcp attach $cf
    $tcp trace cwnd_
    $ns at 0 "$ftp start"
    $ns at 3 {{close $cf; exit 0}}
    $ns run
"""

LIST = "set m [new ErrorModel/List]; $m droplist {4 30 31 60}"
PERIODIC = ("set m [new ErrorModel/Periodic]; $m unit pkt; $m set offset_ 20;"
            " $m set period_ 50")


@pytest.mark.parametrize(("sender", "model"), [("Reno", LIST), ("Newreno", PERIODIC)])
def test_markecn_marks_instead_of_dropping_as_ns2(vs_ns2: Any, sender: str, model: str) -> None:
    both = vs_ns2(SCRIPT.format(sender=sender, model=model))
    want = both.same("cwnd.tr")
    want["out.tr"] = both.ns.file("out.tr")
    assert negotiation_apart(both.ac.file("out.tr")) == negotiation_apart(want["out.tr"])
    marked = [line for line in want["out.tr"].splitlines()
              if line.startswith("+ ") and " 1 2 tcp " in line and "E" in line.split()[6]]
    assert len(marked) >= 3
    # Each marked packet crosses the link (the module lets it pass).
    received = {line.split()[11] for line in want["out.tr"].splitlines()
                if line.startswith("r ") and " 1 2 tcp " in line}
    assert all(line.split()[11] in received for line in marked)


def negotiation_apart(trace: str) -> list[list[str]]:
    """The trace's fields, without the flags of segment 0 and its ACK."""
    return [f[:6] + f[7:] if f[10] == "0" else f for f in map(str.split, trace.splitlines())]
