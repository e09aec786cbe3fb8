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
