# One Reno flow over a 10 Mb/s, 50 ms bottleneck with a 125-packet DropTail buffer, 100 s
# (the engine-foundation issue's reference case). Prints the sender's counters, the
# bottleneck queue monitor's drops and the sink's in-order bytes (headers included).
# Usage: ns single_reno.tcl
set ns [new Simulator]
set s [$ns node]
set r1 [$ns node]
set r2 [$ns node]
set d [$ns node]
$ns duplex-link $s $r1 100Mb 1ms DropTail
$ns duplex-link $r1 $r2 10Mb 50ms DropTail
$ns duplex-link $r2 $d 100Mb 1ms DropTail
foreach {a b limit} [list $s $r1 1000 $r1 $s 1000 $r1 $r2 125 $r2 $r1 125 $r2 $d 1000 $d $r2 1000] {
    $ns queue-limit $a $b $limit
}
set tcp [new Agent/TCP/Reno]
$tcp set window_ 1000
$tcp set packetSize_ 1000
$ns attach-agent $s $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $d $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set qm [$ns monitor-queue $r1 $r2 [open /dev/null w] 0.1]
$ns at 0.0 "$ftp start"
proc finish {} {
    global tcp sink qm
    puts "packets_sent [$tcp set ndatapack_]"
    puts "packets_retransmitted [$tcp set nrexmitpack_]"
    puts "timeouts [$tcp set nrexmit_]"
    puts "window_cuts [$tcp set ncwndcuts_]"
    puts "queue_drops [$qm set pdrops_]"
    puts "sink_bytes [$sink set bytes_]"
    exit 0
}
$ns at 100.0 finish
$ns run
