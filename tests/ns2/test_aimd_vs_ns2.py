"""ns-2.35's AIMD parameters on one-way agents (windowOption_ 1): `increase_num_` a/cwnd per
ACK in congestion avoidance (TcpAgent::opencwnd) and `decrease_num_` b of the window kept on
a reduction (TcpAgent::slowdown), whose first reduction, one in slow start and a timeout's
ssthresh_ halve the window anyway (the engine's Reno `increase`/`decrease` and
`ns2_first_decrease`). Live against ns-2.35: the packet trace and the traced cwnd_ and
ssthresh_ must be identical, with precisionReduce_ on and off (fast retransmits and a timeout
among the losses of a 12-packet bottleneck queue)."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
    Agent/TCP set precisionReduce_ {precise}
    Agent/TCP set increase_num_ 0.41
    Agent/TCP set decrease_num_ 0.75
    set ns [new Simulator]
    $ns trace-all [open out.tr w]
    set n0 [$ns node]
    set n1 [$ns node]
    set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 5ms DropTail
    $ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
    $ns queue-limit $n1 $n2 12
    set tcp [new Agent/{sender}]
    set sink [new Agent/{sink}]
    $tcp set window_ 40
    $ns attach-agent $n0 $tcp
    $ns attach-agent $n2 $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    set cf [open cwnd.tr w]
    $tcp attach $cf
    $tcp trace cwnd_
    $tcp trace ssthresh_
    $ns at 0 "$ftp start"
    $ns at 12 {{puts "[$tcp set nrexmit_] [$tcp set ack_]"; close $cf; exit 0}}
    $ns run
"""


@pytest.mark.parametrize(("sender", "sink", "precise"), [
    ("TCP", "TCPSink", "true"),
    ("TCP/Reno", "TCPSink", "false"),  # a timeout among the fast retransmits
    ("TCP/Newreno", "TCPSink", "true"),
    ("TCP/Sack1", "TCPSink/Sack1", "false"),
])
def test_aimd_parameters_as_ns2(vs_ns2: Any, sender: str, sink: str, precise: str) -> None:
    want = vs_ns2(SCRIPT.format(sender=sender, sink=sink, precise=precise)).same(
        "out.tr", "cwnd.tr")
    cuts = [float(line.split()[-1]) for line in want["cwnd.tr"].splitlines()
            if "ssthresh_" in line]
    # Several reductions, and later ones keep more than half (decrease_num_ 0.75).
    assert len(cuts) >= 4
    assert sum(1 for line in want["out.tr"].splitlines() if line.startswith("d ")) >= 20
