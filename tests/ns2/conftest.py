"""Helpers for the ns-2 front end tests: write a Tcl script, run it, capture what it printed;
and run one script under ns-2.35 (`ns`) and `ackclock ns2` side by side (`vs_ns2`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from ackclock.ns2 import run_script


@dataclass
class Run:
    code: int
    out: str
    err: str
    folder: Path

    def file(self, name: str) -> str:
        return (self.folder / name).read_text(encoding="utf-8")


@pytest.fixture
def ns2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Runs a script (given as text) in a fresh folder, as `ackclock ns2 script.tcl args`."""
    monkeypatch.chdir(tmp_path)

    def go(text: str, *args: str, name: str = "script.tcl") -> Run:
        (tmp_path / name).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        code = run_script(name, list(args))
        out, err = capfd.readouterr()
        return Run(code, out, err, tmp_path)

    return go


# A small network: two nodes, a 10 Mb/s 10 ms link, one Reno flow into a TCPSink.
ONE_FLOW = """
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms DropTail
set tcp [new Agent/TCP/Reno]
set sink [new Agent/TCPSink]
$ns attach-agent $n0 $tcp
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
"""


@pytest.fixture
def one_flow() -> str:
    return ONE_FLOW


@dataclass
class Side:
    """One simulator's run of a script: its folder, status and printout."""
    folder: Path
    code: int
    out: str
    err: str

    def file(self, name: str) -> str:
        return (self.folder / name).read_text(encoding="utf-8")


@dataclass
class Both:
    ns: Side
    ac: Side

    def same(self, *files: str) -> dict[str, str]:
        """Both ran to the end, printed the same and wrote the same `files`; ns-2's texts."""
        assert self.ns.code == 0, self.ns.err
        assert self.ac.code == 0, self.ac.err
        assert self.ac.out == self.ns.out
        want = {name: self.ns.file(name) for name in files}
        for name, text in want.items():
            assert self.ac.file(name) == text, name
        return want


@pytest.fixture
def vs_ns2(tmp_path: Path) -> Callable[..., Both]:
    """Runs a script (given as text) as `ns script.tcl args` and as `ackclock ns2 script.tcl
    args`, each in its own folder; skips the test where ns-2 (Debian package ns2) is not
    installed."""
    if shutil.which("ns") is None:
        pytest.skip("ns-2 (ns) not installed")
    count = 0

    def side(cmd: list[str], folder: Path, text: str, args: tuple[str, ...]) -> Side:
        folder.mkdir(parents=True)
        (folder / "s.tcl").write_text(text, encoding="utf-8")
        done = subprocess.run([*cmd, "s.tcl", *args], cwd=folder, capture_output=True,
                              text=True, check=False, timeout=300,
                              stdin=subprocess.DEVNULL)
        return Side(folder, done.returncode, done.stdout, done.stderr)

    def go(script: str, *args: str) -> Both:
        nonlocal count
        count += 1
        text = textwrap.dedent(script).lstrip("\n")
        return Both(side(["ns"], tmp_path / f"ns{count}", text, args),
                    side([sys.executable, "-m", "ackclock", "ns2"], tmp_path / f"ac{count}",
                         text, args))

    return go
