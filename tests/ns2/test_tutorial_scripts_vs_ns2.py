"""Tutorial-style ns-2 scripts written here (not copied from any tutorial), each using the
idioms course and tutorial scripts use, run under ns-2.35 and ``ackclock ns2``: every file
they write and everything they print must be identical."""

from __future__ import annotations

from collections.abc import Callable

from conftest import Both

# An opt() array, a RED bottleneck, two TCPs (Reno, Newreno) with their own fid_ and window_,
# nam decorations, and a finish proc that runs awk over the trace with exec.
OPTIONS_RED = """
# Options in an array, a RED bottleneck, two TCPs with their own windows, exec in finish.
set opt(bw) 1.5Mb
set opt(delay) 25ms
set opt(qlim) 30
set opt(stop) 6.0
set opt(tcp1) TCP/Reno
set opt(tcp2) TCP/Newreno

set ns [new Simulator]
$ns color 1 Blue
$ns color 2 Red
set tf [open out.tr w]
$ns trace-all $tf
set nf [open out.nam w]
$ns namtrace-all $nf

proc finish {} {
    global ns tf nf
    $ns flush-trace
    close $tf
    close $nf
    exec awk {$1 == "d" {n++} END {print "drops", n+0}} out.tr > drops.txt
    puts [exec cat drops.txt]
    exit 0
}

set s1 [$ns node]
set s2 [$ns node]
set r [$ns node]
set d [$ns node]
$ns duplex-link $s1 $r 10Mb 2ms DropTail
$ns duplex-link $s2 $r 10Mb 3ms DropTail
$ns duplex-link $r $d $opt(bw) $opt(delay) RED
$ns queue-limit $r $d $opt(qlim)
$ns duplex-link-op $r $d queuePos 0.5
$ns duplex-link-op $s1 $r orient right-down
$ns duplex-link-op $s2 $r orient right-up
$ns duplex-link-op $r $d orient right

set i 0
foreach src [list $s1 $s2] {
    incr i
    set tcp($i) [new Agent/$opt(tcp$i)]
    $tcp($i) set fid_ $i
    $tcp($i) set window_ [expr 15 + 10 * $i]
    $tcp($i) set packetSize_ 1000
    $ns attach-agent $src $tcp($i)
    set sink($i) [new Agent/TCPSink]
    $ns attach-agent $d $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
}
$ns at 0.1 "$ftp(1) start"
$ns at 0.6 "$ftp(2) start"
$ns at 4.5 "$ftp(1) stop"
$ns at [expr $opt(stop) - 0.5] "$ftp(2) stop"
$ns at $opt(stop) "finish"
puts "windows [$tcp(1) set window_] [$tcp(2) set window_]"
$ns run
"""


def test_options_red_and_exec_in_finish(vs_ns2: Callable[..., Both]) -> None:
    both = vs_ns2(OPTIONS_RED)
    both.same("out.tr", "out.nam", "drops.txt")
    assert both.ns.out.splitlines()[0] == "windows 25 35"


# CBR by interval_ and by rate_ into Agent/Null, a Tahoe TCP with window_ 8 into a DelAck
# sink via attach-app, a queue-limit, a proc rescheduling itself, state read before the run.
CBR_AND_TAHOE = """
# CBR by interval and by rate over UDP into Null agents, a TCP with a small window, a
# queue-limit on the access link, and a proc that prints acknowledgements every second.
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set a [$ns node]
set b [$ns node]
set c [$ns node]
$ns duplex-link $a $b 2Mb 5ms DropTail
$ns duplex-link $b $c 800Kb 40ms DropTail
$ns queue-limit $b $c 12
set udp [new Agent/UDP]
$udp set fid_ 3
$ns attach-agent $a $udp
set null [new Agent/Null]
$ns attach-agent $c $null
$ns connect $udp $null
set cbr1 [new Application/Traffic/CBR]
$cbr1 set packetSize_ 200
$cbr1 set interval_ 0.01
$cbr1 attach-agent $udp
set udp2 [new Agent/UDP]
$ns attach-agent $b $udp2
set null2 [new Agent/Null]
$ns attach-agent $c $null2
$ns connect $udp2 $null2
set cbr2 [new Application/Traffic/CBR]
$cbr2 set rate_ 256Kb
$cbr2 set packetSize_ 512
$cbr2 attach-agent $udp2
set tcp [new Agent/TCP]
$tcp set window_ 8
$tcp set fid_ 1
$ns attach-agent $a $tcp
set sink [new Agent/TCPSink/DelAck]
$ns attach-agent $c $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
proc show {} {
    global ns tcp
    puts "[$ns now] ack [$tcp set ack_] cwnd [$tcp set cwnd_]"
    if {[$ns now] < 4} { $ns at [expr [$ns now] + 1.0] "show" }
}
$ns at 0.0 "$cbr1 start"
$ns at 0.5 "$ftp start"
$ns at 1.0 "$cbr2 start"
$ns at 1.0 "show"
$ns at 3.5 "$cbr1 stop"
$ns at 5.0 "$ns flush-trace; close $tf; exit 0"
puts "cbr2 interval [$cbr2 set interval_] ack [$tcp set ack_] maxseq [$tcp set maxseq_]"
$ns run
"""


def test_cbr_null_tahoe_and_a_self_scheduling_proc(vs_ns2: Callable[..., Both]) -> None:
    both = vs_ns2(CBR_AND_TAHOE)
    both.same("out.tr")
    # ns-2's TcpAgent::reset at creation: ack_ and maxseq_ are -1 before the run.
    assert both.ns.out.splitlines()[0] == "cbr2 interval 0.016 ack -1 maxseq -1"


# A dumbbell: Reno beside a CBR into a LossMonitor whose access link fails for 0.7 s.
DUMBBELL_FAILURE = """
# A dumbbell with a link failure on one access link and Vegas beside Reno.
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
foreach x {a b c d} { set n($x) [$ns node] }
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $n(a) $r1 10Mb 1ms DropTail
$ns duplex-link $n(b) $r1 10Mb 1ms DropTail
$ns duplex-link $r1 $r2 2Mb 20ms DropTail
$ns duplex-link $r2 $n(c) 10Mb 1ms DropTail
$ns duplex-link $r2 $n(d) 10Mb 1ms DropTail
$ns queue-limit $r1 $r2 25
set reno [new Agent/TCP/Reno]
$ns attach-agent $n(a) $reno
set s1 [new Agent/TCPSink]
$ns attach-agent $n(c) $s1
$ns connect $reno $s1
set udp [new Agent/UDP]
$ns attach-agent $n(b) $udp
set mon [new Agent/LossMonitor]
$ns attach-agent $n(d) $mon
$ns connect $udp $mon
set cbr [new Application/Traffic/CBR]
$cbr set rate_ 500kb
$cbr attach-agent $udp
set ftp [new Application/FTP]
$ftp attach-agent $reno
$ns rtmodel-at 2.0 down $n(b) $r1
$ns rtmodel-at 2.7 up $n(b) $r1
$ns at 0.2 "$ftp start"
$ns at 0.3 "$cbr start"
$ns at 5.0 "done"
proc done {} {
    global ns tf mon reno
    $ns flush-trace
    close $tf
    puts "lost [$mon set nlost_] got [$mon set npkts_] acked [$reno set ack_]"
    exit 0
}
$ns run
"""


def test_dumbbell_with_an_access_link_failure(vs_ns2: Callable[..., Both]) -> None:
    both = vs_ns2(DUMBBELL_FAILURE)
    both.same("out.tr")
    assert int(both.ns.out.split()[1]) > 100  # the LossMonitor saw the outage as a gap
