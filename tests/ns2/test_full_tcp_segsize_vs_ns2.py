"""A FullTcp agent with `segsize_ 0` takes its segment from `packetSize_` less its header
(ns-2.35 `FullTcpAgent::foutput`: `maxseg_ = size_ - headersize()` when maxseg_ is 0), as
ns-2.35's held-back test-suite-tcp-init-win-full sets it for every agent (issue 28)."""

from __future__ import annotations

from typing import Any

SCRIPT = """
    Agent/TCP/FullTcp set segsize_ 0
    set ns [new Simulator]
    set f [open out.tr w]
    $ns trace-all $f
    set n0 [$ns node]
    set n1 [$ns node]
    set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 2ms DropTail
    $ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
    $ns queue-limit $n1 $n2 10
    foreach {i size} {1 1000 2 576} {
        set src [new Agent/TCP/FullTcp/Tahoe]
        set dst [new Agent/TCP/FullTcp/Tahoe]
        $src set packetSize_ $size
        $dst set packetSize_ $size
        $src set fid_ $i
        $ns attach-agent $n0 $src
        $ns attach-agent $n2 $dst
        $ns connect $src $dst
        $dst listen
        set ftp($i) [$src attach-app FTP]
        $ns at 0.0$i "$ftp($i) start"
    }
    $ns at 2.0 "$ns flush-trace; close $f; exit 0"
    $ns run
"""


def test_segsize_0_takes_the_segment_from_packet_size(vs_ns2: Any) -> None:
    got = vs_ns2(SCRIPT).same("out.tr")["out.tr"].splitlines()
    sizes = {(x.split()[7], x.split()[5]) for x in got if x.split()[4] == "tcp"}
    # packetSize_ on the wire: segments of packetSize_ - 40.
    assert ("1", "1000") in sizes and ("2", "576") in sizes, sizes


def test_segsize_0_with_a_packet_no_larger_than_the_header(vs_ns2: Any) -> None:
    script = SCRIPT.replace("1 1000 2 576", "1 40")
    both = vs_ns2(script)
    assert both.ac.code == 2
    assert "segsize_ 0 takes the segment from packetSize_ 40" in both.ac.err
    assert "Traceback" not in both.ac.err
