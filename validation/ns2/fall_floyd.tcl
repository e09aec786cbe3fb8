# Fall & Floyd's one-window drop experiment: S -(8 Mb/s, 0.1 ms)- R -(0.8 Mb/s, 100 ms)- K,
# window 20, 1000 B segments, RTO floor 1 s, the listed packets (counted as they cross R->K,
# from 1) dropped; 10 s. Usage: ns fall_floyd.tcl TCP|Reno|Newreno|Sack1 PKT...
set variant [lindex $argv 0]
set drops [lrange $argv 1 end]
set ns [new Simulator]
set s [$ns node]
set r [$ns node]
set k [$ns node]
$ns duplex-link $s $r 8Mb 0.1ms DropTail
$ns duplex-link $r $k 0.8Mb 100ms DropTail
$ns queue-limit $r $k 100
$ns queue-limit $s $r 100
Agent/TCP set minrto_ 1
if {$variant == "TCP"} { set tcp [new Agent/TCP] } else { set tcp [new Agent/TCP/$variant] }
$tcp set window_ 20
$ns attach-agent $s $tcp
if {$variant == "Sack1"} { set sink [new Agent/TCPSink/Sack1] } else { set sink [new Agent/TCPSink] }
$ns attach-agent $k $sink
$ns connect $tcp $sink
set em [new ErrorModel/List]
$em droplist $drops
$ns lossmodel $em $r $k
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0 "$ftp start"
proc finish {} {
    global tcp
    puts "packets_sent [$tcp set ndatapack_]"
    puts "packets_retransmitted [$tcp set nrexmitpack_]"
    puts "timeouts [$tcp set nrexmit_]"
    puts "window_cuts [$tcp set ncwndcuts_]"
    exit 0
}
$ns at 10 finish
$ns run
