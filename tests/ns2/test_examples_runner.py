"""validation/ns2_examples.py: a folder of ns-2 example scripts run under ns-2.35 and `ackclock
ns2`, every file and the printout compared (live; skipped without `ns`)."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

SIMPLE = """
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set nf [open out.nam w]
$ns namtrace-all $nf
set a [$ns node]; set b [$ns node]
$ns duplex-link $a $b 1Mb 10ms DropTail
set tcp [$ns create-connection TCP/Reno $a TCPSink $b 1]
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 2.0 "finish"
proc finish {} {
    global ns f nf
    $ns flush-trace
    close $f; close $nf
    puts "running nam..."
    exec nam out.nam &
    exit 0
}
$ns run
"""


def runner() -> Any:
    if "ns2_examples" in sys.modules:
        return sys.modules["ns2_examples"]
    spec = importlib.util.spec_from_file_location("ns2_examples",
                                                  ROOT / "validation" / "ns2_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ns2_examples"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (ns) not installed")
def test_examples_are_compared_file_by_file(tmp_path: Path) -> None:
    (tmp_path / "simple.tcl").write_text(SIMPLE)
    # The same script with one more packet's worth of time: its files differ from simple's,
    # not from its own run under ns-2.
    (tmp_path / "longer.tcl").write_text(SIMPLE.replace("at 2.0", "at 2.5"))
    (tmp_path / "needs_args.tcl").write_text('if {$argc != 1} { puts stderr "usage"; exit 1 }\n')
    m = runner()
    ex = [tmp_path / n for n in ("simple.tcl", "longer.tcl", "needs_args.tcl")]
    out = m.run_examples(ex, "ns", [sys.executable, "-m", "ackclock", "ns2"], 120.0)
    assert [(o.script, o.state) for o in out] == [
        ("simple.tcl", "identical"), ("longer.tcl", "identical"), ("needs_args.tcl", "ns-2 fails")]
    assert out[0].detail == "2 files"
    assert "| 3 | 2 | 2 | 0 | 0 | 0 |" in m.table(out)


def test_a_difference_names_the_file_and_line(tmp_path: Path) -> None:
    m = runner()
    for side, text in (("ns", "a\nb\n"), ("ac", "a\nc\n")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "out.tr").write_text(text)
    ns = m.Side(0, "", "", tmp_path / "ns")
    ac = m.Side(0, "", "", tmp_path / "ac")
    o = m.compare("x.tcl", ns, ac)
    assert (o.state, o.detail) == ("different", "out.tr line 2: ns-2 'b', ackclock 'c'")
    o = m.compare("x.tcl", ns, m.Side(2, "", "ackclock: error: x.tcl:3: no\n", tmp_path / "ac"))
    assert (o.state, o.detail) == ("not supported", "ackclock: error: x.tcl:3: no")
