"""Agent/Ping (ns-2.35 apps/ping.cc, `PingAgent::command` send and oneway, `PingAgent::recv`):
the echo's arrival calls the script's `Agent/Ping instproc recv` at its own time, and what the
procedure sends or schedules goes on from there (ackclock's host flows,
crates/ackclock-core/src/sim/host_datagrams.rs). Live against ns-2.35: packet and nam traces
and the printed round-trip times with CBR cross traffic, a subclass with one-way delays that
pings again from its recv, and the run going on after the last `$ns at` while echoes are on
their way; the greis suite's ping tests."""

from __future__ import annotations

from typing import Any

CROSS = """
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
$ns duplex-link $n1 $n2 0.5Mb 20ms DropTail
$ns duplex-link $n3 $n1 2Mb 3ms DropTail
$ns queue-limit $n1 $n2 8
set udp [new Agent/UDP]
$ns attach-agent $n3 $udp
set null [new Agent/Null]
$ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set rate_ 0.45Mb
$cbr set packetSize_ 500
Agent/Ping instproc recv {from rtt} {
    global ns count
    $self instvar node_
    puts "[$ns now] node [$node_ id] got an answer from $from: rtt $rtt ms"
    incr count
    if {$count < 6} {
        $ns at [expr [$ns now] + 0.013] "$self send"
    }
    if {$count == 3} { $self send }
}
set count 0
set p0 [new Agent/Ping]
$p0 set packetSize_ 100
$p0 set fid_ 3
$ns attach-agent $n0 $p0
set p1 [new Agent/Ping]
$ns attach-agent $n2 $p1
$ns connect $p0 $p1
$ns at 0.1 "$cbr start"
$ns at 0.2 "$p0 send"
$ns at 0.25 "$p1 send; $p0 send"
$ns at 0.5 "$p1 send"
$ns at 1.5 "$ns flush-trace; close $tr; close $nf; exit 0"
$ns run
"""

ONE_WAY = """
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns simplex-link $n0 $n1 1Mb 30ms DropTail
$ns simplex-link $n1 $n0 1Mb 10ms DropTail
$ns duplex-link $n1 $n2 0.1Mb 5ms DropTail
Class Agent/Ping/Counted -superclass Agent/Ping
Agent/Ping/Counted instproc recv {from seq fwd back} {
    global ns
    $self instvar node_ got
    incr got
    puts "[$ns now] [$node_ id] from $from seq $seq forward $fwd back $back got $got"
    if {$got < 3} { $self send }
}
set p0 [new Agent/Ping/Counted]
$p0 set got 0
$p0 oneway
$ns attach-agent $n0 $p0
set p1 [new Agent/Ping/Counted]
$p1 set got 0
$p1 oneway
$p1 set packetSize_ 300
$ns attach-agent $n2 $p1
$ns connect $p0 $p1
$ns at 0.1 "$p0 send; $p0 send"
$ns at 0.1 "$p1 send"
$ns run
puts "done at [$ns now]"
"""


def test_ping_with_cross_traffic_as_ns2(vs_ns2: Any) -> None:
    both = vs_ns2(CROSS)
    want = both.same("out.tr", "out.nam")
    assert both.ns.out.count("got an answer") == 10
    assert sum(" ping 100 " in line for line in want["out.tr"].splitlines()) > 20


def test_one_way_ping_and_the_run_after_the_last_script_as_ns2(vs_ns2: Any) -> None:
    both = vs_ns2(ONE_WAY)
    both.same()
    # Replies printed after the last `$ns at`: ns-2 runs on while packets are on their way.
    assert both.ns.out.count(" seq ") == 7
    assert both.ns.out.endswith("done at 0.35269600000000007\n")


def test_ping_to_another_kind_of_agent_is_not_supported(ns2: Any) -> None:
    run = ns2("""
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set p [new Agent/Ping]
$ns attach-agent $n0 $p
set null [new Agent/Null]
$ns attach-agent $n1 $null
$ns connect $p $null
$ns at 0.1 "$p send"
$ns run
""", name="s.tcl")
    assert run.code == 2
    assert run.err.strip() == ("ackclock: error: s.tcl:5: Agent/Ping connected to Agent/Null"
                               " (only to another Agent/Ping) is not supported by ackclock"
                               " yet")
