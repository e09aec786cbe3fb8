"""Reliability (docs/reliability.md): the invariant checker from the front end, replaying a run
bit for bit, resource guards, atomic results, Ctrl-C, and a killed sweep that resumes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import ackclock as ac
import ackclock.results as results_module
from ackclock import cli
from ackclock.errors import InvariantViolation, ScenarioError
from ackclock.results import Results
from ackclock.run import _raise_if_stopped, run_document
from ackclock.scenario import resolve
from ackclock.toml_loader import loads_scenario

core = pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")

TABLES = ("flows.csv", "queues.csv", "timeseries.csv", "queue_timeseries.csv")

# Random start times, RED with its random drops, Bernoulli loss and a CBR flow: a run whose
# every random stream matters, so replaying it exactly is not trivially true.
SCENARIO = """
name = "replayable"
[run]
duration = "5s"
warmup = "1s"
seed = 11
sample_interval = "0.05s"
[[node]]
name = "s"
[[node]]
name = "r"
[[node]]
name = "d"
[[link]]
from = "s"
to = "r"
rate = "100Mb/s"
delay = "1ms"
[[link]]
from = "r"
to = "d"
rate = "5Mb/s"
delay = "10ms"
queue = { kind = "red", limit = 30 }
loss = { kind = "bernoulli", p = 0.002 }
[[flow]]
count = 3
name = "tcp{i}"
kind = "tcp"
from = "s"
to = "d"
variant = "newreno"
app = { kind = "ftp", start = { uniform = ["0s", "0.5s"] } }
[[flow]]
name = "cbr"
kind = "udp"
from = "s"
to = "d"
app = { kind = "cbr", rate = "1Mb/s", packet_size = 500, random = true }
"""


def ackclock(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ackclock", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture()
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "replayable.toml"
    path.write_text(SCENARIO)
    return path


# --- the invariant checker --------------------------------------------------------------


def test_run_check_turns_the_checker_on_and_changes_no_result(scenario: Path,
                                                              tmp_path: Path) -> None:
    document = resolve(ac.load_scenario(scenario))
    assert "check" not in document["run"]  # documents without it are unchanged
    checked = resolve(ac.load_scenario(scenario, ["run.check=true"]))
    assert checked["run"]["check"] is True
    assert core.Simulation(json.dumps(checked)).checking
    # Release builds (the installed package) check only when asked.
    assert not core.Simulation(json.dumps(document)).checking

    for out, extra in (("plain", []), ("checked", ["--check"])):
        r = ackclock("run", str(scenario), "--quiet", "--out", out, *extra, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    for name in TABLES:
        assert (tmp_path / "plain" / name).read_bytes() == \
            (tmp_path / "checked" / name).read_bytes(), name


def test_check_must_be_a_boolean(scenario: Path) -> None:
    with pytest.raises(ScenarioError, match=r"run\.check: expected true or false"):
        resolve(ac.load_scenario(scenario, ['run.check="yes"']))


class _Stopped:
    def __init__(self, reason: dict[str, object]) -> None:
        self.stop_reason = reason


def test_a_violation_is_an_engine_bug_with_exit_status_3(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    message = ("invariant violated at t=1.250000000 s in link r1->r2: packet conservation:"
               " arrived 10 != departed 5 + dropped 2 + waiting 2")
    with pytest.raises(InvariantViolation, match="in link r1->r2: packet conservation"):
        _raise_if_stopped(_Stopped({"kind": "invariant", "key": None, "component": "link r1->r2",
                                    "time_s": 1.25, "message": message}), None)

    def broken(*args: object, **kwargs: object) -> None:
        raise InvariantViolation(message)

    monkeypatch.setattr("ackclock.run.run_document", broken)
    assert cli.main(["run", "--quiet", "--check"]) == 3
    err = capsys.readouterr().err.strip()
    assert err.startswith("ackclock: error: invariant violated at t=1.25") and "\n" not in err


# --- replay -----------------------------------------------------------------------------


def test_summary_records_what_reproduces_the_run(scenario: Path, tmp_path: Path) -> None:
    r = ackclock("run", str(scenario), "--quiet", "--out", "a", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summary = json.loads((tmp_path / "a" / "summary.json").read_text())
    assert summary["seed"] == 11 and summary["profile"] == "ns2"
    assert summary["version"] == core.version()
    assert summary["scenario"] == resolve(ac.load_scenario(scenario))


def test_replay_reproduces_the_run_bit_for_bit(scenario: Path, tmp_path: Path) -> None:
    r = ackclock("run", str(scenario), "--quiet", "--out", "a", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    # The scenario file may change or vanish: the replay needs only summary.json.
    scenario.unlink()
    r = ackclock("run", "--replay", "a/summary.json", "--quiet", "--out", "b", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    for name in TABLES:
        first = (tmp_path / "a" / name).read_bytes()
        assert first.count(b"\n") > 3, name
        assert first == (tmp_path / "b" / name).read_bytes(), name
    a = json.loads((tmp_path / "a" / "summary.json").read_text())
    b = json.loads((tmp_path / "b" / "summary.json").read_text())
    assert a["scenario"] == b["scenario"] and a["events"] == b["events"]
    # The default folder is results/<name>-replay, beside the original's results/<name>.
    r = ackclock("run", "--replay", "a/summary.json", "--quiet", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "results" / "replayable-replay" / "flows.csv").read_bytes() == \
        (tmp_path / "a" / "flows.csv").read_bytes()


def test_replay_errors_are_one_line(scenario: Path, tmp_path: Path) -> None:
    (tmp_path / "old.json").write_text(json.dumps({"name": "x", "seed": 1}))
    r = ackclock("run", "--replay", "old.json", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip() == ("ackclock: error: old.json: scenario: records no resolved"
                                " scenario (written by an older ackclock?)")
    r = ackclock("run", "--replay", "missing.json", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "missing.json" in r.stderr
    (tmp_path / "bad.json").write_text("{not json")
    r = ackclock("run", "--replay", "bad.json", cwd=tmp_path)
    assert r.returncode == 2 and "bad.json: not a summary.json" in r.stderr
    r = ackclock("run", str(scenario), "--replay", "old.json", cwd=tmp_path)
    assert r.returncode == 2 and "--replay: " in r.stderr


# --- resource guards --------------------------------------------------------------------


def test_max_events_stops_the_run_with_a_message_naming_the_key(scenario: Path,
                                                               tmp_path: Path) -> None:
    r = ackclock("run", scenario.name, "--out", "out", "--set", "run.max_events=5000",
                 cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.startswith(f"ackclock: error: {scenario.name}: run.max_events: the run"
                               " reached its limit of 5000 events at t=")
    assert r.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_an_unbounded_queue_is_stopped_before_memory_runs_out(tmp_path: Path) -> None:
    text = SCENARIO.replace('queue = { kind = "red", limit = 30 }', "") \
        .replace('rate = "1Mb/s"', 'rate = "50Mb/s"').replace('duration = "5s"',
                                                              'duration = "10000s"')
    scenario = loads_scenario(text, source="flood.toml", overrides=["run.max_packets=30000"])
    # A queue with no limit: the profile's default applies, so lift it explicitly.
    document = resolve(scenario)
    for link in document["links"]:
        link["queue"]["limit_packets"] = None
    start = time.perf_counter()
    with pytest.raises(ScenarioError, match=r"flood\.toml: run\.max_packets: \d+ packets are"
                                            r" held in the network at t=.* \(link r->d holds"):
        run_document(document, progress=False, source="flood.toml")
    assert time.perf_counter() - start < 60


@pytest.mark.parametrize(("interval", "duration", "expected"), [
    ("1ns", "1000s", r"run\.sample_interval: 1,000,000,000,001 samples per series"),
    ("0.1ms", "1000s", r"run\.sample_interval: 10,000,001 samples x \(4 flows \+ 4 link"
                       r" directions\) = 80,000,008 time-series rows"),
])
def test_time_series_that_would_not_fit_in_memory_are_refused_up_front(
        interval: str, duration: str, expected: str) -> None:
    text = SCENARIO.replace('sample_interval = "0.05s"', f'sample_interval = "{interval}"') \
        .replace('duration = "5s"', f'duration = "{duration}"')
    with pytest.raises(ScenarioError, match=expected):
        resolve(loads_scenario(text, source="big.toml"))


def test_the_engine_refuses_them_too() -> None:
    document = resolve(loads_scenario(SCENARIO, source="x.toml"))
    document["run"]["sample_interval_ps"] = 1
    with pytest.raises(ValueError, match=r"run\.sample_interval: .* samples per series"):
        core.Simulation(json.dumps(document))


# --- atomic results ---------------------------------------------------------------------


def test_a_failure_mid_save_leaves_the_earlier_results_intact(
        scenario: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    first = ac.run_scenario(ac.load_scenario(scenario), progress=False)
    first.save(out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    second = ac.run_scenario(ac.load_scenario(scenario, ["run.seed=12"]), progress=False)
    assert not second.flows.equals(first.flows)

    # Tables are written by pandas once read as DataFrames (flows, above), straight from the
    # engine's columns otherwise (by the binding, or in Python when it declines one): the
    # third table written fails either way.
    calls = []
    real = pd.DataFrame.to_csv
    real_columns = results_module._write_columns
    real_engine = results_module._write_engine_table

    def count() -> None:
        calls.append(1)
        if len(calls) == 3:  # summary.json, flows.csv and queues.csv are written by now
            raise OSError(28, "No space left on device")

    def failing(self: pd.DataFrame, *args: object, **kwargs: object) -> object:
        count()
        return real(self, *args, **kwargs)

    def failing_columns(*args: Any) -> None:
        count()
        real_columns(*args)

    def failing_engine(*args: Any) -> bool:
        written = bool(real_engine(*args))
        if written:  # else _write_columns writes it, and counts it
            count()
        return written

    monkeypatch.setattr(pd.DataFrame, "to_csv", failing)
    monkeypatch.setattr(results_module, "_write_columns", failing_columns)
    monkeypatch.setattr(results_module, "_write_engine_table", failing_engine)
    with pytest.raises(OSError, match="No space left"):
        second.save(out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    monkeypatch.undo()
    second.save(out)
    assert Results.load(out).summary["seed"] == 12


def test_a_failed_sweep_table_write_keeps_the_old_table(tmp_path: Path) -> None:
    from ackclock.atomic import write_atomic

    target = tmp_path / "runs.csv"
    target.write_text("old\n")

    def half(f: object) -> None:
        f.write("new, half")  # type: ignore[attr-defined]
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, half)
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["runs.csv"]
    write_atomic(target, lambda f: f.write("new\n"))
    assert target.read_text() == "new\n"
    # Same permissions as a plain open would give, not mkstemp's private 0600.
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


# --- Ctrl-C and killed sweeps -----------------------------------------------------------


def _start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "ackclock", *args], cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def test_ctrl_c_stops_a_run_at_once_with_one_line(scenario: Path, tmp_path: Path) -> None:
    p = _start(["run", str(scenario), "--out", "out", "--set", "run.duration=100000s",
                "--set", "run.warmup=0s"], tmp_path)
    try:
        time.sleep(2.5)
        assert p.poll() is None, p.communicate()
        sent = time.perf_counter()
        os.killpg(p.pid, signal.SIGINT)  # as a terminal's Ctrl-C does
        out, err = p.communicate(timeout=30)
        took = time.perf_counter() - sent
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err
    assert err == "ackclock: interrupted\n"
    assert took < 5, took
    assert not (tmp_path / "out").exists()  # nothing half-written


SWEEP = """
scenario = "replayable.toml"
replications = 3
[grid]
"link.r-d.queue.limit" = [10, 20, 40, 80]
[set]
# Long enough (about 0.25 s a run on a 2026 machine) that the sweep cannot finish its other
# eleven runs between the test seeing its first record and killing it, even on a loaded
# machine (waiting for the third record, with runs half as long, failed there).
"run.duration" = "400s"
"""


def _tables(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in ("runs.csv", "summary.csv")}


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_a_killed_sweep_resumes_to_the_same_tables(scenario: Path, tmp_path: Path,
                                                   sig: signal.Signals) -> None:
    (tmp_path / "s.toml").write_text(SWEEP)
    whole = ackclock("sweep", "s.toml", "--out", "whole", "--jobs", "2", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr

    p = _start(["sweep", "s.toml", "--out", "part", "--jobs", "2"], tmp_path)
    runs = tmp_path / "part" / "runs"
    try:
        deadline = time.perf_counter() + 120
        while not any(runs.glob("*.json")) and time.perf_counter() < deadline:
            time.sleep(0.05)
        assert p.poll() is None, "the sweep finished before it could be interrupted"
        # The whole process group, workers included, as a terminal's Ctrl-C does.
        os.killpg(p.pid, sig)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    kept = len(list(runs.glob("*.json")))
    assert 1 <= kept < 12
    if sig == signal.SIGINT:
        assert p.returncode == 130 and err == "ackclock: interrupted\n", err
    assert not (tmp_path / "part" / "runs.csv").exists()
    # Only whole records: no temporary files are read as runs.
    for f in runs.glob("*.json"):
        assert "flows" in json.loads(f.read_text())

    resumed = ackclock("sweep", "s.toml", "--out", "part", "--jobs", "2", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"12 runs: {12 - kept} run now, {kept} already in" in resumed.stdout
    assert _tables(tmp_path / "part") == _tables(tmp_path / "whole")
