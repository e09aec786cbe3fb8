"""`Queue/Vq`, the Adaptive Virtual Queue (ns-2.35 queue/vq.cc; the engine's `vq` discipline).
Live against ns-2.35: the packet trace and the traced `curq_` of a Vq bottleneck with two flows,
dropping in packets (the vq suite's buflim_ and gamma_), ns-2's defaults (in bytes), and marking
ECN-capable Sack1 flows. The virtual queue's drops and marks depend on the arrival times and the
virtual capacity's adaptation, so a misplaced step shows in the trace."""

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
$ns duplex-link $node(r1) $node(r2) 1.5Mb 20ms Vq
$ns queue-limit $node(r1) $node(r2) {limit}
$ns duplex-link $node(s3) $node(r2) 10Mb 4ms DropTail
set q [[$ns link $node(r1) $node(r2)] queue]
{extra}
set qf [open all.q w]
$q trace curq_
$q attach $qf
foreach i {{1 2}} src {{s1 s2}} {{
    set tcp($i) [$ns create-connection TCP/{agent} $node($src) TCPSink{sink} $node(s3) $i]
    $tcp($i) set window_ {window}
    {tcpextra}
    set ftp($i) [$tcp($i) attach-app FTP]
}}
$ns at 0.0 "$ftp(1) start"
$ns at 1.5 "$ftp(2) start"
$ns at 6.0 "$ns flush-trace; close $tr; close $qf; exit 0"
$ns run
"""


def handshake_flags_dropped(trace: str) -> list[list[str]]:
    """The trace's lines, the flags left out on the ECN negotiation's packets only (the SYN
    and its ACK, segment 0, 40 bytes): ns-2 writes them `C------` where ackclock writes
    `------N` and `-------` (docs/ns2-scripts.md, ECN flags). Every other line whole, its CE
    flag included."""
    out = []
    for line in trace.splitlines():
        f = line.split()
        out.append(f[:6] + f[7:] if f[5] == "40" and f[10] == "0" else f)
    return out


@pytest.mark.parametrize(("extra", "limit", "window", "agent", "tcpextra"), [
    ("$q set buflim_ 0.25\n$q set gamma_ 0.895\n$q set queue_in_bytes_ false", 50, 30,
     "Reno", ""),
    ("", 30, 40, "Reno", ""),
    ("$q set buflim_ 0.25\n$q set queue_in_bytes_ false\n$q set markpkts_ true", 50, 30,
     "Sack1", "$tcp($i) set ecn_ 1"),
])
def test_vq_as_ns2(vs_ns2: Any, extra: str, limit: int, window: int, agent: str,
                   tcpextra: str) -> None:
    sink = "/Sack1" if agent == "Sack1" else ""
    both = vs_ns2(SCRIPT.format(extra=extra, limit=limit, window=window, agent=agent,
                                sink=sink, tcpextra=tcpextra))
    if "markpkts_" not in extra:
        lines = both.same("out.tr", "all.q")["out.tr"].splitlines()
        assert len(lines) > 5000
        assert sum(line.startswith("d ") for line in lines) > 5
        return
    both.same("all.q")
    ns = both.ns.file("out.tr")
    assert handshake_flags_dropped(both.ac.file("out.tr")) == handshake_flags_dropped(ns)
    # trace.cc's flags: position 4 is CE (`ecn_to_echo_`), set by Vq's marks.
    lines = ns.splitlines()
    assert len(lines) > 5000
    assert sum(line.split()[6][4] == "E" for line in lines if line.startswith("r ")) > 5


def test_vq_drop_front_is_refused(tmp_path: Path) -> None:
    """`drop_front_ true` (Vq::enque drops the head) is not modelled: refused with one line."""
    script = tmp_path / "s.tcl"
    script.write_text(
        "set ns [new Simulator]\nset a [$ns node]\nset b [$ns node]\n"
        "$ns duplex-link $a $b 1Mb 10ms Vq\n"
        "[[$ns link $a $b] queue] set drop_front_ true\n$ns run\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "ackclock", "ns2", str(script)],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 2
    assert "not supported" in done.stderr and "drop_front_" in done.stderr
