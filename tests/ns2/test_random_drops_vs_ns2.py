"""ns-2's default random-number generator shared by the script and the engine (rng.py,
crates/ackclock-core/src/rng/ns2.rs): RED's random early drops (`REDQueue::drop_early`) and
TFRC's send gaps (`TfrcAgent::nextpkt`) draw ns-2's numbers in ns-2's order, interleaved with
the script's own draws in `$ns at` events. Live against ns-2.35 (skipped without `ns`)."""

from __future__ import annotations

import bisect
from pathlib import Path
from typing import Any

import pytest

# A TFRC and a Reno flow through a 1.5 Mb/s RED queue of 25 packets (ns-2's defaults:
# automatic thresholds, gentle_, queue and drops in bytes), the queue's curq_/ave_ traced,
# and the script drawing from $defaultRNG every 0.7 s while the run goes on.
SCRIPT = """
    SEED
    set ns [new Simulator]
    set tr [open out.tr w]
    $ns trace-all $tr
    set n0 [$ns node]
    set n1 [$ns node]
    set n2 [$ns node]
    set n3 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 2ms DropTail
    $ns duplex-link $n1 $n2 1.5Mb 20ms RED
    $ns queue-limit $n1 $n2 25
    $ns duplex-link $n2 $n3 10Mb 4ms DropTail
    set redq [[$ns link $n1 $n2] queue]
    set tchan [open all.q w]
    $redq trace curq_
    $redq trace ave_
    $redq attach $tchan
    set tf [$ns create-connection TFRC $n0 TFRCSink $n3 1]
    set tcp [$ns create-connection TCP/Reno $n0 TCPSink $n3 2]
    set ftp [$tcp attach-app FTP]
    $ns at 0.0 "$tf start"
    $ns at 0.3 "$ftp start"
    proc draw {} {
        global ns defaultRNG
        puts "[$ns now] [$defaultRNG uniform 0 1] [$defaultRNG integer 100]"
        $ns at [expr [$ns now] + 0.7] draw
    }
    $ns at 0.05 draw
    $ns at 8.0 "close $tchan; flush $tr; exit 0"
    $ns run
"""


def early_drops(trace: str, queue: str, limit_bytes: int) -> int:
    """Drops of packets that found room below the limit (curq_ at the drop's arrival)."""
    q = [line.split() for line in queue.splitlines() if line.startswith("Q ")]
    times = [float(x[1]) for x in q]
    n = 0
    for line in trace.splitlines():
        f = line.split()
        if f[0] == "d":
            i = bisect.bisect_right(times, float(f[1])) - 1
            n += int(q[i][2]) + int(f[5]) <= limit_bytes
    return n


@pytest.mark.parametrize("seed", ["", "$defaultRNG seed 7"])
def test_red_early_drops_and_tfrc_gaps_draw_ns2s_numbers(vs_ns2: Any, seed: str) -> None:
    both = vs_ns2(SCRIPT.replace("SEED", seed))
    want = both.same("out.tr", "all.q")
    # RED made random early drops (25 packets of 500 bytes: ns-2's queue_in_bytes_ limit).
    assert early_drops(want["out.tr"], want["all.q"], 25 * 500) > 10
    assert len(both.ns.out.splitlines()) == 12


def test_red_idle_decay_counts_virtual_arrivals_in_ns2s_doubles(vs_ns2: Any) -> None:
    """validation/ns2/red_tcp_cbr.tcl (a TCP and a 4 Mb/s CBR through a RED queue) with
    `trace-all`: the CBR's packets find the line idle for 1.2 ms, which ns-2 counts as
    int(2500 * (now - idletime_)) = 2 virtual arrivals in its doubles, not 3 (REDQueue::enque);
    one more decay of the average moves every random early drop after it."""
    script = (Path(__file__).resolve().parents[2] / "validation" / "ns2" /
              "red_tcp_cbr.tcl").read_text()
    script = script.replace("set ns [new Simulator]\n",
                            "set ns [new Simulator]\n$ns trace-all [open out.tr w]\n", 1)
    both = vs_ns2(script, "Reno", "4Mb", "12", "2", "RED", "1")
    assert both.ns.code == 0 and both.ac.code == 0, both.ac.err
    trace = both.ns.file("out.tr")
    assert trace.count("\nd ") > 40
    assert both.ac.file("out.tr") == trace
