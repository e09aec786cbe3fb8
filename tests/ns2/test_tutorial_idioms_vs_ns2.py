"""Idioms of older ns-2 tutorials and course scripts, run against ns-2.35: the obsolete
``$tcp attach-source FTP`` (tcl/lib/ns-agent.tcl, ns-source.tcl's Source/FTP) and TCP Vegas's
own segment sizes (VegasTcpAgent::output never adds headers and sends no SYN)."""

from __future__ import annotations

from collections.abc import Callable

from conftest import Both

SCRIPT = """
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
$ns queue-limit $n1 $n2 15
set tcp [new Agent/CLASS]
$tcp set packetSize_ 960
$tcp set window_ 64
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
SOURCE
$ns at 0.1 "$ftp start"
$ns at 3.0 "$ftp stop"
$ns at 4.0 "finish"
proc finish {} {
    global ns tf tcp
    $ns flush-trace
    close $tf
    puts "acked [$tcp set ack_]"
    exit 0
}
$ns run
"""


def test_attach_source_ftp_sends_as_in_ns2(vs_ns2: Callable[..., Both]) -> None:
    script = (SCRIPT.replace("CLASS", "TCP/Reno")
              .replace("SOURCE", "set ftp [$tcp attach-source FTP]"))
    ns = vs_ns2(script).same("out.tr")
    trace = ns["out.tr"].splitlines()
    assert sum(x.startswith("d ") for x in trace) > 0  # losses and recovery, not just a ramp
    # Source/FTP's stop is `advance 0`: nothing new leaves after 3 s.
    assert not [x for x in trace if x.startswith("+ ") and " tcp " in x and " 0 0.0 " in x
                and float(x.split()[1]) > 3.0 and int(x.split()[10]) > 0
                and "1000" not in x.split()[5]]


def test_vegas_segments_are_packet_size_without_a_syn(vs_ns2: Callable[..., Both]) -> None:
    """ns-2.35's VegasTcpAgent::output sends every segment at packetSize_, segment 0
    included; ackclock's Vegas sent 1000-byte segments plus 40 bytes of headers and a 40-byte
    first segment. (Its first window still differs from ns-2's, so the traces do not match
    past the first round trip: the sizes are what this checks.)"""
    both = vs_ns2(SCRIPT.replace("CLASS", "TCP/Vegas")
                  .replace("SOURCE", "set ftp [new Application/FTP]\n$ftp attach-agent $tcp"))
    sizes = []
    for side in (both.ns, both.ac):
        assert side.code == 0, side.err
        sizes.append({x.split()[5] for x in side.file("out.tr").splitlines()
                      if x.startswith("- ") and " tcp " in x})
    assert sizes[0] == {"960"}
    assert sizes[1] == sizes[0]


LOSS_MONITOR = """
set ns [new Simulator]
set f [open rate.tr w]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 5Mb 2ms DropTail
$ns duplex-link $n1 $n2 5Mb 2ms DropTail
$ns duplex-link $n2 $n3 1Mb 10ms DropTail
$ns queue-limit $n2 $n3 8
set mon [new Agent/LossMonitor]
$ns attach-agent $n3 $mon
foreach {i rate start} {0 600k 0.1 1 700k 0.37} {
    set n [set n$i]
    set udp($i) [new Agent/UDP]
    $ns attach-agent $n $udp($i)
    $ns connect $udp($i) $mon
    set cbr($i) [new Application/Traffic/CBR]
    $cbr($i) set packetSize_ 400
    $cbr($i) set rate_ $rate
    $cbr($i) attach-agent $udp($i)
    $ns at $start "$cbr($i) start"
}
puts "before: [$mon set nlost_] [$mon set expected_] [$mon set lastPktTime_]"
proc record {} {
    global ns mon f
    set now [$ns now]
    puts $f "$now [$mon set npkts_] [$mon set nlost_] [$mon set expected_] [$mon set lastPktTime_]"
    $mon set nlost_ 0
    $mon set npkts_ 0
    $ns at [expr $now + 0.25] "record"
}
$ns at 0.0 "record"
$ns at 1.3 "$mon clear"
$ns at 2.0 "$cbr(0) stop"
$ns at 3.0 "finish"
proc finish {} {
    global f mon
    close $f
    puts "end: [$mon set bytes_] [$mon set nlost_] [$mon set expected_]"
    exit 0
}
$ns run
"""


def test_loss_monitor_counts_sequence_gaps_as_ns2(vs_ns2: Callable[..., Both]) -> None:
    """ns-2.35's LossMonitor::recv: nlost_ grows by each gap in the sequence numbers it sees,
    across every source connected to it (two interleaved sources count each other's numbers
    as gaps), expected_ is the last number plus one (0 before the first), lastPktTime_ the
    clock at the last arrival; ``set nlost_ 0`` restarts the count, ``clear`` skips one gap.
    ackclock's nlost_ was always 0."""
    rows = vs_ns2(LOSS_MONITOR).same("rate.tr")["rate.tr"].splitlines()
    lost = [int(r.split()[2]) for r in rows]
    assert sum(lost) > 1000 and lost[-1] == 0  # one source left: no gaps after 2 s


NAM = """
set ns [new Simulator]
$ns color 1 Blue
$ns color 2 Red
set nf [open out.nam w]
$ns namtrace-all $nf
proc finish {} {
    global ns nf
    $ns flush-trace
    close $nf
    exit 0
}
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 2Mb 10ms DropTail
$ns duplex-link $n1 $n2 2Mb 3ns DropTail
$ns duplex-link $n2 $n3 1.1Mb 20ms DropTail
$ns queue-limit $n2 $n3 10
$ns duplex-link-op $n0 $n2 orient right-down
$ns duplex-link-op $n1 $n2 orient right-up
$ns duplex-link-op $n2 $n3 orient right
$ns duplex-link-op $n2 $n3 queuePos 0.5
set tcp [new Agent/TCP]
$tcp set fid_ 1
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n3 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set udp [new Agent/UDP]
$udp set fid_ 2
$ns attach-agent $n1 $udp
set null [new Agent/Null]
$ns attach-agent $n3 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set packet_size_ 1000
$cbr set rate_ 1mb
$ns at 0.1 "$cbr start"
$ns at 1.0 "$ftp start"
$ns at 4.0 "$ftp stop"
$ns at 4.5 "$cbr stop"
$ns at 5.0 "finish"
$ns run
"""


def test_nam_trace_is_ns2s_to_the_digit(vs_ns2: Callable[..., Both]) -> None:
    """ns-2 writes a nam trace's times as ``%.15g`` of its double clock (trace/trace.cc,
    TIME_FORMAT), and a link's ``-r``/``-D`` as the doubles its parsers made (3ns is
    3.0000000000000004e-09, 1.1Mb 1100000.0000000002); ackclock wrote the packet trace's
    microseconds and the exact values."""
    nam = vs_ns2(NAM).same("out.nam")["out.nam"]
    assert "-D 3.0000000000000004e-09" in nam
    assert any(len(x.split()[2]) > 12 for x in nam.splitlines() if x.startswith("r -t"))


SIMULATOR_ARRAYS = """
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1Mb 10ms DropTail
Simulator instproc get-link { a b } {
    $self instvar link_
    return $link_([$a id]:[$b id])
}
Simulator instproc node-count {} {
    $self instvar Node_
    return [llength [array names Node_]]
}
set l [$ns get-link $n1 $n2]
[$l queue] set limit_ 4
puts "nodes [$ns node-count] same [expr {$l eq [$ns link $n1 $n2]}]\
 bw [[$l link] set bandwidth_]"
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set rate_ 2Mb
$cbr attach-agent $udp
$ns at 0.1 "$cbr start"
$ns at 0.5 "$ns flush-trace; close $tf; exit 0"
$ns run
"""


def test_a_simulator_instproc_reads_link_and_node_arrays(vs_ns2: Callable[..., Both]) -> None:
    """Scripts add Simulator instprocs that read ns-2's own arrays (``$self instvar link_``,
    ``link_($sid:$did)``, as ns-2.35's tcl/ex/test-drr.tcl does; ``Node_``): the link's
    object is the one ``$ns link`` returns, and its queue limit set through it holds."""
    both = vs_ns2(SIMULATOR_ARRAYS)
    both.same("out.tr")
    assert both.ns.out.split()[:4] == ["nodes", "3", "same", "1"]
    # Drops at the limit of 4 set through the link's object (its default is 50).
    assert any(x.startswith("d ") for x in both.ns.file("out.tr").splitlines())


PARSERS = """
set ns [new Simulator]
foreach s {100ms 3ms 2 1.5 10us 7ns 2sec} { puts "$s [time_parse $s] [delay_parse $s]" }
foreach s {1.5Mb 10Mb 64kb 1MB 100b 2Gbps 8kBps 3} { puts "$s [bw_parse $s]" }
puts "[$ns delay_parse 100ms] [$ns bw_parse 1.5Mb]"
"""


def test_time_and_bandwidth_parsers_as_ns2(vs_ns2: Callable[..., Both]) -> None:
    """tcl/lib/ns-lib.tcl's time_parse, delay_parse, bw_parse and the Simulator's delay_parse
    and bw_parse (ns-2.35's tcl/ex/redlight.tcl calls `$ns delay_parse 100ms`)."""
    both = vs_ns2(PARSERS)
    both.same()
    assert both.ns.out.splitlines()[0] == "100ms 0.10000000000000001 0.10000000000000001"
