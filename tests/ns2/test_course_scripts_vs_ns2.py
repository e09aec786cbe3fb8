"""Course-style ns-2 scripts written here (not copied from any tutorial or course), in the
idioms such scripts use, run under ns-2.35 and ``ackclock ns2``: every file they write and
everything they print must be identical. Before these were written, t1, t2 ran identical;
the queue sampler stopped (`queue-sample-timeout`), the repeated timeout at one segment lost a
traced `ssthresh_` step, the variants loop differed (Vegas), the annotation was missing from
the trace-all file and the window change during the run stopped (and `timestamps_` segments
were 10 bytes short)."""

from __future__ import annotations

from collections.abc import Callable

from conftest import Both

TWO_FLOWS_NAM = """# Two flows with colours, nam trace, queue position, a finish proc with globals
set ns [new Simulator]
$ns color 1 Blue
$ns color 2 Red
set nf [open out.nam w]
$ns namtrace-all $nf
set f [open out.tr w]
$ns trace-all $f
proc finish {} {
        global ns nf f
        $ns flush-trace
        close $nf
        close $f
        #exec nam out.nam &
        exit 0
}
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 2Mb 10ms DropTail
$ns duplex-link $n1 $n2 2Mb 10ms DropTail
$ns duplex-link $n2 $n3 1.7Mb 20ms DropTail
$ns queue-limit $n2 $n3 10
$ns duplex-link-op $n0 $n2 orient right-down
$ns duplex-link-op $n1 $n2 orient right-up
$ns duplex-link-op $n2 $n3 orient right
$ns duplex-link-op $n2 $n3 queuePos 0.5
set tcp [new Agent/TCP/Newreno]
$tcp set class_ 2
$tcp set packetSize_ 552
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink/DelAck]
$ns attach-agent $n3 $sink
$ns connect $tcp $sink
$tcp set fid_ 1
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ftp set type_ FTP
set udp [new Agent/UDP]
$ns attach-agent $n1 $udp
set null [new Agent/Null]
$ns attach-agent $n3 $null
$ns connect $udp $null
$udp set fid_ 2
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set type_ CBR
$cbr set packet_size_ 1000
$cbr set rate_ 1mb
$cbr set random_ false
$ns at 0.1 "$cbr start"
$ns at 1.0 "$ftp start"
$ns at 4.0 "$ftp stop"
$ns at 4.5 "$cbr stop"
$ns at 4.5 "$ns detach-agent $n0 $tcp ; $ns detach-agent $n3 $sink"
$ns at 5.0 "finish"
puts "CBR packet size = [$cbr set packet_size_]"
puts "CBR interval = [$cbr set interval_]"
$ns run
"""

XGRAPH_RECORD = """# xgraph-style record loop: three sources into LossMonitors, bandwidth files
set ns [new Simulator]
set f0 [open out0.tr w]
set f1 [open out1.tr w]
set f2 [open out2.tr w]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
set n4 [$ns node]
$ns duplex-link $n0 $n3 1Mb 100ms DropTail
$ns duplex-link $n1 $n3 1Mb 100ms DropTail
$ns duplex-link $n2 $n3 1Mb 100ms DropTail
$ns duplex-link $n3 $n4 1Mb 100ms DropTail
proc finish {} {
        global f0 f1 f2
        close $f0
        close $f1
        close $f2
        #exec xgraph out0.tr out1.tr out2.tr -geometry 800x400 &
        exit 0
}
proc attach-expoo-traffic { node sink size burst idle rate } {
        set ns [Simulator instance]
        set source [new Agent/UDP]
        $ns attach-agent $node $source
        set traffic [new Application/Traffic/Exponential]
        $traffic set packetSize_ $size
        $traffic set burst_time_ $burst
        $traffic set idle_time_ $idle
        $traffic set rate_ $rate
        $traffic attach-agent $source
        $ns connect $source $sink
        return $traffic
}
proc record {} {
        global sink0 sink1 sink2 f0 f1 f2
        set ns [Simulator instance]
        set time 0.5
        set bw0 [$sink0 set bytes_]
        set bw1 [$sink1 set bytes_]
        set bw2 [$sink2 set bytes_]
        set now [$ns now]
        puts $f0 "$now [expr $bw0/$time*8/1000000]"
        puts $f1 "$now [expr $bw1/$time*8/1000000]"
        puts $f2 "$now [expr $bw2/$time*8/1000000]"
        $sink0 set bytes_ 0
        $sink1 set bytes_ 0
        $sink2 set bytes_ 0
        $ns at [expr $now+$time] "record"
}
set sink0 [new Agent/LossMonitor]
set sink1 [new Agent/LossMonitor]
set sink2 [new Agent/LossMonitor]
$ns attach-agent $n4 $sink0
$ns attach-agent $n4 $sink1
$ns attach-agent $n4 $sink2
set source0 [attach-expoo-traffic $n0 $sink0 200 2s 1s 100k]
set source1 [attach-expoo-traffic $n1 $sink1 200 2s 1s 200k]
set source2 [attach-expoo-traffic $n2 $sink2 200 2s 1s 300k]
$ns at 0.0 "record"
$ns at 10.0 "$source0 start"
$ns at 10.0 "$source1 start"
$ns at 10.0 "$source2 start"
$ns at 50.0 "$source0 stop"
$ns at 50.0 "$source1 stop"
$ns at 50.0 "$source2 stop"
$ns at 60.0 "finish"
$ns run
"""

QUEUE_SAMPLER = """# Queue monitor sampled in a loop, RED bottleneck, Reno + CBR, printing stats
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set qf [open qm.out w]
set n(0) [$ns node]
set n(1) [$ns node]
set n(2) [$ns node]
set n(3) [$ns node]
$ns duplex-link $n(0) $n(2) 10Mb 1ms DropTail
$ns duplex-link $n(1) $n(2) 10Mb 1ms DropTail
$ns simplex-link $n(2) $n(3) 1.5Mb 15ms RED
$ns simplex-link $n(3) $n(2) 1.5Mb 15ms DropTail
set red [[$ns link $n(2) $n(3)] queue]
$red set thresh_ 5
$red set maxthresh_ 15
$red set q_weight_ 0.002
$red set limit_ 30
set qmon [$ns monitor-queue $n(2) $n(3) $qf 0.1]
[$ns link $n(2) $n(3)] queue-sample-timeout
set tcp [new Agent/TCP/Reno]
$tcp set window_ 40
$tcp set packetSize_ 1000
$ns attach-agent $n(0) $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n(3) $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
set udp [new Agent/UDP]
$ns attach-agent $n(1) $udp
set lm [new Agent/LossMonitor]
$ns attach-agent $n(3) $lm
$ns connect $udp $lm
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set interval_ 0.01
$cbr attach-agent $udp
proc sample {} {
    global ns qmon
    set now [$ns now]
    puts "[format %.2f $now] q=[$qmon set pkts_] arr=[$qmon set parrivals_]\\
        dep=[$qmon set pdepartures_] drop=[$qmon set pdrops_] bytes=[$qmon set bdrops_]"
    $ns at [expr $now + 0.5] "sample"
}
proc finish {} {
    global ns tf qf lm tcp
    $ns flush-trace
    close $tf
    close $qf
    puts "cbr received [$lm set npkts_] lost [$lm set nlost_] bytes [$lm set bytes_]"
    puts "tcp acked [$tcp set ack_] cwnd [$tcp set cwnd_] ssthresh [$tcp set ssthresh_]"
    exit 0
}
$ns at 0.0 "sample"
$ns at 0.2 "$ftp start"
$ns at 0.5 "$cbr start"
$ns at 4.0 "$cbr stop"
$ns at 5.0 "finish"
$ns run
"""

FAILED_LINK_TRACEVAR = """# Static routing around a failed link, tracevar cwnd_, two Reno flows
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set cf [open cwnd.tr w]
for {set i 0} {$i < 5} {incr i} {
    set n($i) [$ns node]
}
$ns duplex-link $n(0) $n(1) 5Mb 5ms DropTail
$ns duplex-link $n(1) $n(2) 2Mb 10ms DropTail
$ns duplex-link $n(2) $n(3) 5Mb 5ms DropTail
$ns duplex-link $n(1) $n(4) 1Mb 10ms DropTail
$ns duplex-link $n(4) $n(3) 1Mb 10ms DropTail
$ns queue-limit $n(1) $n(2) 15
set tcp1 [new Agent/TCP/Reno]
$tcp1 set fid_ 1
$tcp1 set window_ 25
$ns attach-agent $n(0) $tcp1
set s1 [new Agent/TCPSink]
$ns attach-agent $n(3) $s1
$ns connect $tcp1 $s1
$tcp1 attach $cf
$tcp1 trace cwnd_
$tcp1 trace ssthresh_
set ftp1 [new Application/FTP]
$ftp1 attach-agent $tcp1
set tcp2 [new Agent/TCP]
$tcp2 set fid_ 2
$ns attach-agent $n(0) $tcp2
set s2 [new Agent/TCPSink]
$ns attach-agent $n(3) $s2
$ns connect $tcp2 $s2
set ftp2 [new Application/FTP]
$ftp2 attach-agent $tcp2
$ns rtmodel-at 2.0 down $n(2) $n(3)
$ns rtmodel-at 2.6 up $n(2) $n(3)
proc finish {} {
    global ns tf cf tcp1 tcp2
    $ns flush-trace
    close $tf
    close $cf
    puts "tcp1 ack [$tcp1 set ack_] timeouts [$tcp1 set nrexmit_]"
    puts "tcp2 ack [$tcp2 set ack_] timeouts [$tcp2 set nrexmit_]"
    exit 0
}
$ns at 0.1 "$ftp1 start"
$ns at 0.3 "$ftp2 start"
$ns at 5.0 "finish"
$ns run
"""

VARIANTS_LOOP = """# Several TCP variants started from a loop, per-flow throughput printed by a proc
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $r1 $r2 3Mb 20ms RED
$ns queue-limit $r1 $r2 25
set variants {TCP TCP/Reno TCP/Newreno TCP/Sack1 TCP/Vegas}
set sinks {TCPSink TCPSink TCPSink TCPSink/Sack1 TCPSink}
for {set i 0} {$i < [llength $variants]} {incr i} {
    set s($i) [$ns node]
    set d($i) [$ns node]
    $ns duplex-link $s($i) $r1 10Mb [expr 2 + 3*$i]ms DropTail
    $ns duplex-link $r2 $d($i) 10Mb 2ms DropTail
    set tcp($i) [new Agent/[lindex $variants $i]]
    $tcp($i) set fid_ $i
    $tcp($i) set window_ 50
    $ns attach-agent $s($i) $tcp($i)
    set snk($i) [new Agent/[lindex $sinks $i]]
    $ns attach-agent $d($i) $snk($i)
    $ns connect $tcp($i) $snk($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [expr 0.1 * $i] "$ftp($i) start"
}
proc report {} {
    global ns tcp variants
    set now [$ns now]
    set line "[format %.1f $now]"
    for {set i 0} {$i < [llength $variants]} {incr i} {
        append line " [lindex $variants $i]=[$tcp($i) set ack_]/[format %.2f [$tcp($i) set cwnd_]]"
    }
    puts $line
    $ns at [expr $now + 1.0] "report"
}
$ns at 1.0 "report"
$ns at 8.0 "$ns flush-trace; close $tf; exit 0"
$ns run
"""

LOSSY_LINK_READ_BACK = """# Lossy link, an annotation, throughput from reading the trace back
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 5Mb 5ms DropTail
$ns duplex-link $n1 $n2 2Mb 15ms DropTail
set em [new ErrorModel]
$em set rate_ 0.02
$em unit pkt
$em ranvar [new RandomVariable/Uniform]
$em drop-target [new Agent/Null]
$ns lossmodel $em $n1 $n2
set tcp [new Agent/TCP/Newreno]
$tcp set packetSize_ 1000
$tcp set window_ 32
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.5 "$ns trace-annotate \\"FTP starts\\""
$ns at 0.5 "$ftp start"
$ns at 9.5 "$ftp stop"
proc finish {} {
    global ns tf
    $ns flush-trace
    close $tf
    set fd [open out.tr r]
    set bytes 0
    set first -1
    set last 0
    while {[gets $fd line] >= 0} {
        if {[lindex $line 0] == "r" && [lindex $line 3] == 2 && [lindex $line 4] == "tcp"} {
            incr bytes [lindex $line 5]
            if {$first < 0} { set first [lindex $line 1] }
            set last [lindex $line 1]
        }
    }
    close $fd
    set kbps [expr $bytes*8.0/($last-$first)/1000]
    puts "received $bytes bytes, throughput [format %.1f $kbps] kb/s"
    exit 0
}
$ns at 10.0 "finish"
$ns run
"""

WINDOW_DURING_RUN = """# Reno, DelAck sink, window_ changed in the run, timestamps
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1Mb 25ms DropTail
$ns queue-limit $n1 $n2 12
$ns duplex-link-op $n1 $n2 queuePos 0.5
Agent/TCP set timestamps_ true
set tcp [new Agent/TCP/Reno]
$tcp set window_ 40
$tcp set packetSize_ 960
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink/DelAck]
$sink set ts_echo_rfc1323_ true
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set out [open win.dat w]
proc record {} {
    global ns tcp out
    puts $out "[$ns now] [$tcp set cwnd_] [$tcp set ssthresh_] [$tcp set srtt_]"
    $ns at [expr [$ns now] + 0.25] record
}
$ns at 0.0 "record"
$ns at 0.1 "$ftp start"
$ns at 3.0 "$tcp set window_ 8"
$ns at 6.0 "$tcp set window_ 40"
$ns at 9.0 "close $out; $ns flush-trace; close $tf; exit 0"
$ns run
"""
SACK1_WINDOW_DURING_RUN = """# Sack1, Sack1/DelAck sink, window_ changed in the run, timestamps
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1Mb 25ms DropTail
$ns queue-limit $n1 $n2 12
$ns duplex-link-op $n1 $n2 queuePos 0.5
Agent/TCP set timestamps_ true
set tcp [new Agent/TCP/Sack1]
$tcp set window_ 40
$tcp set packetSize_ 960
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink/Sack1/DelAck]
$sink set ts_echo_rfc1323_ true
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set out [open win.dat w]
proc record {} {
    global ns tcp out
    puts $out "[$ns now] [$tcp set cwnd_] [$tcp set ssthresh_] [$tcp set srtt_]"
    $ns at [expr [$ns now] + 0.25] record
}
$ns at 0.0 "record"
$ns at 0.1 "$ftp start"
$ns at 3.0 "$tcp set window_ 8"
$ns at 6.0 "$tcp set window_ 40"
$ns at 9.0 "close $out; $ns flush-trace; close $tf; exit 0"
$ns run
"""


def test_two_flows_with_colours_and_nam(vs_ns2: Callable[..., Both]) -> None:
    """Marc Greis' shape: TCP and CBR with colours, queuePos, detach-agent, printed CBR values."""
    vs_ns2(TWO_FLOWS_NAM).same("out.tr", "out.nam")


def test_record_loop_with_loss_monitors(vs_ns2: Callable[..., Both]) -> None:
    """A record proc resetting LossMonitors' bytes_ every half second, xgraph files."""
    vs_ns2(XGRAPH_RECORD).same("out0.tr", "out1.tr", "out2.tr")


def test_queue_sample_timeout_over_red(vs_ns2: Callable[..., Both]) -> None:
    """`$ns monitor-queue` with a file and `[$ns link] queue-sample-timeout` (SimpleLink's
    sample-queue-size: mean queue from the integrators, the monitor's counters), a sampling
    proc printing the monitor's counters."""
    ns = vs_ns2(QUEUE_SAMPLER).same("out.tr", "qm.out")
    assert len(ns["qm.out"].splitlines()) > 40


def test_repeated_timeouts_traced_as_ns2(vs_ns2: Callable[..., Both]) -> None:
    """A link down and up with static routing, a traced ssthresh_: a timeout at one segment
    shows slowdown's `ssthresh_ 0` before `ssthresh_ 2`."""
    ns = vs_ns2(FAILED_LINK_TRACEVAR).same("out.tr", "cwnd.tr")
    assert "ssthresh_ 0" in ns["cwnd.tr"]


def test_variants_from_a_loop(vs_ns2: Callable[..., Both]) -> None:
    """Five TCP classes (Vegas among them) made in a loop over a RED bottleneck."""
    vs_ns2(VARIANTS_LOOP).same("out.tr")


def test_annotation_and_reading_the_trace_back(vs_ns2: Callable[..., Both]) -> None:
    """trace-annotate writes its `v` line in the trace-all file; the finish proc reads the
    trace back with gets to compute a throughput."""
    ns = vs_ns2(LOSSY_LINK_READ_BACK).same("out.tr")
    assert ns["out.tr"].startswith("v 0.5 eval {set sim_annotation {FTP starts}}")


def test_window_changed_during_the_run(vs_ns2: Callable[..., Both]) -> None:
    """`$ns at 3.0 "$tcp set window_ 8"` and back, with timestamps_ (each data segment
    carries ts_option_size_ more header) and a DelAck sink echoing timestamps."""
    ns = vs_ns2(WINDOW_DURING_RUN).same("out.tr", "win.dat")
    assert " tcp 1010 " in ns["out.tr"]


def test_sack1_with_timestamps_as_ns2(vs_ns2: Callable[..., Both]) -> None:
    """Sack1 takes no RTT sample from a partial ACK in recovery (Sack1TcpAgent::recv calls
    newack only on the ACK that ends it), timestamps or not: the srtt_ the record proc reads
    is ns-2's (it differed at three samples in the first recovery)."""
    vs_ns2(SACK1_WINDOW_DURING_RUN).same("out.tr", "win.dat")
