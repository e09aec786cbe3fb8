"""`Agent/TCP/Sack1` connected to a sink that sends no SACK blocks (`Agent/TCPSink`,
`/DelAck`), a pairing common in scripts found on the web. ns-2.35 runs it:
`Sack1TcpAgent::recv` counts a duplicate ACK only when `ScoreBoardRQ::UpdateScoreBoard`
changed the board, and without SACK blocks it never does, so no fast retransmit starts and
every loss waits for the retransmission timer. Live against ns-2.35: the packet trace, the
traced cwnd_ and the counters must be identical."""

from __future__ import annotations

from typing import Any

import pytest

# A Sack1 flow and a Reno flow into a 1.5 Mb/s bottleneck whose buffer overflows.
SCRIPT = """
    set ns [new Simulator]
    set f [open out.tr w]
    $ns trace-all $f
    set n0 [$ns node]; set n1 [$ns node]; set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 2ms DropTail
    $ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
    $ns queue-limit $n1 $n2 [lindex $argv 1]
    set tcp [new Agent/TCP/Sack1]
    $tcp set window_ 40
    $tcp set fid_ 1
    $ns attach-agent $n0 $tcp
    set sink [new [lindex $argv 0]]
    $ns attach-agent $n2 $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]; $ftp attach-agent $tcp
    set tcp2 [new Agent/TCP/Reno]
    $ns attach-agent $n0 $tcp2
    set sink2 [new Agent/TCPSink]; $ns attach-agent $n2 $sink2; $ns connect $tcp2 $sink2
    set ftp2 [new Application/FTP]; $ftp2 attach-agent $tcp2
    set cf [open cwnd.tr w]
    $tcp attach $cf
    $tcp trace cwnd_
    $ns at 0.0 "$ftp start"
    $ns at 0.5 "$ftp2 start"
    $ns at 10.0 {
        puts "[$tcp set ndatapack_] [$tcp set nrexmitpack_] [$tcp set nrexmit_] [$tcp set ack_]"
        $ns flush-trace; close $f; close $cf; exit 0
    }
    $ns run
"""


@pytest.mark.parametrize(("sink", "limit"), [("Agent/TCPSink", "8"),
                                             ("Agent/TCPSink/DelAck", "20")])
def test_sack1_without_sack_blocks_waits_for_timeouts_as_ns2(vs_ns2: Any, sink: str,
                                                             limit: str) -> None:
    both = vs_ns2(SCRIPT, sink, limit)
    want = both.same("out.tr", "cwnd.tr")
    sent, resent, timeouts, _ = (int(v) for v in both.ns.out.split())
    assert resent > 0 and timeouts > 0  # losses, each repaired after a timeout
    # No fast retransmit: cwnd_ only ever falls to one segment, never to a half.
    cwnds = [float(line.split()[-1]) for line in want["cwnd.tr"].splitlines()]
    falls = [b for a, b in zip(cwnds, cwnds[1:], strict=False) if b < a]
    assert falls and all(b == 1.0 for b in falls)
