"""`$node agent PORT` (ns-2.35 tcl/lib/ns-node.tcl, `Node instproc agent`): the agent attached
to the node at that port, or the empty string. ns-2's suites reach a sink this way to set its
variables (`[$node agent [$tcp dst-port]] set interval_ 100ms`). Live against ns-2.35: what it
prints, and the packet trace of a delayed-ACK sink changed through it."""

from __future__ import annotations

from typing import Any

SCRIPT = """
    set ns [new Simulator]
    $ns trace-all [open out.tr w]
    set n0 [$ns node]
    set n1 [$ns node]
    $ns duplex-link $n0 $n1 2Mb 20ms DropTail
    set tcp [$ns create-connection TCP/Reno $n0 TCPSink/DelAck $n1 1]
    set udp [new Agent/UDP]
    $ns attach-agent $n1 $udp
    set sink [$n1 agent [$tcp dst-port]]
    puts "sink [$sink info class] port [$tcp dst-port]"
    puts "udp [[$n1 agent [$udp port]] info class] none '[$n1 agent 7]' '[$n0 agent 1]'"
    puts "tcp [[$n0 agent [$tcp port]] info class]"
    $sink set interval_ 50ms
    set ftp [$tcp attach-app FTP]
    $ns at 0 "$ftp start"
    $ns at 2 "exit 0"
    $ns run
"""


def test_node_agent_finds_the_agent_at_a_port_as_ns2(vs_ns2: Any) -> None:
    both = vs_ns2(SCRIPT)
    both.same("out.tr")
    assert "sink Agent/TCPSink/DelAck" in both.ns.out
    assert "none '' ''" in both.ns.out
