"""ns-2's SACK receivers (`Agent/TCPSink/Sack1`, `/Sack1/DelAck`) make an ACK 8 bytes longer per
SACK block it carries (tcp-sink.cc, `Sacker::append_ack`: two 4-byte words per block), the
ns2 profile's `sack_block_bytes`: the ACKs' sizes, and so their times on the links, are
ns-2's. Live against ns-2.35 (skipped without `ns`)."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
    set ns [new Simulator]
    set tr [open out.tr w]
    $ns trace-all $tr
    set n0 [$ns node]
    set n1 [$ns node]
    set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 2ms DropTail
    $ns duplex-link $n1 $n2 800Kb 30ms DropTail
    $ns queue-limit $n1 $n2 8
    set tcp [$ns create-connection TCP/Sack1 $n0 SINK $n2 1]
    $tcp set window_ 40
    set ftp [$tcp attach-app FTP]
    $ns at 0.0 "$ftp start"
    $ns at 6.0 "flush $tr; exit 0"
    $ns run
"""


@pytest.mark.parametrize("sink", ["TCPSink/Sack1", "TCPSink/Sack1/DelAck"])
def test_sack_blocks_lengthen_the_acks_as_in_ns2(vs_ns2: Any, sink: str) -> None:
    trace = vs_ns2(SCRIPT.replace("SINK", sink)).same("out.tr")["out.tr"]
    sizes = {int(f[5]) for f in (line.split() for line in trace.splitlines())
             if f[4] == "ack"}
    assert {40, 48, 56, 64} <= sizes  # none, one, two and three blocks
