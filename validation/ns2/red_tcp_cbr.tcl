# Seed 001's scenario 1: one TCP (FTP) and one CBR source share a 10 Mb/s, 29 ms bottleneck
# with a RED queue (maxthresh_ 20, limit 100, other parameters ns-2.35's defaults); 100 Mb/s,
# 1 ms access links; window 100, 1460-byte segments. Prints the TCP sender's counters, the
# bottleneck queue monitor's counts and the sinks' bytes over [warmup, duration].
# Usage: ns red_tcp_cbr.tcl VARIANT CBR_RATE DURATION WARMUP [QUEUE] [SEED]
#   e.g. ns red_tcp_cbr.tcl Reno 4Mb 60 10 RED 1
set variant [lindex $argv 0]
set cbr_rate [lindex $argv 1]
set duration [lindex $argv 2]
set warmup [lindex $argv 3]
set qtype [expr {[llength $argv] > 4 ? [lindex $argv 4] : "RED"}]
set seed [expr {[llength $argv] > 5 ? [lindex $argv 5] : 1}]
global defaultRNG
$defaultRNG seed $seed
set ns [new Simulator]
set s1 [$ns node]
set s2 [$ns node]
set r1 [$ns node]
set r2 [$ns node]
set d [$ns node]
Queue/RED set maxthresh_ 20
$ns duplex-link $s1 $r1 100Mb 1ms DropTail
$ns duplex-link $s2 $r1 100Mb 1ms DropTail
$ns duplex-link $r1 $r2 10Mb 29ms $qtype
$ns duplex-link $r2 $d 100Mb 1ms DropTail
foreach {a b} [list $s1 $r1 $r1 $s1 $s2 $r1 $r1 $s2 $r1 $r2 $r2 $r1 $r2 $d $d $r2] {
    $ns queue-limit $a $b 100
}
if {$variant == "Tahoe"} {
    set tcp [new Agent/TCP]
} else {
    set tcp [new Agent/TCP/$variant]
}
$tcp set window_ 100
$tcp set packetSize_ 1460
$tcp set fid_ 1
$ns attach-agent $s1 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $d $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set udp [new Agent/UDP]
$udp set fid_ 2
$ns attach-agent $s2 $udp
set null [new Agent/LossMonitor]
$ns attach-agent $d $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set rate_ $cbr_rate
$cbr attach-agent $udp
set qm [$ns monitor-queue $r1 $r2 [open /dev/null w] 0.1]
$ns at 0.0 "$ftp start"
$ns at 0.0 "$cbr start"
proc snapshot {} {
    global tcp sink qm null w
    set w(sent) [$tcp set ndatapack_]
    set w(rexmit) [$tcp set nrexmitpack_]
    set w(timeouts) [$tcp set nrexmit_]
    set w(sink) [$sink set bytes_]
    set w(udp) [$null set bytes_]
    set w(drops) [$qm set pdrops_]
    set w(arr) [$qm set parrivals_]
    set w(area) [[$qm get-pkts-integrator] set sum_]
}
proc finish {} {
    global tcp sink qm null w duration warmup
    set span [expr {$duration - $warmup}]
    puts "tcp_packets_sent [expr {[$tcp set ndatapack_] - $w(sent)}]"
    puts "tcp_retransmitted [expr {[$tcp set nrexmitpack_] - $w(rexmit)}]"
    puts "tcp_timeouts [expr {[$tcp set nrexmit_] - $w(timeouts)}]"
    puts "tcp_mbps [expr {([$sink set bytes_] - $w(sink)) * 8.0 / $span / 1e6}]"
    puts "udp_mbps [expr {([$null set bytes_] - $w(udp)) * 8.0 / $span / 1e6}]"
    puts "queue_drops [expr {[$qm set pdrops_] - $w(drops)}]"
    puts "queue_arrivals [expr {[$qm set parrivals_] - $w(arr)}]"
    puts "mean_queue_packets [expr {([[$qm get-pkts-integrator] set sum_] - $w(area)) / $span}]"
    exit 0
}
$ns at $warmup snapshot
$ns at $duration finish
$ns run
