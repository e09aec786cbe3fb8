"""The ns-3 programs the benchmarks and validations compile find the helpers they use. A quoted
``#include`` resolves first beside the including file, so a program in validation/ns3/ that
uses the benchmarks' ``bench::`` helpers must name benchmarks/ns3/common.h itself: when
validation/ns3/common.h (``validation::``) appeared, two programs silently took it and stopped
compiling (validation/qdiscs_vs_ns3.py, validation/codel_vs_ns3.py). Compiling them takes
minutes against the ns-3 wheel, so this checks the includes' namespaces instead."""

from __future__ import annotations

import re
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
