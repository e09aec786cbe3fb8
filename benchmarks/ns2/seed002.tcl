# Issue 10's scenario 1, seed 002's model (examples/ns2/seed002.tcl without its queue monitor
# and printing): N Reno sources on 2 Mb/s, 0 ms access links into a 10 Mb/s bottleneck of two
# simplex links (50 ms each way) with packet loss p and a bs-packet DropTail buffer on the data
# direction, delayed-ACK sinks on 1e25 Mb/s (ideal) 0 ms links, 1460-byte segments (1500 B on
# the wire), a 32-segment window, sources starting uniformly in [0, 100 ms]; as
# benchmarks/ackclock/seed002.toml and benchmarks/ns3/seed002.cc.
#   ns seed002.tcl T p N bs [Ba]
# Ba: the access links' rate (default 2Mb; benchmarks/seed002_study.py also runs 5Mb).
# Prints the counters benchmarks/sims.py reads (see benchmarks/ns2/dumbbell.tcl).
set T [lindex $argv 0]
set p [lindex $argv 1]
set N [lindex $argv 2]
set bs [lindex $argv 3]
set ba 2Mb
if {$argc > 4} { set ba [lindex $argv 4] }
set ns [new Simulator]
Agent/TCP set packetSize_ 1460
Agent/TCP set window_ 32
set entry [$ns node]
set exit [$ns node]
$ns simplex-link $entry $exit 10Mb 50ms DropTail
$ns simplex-link $exit $entry 10Mb 50ms DropTail
$ns queue-limit $entry $exit $bs
set start [new RandomVariable/Uniform]
$start set min_ 0.0
$start set max_ 0.1
set em [new ErrorModel]
$em set rate_ $p
$em unit pkt
$em ranvar [new RandomVariable/Uniform]
$em drop-target [new Agent/Null]
$ns link-lossmodel $em $entry $exit
for {set i 0} {$i < $N} {incr i} {
    set tcp($i) [new Agent/TCP/Reno]
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [$start value] "$ftp($i) start"
    set src($i) [$ns node]
    $ns attach-agent $src($i) $tcp($i)
    $ns duplex-link $entry $src($i) $ba 0ms DropTail
    set sink($i) [new Agent/TCPSink/DelAck]
    set dst($i) [$ns node]
    $ns attach-agent $dst($i) $sink($i)
    $ns duplex-link $dst($i) $exit 1e25Mb 0ms DropTail
    $ns connect $tcp($i) $sink($i)
}
proc done {} {
    global N tcp sink
    set bytes 0
    set data 0
    set acks 0
    for {set i 0} {$i < $N} {incr i} {
        set bytes [expr {$bytes + [$sink($i) set bytes_]}]
        set data [expr {$data + [$tcp($i) set ndatapack_]}]
        set acks [expr {$acks + [$tcp($i) set nackpack_]}]
    }
    puts "delivered_bytes [expr {wide($bytes / 1500.0 * 1460)}]"
    puts "data_sent $data"
    puts "acks_received $acks"
    exit 0
}
$ns at $T "done"
$ns run
