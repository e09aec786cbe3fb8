"""The ns-3 programs the benchmarks and validations compile find the helpers they use. A quoted
``#include`` resolves first beside the including file, so a program in validation/ns3/ that
uses the benchmarks' ``bench::`` helpers must name benchmarks/ns3/common.h itself: when
validation/ns3/common.h (``validation::``) appeared, two programs silently took it and stopped
compiling (validation/qdiscs_vs_ns3.py, validation/codel_vs_ns3.py). Compiling them takes
minutes against the ns-3 wheel, so this checks the includes' namespaces instead."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted([*(ROOT / "validation/ns3").glob("*.cc"),
                   *(ROOT / "benchmarks/ns3").glob("*.cc")])
OURS = ("bench", "validation")


def _namespaces(header: Path) -> set[str]:
    return set(re.findall(r"^namespace (\w+)", header.read_text(encoding="utf-8"), re.MULTILINE))


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_program_includes_the_helpers_it_uses(program: Path) -> None:
    text = program.read_text(encoding="utf-8")
    declared: set[str] = set()
    for name in re.findall(r'^#include "([^"]+)"', text, re.MULTILINE):
        header = (program.parent / name).resolve()
        if header.is_file():  # else one of ns-3's own (``ns3/...``, found through -I)
            declared |= _namespaces(header)
    used = {ns for ns in OURS if re.search(rf"\b{ns}::", text)}
    assert used <= declared, (
        f"{program.name} uses {sorted(used - declared)}:: but its includes declare"
        f" {sorted(declared)}")


def test_qdiscs_vs_ns3_runs_the_programs_tcp_in_the_ns3_profile() -> None:
    """validation/qdiscs_vs_ns3.py compares ns-3's TCP with ns-3's: until 2026-11-28 its
    ackclock side ran the default profile, ns-2's TCP, whose exact ns-2 timer (f025895) moved
    the pfifo_fast row by 27% (docs/validation.md, "TBF and pfifo_fast")."""
    import importlib
    import sys

    sys.path.insert(0, str(ROOT / "validation"))
    try:
        script = importlib.import_module("qdiscs_vs_ns3")
    finally:
        sys.path.remove(str(ROOT / "validation"))
    program = (ROOT / "validation/ns3/qdisc_dumbbell.cc").read_text(encoding="utf-8")
    # The program's TCP: common.h's TcpDefaults(segment, initial cwnd, window segments, ts).
    assert "bench::TcpDefaults(segment, 2, 1000, false);" in program
    assert 'SndBufSize", UintegerValue(4000 * segment)' in program
    assert "TcpNewReno::GetTypeId()" in program
    sc = script.network("pfifo_fast", 2, 20.0).scenario(duration="1s")
    assert sc.profile == "ns3"
    for flow in sc.flows:
        assert flow.cc == "TcpNewReno"
        tcp = flow.tcp or {}
        assert (tcp["window_init"], tcp["timestamps"], tcp["prr"], tcp["segs_per_ack"]) == (
            2, False, False, 1)
        assert (tcp["rcv_buffer"], tcp["snd_buffer"]) == (1000 * 1000, 4000 * 1000)
        assert (tcp["min_rto"], tcp["timer_granularity"]) == ("200ms", "10ms")
    # Every device but the bottleneck's has a DropTail queue and no root queue disc.
    assert {link.queue.kind for link in sc.links if link.from_ != "r1"} == {"droptail"}


@pytest.mark.parametrize("argv, code", [(["--help"], 0), (["TcpNoSuch"], 2),
                                        (["--example", "bbr", "--runs", "0"], 2)])
def test_ns3_examples_command_line_is_checked_before_ns3_runs(argv: list[str], code: int) -> None:
    """`--help` once reached ns-3 as a class name: ns-3 aborted and Python printed a traceback.
    Bad arguments are one line naming what was expected; nothing is built or run."""
    out = subprocess.run([sys.executable, str(ROOT / "validation/ns3_examples.py"), *argv],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == code, out.stderr
    assert "Traceback" not in out.stderr
    if code:
        assert out.stderr.strip().splitlines()[-1].startswith("ns3_examples.py: error: ")
    else:
        assert out.stdout.startswith("usage: ns3_examples.py")
