"""Fault injection at each write and rename (issue 32, item 2): through the test hook
ACKCLOCK_FAULT (python/ackclock/atomic.py), a full disk, an I/O error or a SIGKILL at every
point of writing a results folder or a sweep's tables leaves the earlier folder or tables
whole (never a mix), one line naming the real path, and nothing behind that the next run
does not clean up."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from _hostile import SMALL, TRACE, Cli, snapshot

from ackclock import atomic


@pytest.fixture
def fault(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    def set_fault(spec: str) -> None:
        atomic._counts.clear()
        monkeypatch.setenv("ACKCLOCK_FAULT", spec)

    yield set_fault
    atomic._counts.clear()


# A run writes summary.json and nine tables (10 writes) and swaps the folder in (1 rename).
RUN_FAULTS = [f"write:{n}:{e}" for n in range(1, 11) for e in ("enospc", "eio")] + [
    "rename:1:enospc", "rename:1:eio"]


@pytest.mark.parametrize("spec", RUN_FAULTS)
def test_a_fault_while_writing_a_results_folder(cli: Cli, earlier: Callable[[], None],
                                                tmp_path: Path, fault: Callable[[str], None],
                                                spec: str) -> None:
    (tmp_path / "new.toml").write_text(SMALL.replace("0.2s", "0.3s")
                                       + TRACE.format(file='"new.tr"'))
    fault(spec)
    line = cli.error("run", "new.toml", "--out", "out", "--plot")
    what = "No space left on device" if "enospc" in spec else "Input/output error"
    assert line.endswith(what) and f"{tmp_path.name}/out" in line or line.startswith(
        "ackclock: error: out"), line
    assert ".ackclock-" not in line  # named by its real path, not a temporary one
    earlier()
    fault("")
    assert cli("run", "new.toml", "--out", "out", "--quiet")[0] == 0
    assert "new.tr" in snapshot(tmp_path / "out") and "old.tr" not in snapshot(tmp_path / "out")


@pytest.mark.parametrize("spec", ["rename:1:kill", "write:3:kill"])
def test_a_kill_while_writing_a_results_folder(tmp_path: Path, spec: str) -> None:
    (tmp_path / "s.toml").write_text(SMALL + TRACE.format(file='"a.tr"'))

    def run(fault: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "ACKCLOCK_FAULT": fault}
        return subprocess.run([sys.executable, "-m", "ackclock", "run", "s.toml", "--out",
                               "out", "--quiet"], cwd=tmp_path, env=env, text=True,
                              capture_output=True, timeout=60)

    assert run("").returncode == 0
    before = snapshot(tmp_path / "out")
    assert run(spec).returncode == -9
    assert snapshot(tmp_path / "out") == before
    assert [n for n in os.listdir(tmp_path) if n.startswith(".")]  # the killed run's leftover
    assert run("").returncode == 0
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".")]


SWEEP = 'scenario = "s.toml"\nreplications = 3\n'


def _sweep(cli: Cli, tmp_path: Path, out: str = "sw") -> dict[str, bytes | str]:
    status, lines = cli("sweep", "sw.toml", "--out", out, "--jobs", "1")
    assert status == 0, lines
    return {k: v for k, v in snapshot(tmp_path / out).items() if not k.startswith("runs")}


@pytest.mark.parametrize("spec", ["write:1", "write:2", "write:3", "write:4", "rename:1",
                                  "rename:2", "rename:3", "rename:4"])
def test_a_fault_while_writing_a_sweeps_tables(cli: Cli, tmp_path: Path,
                                               fault: Callable[[str], None],
                                               spec: str) -> None:
    (tmp_path / "s.toml").write_text(SMALL)
    (tmp_path / "sw.toml").write_text(SWEEP)
    old = _sweep(cli, tmp_path)
    (tmp_path / "sw.toml").write_text(SWEEP.replace("3", "4"))
    # The fourth run's record is written first (write 1, rename 1); then the tables.
    fault(spec)
    line = cli.error("sweep", "sw.toml", "--out", "sw", "--jobs", "1")
    assert "No space left on device" in line and "/sw/" in line or "sw/" in line, line
    now = {k: v for k, v in snapshot(tmp_path / "sw").items() if not k.startswith("runs")}
    incomplete = ".tables-incomplete" in now
    if not incomplete:
        assert now == old  # the earlier set, whole
    else:  # a part of the new set, flagged; never a table of the earlier sweep beside it
        assert not any(now.get(k) == v for k, v in old.items() if k != ".tables-incomplete")
        assert cli.error("plot", "sw").endswith(
            "the sweep's tables are incomplete (it was stopped while writing them); run the"
            " sweep again: its cache rewrites them")
    fault("")
    new = _sweep(cli, tmp_path)
    assert ".tables-incomplete" not in new
    fresh = _sweep(cli, tmp_path, "fresh")
    assert new == fresh


def _records(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "sw" / "runs").iterdir())


CORRUPTIONS: dict[str, Callable[[Path, Path], None]] = {
    "copied over another": lambda p, q: p.write_bytes(q.read_bytes()),
    "truncated": lambda p, q: p.write_bytes(p.read_bytes()[:50]),
    "empty": lambda p, q: p.write_bytes(b""),
    "not JSON": lambda p, q: p.write_bytes(b"\xff\xfe"),
    "a list": lambda p, q: p.write_text("[]"),
    "flows a number": lambda p, q: p.write_text(p.read_text().replace('"flows": {', '"x": {')
                                                 [:0] + '{"flows": 5}'),
    "a row too short": lambda p, q: p.write_text(p.read_text().replace('[["t", ', '[[', 1)),
    "another engine": lambda p, q: p.write_text(p.read_text().replace(
        '"engine_version": "', '"engine_version": "0.0.0-', 1)),
    "a table in a cell": lambda p, q: p.write_text(p.read_text().replace('[["t", ', '[[{}, ', 1)),
    "nested deep": lambda p, q: p.write_text("[" * 100000),
    "a folder": lambda p, q: (p.unlink(), p.mkdir()),
}


@pytest.mark.parametrize("how", list(CORRUPTIONS))
def test_a_corrupt_cached_run_is_run_again(cli: Cli, tmp_path: Path, how: str) -> None:
    (tmp_path / "s.toml").write_text(SMALL.replace('delay = "5ms"', 'delay = "5ms"\nloss = {'
                                                   ' kind = "bernoulli", p = 0.01 }'))
    (tmp_path / "sw.toml").write_text(SWEEP)
    good = _sweep(cli, tmp_path)
    first, second = _records(tmp_path)[:2]
    CORRUPTIONS[how](first, second)
    status, lines = cli("sweep", "sw.toml", "--out", "sw", "--jobs", "1")
    if how == "a folder":  # not a file ackclock wrote: refused, not replaced
        assert status == 2 and "exists and is not a regular file" in lines[0], lines
        return
    assert status == 0, lines
    out = [ln for ln in cli.capsys.readouterr().out.splitlines()]
    assert {k: v for k, v in snapshot(tmp_path / "sw").items()
            if not k.startswith("runs")} == good
    del out


@pytest.mark.parametrize("kind", ["file", "mine", "symlink", "runs-file"])
def test_a_sweep_writes_only_into_its_own_folder(cli: Cli, tmp_path: Path, kind: str) -> None:
    (tmp_path / "s.toml").write_text(SMALL)
    (tmp_path / "sw.toml").write_text(SWEEP)
    out = tmp_path / "sw"
    if kind == "file":
        out.write_text("mine")
    elif kind == "mine":
        out.mkdir()
        (out / "thesis.tex").write_text("mine")
    elif kind == "symlink":
        os.symlink(tmp_path, out)
    else:
        out.mkdir()
        (out / "runs").write_text("mine")
    before = snapshot(tmp_path)
    line = cli.error("sweep", "sw.toml", "--out", "sw")
    assert "sw" in line and "exists and is not a sweep" in line, line
    assert snapshot(tmp_path) == before
