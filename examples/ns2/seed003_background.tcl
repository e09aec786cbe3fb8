# Seed 003's background traffic alone, as the study's Appendix A script builds it
# (docs/examples/seed003.md, "The background against ns-2.35 on the study's own script"),
# for ns-2.35 (`ns`) and `ackclock ns2` alike.
#
# Kept from the study's script: the topology (n0, n2 - R0 - R1 - n1, n3; 1 Gb/s 1 ms access
# links, a 622 Mb/s 48 ms bottleneck with 1555-packet queues, 67000 elsewhere), its
# Agent/TCP and FullTcp settings, two Tmix objects (inbound n0 -> n1, outbound n3 -> n2),
# each through a lossless delay box at R0 and R1. Changed: the three names of an earlier
# Tmix release (Tmix_End, tmix_net, set-flowfile) are ns-2.35's (Tmix, Tmix_DelayBox,
# set-cvfile); `Agent/TCP set overhead_ 0.000008` is left out (TcpAgent::output's random
# send delay, which FullTcp, Tmix's agent, does not use); the high-speed flows (the study's patched ns-2) and its utils.tcl are left
# out; a queue monitor on each direction of the bottleneck prints, every second, the time
# and the bytes and packets that left it since the start.
#
#   ns seed003_background.tcl INBOUND.vec OUTBOUND.vec SECONDS
#   ackclock ns2 seed003_background.tcl INBOUND.vec OUTBOUND.vec SECONDS
#
# Vectors: `python -m ackclock.tmix FILE --connections N --rate R --seed S`.

set INBOUND [lindex $argv 0]
set OUTBOUND [lindex $argv 1]
set end [lindex $argv 2]

remove-all-packet-headers
add-packet-header IP TCP
set ns [new Simulator]
$ns use-scheduler Heap

global defaultRNG
$defaultRNG seed 9999

Agent/TCP set timestamps_ 1
Agent/TCP set window_ 67000
Agent/TCP set packetSize_ 1000
Agent/TCP set max_ssthresh_ 100
Agent/TCP set maxburst_ 2

set n(0) [$ns node]
set n(1) [$ns node]
set n(2) [$ns node]
set n(3) [$ns node]

Agent/TCP/FullTcp set segsize_ 1000
Agent/TCP/FullTcp set nodelay_ true
Agent/TCP/FullTcp set segsperack_ 2
Agent/TCP/FullTcp set interval_ 0.1

set tmix(0) [new Tmix]
$tmix(0) set-init $n(0)
$tmix(0) set-acc $n(1)
$tmix(0) set-ID 7
$tmix(0) set-cvfile $INBOUND

set tmix(1) [new Tmix]
$tmix(1) set-init $n(3)
$tmix(1) set-acc $n(2)
$tmix(1) set-ID 8
$tmix(1) set-cvfile $OUTBOUND

set box(0) [$ns Tmix_DelayBox]
$box(0) set-cvfile $INBOUND [$n(0) id] [$n(1) id]
$box(0) set-lossless

set box(1) [$ns Tmix_DelayBox]
$box(1) set-cvfile $OUTBOUND [$n(3) id] [$n(2) id]
$box(1) set-lossless

$ns duplex-link $n(0) $box(0) 1000Mb 1ms DropTail
$ns duplex-link $n(2) $box(0) 1000Mb 1ms DropTail
$ns duplex-link $box(0) $box(1) 622Mb 48ms DropTail
$ns duplex-link $box(1) $n(1) 1000Mb 1ms DropTail
$ns duplex-link $box(1) $n(3) 1000Mb 1ms DropTail

foreach {a b} [list $n(0) $box(0) $n(2) $box(0) $box(1) $n(1) $box(1) $n(3)] {
    $ns queue-limit $a $b 67000
    $ns queue-limit $b $a 67000
}
$ns queue-limit $box(0) $box(1) 1555
$ns queue-limit $box(1) $box(0) 1555

set qin [$ns monitor-queue $box(0) $box(1) ""]
set qout [$ns monitor-queue $box(1) $box(0) ""]

proc report {} {
    global ns qin qout
    puts [format "%.1f %s %s %s %s" [$ns now] [$qin set bdepartures_] \
        [$qin set pdepartures_] [$qout set bdepartures_] [$qout set pdepartures_]]
    $ns at [expr [$ns now] + 1.0] "report"
}

$ns at 0.0 "$tmix(0) start"
$ns at 0.0 "$tmix(1) start"
$ns at 1.0 "report"
$ns at $end "$tmix(0) stop"
$ns at $end "$tmix(1) stop"
$ns at $end "exit 0"
$ns run
