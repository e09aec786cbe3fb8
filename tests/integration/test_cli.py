"""The ``ackclock`` command line, run as users run it: in a subprocess."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import ackclock._core  # noqa: F401

    HAVE_ENGINE = True
except ImportError:
    HAVE_ENGINE = False

needs_engine = pytest.mark.skipif(
    not HAVE_ENGINE,
    reason="the compiled engine ackclock._core is not built (pip install . or maturin develop)",
)

EXAMPLES = Path(__file__).parents[2] / "examples"
RESULT_FILES = ("summary.json", "flows.csv", "queues.csv", "timeseries.csv",
                "queue_timeseries.csv")
PLOTS = ("cwnd.png", "throughput.png", "queue.png", "rtt.png")


def ackclock(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # The console script when installed beside this interpreter, else the same main() via -m.
    script = Path(sys.executable).parent / "ackclock"
    cmd = [str(script)] if script.is_file() else [sys.executable, "-m", "ackclock"]
    return subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


@needs_engine
def test_demo_writes_every_file(tmp_path: Path) -> None:
    out = tmp_path / "tmp"
    r = ackclock("run", "--out", str(out), "--plot", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    for name in RESULT_FILES + PLOTS:
        assert (out / name).is_file(), name
        assert (out / name).stat().st_size > 0, name
    summary = json.loads((out / "summary.json").read_text())
    assert summary["name"] == "demo"
    for key in ("name", "profile", "seed", "duration_s", "warmup_s", "wall_s", "events",
                "events_per_s", "packet_hops_per_s", "packets_delivered", "version"):
        assert key in summary, key
    flows = (out / "flows.csv").read_text().splitlines()
    assert len(flows) == 1 + 5  # four TCP flows and the CBR flow
    assert "results in" in r.stdout and "tcp3" in r.stdout
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@needs_engine
def test_default_out_is_results_slash_name(tmp_path: Path) -> None:
    r = ackclock("run", "--quiet", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""
    assert (tmp_path / "results" / "demo" / "flows.csv").is_file()
    assert not (tmp_path / "results" / "demo" / "cwnd.png").exists()


@needs_engine
def test_scenario_file_with_overrides_and_seed(tmp_path: Path) -> None:
    r = ackclock("run", str(EXAMPLES / "reno_vs_cbr.toml"), "--out", "o", "--quiet",
                 "--set", 'run.duration="20s"', "--set", "run.warmup=5s",
                 "--set", "flow.cbr.app.rate=7Mb/s", "--seed", "7", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert (summary["seed"], summary["duration_s"], summary["warmup_s"]) == (7, 20.0, 5.0)


@needs_engine
def test_plot_subcommand(tmp_path: Path) -> None:
    assert ackclock("run", "--out", "o", "--quiet", cwd=tmp_path).returncode == 0
    r = ackclock("plot", "o", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    for name in PLOTS:
        assert (tmp_path / "o" / name).is_file()


BASE = """
name = "bad"
[run]
duration = "10s"
[[node]]
name = "a"
[[node]]
name = "b"
[[link]]
from = "a"
to = "b"
rate = "10Mb/s"
delay = "1ms"
[[flow]]
name = "f"
kind = "tcp"
from = "a"
to = "b"
"""

BAD = {
    "rate.toml": (BASE.replace('"10Mb/s"', '"10Mbs"'), "link[0].rate"),
    "node.toml": (BASE.replace('to = "b"\nrate', 'to = "c"\nrate'), "link[0].to"),
    "key.toml": (BASE + 'vairant = "reno"\n', "flow[0].vairant"),
    "negative.toml": (BASE.replace('"10Mb/s"', '"-1Mb/s"'), "link[0].rate"),
    "missing.toml": (BASE.replace('delay = "1ms"\n', ""), "link[0].delay"),
    "cubic.toml": (BASE + 'cc = "bbr3"\n', "flow[0].cc"),
    "red.toml": (BASE.replace('delay = "1ms"',
                              'delay = "1ms"\nqueue = { kind = "red", max_p = 2 }'),
                 "link[0].queue.max_p"),
    "syntax.toml": (BASE.replace('delay = "1ms"', "delay = "), "line 13"),
    "warmup.toml": (BASE.replace('duration = "10s"', 'duration = "1s"\nwarmup = "2s"'),
                    "run.warmup"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_scenario_is_one_line_exit_2_and_leaves_results_alone(
    tmp_path: Path, name: str
) -> None:
    text, key = BAD[name]
    (tmp_path / name).write_text(text)
    out = tmp_path / "results" / "bad"
    out.mkdir(parents=True)
    (out / "flows.csv").write_text("earlier results\n")
    r = ackclock("run", name, "--out", str(out), "--plot", cwd=tmp_path)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"ackclock: error: {name}: {key}")
    assert r.stdout == ""
    assert sorted(p.name for p in out.iterdir()) == ["flows.csv"]
    assert (out / "flows.csv").read_text() == "earlier results\n"
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == ["bad"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "missing.toml"], "ackclock: error: missing.toml: No such file or directory"),
        (["run", "--set", "flow.nope.window=3"], 'ackclock: error: --set flow.nope.window=3:'
                                                 ' no flow named "nope"'),
        (["run", "--set", "novalue"], "ackclock: error: --set novalue: expected KEY=VALUE"),
        (["plot", "."], "ackclock: error: .: not a results folder"),
        (["sweep", "s.toml", "--jobs", "4"], "ackclock: error: s.toml: No such file or directory"),
        (["ns2", "x.tcl", "1", "2"], "ackclock: error: x.tcl: no such file"),
    ],
)
def test_user_errors_exit_2_with_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    r = ackclock(*args, cwd=tmp_path)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert len(r.stderr.splitlines()) == 1, r.stderr
    assert r.stderr.startswith(message)
    assert not (tmp_path / "results").exists()


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    r = ackclock("run", "--seed", "x", cwd=tmp_path)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    r = ackclock(cwd=tmp_path)
    assert r.returncode == 2


def test_help_lists_every_command_and_each_command_has_its_own(tmp_path: Path) -> None:
    """A command builds only its own parser (start-up time); the help must not notice."""
    r = ackclock("--help", cwd=tmp_path)
    assert r.returncode == 0
    for name in ("run", "sweep", "plot", "ns2"):
        assert f"    {name} " in r.stdout, r.stdout
        sub = ackclock(name, "--help", cwd=tmp_path)
        assert sub.returncode == 0, sub.stderr
        assert sub.stdout.startswith(f"usage: ackclock {name} "), sub.stdout
    r = ackclock("bogus", cwd=tmp_path)
    assert r.returncode == 2
    assert "invalid choice: 'bogus'" in r.stderr and "'ns2'" in r.stderr


def test_help_wraps_at_columns(tmp_path: Path) -> None:
    """The terminal width comes from $COLUMNS as with argparse's own lookup (minus 2)."""
    script = Path(sys.executable).parent / "ackclock"
    cmd = [str(script)] if script.is_file() else [sys.executable, "-m", "ackclock"]
    for columns in (50, 120):
        env = {**os.environ, "COLUMNS": str(columns)}
        r = subprocess.run([*cmd, "run", "--help"], cwd=tmp_path, capture_output=True,
                           text=True, timeout=60, env=env)
        widest = max(len(line) for line in r.stdout.splitlines())
        assert widest <= columns - 2, r.stdout
        assert widest > columns - 20, r.stdout


def test_unwritable_out_is_a_one_line_error(tmp_path: Path) -> None:
    if not HAVE_ENGINE:
        pytest.skip("needs the engine to get as far as writing")
    (tmp_path / "file").write_text("x")
    r = ackclock("run", "--quiet", "--out", "file/sub", cwd=tmp_path)
    assert r.returncode == 2
    assert len(r.stderr.splitlines()) == 1, r.stderr
    assert r.stderr.startswith("ackclock: error: ")
    shutil.rmtree(tmp_path / "results", ignore_errors=True)


def test_a_run_from_the_command_line_does_not_import_pandas(tmp_path: Path) -> None:
    """pandas takes longer to import than a small run takes to simulate: `ackclock run`
    writes its tables without it (start-up is measured in docs/performance.md). Nor does it
    load the Network builder or the sweep machinery, which the package imports on first use.
    Only what ackclock itself imports counts: a site .pth file may have loaded a module (this
    sandbox's loads certifi, and with it shutil) before ackclock is imported."""
    unused = ["pandas", "matplotlib", "ackclock.network", "ackclock.sweep", "shutil"]
    code = ("import sys; before = set(sys.modules); from ackclock.cli import main; "
            f"code = main(['run', {str(EXAMPLES / 'single_reno.toml')!r}, '--out', "
            f"{str(tmp_path / 'out')!r}, '--set', 'run.duration=1s']); "
            f"print(code, *[m in sys.modules and m not in before for m in {unused!r}])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.split()[-6:] == ["0"] + ["False"] * 5, done.stdout + done.stderr
    assert (tmp_path / "out" / "flows.csv").read_text().startswith("flow,")
