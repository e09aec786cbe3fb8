# Seed 002 (Querzola, "ns-2/IKRSimLib comparison", 2004), Appendix A: the ns-2 model.
#
# The report prints the script from "$loss_module unit pkt" on; the lines above the marker
# below are reconstructed from its Section 4 and Appendix B (N Reno sources on Ba access
# links, a Bf bottleneck of two simplex links with h_delay each way, Bernoulli loss p and a
# Buff_Size-packet buffer on the data direction, delayed-ACK sinks on ideal links, 1460-byte
# segments, a 32-segment window, start times uniform in [0, 100 ms]).
# Usage: ns seed002.tcl ?SIM_TIME? ?p? ?TCP_AGENT? ?Buff_Size?
set ns [new Simulator]

set SIM_TIME 1500.0
set p 0.01
set TCP_AGENT 5
set Buff_Size 200
if {$argc > 0} { set SIM_TIME [lindex $argv 0] }
if {$argc > 1} { set p [lindex $argv 1] }
if {$argc > 2} { set TCP_AGENT [lindex $argv 2] }
if {$argc > 3} { set Buff_Size [lindex $argv 3] }
set Ba 2
set Bf 10
set h_delay 50
set delay [expr 2 * $h_delay]

Agent/TCP set packetSize_ 1460
Agent/TCP set window_ 32

set entry_node [$ns node]
set exit_node [$ns node]
$ns simplex-link $entry_node $exit_node [set Bf]Mb [set h_delay]ms DropTail
$ns simplex-link $exit_node $entry_node [set Bf]Mb [set h_delay]ms DropTail
$ns queue-limit $entry_node $exit_node $Buff_Size

set ran_del [new RandomVariable/Uniform]
$ran_del set min_ 0.0
$ran_del set max_ 0.1

set loss_module [new ErrorModel]
$loss_module set rate_ $p
# --- from here on: the report's Appendix A, extraction breaks repaired ---
$loss_module unit pkt
$loss_module ranvar [new RandomVariable/Uniform]
$loss_module drop-target [new Agent/Null]

$ns link-lossmodel $loss_module $entry_node $exit_node

for {set cont1 0} {$cont1 < $TCP_AGENT} {incr cont1} {

set tcp($cont1) [new Agent/TCP/Reno]

set app($cont1) [new Application/FTP]
$app($cont1) attach-agent $tcp($cont1)

$ns at [$ran_del value] "$app($cont1) start"
$ns at $SIM_TIME "$app($cont1) stop"

set TCP_node($cont1) [$ns node]

$ns attach-agent $TCP_node($cont1) $tcp($cont1)
$ns at $SIM_TIME "$ns detach-agent $TCP_node($cont1) $tcp($cont1)"

set Sender_Access_Link($cont1) [$ns duplex-link $entry_node $TCP_node($cont1) [set Ba]Mb 0ms DropTail]

set sink($cont1) [new Agent/TCPSink/DelAck]

set SINK_node($cont1) [$ns node]

$ns attach-agent $SINK_node($cont1) $sink($cont1)
$ns at $SIM_TIME "$ns detach-agent $SINK_node($cont1) $sink($cont1)"

set Receiver_Access_Link($cont1) [$ns duplex-link $SINK_node($cont1) $exit_node 1e25Mb 0ms DropTail]

$ns connect $tcp($cont1) $sink($cont1)

}

set queue_fLink [$ns monitor-queue $entry_node $exit_node [$ns get-ns-traceall]]

set integ [$queue_fLink get-pkts-integrator]

proc print {} {
global ns queue_fLink SIM_TIME p TCP_AGENT Ba Bf delay h_delay Buff_Size integ

set IntegraleQ [$integ set sum_]
set mean_queue_length [expr $IntegraleQ/$SIM_TIME]

set pl_arr [$queue_fLink set parrivals_]
set pl_dep [$queue_fLink set pdepartures_]
set pl_drops [$queue_fLink set pdrops_]

set bl_arr [$queue_fLink set barrivals_]
set bl_dep [$queue_fLink set bdepartures_]
set bl_drops [$queue_fLink set bdrops_]

set pkts_of [expr $pl_arr - $pl_dep]
set byte_of [expr $bl_arr - $bl_dep]

set pkts_err [expr $pl_drops - $pkts_of]
set byte_err [expr $bl_drops - $byte_of]

set throughput_B_ms [expr [expr $bl_dep - $byte_err]/[expr $SIM_TIME*1000]]

puts " "
puts " "
puts " Number of segments arrived at the Entry node = $pl_arr "
puts " Number of segments leaved the Entry node = $pl_dep "
puts " "

puts " Number of total segments lost = $pl_drops "
puts " Number of segment lost by queue overflow = $pkts_of "
puts " Number of segments lost on fLink = $pkts_err "
puts " "
puts " Number of Byte arrived at the Entry node = $bl_arr Byte"
puts " Number of Byte leaved the Entry node = $bl_dep Byte"
puts " "
puts " "
puts " "
puts " Number of Sources = $TCP_AGENT "
puts " Single access bandwidth = $Ba Mbit/s"
puts " Bottleneck bandwidth = $Bf Mbit/s"
puts " Bottleneck Buffer Size = $Buff_Size pkts"
puts " Network delay = $h_delay + $h_delay = $delay ms"
puts " Segment loss probability (p) = $p"
puts " "
puts " "
puts " Mean Bottleneck Queue Length = $mean_queue_length (in packets)"
puts " "
puts " Throughput = $throughput_B_ms Byte/ms"
puts " "
}

$ns at $SIM_TIME "print"
$ns at $SIM_TIME "finish"

proc finish {} {
puts [exec date]

exit 0
}

puts "running ns..."
puts [exec date]

$ns run
