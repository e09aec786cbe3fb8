# Seed 001's scenario 2: one TCP (FTP) and one UDP source with exponentially distributed
# inter-arrival times share the RED bottleneck of red_tcp_cbr.tcl (10 Mb/s, 29 ms, maxthresh_ 20,
# limit 100; 100 Mb/s, 1 ms access links; window 100, 1460-byte segments). The UDP source is
# Application/Traffic/Exponential with burst_time_ 0 (EXPOO_Traffic::next_interval: one packet
# per burst, then interval_ plus an exponential idle time) and rate_ 1e12, so interval_ is 8 ps
# and the gaps are exponential with mean idle_time_: a Poisson source of 1000-byte packets.
# Prints, over [warmup, duration], the TCP's data packets acknowledged (ack_), packets sent and
# dropped at the bottleneck (a flow monitor), and the time average of rtt_ (sampled every 10 ms).
# Usage: ns seed001_poisson.tcl VARIANT UDP_MBPS DURATION WARMUP SEED
set variant [lindex $argv 0]
set udp_mbps [lindex $argv 1]
set duration [lindex $argv 2]
set warmup [lindex $argv 3]
set seed [lindex $argv 4]
global defaultRNG
$defaultRNG seed $seed
set ns [new Simulator]
foreach n {s1 s2 r1 r2 d} { set $n [$ns node] }
Queue/RED set maxthresh_ 20
$ns duplex-link $s1 $r1 100Mb 1ms DropTail
$ns duplex-link $s2 $r1 100Mb 1ms DropTail
$ns duplex-link $r1 $r2 10Mb 29ms RED
$ns duplex-link $r2 $d 100Mb 1ms DropTail
foreach {a b} [list $s1 $r1 $r1 $s1 $s2 $r1 $r1 $s2 $r1 $r2 $r2 $r1 $r2 $d $d $r2] {
    $ns queue-limit $a $b 100
}
if {$variant == "Tahoe"} { set tcp [new Agent/TCP] } else { set tcp [new Agent/TCP/$variant] }
$tcp set window_ 100
$tcp set packetSize_ 1460
$tcp set tcpTick_ 0.001
$tcp set fid_ 1
$ns attach-agent $s1 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $d $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set udp [new Agent/UDP]
$udp set fid_ 2
$ns attach-agent $s2 $udp
set null [new Agent/Null]
$ns attach-agent $d $null
$ns connect $udp $null
set exp [new Application/Traffic/Exponential]
$exp set packetSize_ 1000
$exp set burst_time_ 0
$exp set idle_time_ [expr {1000 * 8.0 / ($udp_mbps * 1e6)}]
$exp set rate_ 1e12
$exp attach-agent $udp
set fm [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $r1 $r2] $fm
$ns at 0.0 "$ftp start"
$ns at 0.0 "$exp start"
set rtt_sum 0.0
set rtt_n 0
proc sample {} {
    global ns tcp rtt_sum rtt_n
    set r [$tcp set rtt_]
    if {$r > 0} { set rtt_sum [expr {$rtt_sum + $r * [$tcp set tcpTick_]}]; incr rtt_n }
    $ns at [expr {[$ns now] + 0.01}] sample
}
proc counts {} {
    global fm
    set c(1,arr) 0; set c(1,drop) 0; set c(2,arr) 0; set c(2,drop) 0
    foreach f [$fm flows] {
        set id [$f set flowid_]
        set c($id,arr) [$f set parrivals_]
        set c($id,drop) [$f set pdrops_]
    }
    return [list $c(1,arr) $c(1,drop) $c(2,arr) $c(2,drop)]
}
proc snapshot {} {
    global tcp w rtt_sum rtt_n
    set w(ack) [$tcp set ack_]
    set w(sent) [$tcp set ndatapack_]
    set w(c) [counts]
    set rtt_sum 0.0; set rtt_n 0
    sample
}
proc finish {} {
    global tcp w duration warmup rtt_sum rtt_n
    set span [expr {$duration - $warmup}]
    set c [counts]
    set sent [expr {[$tcp set ndatapack_] - $w(sent)}]
    set drops [expr {[lindex $c 1] - [lindex $w(c) 1]}]
    puts "tcp_sent $sent"
    puts "tcp_drops $drops"
    puts "loss_rate [expr {double($drops) / $sent}]"
    puts "goodput_mbps [expr {([$tcp set ack_] - $w(ack)) * 1460 * 8.0 / $span / 1e6}]"
    puts "udp_arrivals [expr {[lindex $c 2] - [lindex $w(c) 2]}]"
    puts "udp_drops [expr {[lindex $c 3] - [lindex $w(c) 3]}]"
    puts "mean_rtt_s [expr {$rtt_sum / $rtt_n}]"
    exit 0
}
$ns at $warmup snapshot
$ns at $duration finish
$ns run
