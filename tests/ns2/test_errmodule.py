"""ErrorModule Fid with ErrorModel/List and /Periodic (python/ackclock/ns2/errmodule.py)."""

from __future__ import annotations

# ns-2 traces only the links created after trace-all.
ONE_FLOW = """
set ns [new Simulator]
$ns trace-all [open out.tr w]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms DropTail
set tcp [new Agent/TCP/Reno]
set sink [new Agent/TCPSink]
$ns attach-agent $n0 $tcp
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
"""

DROPS = """
$tcp set fid_ 1
set em [new ErrorModule Fid]
[$ns link $n0 $n1] errormodule $em
set m [new ErrorModel/%s]
%s
$em insert $m
$em bind $m 1
$ns at 0 "$ftp start"
$ns at 2 {puts "[$tcp set nrexmitpack_]"; exit 0}
$ns run
"""


def dropped(text: str) -> list[int]:
    return [int(line.split()[10]) for line in text.splitlines() if line.startswith("d ")]


def test_a_droplist_drops_those_packets_of_the_flow(ns2):
    r = ns2(ONE_FLOW + DROPS % ("List", "$m droplist {3 5}"))
    assert r.code == 0, r.err
    # counted from 0: seqnos 3 and 5, as ns-2.35 drops them
    assert dropped(r.file("out.tr")) == [3, 5]
    assert int(r.out) >= 2


def test_a_periodic_model_in_a_module_drops_from_its_offset(ns2):
    r = ns2(ONE_FLOW + DROPS % ("Periodic", "$m unit pkt; $m set offset_ 4;"
                                " $m set period_ 1000"))
    assert r.code == 0, r.err
    # the 4th packet the model sees, and the 1000th after it (as ns-2.35 drops them)
    assert dropped(r.file("out.tr")) == [3, 1002]


def test_a_model_bound_to_a_range_of_flow_ids_takes_each(ns2):
    # `$em bind $m first last` (ns-errmodel.tcl's ErrorModule bind): flow id 1 is in 0..5.
    r = ns2(ONE_FLOW + (DROPS % ("List", "$m droplist {3 5}")).replace(
        "$em bind $m 1", "$em bind $m 0 5"))
    assert r.code == 0, r.err
    assert dropped(r.file("out.tr")) == [3, 5]


def test_a_model_bound_to_a_range_outside_the_flows_id_drops_nothing(ns2):
    r = ns2(ONE_FLOW + (DROPS % ("List", "$m droplist {3 5}")).replace(
        "$em bind $m 1", "$em bind $m 2 5"))
    assert r.code == 0, r.err
    assert dropped(r.file("out.tr")) == []


def test_a_droplist_on_a_fid_several_flows_share_is_refused(ns2):
    r = ns2(ONE_FLOW + """
        set tcp2 [new Agent/TCP/Reno]
        $tcp2 set fid_ 1
        $ns attach-agent $n0 $tcp2
        set sink2 [new Agent/TCPSink]
        $ns attach-agent $n1 $sink2
        $ns connect $tcp2 $sink2
    """ + DROPS % ("List", "$m droplist {3}"))
    assert r.code == 2
    assert "flow id 1, carried by 2 flows" in r.err


def test_delay_and_bandwidth_set_a_links_before_and_during_the_run(ns2):
    r = ns2("""
        set ns [new Simulator]
        set n0 [$ns node]
        set n1 [$ns node]
        $ns duplex-link $n0 $n1 10Mb 10ms DropTail
        $ns delay $n0 $n1 25ms duplex
        $ns bandwidth $n0 $n1 2Mb
        set l [$ns link $n0 $n1]
        $l trace-dynamics $ns stdout
        puts "[$l delay] [$l bw] [[$ns link $n1 $n0] delay] [[$ns link $n1 $n0] bw]"
        $ns at 1 {$ns delay $n0 $n1 5ms; $ns bandwidth $n1 $n0 3Mb}
        $ns at 1 {puts "[$l delay] [[$ns link $n1 $n0] bw]"}
        $ns at 2 {exit 0}
        $ns run
    """)
    # During the run too (tests/ns2/test_link_change_vs_ns2.py runs them against ns-2).
    assert r.code == 0, r.err
    assert r.out.splitlines() == ["0.025000000000000001 2000000 0.025000000000000001 10000000",
                                  "0.0050000000000000001 3000000"]


def test_neighbors_in_link_order_and_a_model_on_an_unused_fid(ns2):
    r = ns2(ONE_FLOW + """
        set n2 [$ns node]
        $ns duplex-link $n0 $n2 1Mb 1ms DropTail
        puts "[expr {[$n0 neighbors] eq "$n1 $n2"}] [expr {[$n2 neighbors] eq $n0}]"
    """ + DROPS % ("List", "$m droplist {3}\n"
                   "set p [new ErrorModel/Periodic]; $p unit pkt; $em insert $p; $em bind $p 0"))
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == "1 1"
    assert dropped(r.file("out.tr")) == [3]


FULL = """
set ns [new Simulator]
$ns trace-all [open out.tr w]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms DropTail
set src [new Agent/TCP/FullTcp]
set sink [new Agent/TCP/FullTcp]
$ns attach-agent $n0 $src
$ns attach-agent $n1 $sink
$src set fid_ 1
$sink set fid_ 1
$ns connect $src $sink
$sink listen
set ftp [new Application/FTP]
$ftp attach-agent $src
set em [new ErrorModule Fid]
[$ns link $n0 $n1] errormodule $em
set m [new ErrorModel/List]
$m droplist {%s}
$em insert $m
$em bind $m 1
$ns at 0 "$ftp start"
$ns at 2 "exit 0"
$ns run
"""


def test_a_droplist_on_a_fulltcp_connection_counts_its_handshake(ns2):
    """Both ends carry the fid (one connection); the model's packets 0 and 1 are the SYN and
    the handshake's ACK, so {16} is data segment 14: byte 1 + 14 * 536, as ns-2.35 drops it
    in test-suite-tcpVariants.tcl's onedrop_reno_full."""
    r = ns2(FULL % "16")
    assert r.code == 0, r.err
    assert dropped(r.file("out.tr")) == [1 + 14 * 536]
    r = ns2(FULL % "1")
    assert r.code == 2 and "handshake packet" in r.err


def test_a_fulltcp_connection_ignores_syn_false(ns2):
    """`Agent/TCP set syn_ false` (ns-2.35's suites set it for one-way agents) leaves FullTcp's
    handshake as it is: the same packet is dropped as above, as ns-2.35 drops it."""
    r = ns2("Agent/TCP set syn_ false\n" + FULL % "16")
    assert r.code == 0, r.err
    assert dropped(r.file("out.tr")) == [1 + 14 * 536]
