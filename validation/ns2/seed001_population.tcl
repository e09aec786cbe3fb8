# Seed 001 scenario 3 in ns-2.35: N Reno sources (window 100, 1460-byte packets, tcpTick_ 0.001)
# from one node through the 10 Mb/s, 29 ms RED bottleneck (maxthresh 20, limit 100), starts
# uniform in [0, 1 s]; traces every sender's srtt_, rttvar_ and backoff_ into vars.tr.
#   ns seed001_population.tcl N DURATION SEED      (validation/seed001_rtxcur.py runs it)
set n [lindex $argv 0]
set duration [lindex $argv 1]
set seed [lindex $argv 2]
global defaultRNG
$defaultRNG seed $seed
set ns [new Simulator]
set s [$ns node]
set r1 [$ns node]
set r2 [$ns node]
set d [$ns node]
Queue/RED set maxthresh_ 20
$ns duplex-link $s $r1 100Mb 1ms DropTail
$ns duplex-link $r1 $r2 10Mb 29ms RED
$ns duplex-link $r2 $d 100Mb 1ms DropTail
foreach {a b} [list $s $r1 $r1 $s $r1 $r2 $r2 $r1 $r2 $d $d $r2] {
    $ns queue-limit $a $b 100
}
set tr [open vars.tr w]
set rng [new RNG]
$rng seed $seed
for {set i 0} {$i < $n} {incr i} {
    set tcp($i) [new Agent/TCP/Reno]
    $tcp($i) set window_ 100
    $tcp($i) set packetSize_ 1460
    $tcp($i) set tcpTick_ 0.001
    $tcp($i) set fid_ $i
    $ns attach-agent $s $tcp($i)
    set sink($i) [new Agent/TCPSink]
    $ns attach-agent $d $sink($i)
    $ns connect $tcp($i) $sink($i)
    $tcp($i) attach $tr
    $tcp($i) trace srtt_
    $tcp($i) trace rttvar_
    $tcp($i) trace backoff_
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [$rng uniform 0 1] "$ftp($i) start"
}
proc finish {} {
    global tr
    close $tr
    exit 0
}
$ns at $duration "finish"
$ns run
