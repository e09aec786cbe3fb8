"""Agent/UDP sending application data (ns-2.35 apps/udp.cc, `UdpAgent::command` send and
sendmsg, `UdpAgent::sendmsg`, `UdpAgent::recv`): the datagram's arrival calls the script's
`process_data FROM DATA` at its own time (a subclass's here; ns-default.tcl's does nothing),
which sends again and schedules (callbacks.py on the engine's host flows). Live against
ns-2.35: packet and nam traces and the printout, with CBR cross traffic from another UDP
agent into a UDP agent, data to a UDP agent without process_data and to an Agent/Null, and
ns-2's error lines for data above packetSize_ and a size of -1."""

from __future__ import annotations

from typing import Any

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set nf [open out.nam w]
$ns namtrace-all $nf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n1 2Mb 5ms DropTail
$ns duplex-link $n1 $n2 0.3Mb 15ms DropTail
$ns duplex-link $n3 $n1 2Mb 2ms DropTail
$ns queue-limit $n1 $n2 6
set src [new Agent/UDP]
$ns attach-agent $n3 $src
set sink [new Agent/UDP]
$ns attach-agent $n2 $sink
$ns connect $src $sink
set cbr [$src attach-app Traffic/CBR]
$cbr set rate_ 0.25Mb
$cbr set packetSize_ 400
Class Agent/UDP/Echo -superclass Agent/UDP
Agent/UDP/Echo instproc process_data {from data} {
    global ns
    $self instvar node_
    puts "[$ns now] [$node_ id] got {$data} from $from"
    if {[regexp {count ([0-9]+)} $data all n] && $n > 0} {
        $self send [expr 100 + 37 * $n] "count [expr $n - 1]"
        if {$n == 3} { $ns at [expr [$ns now] + 0.02] "$self send 200 {later}" }
    }
}
set a [new Agent/UDP/Echo]
$a set packetSize_ 500
$a set fid_ 2
$ns attach-agent $n0 $a
set b [new Agent/UDP/Echo]
$ns attach-agent $n2 $b
$ns connect $a $b
set c [new Agent/UDP]
$ns attach-agent $n0 $c
set d [new Agent/UDP]
$ns attach-agent $n3 $d
$ns connect $c $d
set e [new Agent/UDP]
$ns attach-agent $n3 $e
set null [new Agent/Null]
$ns attach-agent $n0 $null
$ns connect $e $null
$ns at 0.1 "$cbr start"
$ns at 0.2 "$a send 300 {count 6}"
$ns at 0.25 "$b sendmsg 500 {count 2} NEW_BURST"
$ns at 0.3 "$a send 501 {too big}; $a send -1 {minus one}"
$ns at 0.35 "$c send 80 {nobody listens}; $e send 90 {to a null}"
$ns at 0.4 "$b send 1000 {count 1}"
$ns at 1.0 "$ns flush-trace; close $tr; close $nf; exit 0"
$ns run
"""


def test_udp_data_as_ns2(vs_ns2: Any) -> None:
    both = vs_ns2(SCRIPT)
    want = both.same("out.tr", "out.nam")
    assert both.ns.out.count(" got {") == 13
    assert both.ns.out.endswith("Error: data greater than maximum UDP packet size\n"
                                "Error:  sendmsg() for UDP should not be -1\n")
    assert sum(" udp " in line for line in want["out.tr"].splitlines()) > 80


def test_data_over_a_udp_agent_with_an_application_is_not_supported(ns2: Any) -> None:
    run = ns2(SCRIPT.replace('$ns at 0.2 "$a send 300 {count 6}"', '$ns at 0.2 "$src send 3 x"'),
              name="s.tcl")
    assert run.code == 2
    assert run.err.strip() == ("ackclock: error: s.tcl:56: Agent/UDP send with data on an agent"
                               " with an application (Application/Traffic/CBR) is not supported"
                               " by ackclock yet")
