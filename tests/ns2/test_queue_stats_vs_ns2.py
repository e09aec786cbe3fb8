"""A queue's summary statistics and DropTail in bytes (ns-2.35 queue/queue.cc
`Queue::updateStats`, queue/drop-tail.cc and queue/red.cc `print_summarystats`, the
`printstats` command with `summarystats_` true; `DropTail::enque` with `queue_in_bytes_`).
Live against ns-2.35: the printout (ns-2's printf, after Tcl's output when piped) and the
packet trace, and the simple suite's tests that use them."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
Queue/{queue} set summarystats_ true
{extra}
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n3 $n1 10Mb 3ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms {queue}
$ns queue-limit $n1 $n2 {limit}
foreach i {{0 1}} src [list $n0 $n3] {{
    set tcp($i) [$ns create-connection TCP/Reno $src TCPSink $n2 $i]
    $tcp($i) set window_ 40
    set ftp($i) [$tcp($i) attach-app FTP]
    $ns at [expr $i * 0.7] "$ftp($i) start"
}}
set q [[$ns link $n1 $n2] queue]
puts "before: [$q printstats]"
foreach t {{1.0 2.5 4.0}} {{ $ns at $t "puts at$t; $q printstats" }}
$ns at 5.0 "$ns flush-trace; close $tr; exit 0"
$ns run
"""


@pytest.mark.parametrize(("queue", "extra", "limit"), [
    ("DropTail", "", 20),
    ("DropTail", "Queue/DropTail set queue_in_bytes_ true", 20),
    ("DropTail", "Queue/DropTail set queue_in_bytes_ true\nQueue/DropTail set mean_pktsize_ 700",
     12),
    ("RED", "Queue/RED set queue_in_bytes_ false", 30),
    ("RED", "", 30),
])
def test_printstats_as_ns2(vs_ns2: Any, queue: str, extra: str, limit: int) -> None:
    both = vs_ns2(SCRIPT.format(queue=queue, extra=extra, limit=limit))
    want = both.same("out.tr")
    lines = both.ns.out.splitlines()
    # Tcl's puts first, then the C printf lines, as ns-2 writes them to a pipe.
    assert lines[:4] == ["before: ", "at1.0", "at2.5", "at4.0"]
    stats = lines[4:]
    assert len(stats) == 4 and all(s.startswith("True average queue: ") for s in stats)
    assert stats[0].endswith(" time: 0.000")
    assert float(stats[-1].split()[3]) > 1.0  # a queue built up
    assert any(line.startswith("d ") for line in want["out.tr"].splitlines())


def test_printstats_without_summarystats_prints_zeros(vs_ns2: Any) -> None:
    both = vs_ns2(SCRIPT.format(queue="DropTail", extra="Queue/DropTail set summarystats_ false",
                                limit=20))
    both.same("out.tr")
    assert both.ns.out.splitlines()[4:] == ["True average queue: 0.000 time: 0.000"] * 4


def test_simple_suite_stats_as_ns2(suite_states: Any) -> None:
    tests = {"tahoe1", "tahoe1Bytes", "tahoe1RED", "stats1", "stats1Bytes", "stats1a"}
    assert suite_states("simple", tests) == dict.fromkeys(tests, ("identical", ""))


@pytest.mark.parametrize("var", ["drop_rand_", "drop_front_"])
def test_red_random_or_front_victims_are_refused(tmp_path: Any, var: str) -> None:
    """REDQueue::pickPacketToDrop's random (`drop_rand_`) or head (`drop_front_`) victim of a
    forced drop is not modelled: refused with one line, never ignored."""
    import subprocess
    import sys

    script = tmp_path / "s.tcl"
    script.write_text(
        f"Queue/RED set {var} true\nset ns [new Simulator]\nset a [$ns node]\n"
        "set b [$ns node]\n$ns duplex-link $a $b 1Mb 10ms RED\n$ns run\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "ackclock", "ns2", str(script)],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 2
    assert "not supported" in done.stderr and var in done.stderr
