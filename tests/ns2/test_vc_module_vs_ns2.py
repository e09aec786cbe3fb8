"""`Node enable-module VC` and `$ns multicast` with unicast traffic (issue 28, ns-2.35's
held-back vc suite's VC3), and the nam trace's colour and node lines in Tcl's hash order.

ns-2.35's virtual classifier nodes (tcl/lib/ns-rtmodule.tcl `RtModule/VC`,
classifier/classifier-virtual.cc `VirtualClassifier::recv`) ask the route logic for each
packet's next hop: the static routes. `Simulator instproc multicast` (tcl/mcast/ns-mcast.tcl)
only enables the Mcast module; what would use it (`Node allocaddr`, `mrtproto`) stays not
supported. `dump-namcolors` and `dump-namnodes` (tcl/lib/ns-namsupp.tcl) write the colours and
nodes in `array names` order. Live against ns-2.35: packet and nam traces."""

from __future__ import annotations

from typing import Any

SCRIPT = """
set ns [new Simulator]
Node enable-module VC
$ns multicast
$ns trace-all [open out.tr w]
$ns namtrace-all [open out.nam w]
foreach {id c} {3 green 1 red 0 blue 12 black 2 yellow 7 orange 1 purple} {
    $ns color $id $c
}
for {set i 0} {$i < 5} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 2Mb 10ms DropTail
$ns duplex-link $n(1) $n(2) 1Mb 10ms DropTail
$ns duplex-link $n(1) $n(3) 1Mb 10ms DropTail
$ns duplex-link $n(3) $n(4) 1Mb 5ms DropTail
$ns duplex-link $n(2) $n(0) 1Mb 30ms DropTail
set udp [new Agent/UDP]
$udp set fid_ 1
$ns attach-agent $n(4) $udp
set null [new Agent/Null]
$ns attach-agent $n(0) $null
$ns connect $udp $null
set cbr [$udp attach-app Traffic/CBR]
$cbr set rate_ 600k
set tcp [new Agent/TCP/Reno]
$tcp set fid_ 2
$ns attach-agent $n(0) $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n(4) $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$cbr start"
$ns at 0.2 "$ftp start"
$ns at 2.0 "$ns flush-trace; exit 0"
$ns run
"""


def test_vc_nodes_and_multicast_with_unicast_traffic(vs_ns2: Any) -> None:
    got = vs_ns2(SCRIPT).same("out.tr", "out.nam")
    assert len(got["out.tr"].splitlines()) > 5000
    nam = got["out.nam"].splitlines()
    # One line per colour id, the last colour given to id 1; not in the order given.
    colours = [line.split()[4] for line in nam if line.startswith("c -t * ")]
    assert sorted(colours, key=int) == ["0", "1", "2", "3", "7", "12"]
    assert colours != ["3", "1", "0", "12", "2", "7"]
    assert "c -t * -i 1 -n purple" in nam
    nodes = [line.split()[4] for line in nam if line.startswith("n -t * ")]
    assert sorted(nodes) == ["0", "1", "2", "3", "4"] and nodes != sorted(nodes)


def test_multicast_groups_stay_not_supported(ns2: Any) -> None:
    run = ns2("set ns [new Simulator]\n$ns multicast\nset g [Node allocaddr]\n", name="s.tcl")
    assert run.code == 2
    assert run.err.strip() == ("ackclock: error: s.tcl:3: multicast (Node allocaddr) is not"
                               " supported by ackclock yet")
