"""ns-2.35's order of events that ackclock's exact clock once saw in another order (issue 30):
ns-2 keeps time in doubles and dispatches by them (common/scheduler.cc, CalendarScheduler
inserts after events of equal time), and its sums (`LinkDelay::recv`: arrival at clock +
(txt + delay_), resume at clock + txt) drift from exact time. Under the ns2 profile the
engine's clock is ns-2's double to the picosecond (`sched::ns2_ps`), events of one
picosecond in the doubles' order, then ns-2's scheduling order. Live against ns-2.35."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

live = pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (ns) not installed")

# Two CBR sources into a 1.5 Mb/s link: a 500-byte packet takes 2.6666... ms, no whole
# number of picoseconds. At 0.513067 s the link's resume (ns-2 time 0.5130666666666668,
# the packet that waited behind source 1's starts) and the arrival of packet 122 at n2
# (0.513066666666667) are a picosecond apart in exact time the other way round (the
# arrival at 513 066 666 667 ps, the resume at ...668 ps); the script at
# 0.5130666666666669 falls between the two in ns-2 and after both in exact time.
SCRIPT = """
    set ns [new Simulator]
    set tf [open out.tr w]
    $ns trace-all $tf
    set n0 [$ns node]
    set n1 [$ns node]
    set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 2ms DropTail
    $ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
    $ns queue-limit $n1 $n2 20
    foreach {i rate start} {0 1Mb 0.0 1 RATE 0.5} {
        set udp [new Agent/UDP]
        $ns attach-agent $n0 $udp
        set null [new Agent/Null]
        $ns attach-agent $n2 $null
        $ns connect $udp $null
        set cbr [new Application/Traffic/CBR]
        $cbr set rate_ $rate
        $cbr set packetSize_ 500
        $cbr attach-agent $udp
        $ns at $start "$cbr start"
    }
    $ns at 0.5130666666666669 "puts $tf {script at 0.5130666666666669}"
    $ns at END "close $tf; exit 0"
    $ns run
"""


def traces(tmp_path: Path, script: str) -> tuple[str, str]:
    out = []
    for who, cmd in (("ns", ["ns"]), ("ac", [sys.executable, "-m", "ackclock", "ns2"])):
        folder = tmp_path / who
        folder.mkdir()
        (folder / "s.tcl").write_text(textwrap.dedent(script).lstrip("\n"), encoding="utf-8")
        done = subprocess.run([*cmd, "s.tcl"], cwd=folder, capture_output=True, text=True,
                              check=False, timeout=300)
        assert done.returncode == 0, done.stderr
        out.append((folder / "out.tr").read_text())
    return out[0], out[1]


@live
def test_a_resume_and_an_arrival_a_picosecond_apart_and_a_script_between(
        tmp_path: Path) -> None:
    ns, ac = traces(tmp_path, SCRIPT.replace("RATE", "500Kb").replace("END", "0.6"))
    lines = ns.splitlines()
    i = lines.index("script at 0.5130666666666669")
    assert lines[i - 1].startswith("- 0.513067 1 2 cbr 500") and lines[i - 1].endswith(" 129")
    assert lines[i + 1].startswith("r 0.513067 1 2 cbr 500") and lines[i + 1].endswith(" 122")
    assert ac == ns


@live
def test_a_full_queue_fed_at_its_resume_instants(tmp_path: Path) -> None:
    """Both sources at 1 Mb/s overfill the 20-packet queue: arrivals meet the queue's resume
    at instants whose exact times are rounded picoseconds; which of them ns-2 runs first
    decides whether the arrival finds room."""
    ns, ac = traces(tmp_path, SCRIPT.replace("RATE", "1Mb").replace("END", "6.0"))
    assert sum(x.startswith("d ") for x in ns.splitlines()) > 200
    assert ac == ns


@live
def test_two_cbrs_at_unrelated_rates_meet_in_ns2s_order(tmp_path: Path) -> None:
    """500-byte packets at 1 Mb/s and 730 kb/s: ns-2's `CBR_Traffic::next_interval` gives
    interval_ = (size_ << 3) / rate_ = 0.005479452054794521 s, no whole picosecond, and each
    send is at clock + interval_ in doubles. Source 1's 73rd send (0.5 s + 73 intervals) is
    at 0.8999999999999984 s in ns-2, source 0's 225th (225 x 4 ms) at 0.9000000000000007 s:
    source 1's goes first. With the interval rounded to the picosecond (5 479 452 055 ps)
    source 1's came 15 ps after source 0's."""
    ns, ac = traces(tmp_path, SCRIPT.replace("RATE", "730Kb").replace("END", "3.0"))
    lines = ns.splitlines()
    i = lines.index("+ 0.9 0 1 cbr 500 ------- 0 0.1 2.1 73 298")
    assert lines[i + 2] == "+ 0.9 0 1 cbr 500 ------- 0 0.0 2.0 225 299"
    assert ac == ns
