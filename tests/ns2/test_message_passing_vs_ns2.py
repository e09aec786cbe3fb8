"""Agent/MessagePassing (ns-2.35 common/messpass.cc, `MessagePassingAgent::command` sendto,
`sendto`, `recv`): agents attached at a port of their own (`$node attach $agent $port`), not
connected, flooding a message to their neighbours from the script's `recv SADDR SPORT SIZE DATA`
at each arrival (callbacks.py on the engine's host flows, to any node). Live against ns-2.35:
the packet and nam traces and the printout, with a sendto without data and one above packetSize_."""

from __future__ import annotations

from typing import Any

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set nf [open out.nam w]
$ns namtrace-all $nf
set PORT 7
Class Agent/MessagePassing/Gossip -superclass Agent/MessagePassing
Agent/MessagePassing/Gossip instproc tell {size data} {
    global PORT
    $self instvar node_
    foreach x [$node_ neighbors] {
        $self sendto $size $data [$x node-addr] $PORT
    }
}
Agent/MessagePassing/Gossip instproc recv {source sport size data} {
    global ns
    $self instvar node_ seen
    puts "[$ns now] [$node_ node-addr] from $source.$sport size $size {$data}"
    if {[lsearch $seen $data] == -1} {
        lappend seen $data
        $self tell [expr $size - 10] $data
    }
}
for {set i 0} {$i < 6} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 1Mb 10ms DropTail
$ns duplex-link $n(1) $n(2) 1Mb 10ms DropTail
$ns duplex-link $n(2) $n(3) 0.5Mb 5ms DropTail
$ns duplex-link $n(3) $n(0) 1Mb 20ms DropTail
$ns duplex-link $n(2) $n(4) 1Mb 2ms DropTail
$ns duplex-link $n(4) $n(5) 1Mb 2ms DropTail
for {set i 0} {$i < 6} {incr i} {
    set a($i) [new Agent/MessagePassing/Gossip]
    $n($i) attach $a($i) $PORT
    $a($i) set seen {}
}
$ns at 0.1 "$a(0) tell 500 hello"
$ns at 0.15 "$a(5) tell 300 {second one}; $a(5) sendto 2000 {too big} 4 $PORT"
$ns at 0.2 "$a(3) sendto 120 0 $PORT"
$ns at 2.0 "$ns flush-trace; close $tr; close $nf; exit 0"
$ns run
"""


def test_message_passing_as_ns2(vs_ns2: Any) -> None:
    both = vs_ns2(SCRIPT)
    want = both.same("out.tr", "out.nam")
    # The nodes in the nam header as ns-2 lists them (Simulator instproc dump-namnodes:
    # `array names Node_`, Tcl's hash order).
    assert [line.split()[4] for line in want["out.nam"].splitlines()
            if line.startswith("n -t *")] == ["4", "0", "5", "1", "2", "3"]
    assert both.ns.out.count(" from ") == 40
    assert sum(" message " in line for line in want["out.tr"].splitlines()) > 100
