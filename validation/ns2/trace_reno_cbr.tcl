# A Reno FTP flow and a CBR flow over n0 -> n1 -> n2 (10 Mb/s 10 ms, then 1 Mb/s 20 ms with a
# 5-packet DropTail queue), traced with trace-all for 2 s: the reference for ackclock's ns-2
# trace format (examples/traces.toml describes the same network).
#   ns trace_reno_cbr.tcl OUT.tr
set ns [new Simulator]
set f [open [lindex $argv 0] w]
$ns trace-all $f
set n0 [$ns node]; set n1 [$ns node]; set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 5
set tcp [new Agent/TCP/Reno]
$tcp set fid_ 1
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]; $ftp attach-agent $tcp
set udp [new Agent/UDP]; $udp set fid_ 2
$ns attach-agent $n0 $udp
set null [new Agent/Null]; $ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]; $cbr attach-agent $udp
$cbr set rate_ 0.5Mb
$ns at 0.1 "$ftp start"; $ns at 0.1 "$cbr start"
$ns at 2.0 "close $f; exit 0"
$ns run
