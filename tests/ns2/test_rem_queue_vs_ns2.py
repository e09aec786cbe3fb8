"""`Queue/REM`, Random Exponential Marking in its dropping mode (ns-2.35 queue/rem.cc; the
engine's `rem` discipline). Live against ns-2.35: the packet trace and the traced `curq_` of a
REM bottleneck with two Reno flows, the queue in packets and in bytes (`qib_`), with ns-2's
defaults and with the rem suite's `phi_`. The early drops draw ns-2's `Random::uniform()` in its
order, so a misplaced draw or price update shows in the trace."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
foreach n {{s1 s2 r1 r2 s3}} {{ set node($n) [$ns node] }}
$ns duplex-link $node(s1) $node(r1) 10Mb 2ms DropTail
$ns duplex-link $node(s2) $node(r1) 10Mb 3ms DropTail
$ns duplex-link $node(r1) $node(r2) 1.5Mb 20ms REM
$ns queue-limit $node(r1) $node(r2) {limit}
$ns duplex-link $node(s3) $node(r2) 10Mb 4ms DropTail
set q [[$ns link $node(r1) $node(r2)] queue]
{extra}
set qf [open all.q w]
$q trace curq_
$q attach $qf
foreach i {{1 2}} src {{s1 s2}} {{
    set tcp($i) [$ns create-connection TCP/Reno $node($src) TCPSink $node(s3) $i]
    $tcp($i) set window_ {window}
    set ftp($i) [$tcp($i) attach-app FTP]
}}
$ns at 0.0 "$ftp(1) start"
$ns at 1.5 "$ftp(2) start"
$ns at 6.0 "$ns flush-trace; close $tr; close $qf; exit 0"
$ns run
"""


@pytest.mark.parametrize(("extra", "limit", "window"), [
    # The rem suite's own words: tclcl's SplitObject set ignores those after the value.
    ("$q set phi_ 5 # This is just for fun.", 50, 50),
    ("", 30, 40),
    ("$q set phi_ 5\n$q set qib_ true\n$q set mean_pktsize_ 1000\n$q set inw_ 0.5", 50, 50),
    ("$q set gamma_ 0.01\n$q set pbo_ 5\n$q set pupdtime_ 0.01", 25, 30),
])
def test_rem_as_ns2(vs_ns2: Any, extra: str, limit: int, window: int) -> None:
    both = vs_ns2(SCRIPT.format(extra=extra, limit=limit, window=window))
    want = both.same("out.tr", "all.q")
    lines = want["out.tr"].splitlines()
    assert len(lines) > 5000
    assert sum(line.startswith("d ") for line in lines) > 5
    assert len(want["all.q"].splitlines()) > 100


def test_rem_marking_is_refused(tmp_path: Path) -> None:
    """`markpkts_ true` (REMQueue::deque marks, drawing at every dequeue) is not modelled:
    refused with one line, never ignored."""
    script = tmp_path / "s.tcl"
    script.write_text(
        "set ns [new Simulator]\nset a [$ns node]\nset b [$ns node]\n"
        "$ns duplex-link $a $b 1Mb 10ms REM\n"
        "[[$ns link $a $b] queue] set markpkts_ true\n$ns run\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "ackclock", "ns2", str(script)],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 2
    assert "not supported" in done.stderr and "markpkts_" in done.stderr
