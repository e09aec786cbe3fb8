"""HighSpeed TCP as ns-2.35's `Agent/TCP` runs it with `windowOption_ 8` (tcp/tcp.cc,
`TcpAgent::slowdown`): the first window reduction, and one in slow start, halve the window
("for the first decrease, decrease by half"); later ones keep windowd() - decrease_param()
windowd() of the exact window, truncated to whole segments without `precisionReduce_`
(Reno's decrease_num_ * window() takes the whole segments first). Live against ns-2.35: the
traced cwnd_ and the packet trace must be identical; the run must have a reduction where
the two truncations differ, so that the rule is tested."""

from __future__ import annotations

import math
from typing import Any

# One Sack1 flow into a 20 Mb/s bottleneck of 70 packets for 8 s: a first reduction in slow
# start from 343 segments, then HighSpeed's from about 174.65 segments.
SCRIPT = """
    Agent/TCP set precisionReduce_ false
    Agent/TCP set windowOption_ 8
    Agent/TCP set packetSize_ 1000
    Agent/TCP set window_ 1000
    set ns [new Simulator]
    set tf [open out.tr w]
    $ns trace-all $tf
    set n0 [$ns node]
    set r1 [$ns node]
    set n1 [$ns node]
    $ns duplex-link $n0 $r1 100Mb 1ms DropTail
    $ns duplex-link $r1 $n1 20Mb 20ms DropTail
    $ns queue-limit $r1 $n1 70
    set tcp [$ns create-connection TCP/Sack1 $n0 TCPSink/Sack1 $n1 0]
    set cf [open cwnd.tr w]
    $tcp trace cwnd_
    $tcp attach $cf
    set ftp [$tcp attach-app FTP]
    $ns at 0.0 "$ftp start"
    $ns at 8.0 "close $tf; close $cf; exit 0"
    $ns run
"""


def kept(w: float) -> float:
    """ns-2's HighSpeed decreasewin with its defaults (low_window_ 38, high_window_ 83000,
    high_decrease_ 0.1): w - decrease_param() w."""
    dec2 = (0.1 - 0.5) / (math.log(83000) - math.log(38))
    return w - (0.5 - math.log(38) * dec2 + math.log(w) * dec2) * w


def test_highspeed_reductions_as_ns2(vs_ns2: Any) -> None:
    want = vs_ns2(SCRIPT).same("out.tr", "cwnd.tr")
    cwnd = [float(line.split()[-1]) for line in want["cwnd.tr"].splitlines()]
    cuts = [(a, b) for a, b in zip(cwnd, cwnd[1:], strict=False) if b < a - 1]
    assert cuts[0] == (343.0, 171.0)  # the first, in slow start: half
    later = [(a, b) for a, b in cuts[1:] if int(kept(a)) != int(kept(math.floor(a)))]
    assert later and all(b == int(kept(a)) for a, b in later)
