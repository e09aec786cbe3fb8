"""A RED queue's traced variables (`$redq trace curq_`, `trace ave_`, `attach $chan`), as
ns-2.35 writes them (queue/red.cc REDQueue::trace): live against ns-2.35 where `ns` is
installed; the refusals run everywhere."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

live = pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (ns) not installed")

# Two CBR sources into a 1.5 Mb/s RED queue of 20 packets: the queue fills to its limit and
# drops (forced drops: the thresholds are above the limit, so no random early drops, whose
# random numbers are ns-2's own), then drains.
SCRIPT = """
    Queue/RED set thresh_ 100
    Queue/RED set maxthresh_ 200
    set ns [new Simulator]
    set n0 [$ns node]
    set n1 [$ns node]
    set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 2ms DropTail
    $ns duplex-link $n1 $n2 1.5Mb 20ms RED
    $ns queue-limit $n1 $n2 20
    set redq [[$ns link $n1 $n2] queue]
    set tchan [open all.q w]
    TRACES
    $redq attach $tchan
    foreach {i rate start stop} {0 1Mb 0.0 4.0 1 730Kb 0.5013 3.0} {
        set udp [new Agent/UDP]
        $ns attach-agent $n0 $udp
        set null [new Agent/Null]
        $ns attach-agent $n2 $null
        $ns connect $udp $null
        set cbr [new Application/Traffic/CBR]
        $cbr set rate_ $rate
        $cbr set packetSize_ [expr 500 - 37 * $i]
        $cbr attach-agent $udp
        $ns at $start "$cbr start"
        $ns at $stop "$cbr stop"
    }
    $ns at 6.0 "close $tchan; exit 0"
    $ns run
"""


def run(tmp_path: Path, who: str, script: str) -> tuple[Path, subprocess.CompletedProcess[str]]:
    cmd = ["ns"] if who == "ns" else [sys.executable, "-m", "ackclock", "ns2"]
    folder = tmp_path / who
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "s.tcl").write_text(textwrap.dedent(script).lstrip("\n"), encoding="utf-8")
    done = subprocess.run([*cmd, "s.tcl"], cwd=folder, capture_output=True, text=True,
                          check=False, timeout=300)
    return folder, done


@live
@pytest.mark.parametrize("traces", ["$redq trace curq_\n$redq trace ave_", "$redq trace curq_",
                                    "$redq trace ave_"])
def test_curq_and_ave_lines_are_ns2s(tmp_path: Path, traces: str) -> None:
    script = SCRIPT.replace("TRACES", traces)
    ns_dir, ns = run(tmp_path, "ns", script)
    ac_dir, ac = run(tmp_path, "ac", script)
    assert ns.returncode == 0 and ac.returncode == 0, ac.stderr
    want = (ns_dir / "all.q").read_text()
    assert want.count("\n") > 300
    assert (ac_dir / "all.q").read_text() == want
    if "curq_" in traces:
        # The queue reached its limit of 20 packets (bytes: queue_in_bytes_).
        assert max(int(x.split()[2]) for x in want.splitlines() if x[0] == "Q") > 9000


@pytest.mark.parametrize(("line", "says"), [
    ("$redq trace prob1_", "trace prob1_ (only curq_ and ave_)"),
    ("[[$ns link $n0 $n1] queue] trace curq_", "Queue/DropTail trace curq_"),
])
def test_other_variables_are_refused_in_one_line(tmp_path: Path, line: str, says: str) -> None:
    _, done = run(tmp_path, "ac", SCRIPT.replace("TRACES", line))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and "s.tcl:" in lines[0], done.stderr
