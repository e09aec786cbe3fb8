"""The results folder: complete, deterministic, written atomically; plots from it."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from ackclock import Results, ScenarioError
from ackclock.plot import write_plots

CSV_FILES = ("flows.csv", "queues.csv", "timeseries.csv", "queue_timeseries.csv",
             "tcp_trace.csv", "connections.csv", "flows_detail.csv", "cc_state.csv",
             "queue_flows.csv")
ALL_FILES = ("summary.json", *CSV_FILES)
PLOTS = ("cwnd.png", "throughput.png", "queue.png", "rtt.png")


def engine_dict(samples: int = 3) -> dict[str, Any]:
    """A small stand-in for what ackclock._core.Simulation.results() returns."""
    flows = ["tcp,1", "cbr"]  # a comma, to check quoting
    times = [i * 0.1 for i in range(samples)]
    return {
        "summary": {"name": "t", "profile": "ns2", "seed": 1, "duration_s": 1.0,
                    "warmup_s": 0.0, "events": 10, "packet_hops": 8,
                    "packets_delivered": 4, "version": "0.1.0"},
        "flows": {
            "flow": flows, "kind": ["tcp", "udp"], "variant": ["reno", ""], "cc": ["reno", ""],
            "from": ["a", "a"], "to": ["b", "b"], "start_s": [0.1 + 0.2, 0.0],
            "packets_sent": [3, 2**62], "throughput_mbps": [1 / 3, 2.0],
            "mean_rtt_s": [0.012345678901234567, math.nan],
        },
        "queues": {"link": ["a->b", "b->a"], "max_queue_packets": [3, 0],
                   "mean_queue_packets": [1e-7, 0.0]},
        "timeseries": {
            "time_s": [t for t in times for _ in flows],
            "flow": flows * samples,
            "cwnd": [float(i) if f != "cbr" else math.nan
                     for i in range(samples) for f in flows],
            "ssthresh": [math.inf, math.nan] * samples,
            "throughput_mbps": [1.5, 0.5] * samples,
        },
        "queue_timeseries": {
            "time_s": [t for t in times for _ in range(2)],
            "link": ["a->b", "b->a"] * samples,
            "queue_packets": [i % 2 for i in range(2 * samples)],
            "queue_bytes": [1000 * (i % 2) for i in range(2 * samples)],
        },
        "tcp_trace": {
            "time_s": [0.0, 0.5, 0.5],
            "flow": ["tcp", "tcp", "tcp"],
            "variable": ["cwnd", "cwnd", "ssthresh"],
            "value": [2.0, 3.0, math.inf],
        },
    }


def test_save_writes_every_file_and_extends_the_summary(tmp_path: Path) -> None:
    res = Results.from_engine(engine_dict(), wall_s=0.5, events_per_s=20.0)
    written = res.save(tmp_path / "out")
    assert sorted(written) == sorted(ALL_FILES)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(ALL_FILES)
    assert list(res.summary)[:7] == ["name", "profile", "seed", "duration_s", "warmup_s",
                                      "wall_s", "events"]
    # No temporary folder is left beside the results.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_csv_is_full_precision_and_byte_identical(tmp_path: Path) -> None:
    Results.from_engine(engine_dict()).save(tmp_path / "a")
    Results.from_engine(engine_dict()).save(tmp_path / "b")
    for name in CSV_FILES:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    flows = (tmp_path / "a" / "flows.csv").read_text()
    assert "0.30000000000000004" in flows
    assert "0.3333333333333333" in flows
    assert repr(0.012345678901234567) in flows
    assert str(2**62) in flows
    assert '"tcp,1"' in flows
    assert flows.splitlines()[2].endswith(",")  # NaN is an empty field
    assert ",inf," in (tmp_path / "a" / "timeseries.csv").read_text()


def test_load_round_trips(tmp_path: Path) -> None:
    res = Results.from_engine(engine_dict(), wall_s=0.5)
    res.save(tmp_path / "a")
    back = Results.load(tmp_path / "a")
    assert back.summary == res.summary
    assert list(back.flows["variant"]) == ["reno", ""]
    assert back.flows["packets_sent"].tolist() == [3, 2**62]
    back.save(tmp_path / "b")
    for name in CSV_FILES:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_load_rejects_a_folder_without_results(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="not a results folder"):
        Results.load(tmp_path)


def test_a_failed_save_leaves_the_earlier_folder_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    Results.from_engine(engine_dict(samples=2)).save(out, plot=True)
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    import ackclock.results as results_module

    def fail_on_timeseries(columns: object, path: Path) -> None:
        if "timeseries" in str(path):
            raise OSError(28, "No space left on device", str(path))
        original(columns, path)

    original = results_module._write_columns
    monkeypatch.setattr(results_module, "_write_columns", fail_on_timeseries)
    with pytest.raises(OSError, match="No space left"):
        Results.from_engine(engine_dict(samples=5)).save(out, plot=True)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_plots_of_an_earlier_run_are_not_left_behind(tmp_path: Path) -> None:
    out = tmp_path / "out"
    Results.from_engine(engine_dict()).save(out, plot=True)
    assert all((out / p).is_file() for p in PLOTS)
    (out / "old-trace.tr").write_text("of the earlier run")
    Results.from_engine(engine_dict()).save(out)
    # The folder is replaced whole: nothing of the earlier run stays beside the new tables.
    assert sorted(p.name for p in out.iterdir()) == sorted(ALL_FILES)


def test_a_folder_that_is_not_a_results_folder_is_never_replaced(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError, match="not an ackclock results folder"):
        Results.from_engine(engine_dict()).save(out)
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_write_plots_from_a_folder(tmp_path: Path) -> None:
    Results.from_engine(engine_dict()).save(tmp_path)
    assert write_plots(tmp_path) == list(PLOTS)
    for name in PLOTS:
        assert (tmp_path / name).read_bytes().startswith(b"\x89PNG")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_no_plots_without_time_series(tmp_path: Path) -> None:
    raw = engine_dict(samples=0)
    assert Results.from_engine(raw).save(tmp_path, plot=True) == list(ALL_FILES)


def test_tables_written_without_pandas_are_the_bytes_pandas_writes(tmp_path: Path) -> None:
    """A run's CSV files come straight from the engine's columns (the command line then never
    imports pandas); they must be what DataFrame.to_csv wrote before."""
    import pandas as pd

    from ackclock.results import TABLES, _write_columns

    raw = engine_dict(samples=4)
    raw["flows"]["flow"] = ["a,b", 'say "hi"']  # quoting
    raw["flows"]["throughput_mbps"] = [1e-05, float("nan")]
    raw["connections"] = {}
    raw["tcp_trace"] = {"time_s": [], "flow": []}
    for t in TABLES:
        cols = dict(raw.get(t, {}))
        _write_columns(cols, tmp_path / "ours.csv")
        pd.DataFrame(cols).to_csv(tmp_path / "pandas.csv", index=False, lineterminator="\n",
                                  na_rep="")
        assert (tmp_path / "ours.csv").read_bytes() == (tmp_path / "pandas.csv").read_bytes(), t

