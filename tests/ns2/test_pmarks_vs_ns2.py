"""A queue monitor's and a flow monitor's ``pmarks_``: departures carrying CE on an ECN-capable
packet (ns-2.35 queue-monitor.cc, QueueMonitor::out), against ns-2 itself.

The marks are made at the RED queue of r->k (an ECN bottleneck) and, for the second monitor,
upstream: the k->d link departs packets marked before they reached it, which ns-2 counts too.
"""

from __future__ import annotations

SCRIPT = """
set ns [new Simulator]
set s1 [$ns node]; set s2 [$ns node]; set r [$ns node]; set k [$ns node]; set d [$ns node]
$ns duplex-link $s1 $r 10Mb 2ms DropTail
$ns duplex-link $s2 $r 10Mb 3ms DropTail
$ns duplex-link $r $k 1.5Mb 20ms RED
$ns duplex-link $k $d 10Mb 1ms DropTail
$ns queue-limit $r $k 25
Queue/RED set setbit_ true
[[$ns link $r $k] queue] set setbit_ true
set rk [$ns link $r $k]
set qm [$ns monitor-queue $r $k ""]
set fmon [$ns makeflowmon Fid]
$ns attach-fmon $rk $fmon
set qm2 [$ns monitor-queue $k $d ""]
foreach i {1 2} src [list $s1 $s2] {
    set tcp($i) [new Agent/TCP/Reno]
    $tcp($i) set ecn_ %(ecn)s
    $tcp($i) set fid_ $i
    $tcp($i) set window_ 40
    set sink [new Agent/TCPSink]
    $ns attach-agent $src $tcp($i)
    $ns attach-agent $d $sink
    $ns connect $tcp($i) $sink
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [expr 0.1 * $i] "$ftp($i) start"
}
proc show {} {
    global ns qm qm2 fmon
    set fcl [$fmon classifier]
    set line "[$ns now] [$qm set pmarks_] [$qm2 set pmarks_] [$fmon set pmarks_]"
    foreach fid {1 2} {
        set f [$fcl lookup auto 0 0 $fid]
        if {$f != ""} { append line " [$f set pmarks_] [$f set pdepartures_]" }
    }
    puts $line
}
foreach t {1 2.5 4} { $ns at $t show }
$ns at 3 {$qm set pmarks_ 0}
$ns at 4.1 {exit 0}
$ns run
"""


def test_pmarks_counts_the_departures_carrying_ce(vs_ns2):
    both = vs_ns2(SCRIPT % {"ecn": 1})
    both.same()
    last = both.ac.out.splitlines()[-1].split()
    # marks were made (the test sees the counter move), and reset at 3 s only for $qm
    assert int(last[2]) > int(last[1]) > 0


def test_pmarks_is_zero_without_ecn_capable_packets(vs_ns2):
    both = vs_ns2(SCRIPT % {"ecn": 0})
    both.same()
    assert all(line.split()[1:4] == ["0", "0", "0"] for line in both.ac.out.splitlines())
