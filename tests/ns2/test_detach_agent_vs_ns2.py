"""``$ns detach-agent`` during the run, against ns-2.35: Node instproc detach
(tcl/lib/ns-node.tcl) makes the null agent both the agent's port and its target, so what
reaches the agent is dropped there and what it sends goes nowhere, untraced; the agent itself
runs on (its timers fire, its sends take uids), and packets already in the network travel on.
"""

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
$ns duplex-link $n0 $n1 5Mb 3ms DropTail
$ns duplex-link $n1 $n2 1Mb 12ms DropTail
$ns queue-limit $n1 $n2 8
set tcp [new Agent/TCP/Newreno]
$tcp set fid_ 1
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set udp [new Agent/UDP]
$udp set fid_ 2
$ns attach-agent $n2 $udp
set null [new Agent/Null]
$ns attach-agent $n0 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 300
$cbr set interval_ 0.011
$cbr attach-agent $udp
$ns at 0.1 "$ftp start"
$ns at 0.2 "$cbr start"
$ns at DETACH
$ns at 3.0 "finish"
proc finish {} {
    global ns tf tcp
    $ns flush-trace
    close $tf
    puts "[$tcp set ndatapack_] [$tcp set ack_]"
    exit 0
}
$ns run
"""


def test_a_detached_sink_and_then_sender_as_in_ns2(vs_ns2: Callable[..., Both]) -> None:
    """The sink goes first (segments in flight still cross the links, no ACK answers them,
    the sender times out and retransmits into the network), the sender later (its timeouts
    then send nowhere, but take uids that later packets' trace lines show)."""
    script = SCRIPT.replace("DETACH", '1.2 "$ns detach-agent $n2 $sink"\n'
                            '$ns at 2.1 "$ns detach-agent $n0 $tcp"')
    trace = vs_ns2(script).same("out.tr")["out.tr"].splitlines()
    late = [x.split() for x in trace if float(x.split()[1]) > 1.25]
    assert not [x for x in late if x[4] == "ack" and x[0] == "+"]
    assert [x for x in late if x[4] == "tcp" and x[0] == "+" and float(x[1]) < 2.1]
    assert not [x for x in late if x[4] == "tcp" and x[0] == "+" and float(x[1]) > 2.1]


def test_a_detached_null_agent_as_in_ns2(vs_ns2: Callable[..., Both]) -> None:
    script = SCRIPT.replace("DETACH", '1.0 "$ns detach-agent $n0 $null"')
    trace = vs_ns2(script).same("out.tr")["out.tr"].splitlines()
    assert [x for x in trace if " cbr " in x and float(x.split()[1]) > 2.0]
