# Issue 10's scenario 4: seed 000's Topology 2 (examples/ns2/seed000_topology2.tcl) without its
# queue monitors, traces and CSV files: four Reno flows (source(i) -> 10 Gb/s switch ->
# 10 Gb/s switch -> sink(i)) and the concurrent Reno flow (concurTraffic -> the first switch
# over a 10 ms link), every link 10 Gb/s with 50-packet DropTail buffers each way (1 ms access
# links, 10 ms between the switches), 1000-byte segments (1040 B on the wire), window_ and
# maxburst_ 64000, ACK-every-packet sinks, every flow starting at 0; as
# benchmarks/ackclock/seed000_topology2.toml and benchmarks/ns3/seed000_topology2.cc.
#   ns seed000_topology2.tcl T
# Prints the counters benchmarks/sims.py reads (see benchmarks/ns2/dumbbell.tcl). The sinks'
# bytes_ is a 32-bit int that wraps after 2 GB (about 1.7 s at 10 Gb/s), so it is added up and
# reset every second, as the original script does every 1.5 s.
set T [lindex $argv 0]
set ns [new Simulator]
set n 4
for {set i 0} {$i < $n} {incr i} {
    set source($i) [$ns node]
    set sink($i) [$ns node]
}
set sw [$ns node]
set swOut [$ns node]
set concur [$ns node]
set concurSink [$ns node]
for {set i 0} {$i < $n} {incr i} {
    $ns duplex-link $source($i) $sw 10000Mb 1ms DropTail
    $ns queue-limit $source($i) $sw 50
    $ns duplex-link $swOut $sink($i) 10000Mb 1ms DropTail
    $ns queue-limit $swOut $sink($i) 50
}
$ns duplex-link $sw $swOut 10000Mb 10ms DropTail
$ns queue-limit $sw $swOut 50
$ns duplex-link $concur $sw 10000Mb 10ms DropTail
$ns queue-limit $concur $sw 50
$ns duplex-link $swOut $concurSink 10000Mb 1ms DropTail
$ns queue-limit $swOut $concurSink 50
set source($n) $concur
set sink($n) $concurSink
for {set i 0} {$i <= $n} {incr i} {
    set tcp($i) [new Agent/TCP/Reno]
    set tcpSink($i) [new Agent/TCPSink]
    $ns attach-agent $source($i) $tcp($i)
    $ns attach-agent $sink($i) $tcpSink($i)
    $ns connect $tcp($i) $tcpSink($i)
    $tcp($i) set window_ 64000
    $tcp($i) set maxburst_ 64000
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at 0.0 "$ftp($i) start"
}
set bytes 0.0
proc collect {} {
    global n tcpSink bytes ns
    for {set i 0} {$i <= $n} {incr i} {
        set bytes [expr {$bytes + [$tcpSink($i) set bytes_]}]
        $tcpSink($i) set bytes_ 0
    }
    $ns after 1.0 collect
}
proc done {} {
    global n tcp bytes
    collect
    set data 0
    set acks 0
    for {set i 0} {$i <= $n} {incr i} {
        set data [expr {$data + [$tcp($i) set ndatapack_]}]
        set acks [expr {$acks + [$tcp($i) set nackpack_]}]
    }
    puts "delivered_bytes [expr {wide($bytes / 1040.0 * 1000)}]"
    puts "data_sent $data"
    puts "acks_received $acks"
    exit 0
}
$ns at 1.0 collect
$ns at $T "done"
$ns run
