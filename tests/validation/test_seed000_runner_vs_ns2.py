"""Seed 000's runner with ns-2.35 beside it (examples/seeds/000/run.py --ns2, --ns2-seconds),
live, on its --quick sections (30 s, the FTPs from 15 s): the same appendix script through
`ackclock ns2` and through `ns` writes the same throughputs.csv, and the table's ns-2.35 column
is ns-2.35's own count. The full 1000 s run is docs/examples/seed000.md's (an hour or more)."""

from __future__ import annotations

import runpy
import shutil
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")
pytestmark = pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (ns) is not installed")

RUNNER = Path(__file__).resolve().parents[2] / "examples" / "seeds" / "000" / "run.py"


def test_topology_2_quick_is_ns2_35_line_for_line(tmp_path: Path) -> None:
    """Section 7.3 (topology 2, 50-packet buffers: the FTPs unsynchronised, losses at every
    burst) for 30 s: all 20 lines of throughputs.csv identical, and the four sinks' packet
    counts equal, so the ns-2.35 column is ackclock's to the last digit."""
    m = runpy.run_path(str(RUNNER))
    assert m["main"](["--quick", "--only", "7.3", "--ns2", "--out", str(tmp_path)]) == 0
    folder = tmp_path / "section_7.3"
    assert m["parity"](folder / "ackclock", folder / "ns2") == (20, 20, None)
    t = pd.read_csv(tmp_path / "tables.csv")
    assert (t["ns2"] == t["ackclock"]).all() and (t["ackclock"] > 0).all()
    assert "| 7.3 | 30 | 20 | 20 | none |" in (tmp_path / "tables.md").read_text()


def test_ns2_seconds_runs_ns2_35_part_of_the_way(tmp_path: Path) -> None:
    """--ns2-seconds 20: ns-2.35 runs the same script with MAX_TIME 20 and the first 20 s are
    compared (14 lines, 5 s of them with the FTPs); its table column stays empty, as it did not
    run the section's whole time."""
    m = runpy.run_path(str(RUNNER))
    assert m["main"](["--quick", "--only", "7.4", "--ns2", "--ns2-seconds", "20",
                      "--out", str(tmp_path)]) == 0
    folder = tmp_path / "section_7.4"
    assert "set MAX_TIME 20.0;" in (folder / "ns2" / "script.tcl").read_text()
    assert m["parity"](folder / "ackclock", folder / "ns2") == (14, 14, None)
    t = pd.read_csv(tmp_path / "tables.csv")
    assert t["ns2"].isna().all() and (t["ackclock"] > 0).all()
