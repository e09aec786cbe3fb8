"""Helpers of the hostile-input suite (docs/reliability.md, "Hostile inputs").

Every case runs the command line in-process (``ackclock.cli.main``: the same code path as the
``ackclock`` command, without a Python start-up per case) or the Python API, and checks what a
hostile user's input must give: the exit status, one line naming the place, and an earlier
results folder left byte for byte as it was.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ackclock.cli import main

# A small scenario (a few milliseconds of wall time) with a packet trace.
SMALL = """\
name = "small"
[run]
duration = "0.2s"
sample_interval = "0.1s"
[[node]]
name = "a"
[[node]]
name = "b"
[[link]]
from = "a"
to = "b"
rate = "10Mb/s"
delay = "5ms"
queue = { limit = 20 }
[[flow]]
name = "t"
kind = "tcp"
from = "a"
to = "b"
"""

TRACE = '\n[[trace]]\nformat = "ns2"\nfile = {file}\n'


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder`` (relative path -> bytes, or its kind), to compare."""
    out: dict[str, bytes | str] = {}
    for root, dirs, files in os.walk(folder):
        for d in dirs:
            out[os.path.relpath(os.path.join(root, d), folder)] = "dir"
        for f in files:
            p = Path(root) / f
            out[os.path.relpath(p, folder)] = (p.read_bytes() if p.is_file()
                                               and not p.is_symlink() else "special")
    return out


class Cli:
    """Runs ``ackclock ARGS`` in-process in a folder; returns (status, stderr lines)."""

    def __init__(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                 cwd: Path) -> None:
        self.capsys, self.monkeypatch, self.cwd = capsys, monkeypatch, cwd

    def __call__(self, *args: str) -> tuple[int, list[str]]:
        self.monkeypatch.chdir(self.cwd)
        self.capsys.readouterr()
        status = main([str(a) for a in args])
        err = self.capsys.readouterr().err
        return status, err.splitlines()

    def error(self, *args: str, status: int = 2) -> str:
        """Runs a case that must fail: returns its one error line."""
        got, lines = self(*args)
        assert got == status, (got, lines)
        assert len(lines) == 1, lines
        assert lines[0].startswith("ackclock: error: "), lines
        assert "Traceback" not in lines[0]
        return lines[0]
