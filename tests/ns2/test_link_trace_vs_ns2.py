"""``$link trace $ns $file`` (ns-link.tcl, SimpleLink instproc trace: what trace-queue calls),
as ns-2.35's callback_demo.tcl uses it, against ns-2 itself."""

from __future__ import annotations

SCRIPT = """
set ns [new Simulator]
set n1 [$ns node]; set n2 [$ns node]; set n3 [$ns node]
$ns duplex-link $n1 $n2 2Mb 10ms DropTail
$ns duplex-link $n2 $n3 1Mb 20ms DropTail
$ns queue-limit $n2 $n3 8
set f [open out.tr w]
[$ns link $n2 $n3] trace $ns $f
set tcp [$ns create-connection TCP/Reno $n1 TCPSink $n3 0]
$tcp set window_ 30
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 2 {close $f; exit 0}
$ns run
"""


def test_a_links_own_trace_is_trace_queues(vs_ns2):
    want = vs_ns2(SCRIPT).same("out.tr")["out.tr"]
    assert {line[0] for line in want.splitlines()} == {"+", "-", "r", "d"}


def test_a_links_nam_trace_is_refused_in_one_line(ns2):
    r = ns2(SCRIPT.replace("trace $ns $f", "trace $ns $f nam"))
    assert r.code == 2
    assert "not supported" in r.err and len(r.err.strip().splitlines()) == 1
