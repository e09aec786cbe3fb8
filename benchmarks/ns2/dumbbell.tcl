# Issue 10's scenarios 2 and 3: N TCP flows over a 1 Gb/s, 10 ms bottleneck with a 1000-packet
# buffer, 10 Gb/s 1 ms access links, 1448-byte segments (1500 B on the wire), for T seconds.
#   ns dumbbell.tcl N T VARIANT        (VARIANT: newreno or cubic)
# Prints "total_mbps X": the sinks' bytes over the run.
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
    global N T sink
    set bytes 0
    for {set i 0} {$i < $N} {incr i} { set bytes [expr $bytes + [$sink($i) set bytes_]] }
    puts "total_mbps [expr $bytes * 8.0 / $T / 1e6]"
    exit 0
}
$ns at $T "done"
$ns run
