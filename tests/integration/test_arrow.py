"""Result tables cross the binding as Arrow (issue 27): ``Simulation.results()`` gives each
table as an ``ackclock._core.Table``, which any Arrow consumer reads through the PyCapsule
protocol (``__arrow_c_array__``), its number columns straight from the engine's buffers.

- Every table's Arrow columns hold exactly the values of its Python lists (``to_dict``, what
  the command line writes its CSV files from), with the types pandas gives those lists.
- ``Results``' DataFrames, now made through pyarrow, equal the ones made from the lists
  (values, dtypes, column order), so nothing downstream of them can change.
- The export is zero-copy and owns what it points to: a record batch outlives its table and
  the simulation; capsules nobody consumed are released.
"""

from __future__ import annotations

import gc
import json
import math
import pickle
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest

import ackclock as ac
from ackclock import _core
from ackclock.results import TABLES

ROOT = Path(__file__).resolve().parents[2]


def _finished() -> _core.Simulation:
    """CUBIC and CBR on a DropTail bottleneck, sampled, with a traced TCP and per-flow queue
    monitors: every table but Tmix's connections has rows."""
    sc = ac.load_scenario(ROOT / "examples/reno_vs_cbr.toml",
                          ["run.duration=20s", "run.warmup=5s", "run.sample_interval=1s",
                           'flow.tcp1.trace=["cwnd", "ssthresh"]', "flow.tcp1.cc=cubic",
                           "link.r1-r2.monitor_flows=true"])
    sim = _core.Simulation(json.dumps(ac.resolve(sc)))
    sim.run_until(sim.duration_ps)
    return sim


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    return _finished().results()


def _same(a: list[Any], b: list[Any]) -> bool:
    return len(a) == len(b) and all(
        x == y or (isinstance(x, float) and isinstance(y, float) and math.isnan(x)
                   and math.isnan(y)) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("name", TABLES)
def test_arrow_columns_are_the_lists(raw: dict[str, Any], name: str) -> None:
    table = raw[name]
    assert isinstance(table, _core.Table)
    lists = table.to_dict()
    batch = pa.record_batch(table)
    assert batch.schema.names == table.column_names == list(lists)
    assert batch.num_rows == table.num_rows
    for col, values in lists.items():
        arrow = batch.column(col)
        assert _same(arrow.to_pylist(), values), col
        kinds = {type(v) for v in values}
        if kinds == {float}:
            assert arrow.type == pa.float64(), col
        elif kinds == {int}:
            assert arrow.type == pa.int64(), col
        elif kinds == {str}:
            assert arrow.type == pa.string(), col


def test_the_run_fills_the_tables_compared(raw: dict[str, Any]) -> None:
    rows = {name: raw[name].num_rows for name in TABLES}
    assert all(rows[t] > 0 for t in ("flows", "queues", "timeseries", "queue_timeseries",
                                     "tcp_trace", "flows_detail", "cc_state", "queue_flows")), rows
    assert rows["connections"] == 0  # and an empty table too


@pytest.mark.parametrize("name", TABLES)
def test_dataframes_through_arrow_equal_the_ones_from_lists(raw: dict[str, Any],
                                                            name: str) -> None:
    res = ac.Results.from_engine(raw)
    got = getattr(res, name)
    want = pd.DataFrame(raw[name].to_dict())
    assert list(got.columns) == list(want.columns)
    assert got.dtypes.to_dict() == want.dtypes.to_dict()
    pd.testing.assert_frame_equal(got, want)


def test_number_columns_are_not_copied() -> None:
    raw = _finished().results()
    t = raw["queues"]
    first, again = pa.record_batch(t), pa.record_batch(t)
    for col in ("utilization", "departed_packets"):
        assert (first.column(col).buffers()[1].address
                == again.column(col).buffers()[1].address), col


def test_a_batch_outlives_its_table_and_the_simulation() -> None:
    sim = _finished()
    raw = sim.results()
    want = raw["flows"].to_dict()
    batch = pa.record_batch(raw["flows"])
    del sim, raw
    gc.collect()
    assert _same(batch.column("throughput_mbps").to_pylist(), want["throughput_mbps"])
    assert batch.column("flow").to_pylist() == want["flow"]


def test_capsules_not_consumed_are_released(raw: dict[str, Any]) -> None:
    for _ in range(1000):
        schema, array = raw["timeseries"].__arrow_c_array__()
        del schema, array
    # Exporting again after the releases still works.
    assert pa.record_batch(raw["timeseries"]).num_rows == raw["timeseries"].num_rows


def test_results_pickle_with_their_columns(raw: dict[str, Any]) -> None:
    res = ac.Results.from_engine(raw)
    back = pickle.loads(pickle.dumps(res))
    pd.testing.assert_frame_equal(back.flows, res.flows)
    assert back.columns("queues") == raw["queues"].to_dict()


@pytest.mark.parametrize("name", TABLES)
def test_the_binding_writes_the_csv_python_writes(raw: dict[str, Any], name: str,
                                                  tmp_path: Path) -> None:
    """Table.write_csv (crates/ackclock-py/src/csv_text.rs) writes the bytes results.py's
    Python writer writes from the same columns (floats as Python's repr, NaN empty)."""
    from ackclock.results import _write_columns

    table = raw[name]
    _write_columns(table.to_dict(), tmp_path / "python.csv")
    assert table.write_csv(str(tmp_path / "binding.csv")) is (len(table.column_names) != 1)
    if len(table.column_names) != 1:
        assert ((tmp_path / "binding.csv").read_bytes()
                == (tmp_path / "python.csv").read_bytes())


def test_a_text_field_to_quote_is_left_to_python(tmp_path: Path) -> None:
    """A flow named with a comma needs csv's quoting: the binding writes nothing for its
    tables and the command's files are what Python's csv module writes."""
    sc = ac.load_scenario(ROOT / "examples/reno_vs_cbr.toml",
                          ["run.duration=2s", "run.warmup=0s", 'flow.tcp1.name="a,\\"b\\""'])
    sim = _core.Simulation(json.dumps(ac.resolve(sc)))
    sim.run_until(sim.duration_ps)
    flows = sim.results()["flows"]
    assert flows.write_csv(str(tmp_path / "flows.csv")) is False
    assert not (tmp_path / "flows.csv").exists()
    res = ac.run_scenario(sc)
    res.save(tmp_path / "out")
    assert '"a,""b"""' in (tmp_path / "out" / "flows.csv").read_text()



def test_results_hands_the_time_series_over_once() -> None:
    """The sampled series cross once, not copied (issue 31: they are most of a sampled run's
    memory); the names columns read as strings, each row its flow's or link's."""
    sim = _finished()
    first = sim.results()
    ts, qs = first["timeseries"].to_dict(), first["queue_timeseries"].to_dict()
    assert len(ts["time_s"]) > 0 and set(ts["flow"]) == {"tcp1", "cbr"}
    assert all(isinstance(x, str) for x in qs["link"]) and "r1->r2" in set(qs["link"])
    again = sim.results()
    assert len(again["timeseries"].to_dict()["time_s"]) == 0
    col = "throughput_mbps"
    assert again["flows"].to_dict()[col] == first["flows"].to_dict()[col]
