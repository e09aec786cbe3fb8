"""Links going down and up (``$ns rtmodel-at``) with static routing, against ns-2.35: the
packets a link holds when it goes down are dropped (``d`` lines: the queue's, then those on
the line), what reaches it while it is down is lost untraced, each model writes its
``link-down``/``link-up`` lines into the packet trace and the nam trace, and routes stay as
they were (python/ackclock/ns2/dynamics.py)."""

from __future__ import annotations

from collections.abc import Callable

from conftest import Both

# A square: 0-1-2-3-0. Static routes send 0 -> 2 through 1; the link 1-2 fails for a second.
SQUARE = """
set ns [new Simulator]
set nf [open out.nam w]
$ns namtrace-all $nf
set tf [open out.tr w]
$ns trace-all $tf
for {set i 0} {$i < 4} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 1Mb 10ms DropTail
$ns duplex-link $n(1) $n(2) 1Mb 10ms DropTail
$ns duplex-link $n(2) $n(3) 1Mb 10ms DropTail
$ns duplex-link $n(0) $n(3) 1Mb 10ms DropTail
set udp [new Agent/UDP]
$ns attach-agent $n(0) $udp
set mon [new Agent/LossMonitor]
$ns attach-agent $n(2) $mon
$ns connect $udp $mon
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set interval_ 0.005
$cbr attach-agent $udp
$ns rtmodel-at 1.0 down $n(1) $n(2)
$ns rtmodel-at 2.0 up $n(1) $n(2)
$ns at 0.5 "$cbr start"
$ns at 3.0 "$cbr stop"
proc report {} {
    global mon ns n
    puts "[$mon set npkts_] [$mon set nlost_] [$mon set expected_] [$mon set lastPktTime_]"
    puts "[[$ns link $n(1) $n(2)] up?]"
}
proc finish {} {
    global ns nf tf
    $ns flush-trace
    close $nf
    close $tf
    exit 0
}
$ns at 1.5 "report"
$ns at 3.5 "report"
$ns at 3.5 "finish"
$ns run
"""


def test_a_link_down_for_a_second_loses_what_it_carries_as_in_ns2(
        vs_ns2: Callable[..., Both]) -> None:
    both = vs_ns2(SQUARE)
    want = both.same("out.tr", "out.nam")
    trace = want["out.tr"].splitlines()
    # Each of the two models traces each change on both directions.
    assert trace.count("v 1 link-down 1 2") == 2
    assert trace.count("v 2 link-up 2 1") == 2
    drops = [x for x in trace if x.startswith("d ")]
    assert len(drops) == 3  # those on the line at 1.0; the rest are lost untraced
    assert both.ns.out.splitlines()[1] == "down"
    assert "l -t 1 -s 1 -d 2 -S DOWN" in want["out.nam"]


BACKLOG = """
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 5ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 20
set tcp [new Agent/TCP/Reno]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set mon [new Agent/LossMonitor]
$ns attach-agent $n2 $mon
$ns connect $udp $mon
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set rate_ 1.5Mb
$cbr attach-agent $udp
$ns rtmodel-at 1.0 down $n1
$ns rtmodel-at 1.5 up $n1
$ns at 0.1 "$ftp start"
$ns at 0.2 "$cbr start"
$ns at 2.5 "$cbr stop"
proc finish {} {
    global ns tf mon tcp
    $ns flush-trace
    close $tf
    puts "[$mon set npkts_] [$mon set nlost_] [$mon set expected_] [$mon set lastPktTime_]"
    puts "[$tcp set ack_] [$tcp set nrexmitpack_]"
    exit 0
}
$ns at 4.0 "finish"
$ns run
"""


def test_a_node_down_with_a_full_queue_drops_queue_then_line_as_in_ns2(
        vs_ns2: Callable[..., Both]) -> None:
    """`rtmodel-at` on one node takes all its links down; a TCP flow times out and recovers
    once they are up again."""
    want = vs_ns2(BACKLOG).same("out.tr")["out.tr"].splitlines()
    at_down = [x for x in want if x.startswith("d 1 1 2 ")]
    assert len(at_down) > 10  # the queue's packets, then the line's
    # n1 has two links: four directions, each traced by both models.
    assert sum(x.startswith("v 1 link-down") for x in want) == 8
