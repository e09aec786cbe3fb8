"""ns-2.35's own Vegas (tcp/tcp-vegas.cc, `VegasTcpAgent`) against ns-2.35 itself: the engine's
Vegas under `ns2_model` (tcp/sender/ns2_vegas.rs), as `Agent/TCP/Vegas` makes it. Scripts in the
styles course assignments use (a variant over a bottleneck with CBR and a `plotWindow` proc;
Vegas against Reno with traced variables; several Vegas flows through a tiny queue), each
compared file by file with what ns-2.35 writes."""

from __future__ import annotations

from collections.abc import Callable

from tests.ns2.conftest import Both

SHARED = """# Course-assignment style: compare TCP variants over a bottleneck (Vegas here)
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set cw [open cwnd.tr w]
proc finish {} {
    global ns tf cw
    $ns flush-trace
    close $tf
    close $cw
    exit 0
}
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 10Mb 3ms DropTail
$ns duplex-link $n2 $n3 1.5Mb 20ms DropTail
$ns queue-limit $n2 $n3 10
set tcp [new Agent/TCP/Vegas]
$tcp set class_ 1
$tcp set window_ 30
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n3 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set udp [new Agent/UDP]
$ns attach-agent $n1 $udp
set null [new Agent/Null]
$ns attach-agent $n3 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set rate_ 1Mb
$cbr attach-agent $udp
proc plotWindow {tcpSource file} {
    global ns
    set time 0.1
    set now [$ns now]
    set cwnd [$tcpSource set cwnd_]
    puts $file "$now $cwnd"
    $ns at [expr $now+$time] "plotWindow $tcpSource $file"
}
$ns at 0.1 "$ftp start"
$ns at 0.1 "plotWindow $tcp $cw"
$ns at 2.0 "$cbr start"
$ns at 6.0 "$cbr stop"
$ns at 9.5 "$ftp stop"
$ns at 10.0 "finish"
$ns run
"""

AGAINST_RENO = """# Vegas against Reno on a small queue, heavy loss, traced variables
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set vf [open vars.tr w]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 10Mb 1ms DropTail
$ns duplex-link $n1 $n2 10Mb 1ms DropTail
$ns duplex-link $n2 $n3 0.8Mb 30ms DropTail
$ns queue-limit $n2 $n3 6
Agent/TCP/Vegas set v_alpha_ 2
Agent/TCP/Vegas set v_beta_ 4
set v [new Agent/TCP/Vegas]
$v set window_ 64
$v set packetSize_ 1460
$v set fid_ 1
$ns attach-agent $n0 $v
set vs [new Agent/TCPSink/DelAck]
$ns attach-agent $n3 $vs
$ns connect $v $vs
$v attach $vf
$v trace cwnd_
$v trace ssthresh_
$v trace rtt_
$v trace srtt_
set r [new Agent/TCP/Reno]
$r set window_ 64
$r set fid_ 2
$ns attach-agent $n1 $r
set rs [new Agent/TCPSink]
$ns attach-agent $n3 $rs
$ns connect $r $rs
set f1 [$v attach-app FTP]
set f2 [$r attach-app FTP]
$ns at 0.0 "$f1 start"
$ns at 1.0 "$f2 start"
proc show {} {
  global ns v r
  puts "[$ns now] vegas ack [$v set ack_] cwnd [$v set cwnd_] ss [$v set ssthresh_]\\
 rexmit [$v set nrexmit_] | reno ack [$r set ack_] cwnd [$r set cwnd_]"
  $ns at [expr [$ns now] + 2] show
}
$ns at 2 show
$ns at 20.0 "$ns flush-trace; close $tf; close $vf; exit 0"
$ns run
"""

TINY_QUEUE = """# Three Vegas flows through a 3-packet queue: timeouts, backoff
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set vf [open vars.tr w]
set r [$ns node]
set d [$ns node]
$ns duplex-link $r $d 500Kb 50ms DropTail
$ns queue-limit $r $d 3
for {set i 0} {$i < 3} {incr i} {
  set s($i) [$ns node]
  $ns duplex-link $s($i) $r 10Mb [expr 1+$i]ms DropTail
  set t($i) [new Agent/TCP/Vegas]
  $t($i) set fid_ $i
  $t($i) set window_ [expr 10 + 10*$i]
  $ns attach-agent $s($i) $t($i)
  set k($i) [new Agent/TCPSink]
  $ns attach-agent $d $k($i)
  $ns connect $t($i) $k($i)
  set f($i) [new Application/FTP]
  $f($i) attach-agent $t($i)
  $ns at [expr 0.2*$i] "$f($i) start"
}
$t(1) attach $vf
foreach v {cwnd_ ssthresh_ backoff_ rtt_ srtt_ rttvar_} { $t(1) trace $v }
proc done {} {
  global ns tf vf t
  $ns flush-trace
  close $tf
  close $vf
  for {set i 0} {$i < 3} {incr i} {
    puts "flow $i ack [$t($i) set ack_] rexmit [$t($i) set nrexmit_] cwnd [$t($i) set cwnd_]"
  }
  exit 0
}
$ns at 15 "done"
$ns run
"""


def test_vegas_beside_cbr_as_ns2(vs_ns2: Callable[..., Both]) -> None:
    """One segment first, windowInit_ from the second ACK, a window held by the rate test,
    its own fast retransmits and a timeout when the CBR starts: every packet and every
    sampled cwnd_ as ns-2.35's."""
    both = vs_ns2(SHARED)
    ns = both.same("out.tr", "cwnd.tr")
    samples = [line.split()[1] for line in ns["cwnd.tr"].splitlines()]
    assert samples[:2] == ["1", "1"]  # VegasTcpAgent's first window: one segment
    assert sum(x.startswith("d ") for x in ns["out.tr"].splitlines()) > 20


def test_vegas_against_reno_traced_as_ns2(vs_ns2: Callable[..., Both]) -> None:
    """v_alpha_/v_beta_ set on the class, a delaying sink (segment 0 answered at once, as
    DelAckSink answers a SYN), a Reno flow drawing its boot_time_ after Vegas's two draws:
    packets, printouts and the traced cwnd_, ssthresh_, rtt_, srtt_ lines in ns-2's order."""
    both = vs_ns2(AGAINST_RENO)
    ns = both.same("out.tr", "vars.tr")
    assert "cwnd_ 2.000" in ns["vars.tr"]  # windowInit_ set before this ACK's growth


def test_vegas_timeouts_in_a_tiny_queue_as_ns2(vs_ns2: Callable[..., Both]) -> None:
    """Three Vegas agents through a 3-packet queue: fine-grained retransmits, timeouts with
    backoff (v_slowstart_ after wnd_restart_ in the trace), the inflated window falling back
    with ssthresh_ 2."""
    both = vs_ns2(TINY_QUEUE)
    ns = both.same("out.tr", "vars.tr")
    assert "backoff_ 4" in ns["vars.tr"]
    assert "---A---" not in ns["out.tr"]  # VegasTcpAgent::output never sets cong_action
