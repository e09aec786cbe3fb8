"""Helpers for the ns-2 front end tests: write a Tcl script, run it, capture what it printed;
run one script under ns-2.35 (`ns`) and `ackclock ns2` side by side (`vs_ns2`); run chosen tests
of ns-2.35's own suites through validation/ns2_test_suites.py (`suite_states`)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ackclock.ns2 import run_script

ROOT = Path(__file__).resolve().parents[2]


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


def _suites_module() -> object:
    """validation/ns2_test_suites.py, loaded once (it is a script, not a package module)."""
    if "ns2_test_suites" in sys.modules:
        return sys.modules["ns2_test_suites"]
    spec = importlib.util.spec_from_file_location("ns2_test_suites",
                                                  ROOT / "validation" / "ns2_test_suites.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ns2_test_suites"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def suite_states() -> Callable[[str, set[str]], dict[str, tuple[str, str]]]:
    """Runs `tests` of ns-2.35's suite `suite` (../shared/ns2-2.35/tcl/test) under ns-2.35 and
    `ackclock ns2` and gives each test's (state, detail), e.g. ("identical", ""); skips the test
    where ns-2 or the suites are missing."""
    suites: Any = _suites_module()
    if shutil.which("ns") is None or not suites.NS2_TREE.is_dir():
        pytest.skip("needs ns-2.35 (`ns`, Debian package ns2) and ../shared/ns2-2.35")

    def go(suite: str, tests: set[str]) -> dict[str, tuple[str, str]]:
        [result] = suites.run_suites([suite], suites.NS2_TREE, "ns",
                                     [sys.executable, "-m", "ackclock", "ns2"], timeout=120.0,
                                     only=tests, progress=False)
        return {o.test: (o.state, o.detail) for o in result.outcomes}

    return go


_TMIX_SCRIPT = """
    set f [open v.vec w]; puts -nonewline $f {@VECTOR@}; close $f
    set ns [new Simulator]
    Agent/TCP set window_ 67000
    Agent/TCP set maxburst_ 2
    @EXTRA@
    Agent/TCP/FullTcp set segsize_ 1000
    Agent/TCP/FullTcp set nodelay_ true
    Agent/TCP/FullTcp set segsperack_ 2
    Agent/TCP/FullTcp set interval_ 0.1
    set n0 [$ns node]; set n1 [$ns node]
    set b0 [$ns Tmix_DelayBox]; set b1 [$ns Tmix_DelayBox]
    $b0 set-cvfile v.vec [$n0 id] [$n1 id]; $b0 set-lossless
    $ns duplex-link $n0 $b0 1000Mb 1ms DropTail
    $ns duplex-link $b0 $b1 622Mb 48ms DropTail
    $ns duplex-link $b1 $n1 1000Mb 1ms DropTail
    set t [new Tmix]
    $t set-init $n0; $t set-acc $n1; $t set-ID 7; $t set-cvfile v.vec
    @TMIX@
    set tf [open out.tr w]
    $ns trace-queue $b0 $n0 $tf
    $ns trace-queue $b1 $n1 $tf
    $ns at 0.0 "$t start"
    $ns at @END@ "close $tf; exit 0"
    $ns run
"""


def tmix_script(vector: str, end: str, extra: str = "", tmix: str = "") -> str:
    """One Tmix connection between two nodes behind seed 003's delay boxes and path (FullTcp
    as its background script sets it), tracing what reaches each node into out.tr: the
    vector file's text, the time the run stops, Tcl before the FullTcp settings (`extra`)
    and commands for the Tmix object `$t` (`tmix`)."""
    return (_TMIX_SCRIPT.replace("@VECTOR@", vector).replace("@EXTRA@", extra)
            .replace("@TMIX@", tmix).replace("@END@", end))
