# Seed 003 without background traffic, ns-2.35 (Debian).
# usage: ns seed003_ns2.tcl TYPE1 TYPE2|none START2 END OUTPREFIX
#   TYPE: cubic | scalable | highspeed | bic | htcp  (Agent/TCP/Linux, select_ca)
#         hsnative (Agent/TCP/Sack1 windowOption_ 8, RFC 3649 formula)
set type(0) [lindex $argv 0]
set type(1) [lindex $argv 1]
set start(0) 0.0
set start(1) [lindex $argv 2]
set end [lindex $argv 3]
set out [lindex $argv 4]

remove-all-packet-headers
add-packet-header Flags IP TCP
set ns [new Simulator]
$ns use-scheduler Heap

Agent/TCP set timestamps_ 1
Agent/TCP set window_ 67000
Agent/TCP set packetSize_ 1000
Agent/TCP set overhead_ 0.000008
Agent/TCP set max_ssthresh_ 100
Agent/TCP set maxburst_ 2
Agent/TCPSink set ts_echo_rfc1323_ true

set r0 [$ns node]
set r1 [$ns node]
$ns duplex-link $r0 $r1 622Mb 48ms DropTail
$ns queue-limit $r0 $r1 1555
$ns queue-limit $r1 $r0 1555

proc sample {i} {
    global ns tcp fp
    set now [$ns now]
    puts $fp($i) "$now [$tcp($i) set cwnd_] [$tcp($i) set ssthresh_] [$tcp($i) set ack_] [$tcp($i) set nrexmitpack_]"
    $ns at [expr $now + 0.1] "sample $i"
}

for {set i 0} {$i < 2} {incr i} {
    if {$type($i) == "none"} continue
    set s($i) [$ns node]
    set d($i) [$ns node]
    $ns duplex-link $s($i) $r0 1000Mb 1ms DropTail
    $ns duplex-link $r1 $d($i) 1000Mb 1ms DropTail
    foreach {a b} [list $s($i) $r0 $r0 $s($i) $r1 $d($i) $d($i) $r1] { $ns queue-limit $a $b 67000 }
    if {$type($i) == "hsnative"} {
        set tcp($i) [new Agent/TCP/Sack1]
        $tcp($i) set windowOption_ 8
        $tcp($i) set low_window_ 38
        $tcp($i) set high_window_ 83000
        $tcp($i) set high_p_ 0.0000001
        $tcp($i) set high_decrease_ 0.1
    } else {
        set tcp($i) [new Agent/TCP/Linux]
        $ns at 0 "$tcp($i) select_ca $type($i)"
    }
    $tcp($i) set fid_ $i
    set sink($i) [new Agent/TCPSink/Sack1]
    $ns attach-agent $s($i) $tcp($i)
    $ns attach-agent $d($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [$tcp($i) attach-app FTP]
    set fp($i) [open $out.f[expr $i+1].cwnd w]
    $ns at $start($i) "$ftp($i) start"
    $ns at $start($i) "sample $i"
}
$ns at $end "finish"
proc finish {} {
    global fp
    foreach i [array names fp] { close $fp($i) }
    exit 0
}
$ns run
