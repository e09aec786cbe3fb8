"""Helpers for the ns-2 front end tests: write a Tcl script, run it, capture what it printed."""

from __future__ import annotations

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
