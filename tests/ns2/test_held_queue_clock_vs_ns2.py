"""ns-2's clock on links whose discipline holds its packets and chooses the next one when the
line frees up (SFQ, DRR: net/link/ns2_held.rs): the packet that starts gets its ns-2 times
then, from the event that asked (`Queue::recv` on a free line, `Queue::resume`), so
simultaneous events run in ns-2's order and the whole trace is identical; a link going down
drops the discipline's packets in the order `Queue::reset` dequeues them, then the line's.
Live against ns-2.35."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
set n0 [$ns node]; set n1 [$ns node]; set n2 [$ns node]; set n3 [$ns node]
set f [open out.tr w]
$ns trace-all $f
$ns duplex-link $n2 $n0 10Mb 2ms DropTail
$ns duplex-link $n3 $n0 10Mb 3ms DropTail
$ns duplex-link $n0 $n1 1Mb 10ms {queue}
$ns queue-limit $n0 $n1 12
$ns rtmodel-at 0.6 down $n0 $n1
$ns rtmodel-at 0.8 up $n0 $n1
set i 0
foreach src [list $n2 $n3 $n3] iv {{0.004 0.005 0.0025}} {{
    set u($i) [new Agent/UDP]; $ns attach-agent $src $u($i)
    set k($i) [new Agent/Null]; $ns attach-agent $n1 $k($i); $ns connect $u($i) $k($i)
    set c($i) [new Application/Traffic/CBR]; $c($i) attach-agent $u($i)
    $c($i) set packetSize_ [expr 300 + 200 * $i]
    $c($i) set interval_ $iv
    $ns at [expr 0.1 * $i] "$c($i) start"
    incr i
}}
set tcp [$ns create-connection TCP/Reno $n2 TCPSink $n1 7]
set ftp [$tcp attach-app FTP]
$ns at 0.05 "$ftp start"
$ns at 1.5 {{$ns flush-trace; close $f; exit 0}}
$ns run
"""


@pytest.mark.parametrize("queue", ["SFQ", "DRR"])
def test_held_queue_trace_identical_through_a_link_down(vs_ns2: Any, queue: str) -> None:
    lines = vs_ns2(SCRIPT.format(queue=queue)).same("out.tr")["out.tr"].splitlines()
    # The link went down with packets waiting in the discipline: they are dropped at 0.6 s.
    assert sum(line.startswith("d 0.6 0 1 ") for line in lines) > 5
    assert sum(line.startswith("d ") for line in lines) > 100
