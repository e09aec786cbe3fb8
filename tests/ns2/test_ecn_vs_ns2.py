"""ECN as ns-2.35's one-way agents run it (tcp/tcp.cc `TcpAgent::ecn`,
`TcpAgent::recv_newack_helper`, `TcpAgent::timeout`, the agents' `dupack_action`; the engine's
`ns2_ecn`): one reduction per window beyond `recover_` (shared with loss recovery), no window
growth on ACKs carrying ECN-Echo once the ECN negotiation's ACK has come (or, with `old_ecn_
1`, within a burst of them), a loss after an ECN reduction retransmitted without a second
one. Live against ns-2.35: packet trace (without its flags column, where ns-2 writes the
negotiation's ECN-Echo on segment 0) and the traced `cwnd_` must be identical."""

from __future__ import annotations

from typing import Any

import pytest

# One ECN flow through a RED bottleneck that marks often and drops at its limit.
SCRIPT = """
    Agent/TCP set ecn_ 1
    Agent/TCP set old_ecn_ OLD
    Queue/RED set setbit_ true
    Queue/RED set thresh_ 3
    Queue/RED set maxthresh_ 8
    Queue/RED set q_weight_ 0.02
    Queue/RED set bytes_ false
    Queue/RED set queue_in_bytes_ false
    set ns [new Simulator]
    set tf [open out.tr w]
    $ns trace-all $tf
    set n0 [$ns node]
    set n1 [$ns node]
    set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 2ms DropTail
    $ns duplex-link $n1 $n2 1.5Mb 20ms RED
    $ns queue-limit $n1 $n2 25
    set tcp [$ns create-connection AGENT $n0 SINK $n2 0]
    $tcp set window_ 40
    set cf [open cwnd.tr w]
    $tcp attach $cf
    $tcp trace cwnd_
    $tcp trace ssthresh_
    set ftp [$tcp attach-app FTP]
    $ns at 0.0 "$ftp start"
    $ns at 3.0 "close $tf; close $cf; exit 0"
    $ns run
"""


def without_flags(trace: str) -> list[list[str]]:
    return [line.split()[:6] + line.split()[7:] for line in trace.splitlines()]


@pytest.mark.parametrize("agent,sink", [("TCP", "TCPSink"), ("TCP/Reno", "TCPSink"),
                                        ("TCP/Newreno", "TCPSink"),
                                        ("TCP/Sack1", "TCPSink/Sack1")])
@pytest.mark.parametrize("old", ["0", "1"])
def test_ecn_as_ns2(vs_ns2: Any, agent: str, sink: str, old: str) -> None:
    both = vs_ns2(SCRIPT.replace("AGENT", agent).replace("SINK", sink).replace("OLD", old))
    want = both.same("cwnd.tr")["cwnd.tr"]
    assert without_flags(both.ac.file("out.tr")) == without_flags(both.ns.file("out.tr"))
    # ECN-Echoes, reductions and drops all happen.
    assert both.ns.file("out.tr").count("\nd ") > 3
    assert want.count("ssthresh_") > 3
