"""Sweeps: grid x replications, cached runs and resuming, Dask, tables and the CLI."""

from __future__ import annotations

import dataclasses
import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import ackclock as ac
from ackclock.errors import ScenarioError
from ackclock.sweep import format_value, load_sweep, t_quantile_975

pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
sweep_module = importlib.import_module("ackclock.sweep")

# Two flows with random start times, so that replications (seeds) differ; 2 s each.
SCENARIO = """
name = "tiny"
[run]
duration = "2s"
seed = 7
[defaults.tcp]
packet_size = 1000
window = 50
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
queue = { kind = "droptail", limit = 20 }
[[flow]]
count = 2
name = "tcp{i}"
kind = "tcp"
from = "s"
to = "d"
app = { kind = "ftp", start = { uniform = ["0s", "0.5s"] } }
"""

GRID: dict[str, list[Any]] = {
    "link.r-d.queue.limit": [10, 40],
    "defaults.tcp.variant": ["tahoe", "reno", "newreno"],
}


@pytest.fixture()
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(SCENARIO)
    return path


def ackclock(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ackclock", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_grid_times_replications_fills_both_tables(scenario: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    runs = ac.run_sweep(scenario, GRID, 3, jobs=2, out=out, progress=False)
    columns = {"queue_limit": "link.r-d.queue.limit", "tcp_variant": "defaults.tcp.variant"}
    assert runs.attrs == {"runs": 18, "ran": 18, "cached": 0, "grid": columns}
    assert json.loads((out / "grid.json").read_text()) == {"columns": columns}
    assert len(list((out / "runs").glob("*.json"))) == 18
    assert len(runs) == 18 * 2  # run x flow
    assert list(runs.columns[:4]) == [*columns, "replication", "seed"]
    assert list(runs.columns[4:7]) == ["flow", "kind", "variant"]
    assert sorted(runs["seed"].unique()) == [7, 8, 9]
    assert (runs["variant"] == runs["tcp_variant"]).all()
    # Each seed draws other start times, so replications differ.
    assert runs["start_s"].nunique() > 2

    on_disk = pd.read_csv(out / "runs.csv")
    assert len(on_disk) == 36 and list(on_disk.columns) == list(runs.columns)
    assert len(pd.read_parquet(out / "runs.parquet")) == 36

    summary = pd.read_csv(out / "summary.csv", keep_default_na=False, na_values=[""])
    assert len(summary) == 6 * 3  # grid point x (two flows and "all")
    assert list(summary["flow"][:3]) == ["tcp0", "tcp1", "all"]
    assert (summary["throughput_mbps_n"] == 3).all()
    point = (runs["queue_limit"] == 40) & (runs["tcp_variant"] == "reno")
    one = runs[point & (runs["flow"] == "tcp1")]["throughput_mbps"]
    at = (summary["queue_limit"] == 40) & (summary["tcp_variant"] == "reno")
    row = summary[at & (summary["flow"] == "tcp1")]
    assert row["throughput_mbps_mean"].item() == pytest.approx(one.mean())
    assert row["throughput_mbps_std"].item() == pytest.approx(one.std())
    assert row["throughput_mbps_ci95"].item() == pytest.approx(4.3026527 * one.std() / 3**0.5)
    # The point's "all" row: statistics of each run's total and of Jain's index.
    total = runs[point].groupby("seed")["throughput_mbps"].sum()
    jain = runs[point].groupby("seed")["throughput_mbps"].agg(
        lambda x: x.sum() ** 2 / (len(x) * (x ** 2).sum()))
    row = summary[at & (summary["flow"] == "all")]
    assert row["throughput_mbps_mean"].item() == pytest.approx(total.mean())
    assert row["throughput_mbps_ci95"].item() == pytest.approx(4.3026527 * total.std() / 3**0.5)
    assert row["jain_index_mean"].item() == pytest.approx(jain.mean())
    assert 0.5 <= row["jain_index_mean"].item() <= 1
    # The bottleneck r->d: its utilisation and queueing delay, from the kept queues table.
    queues = pd.read_csv(out / "queues.csv")
    assert len(queues) == 18 * 4  # run x link direction
    r_d = queues[(queues["link"] == "r->d") & (queues["queue_limit"] == 40)
                 & (queues["tcp_variant"] == "reno")]
    assert row["utilization_mean"].item() == pytest.approx(r_d["utilization"].mean())
    assert row["queue_delay_p95_s_mean"].item() == pytest.approx(r_d["p95_sojourn_s"].mean())
    agg = pd.read_csv(out / "aggregates.csv")
    assert len(agg) == 18 and (agg["bottleneck"] == "r->d").all()
    assert not list(out.glob(".*.tmp")) and not list((out / "runs").glob(".*"))


def test_rerun_recomputes_only_missing_runs(scenario: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    first = ac.run_sweep(scenario, GRID, 3, jobs=1, out=out, progress=False)
    files = sorted((out / "runs").glob("*.json"))
    for f in files[:4]:
        f.unlink()

    calls = []
    real = sweep_module._run_one

    def counting(doc: dict[str, Any], source: str | None = None,
                 series: bool = False) -> dict[str, Any]:
        calls.append(doc["run"]["seed"])
        return real(doc, source, series)

    monkeypatch.setattr(sweep_module, "_run_one", counting)
    again = ac.run_sweep(scenario, GRID, 3, jobs=1, out=out, progress=False)
    assert len(calls) == 4
    assert {k: again.attrs[k] for k in ("runs", "ran", "cached")} == {"runs": 18, "ran": 4,
                                                                      "cached": 14}
    assert sorted((out / "runs").glob("*.json")) == files
    pd.testing.assert_frame_equal(first, again)

    calls.clear()
    ac.run_sweep(scenario, GRID, 3, jobs=1, out=out, progress=False)
    assert calls == []


def test_a_sweep_removes_what_killed_sweeps_left_in_its_cache_once(
        scenario: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        dead_pid: int) -> None:
    import os

    import ackclock.atomic as atomic

    out = tmp_path / "out"
    ac.run_sweep(scenario, {"link.r-d.queue.limit": [10]}, jobs=1, out=out, progress=False)
    dead = dead_pid
    # A run file half-written by a killed sweep (another run's name), and a live one's.
    left = out / "runs" / f".0123.json.ackclock-{dead}-0123abcd.tmp"
    left.write_text("{")
    alive = out / "runs" / f".4567.json.ackclock-{os.getpid()}-0123abcd.tmp"
    alive.write_text("{")
    scans = []
    real = atomic._clean

    def counting(parent: Path, short: str | None) -> list[Path]:
        scans.append(parent)
        return real(parent, short)

    monkeypatch.setattr(atomic, "_clean", counting)
    ac.run_sweep(scenario, GRID, jobs=1, out=out, progress=False)
    assert not left.exists() and alive.exists()
    # Five new runs' files, the runs folder scanned once (the tables' own files are
    # written beside it, each cleaning its own name).
    assert scans.count(out / "runs") == 1, scans


def test_dask_local_cluster_matches_local_run(scenario: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    grid = {"defaults.tcp.variant": ["reno", "newreno"]}
    local = ac.run_sweep(scenario, grid, 2, jobs=2, out=tmp_path / "local", progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = ac.run_sweep(scenario, grid, 2, scheduler=client, out=tmp_path / "dask",
                          progress=False)
        by_address = ac.run_sweep(scenario, grid, 2, scheduler=cluster.scheduler_address,
                              progress=False)
    pd.testing.assert_frame_equal(local, remote)
    pd.testing.assert_frame_equal(local, by_address)
    assert (tmp_path / "local" / "runs.csv").read_bytes() == \
        (tmp_path / "dask" / "runs.csv").read_bytes()
    assert sorted(p.name for p in (tmp_path / "local" / "runs").iterdir()) == \
        sorted(p.name for p in (tmp_path / "dask" / "runs").iterdir())


def test_bad_grid_value_is_reported_before_any_run(scenario: Path, tmp_path: Path) -> None:
    grid = {"link.r-d.queue.limit": [10, "lots"]}
    with pytest.raises(ScenarioError, match="sweep point link.r-d.queue.limit=lots"):
        ac.run_sweep(scenario, grid, out=tmp_path / "out", progress=False)
    assert not (tmp_path / "out").exists()


def test_sweep_file_and_fixed_overrides(scenario: Path, tmp_path: Path) -> None:
    (tmp_path / "s.toml").write_text(
        'scenario = "tiny.toml"\nreplications = 2\n'
        '[grid]\n"defaults.tcp.variant" = ["reno", "sack"]\n'
        '[set]\n"run.duration" = "1s"\n'
    )
    spec = load_sweep(tmp_path / "s.toml")
    assert spec.scenario == scenario and spec.replications == 2
    runs = spec.run(jobs=1, progress=False)
    assert len(runs) == 2 * 2 * 2 and "run.duration" not in runs.columns


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('scenario = "tiny.toml"\nreplicas = 2\n', "replicas: unknown key"),
        ('scenario = "tiny.toml"\nreplications = 0\n', "replications: expected a whole"),
        ('scenario = "tiny.toml"\nreplications = 1.5\n', "replications: expected a whole"),
        ('scenario = "tiny.toml"\n[grid]\n"run.seed" = []\n', 'grid."run.seed": expected a'
                                                             " non-empty list"),
        ("replications = 2\n", "scenario: expected the scenario file's path"),
    ],
)
def test_bad_sweep_files(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "s.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as e:
        load_sweep(path)
    assert str(e.value).startswith(f"{path}: {message}")


def test_cli_sweep_and_its_errors(scenario: Path, tmp_path: Path) -> None:
    (tmp_path / "s.toml").write_text(
        'scenario = "tiny.toml"\n[grid]\n"link.r-d.queue.limit" = [10, 20]\n'
    )
    r = ackclock("sweep", "s.toml", "--jobs", "2", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "2 runs: 2 run now, 0 already in" in r.stdout
    assert str(Path("results") / "s" / "summary.csv") in r.stdout
    assert len(pd.read_csv(tmp_path / "results" / "s" / "runs.csv")) == 2 * 2

    (tmp_path / "bad.toml").write_text('scenario = "tiny.toml"\n[grid]\nlimit = 5\n')
    for args, message in [
        (["bad.toml"], "ackclock: error: bad.toml: grid.limit: expected a non-empty list"),
        (["missing.toml"], "ackclock: error: missing.toml: No such file or directory"),
        (["s.toml", "--jobs", "0"], "ackclock: error: --jobs: expected a number >= 1"),
    ]:
        r = ackclock("sweep", *args, cwd=tmp_path)
        assert r.returncode == 2, r.stderr
        assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith(message), r.stderr


def test_example_sweep_file_loads() -> None:
    spec = load_sweep(EXAMPLES / "sweeps" / "sweep_reno_buffers.toml")
    assert spec.scenario.is_file()
    ac.load_scenario(spec.scenario)


def test_format_value_and_t_quantiles() -> None:
    assert format_value("7Mb/s") == "7Mb/s"
    assert format_value("50") == '"50"'  # stays a string through --set
    assert format_value(50) == "50" and format_value(True) == "true"
    assert format_value({"uniform": ["0s", "1s"]}) == '{ "uniform" = ["0s", "1s"] }'
    assert t_quantile_975(1) == pytest.approx(12.706, abs=1e-3)
    assert t_quantile_975(30) == pytest.approx(2.042, abs=1e-3)
    assert t_quantile_975(60) == pytest.approx(2.000, abs=1e-3)
    assert t_quantile_975(10_000) == pytest.approx(1.960, abs=1e-3)
    assert json.loads(json.dumps(t_quantile_975(40))) == pytest.approx(2.021, abs=1e-3)


def test_sweep_plots_have_one_figure_per_metric_with_confidence_intervals(tmp_path: Path) -> None:
    import matplotlib.image

    from ackclock.plot import sweep_figure, write_sweep_plots

    runs = pd.DataFrame({"buf": [10, 10, 20, 20, 10, 10, 20, 20],
                         "flow": ["a"] * 4 + ["b"] * 4, "replication": [0, 1] * 4,
                         "throughput_mbps": [1.0, 3.0, 2.0, 2.0, 5.0, 5.0, 6.0, 8.0],
                         "loss_rate": [0.1, 0.1, 0.2, 0.2, 0.0, 0.0, 0.1, 0.1]})
    from ackclock.sweep import write_tables

    write_tables(runs, ["buf"], tmp_path)
    written = write_sweep_plots(tmp_path)
    assert written == ["sweep_throughput_mbps.png", "sweep_loss_rate.png",
                       "sweep_total_throughput_mbps.png", "sweep_jain_index.png"]
    assert matplotlib.image.imread(tmp_path / written[0]).shape[2] in (3, 4)
    summary = pd.read_csv(tmp_path / "summary.csv")
    fig = sweep_figure(summary, "buf", "throughput_mbps",
                       models={"model": ([10, 20], [2.0, 3.0])})
    ax = fig.axes[0]
    assert ax.get_ylabel() == "throughput (Mb/s)" and ax.get_xlabel() == "buf"
    # Two flows with error bars, one model line; flow a at buf 10 has mean 2 and a CI of
    # t(0.975, 1) x sd / sqrt(2) = 12.706 x 1.414 / 1.414.
    labels = sorted(t.get_text() for t in ax.get_legend().get_texts())
    assert labels == ["a", "b", "model"]
    assert len(ax.containers) == 2  # the two flows' error bars
    a10 = summary[(summary.flow == "a") & (summary.buf == 10)].iloc[0]
    assert a10.throughput_mbps_mean == 2.0
    assert abs(a10.throughput_mbps_ci95 - 12.7062047) < 1e-6


def test_flow_count_is_a_grid_key(scenario: Path, tmp_path: Path) -> None:
    # tiny.toml's flows are one [[flow]] table with count = 2: any copy's count resizes it.
    runs = ac.run_sweep(scenario, {"flow.tcp0.count": [1, 3]}, jobs=1, progress=False)
    assert runs.attrs["grid"] == {"tcp0_count": "flow.tcp0.count"}
    assert runs.groupby("tcp0_count")["flow"].apply(list).to_dict() == {
        1: ["tcp0"], 3: ["tcp0", "tcp1", "tcp2"]}


def test_count_of_a_table_that_is_not_repeated_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="tcp1 is not one of the copies"):
        ac.load_scenario(EXAMPLES / "reno_vs_cbr.toml", ["flow.tcp1.count=8"])
    result = ackclock("run", str(EXAMPLES / "reno_vs_cbr.toml"), "--set", "flow.tcp1.count=8",
                      cwd=tmp_path)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1


def dumbbell(flows: int, buffer: int = 20) -> ac.Scenario:
    net = ac.Network.dumbbell(flows, rate="5Mb/s", queue_limit=buffer, window=50,
                              start={"uniform": ["0s", "0.5s"]})
    return net.scenario(duration="2s", seed=3, sample_interval="0.1s")


def test_sweep_of_a_function_and_of_a_python_scenario(tmp_path: Path) -> None:
    # Grid keys naming the function's arguments go to it; dotted paths apply to its result.
    runs = ac.run_sweep(dumbbell, {"flows": [1, 2], "link.r1-r2.queue.limit": [5, 30]}, 2,
                    jobs=2, progress=False, out=tmp_path / "f", timeseries=True)
    assert runs.attrs["grid"] == {"flows": "flows", "queue_limit": "link.r1-r2.queue.limit"}
    assert len(runs) == (1 + 2) * 2 * 2
    assert sorted(runs["seed"].unique()) == [3, 4]
    one = runs[(runs["flows"] == 2) & (runs["queue_limit"] == 5) & (runs["seed"] == 3)]
    # Same as running the scenario by hand.
    sc = dumbbell(2)
    by_hand = ac.run_scenario(ac.Network.dumbbell(
        2, rate="5Mb/s", queue_limit=5, window=50,
        start={"uniform": ["0s", "0.5s"]}).scenario(duration="2s", seed=3), progress=False)
    assert list(one["throughput_mbps"]) == list(by_hand.flows["throughput_mbps"])
    series = pd.read_parquet(tmp_path / "f" / "timeseries.parquet")
    assert set(series["flows"]) == {1, 2} and series["cwnd"].notna().any()
    assert len(pd.read_parquet(tmp_path / "f" / "queue_timeseries.parquet")) > 0

    # A scenario built in Python: dotted paths address it as they would a file.
    grid = {"link.r1-r2.queue.limit": [5, 30], "defaults.tcp.variant": ["reno", "newreno"]}
    runs2 = ac.run_sweep(sc, grid, jobs=1, progress=False)
    assert set(runs2["variant"]) == {"reno", "newreno"}
    assert (runs2["variant"] == runs2["tcp_variant"]).all()
    with pytest.raises(ScenarioError, match="not an argument of dumbbell"):
        ac.run_sweep(dumbbell, {"flow": [1]}, progress=False)


SCRIPT = """
import ackclock as ac
runs = ac.run_sweep({scenario!r}, {{"defaults.tcp.variant": ["reno", "newreno"]}}, jobs=2,
                progress=False)
print(len(runs))
"""


def test_script_without_main_guard_gets_one_line(scenario: Path, tmp_path: Path) -> None:
    script = tmp_path / "s.py"
    script.write_text(SCRIPT.format(scenario=str(scenario)))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)
    assert result.returncode != 0
    assert "freeze_support" not in result.stderr
    assert 'under `if __name__ == "__main__":`' in result.stderr.splitlines()[-1]
    # The same call inside a function the script calls at its top level.
    indirect = tmp_path / "f.py"
    body = SCRIPT.format(scenario=str(scenario)).strip().replace("\n", "\n    ")
    indirect.write_text(f"def main():\n    {body}\n\nmain()\n")
    result = subprocess.run([sys.executable, str(indirect)], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)
    assert result.returncode != 0
    assert 'under `if __name__ == "__main__":`' in result.stderr.splitlines()[-1]
    guarded = tmp_path / "g.py"
    body = SCRIPT.format(scenario=str(scenario)).strip().replace("\n", "\n    ")
    guarded.write_text(f"if __name__ == '__main__':\n    {body}\n")
    result = subprocess.run([sys.executable, str(guarded)], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "4"


@pytest.mark.parametrize("form", ["file", "scenario", "function", "function and path"])
def test_each_point_is_its_scenario_resolved_on_its_own(scenario: Path, form: str) -> None:
    """A point's document (its tables shared, a replication's run table alone made again)
    and its run key are those of the point's scenario resolved on its own, seed included."""
    from ackclock.sweep import _function_keys, _loader, _points, run_key
    from ackclock.toml_loader import load_resolved, resolved_from_raw, scenario_to_raw

    grid: dict[str, list[Any]] = {"defaults.tcp.variant": ["reno", "newreno"]}
    made: Any = {"file": scenario, "scenario": ac.load_scenario(scenario)}.get(form, dumbbell)
    if form == "scenario":
        made = dataclasses.replace(made, source=None)  # as one built in Python
    if form.startswith("function"):
        grid = {"flows": [1, 2]} | (grid if form == "function and path" else {})
    points = _points(_loader(made, grid, {}), _function_keys(made, grid), grid, 3, {}, "v")
    assert len(points) == 2 * 3 * (2 if form == "function and path" else 1)
    for p in points:
        over = [f"{k}={v}" for k, v in p.params.items() if k != "flows"]
        over.append(f"run.seed={p.seed}")
        if form == "file":
            alone = load_resolved(scenario, over)[1]
        else:
            sc = dumbbell(p.params["flows"]) if form.startswith("function") else made
            alone = resolved_from_raw(scenario_to_raw(sc), None, over)[1]
        assert p.document == alone
        assert p.key == run_key(alone, "v")


def test_a_point_the_engines_rules_refuse_is_named_in_the_scenarios_words(
        scenario: Path) -> None:
    """A point is resolved without the engine's rules, which the engine's check of it applies;
    a point they refuse is named as the scenario's own resolution names it, with its values."""
    from ackclock.toml_loader import resolved_from_raw, scenario_to_raw

    grid = {"defaults.tcp.cc_params": [{"zzz": 1.0}]}  # a name only the engine knows
    given = ['defaults.tcp.cc_params={ "zzz" = 1.0 }']
    built = dataclasses.replace(ac.load_scenario(scenario), source=None)
    for made, resolve_alone in [
            (scenario, lambda: ac.load_scenario(scenario, given)),
            (built, lambda: resolved_from_raw(scenario_to_raw(built), None, given))]:
        with pytest.raises(ScenarioError) as alone:
            resolve_alone()
        assert "cc_params.zzz: not a parameter of reno" in str(alone.value)
        with pytest.raises(ScenarioError) as e:
            ac.run_sweep(made, grid, progress=False)
        assert str(e.value) == f"{alone.value} (sweep point {given[0]})"
