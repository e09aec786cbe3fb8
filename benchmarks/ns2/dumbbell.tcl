# Issue 10's scenarios 2 and 3: N TCP flows over a 1 Gb/s, 10 ms bottleneck with a 1000-packet
# buffer, 10 Gb/s 1 ms access links, 1448-byte segments (1500 B on the wire), for T seconds;
# as benchmarks/ackclock/dumbbell.toml and benchmarks/ns3/dumbbell.cc.
#   ns dumbbell.tcl N T VARIANT        (VARIANT: newreno or cubic)
# Prints the counters benchmarks/sims.py reads: delivered_bytes (payload delivered in order,
# from the sinks' bytes_, which count 1500 B per packet), data_sent (the senders' ndatapack_,
# retransmissions included), acks_received (the senders' nackpack_).
set N [lindex $argv 0]
set T [lindex $argv 1]
set variant [lindex $argv 2]
set ns [new Simulator]
Agent/TCP set packetSize_ 1448
Agent/TCP set tcpip_base_hdr_size_ 52
Agent/TCP set window_ 10000
set left [$ns node]
set right [$ns node]
$ns duplex-link $left $right 1Gb 10ms DropTail
$ns queue-limit $left $right 1000
for {set i 0} {$i < $N} {incr i} {
    set s($i) [$ns node]
    set r($i) [$ns node]
    $ns duplex-link $s($i) $left 10Gb 1ms DropTail
    $ns duplex-link $right $r($i) 10Gb 1ms DropTail
    $ns queue-limit $s($i) $left 10000
    $ns queue-limit $right $r($i) 10000
    if {$variant == "cubic"} {
        set tcp($i) [new Agent/TCP/Linux]
        $tcp($i) select_ca cubic
        set sink($i) [new Agent/TCPSink/Sack1]
    } else {
        set tcp($i) [new Agent/TCP/Newreno]
        set sink($i) [new Agent/TCPSink]
    }
    $ns attach-agent $s($i) $tcp($i)
    $ns attach-agent $r($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at 0.0 "$ftp($i) start"
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
    puts "delivered_bytes [expr {wide($bytes / 1500.0 * 1448)}]"
    puts "data_sent $data"
    puts "acks_received $acks"
    exit 0
}
$ns at $T "done"
$ns run
