"""Queue/DRR's commands ``blimit``, ``quantum``, ``buckets`` and ``mask`` (ns-2.35
queue/drr.cc, DRR::command), as ns-2.35's tcl/ex/test-drr.tcl uses them, against ns-2.

A DRR link keeps ns-2's double clock (net/link/ns2_held.rs: the packet the discipline chooses
gets its ns-2 times when it starts), so the traces are identical line for line, with ns-2's
jitter on the CBRs (`random_ 1`, as test-drr.tcl does) and without it, where an arrival and
the end of a transmission meet in one picosecond and ns-2's doubles decide which runs
first."""

from __future__ import annotations

import pytest

SCRIPT = """
set ns [new Simulator]
set n0 [$ns node]; set n1 [$ns node]; set n2 [$ns node]; set n3 [$ns node]
set f [open out.tr w]
$ns duplex-link $n0 $n1 1Mb 0.01ms DRR
$ns duplex-link $n2 $n0 10Mb 0.01ms DRR
$ns duplex-link $n3 $n0 10Mb 0.01ms DRR
$ns trace-queue $n0 $n1 $f
set q [[$ns link $n0 $n1] queue]
$q mask %(mask)s
$q blimit 6000
$q quantum %(quantum)s
$q buckets %(buckets)s
set i 0
foreach src [list $n2 $n2 $n3 $n3] iv {0.00419 0.00331 0.00277 0.00491} {
    set u($i) [new Agent/UDP]; $ns attach-agent $src $u($i)
    set n($i) [new Agent/Null]; $ns attach-agent $n1 $n($i); $ns connect $u($i) $n($i)
    set c($i) [new Application/Traffic/CBR]; $c($i) attach-agent $u($i)
    $c($i) set packetSize_ [expr 200 + 100 * $i]
    $c($i) set interval_ $iv
    $c($i) set random_ %(random)s
    $ns at 0.0 "$c($i) start"
    incr i
}
$ns at %(stop)s {close $f; exit 0}
$ns run
"""


def same_trace(vs_ns2, stop: float, mask: int, quantum: int, buckets: int,
               random: int = 1) -> list[str]:
    both = vs_ns2(SCRIPT % {"mask": mask, "quantum": quantum, "buckets": buckets,
                            "stop": stop, "random": random})
    return both.same("out.tr")["out.tr"].splitlines()


@pytest.mark.parametrize("mask,quantum,buckets", [(0, 500, 7), (1, 250, 3), (0, 1000, 16)])
def test_drr_commands_set_the_discipline(vs_ns2, mask, quantum, buckets):
    want = same_trace(vs_ns2, 1.0, mask, quantum, buckets)
    assert sum(line.startswith("d ") for line in want) > 10


def test_drr_ties_of_an_arrival_and_a_departure_as_ns2(vs_ns2):
    # At 0.50337 s an arrival and the end of a transmission meet in one picosecond; ns-2's
    # doubles run the arrival first: the buffer overflows and the head of n2's bucket is
    # dropped (without ns-2's clock on this link the end ran first and nothing was dropped).
    want = same_trace(vs_ns2, 0.9, 0, 500, 7, random=0)
    assert any(line.startswith("d 0.50337") for line in want)
