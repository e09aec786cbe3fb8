"""Generated hostile inputs (Hypothesis, derandomized): overrides over the scenario schema
through the command line, calls of the Python API with values of every type, trace names,
sweep grids. Each is a run or one line naming the place; an earlier results folder is left
byte for byte as it was when the command fails, and replaced whole when it succeeds."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np
from _hostile import SMALL, TRACE, Cli, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ackclock as ac
from ackclock import Network, ScenarioError

FAST = settings(max_examples=80, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

# Keys of the scenario schema a user can set on SMALL, and hostile values in --set syntax.
KEYS = ["run.duration", "run.warmup", "run.seed", "run.sample_interval", "run.check",
        "run.max_events", "run.max_packets", "name", "profile", "link.a-b.rate",
        "link.a-b.delay", "link.a-b.queue.limit", "link.a-b.queue.kind",
        "link.a-b.queue.limit_bytes", "link.a-b.loss", "link.a-b.duplex", "flow.t.window",
        "flow.t.packet_size", "flow.t.variant", "flow.t.cc", "flow.t.sink", "flow.t.app",
        "flow.t.app.start", "flow.t.app.size", "flow.t.kind", "flow.t.from", "flow.t.to",
        "flow.t.trace", "flow.t.two_way", "defaults.tcp.window", "defaults.tcp.min_rto",
        "node.a.name", "flow.t.nonsense", "run.nonsense"]
SCALARS = ["0", "-1", "1", "2.5", "1e39", "1e400", "-1e-400", "nan", "inf", "-inf", "true",
           '""', '"0s"', '"1e39s"', '"-1s"', '"10Mb/s"', '"1e25b/s"', '"5ms"', '"1000B"',
           '"64KiB"', '"reno"', '"droptail"', '"red"', "18446744073709551616",
           "9" * 30, '"a/../../x"', '"/etc/passwd"', '"summary.json"', "[]", "{}",
           '{ uniform = ["0s", "1e39s"] }', '{ uniform = ["2s", "1s"] }',
           '{ exponential = "0s" }', '{ kind = "ftp", start = "1e30s" }',
           '{ kind = "bernoulli", p = 2 }', '{ kind = "cbr", rate = "1e25b/s" }',
           '["cwnd", 5]', "[[[[]]]]", "bare words", '"\\u0000"', "-0"]
values = st.one_of(st.sampled_from(SCALARS),
                   st.integers(-2**70, 2**70).map(str),
                   st.floats(allow_nan=True, allow_infinity=True).map(repr),
                   st.text(max_size=12).map(lambda t: t.replace("\n", " ")))


@FAST
@given(st.lists(st.tuples(st.sampled_from(KEYS), values), min_size=1, max_size=3))
def test_any_override_of_the_schema_through_the_command_line(
        cli: Cli, earlier: Any, tmp_path: Path, sets: list[tuple[str, str]]) -> None:
    before = snapshot(tmp_path / "out")
    args = [a for k, v in sets for a in ("--set", f"{k}={v}")]
    status, lines = cli("run", "ok.toml", "--out", "out", "--quiet",
                        "--set", "run.max_events=20000", *args)
    if status == 0:
        after = snapshot(tmp_path / "out")
        assert "summary.json" in after and "flows.csv" in after
    else:
        assert status == 2, lines
        assert len(lines) == 1 and lines[0].startswith("ackclock: error: "), lines
        rest = lines[0][len("ackclock: error: "):]
        assert rest.startswith(("ok.toml: ", "--set ")), rest
        assert snapshot(tmp_path / "out") == before
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".")]


class Odd:
    """A user's object of no expected type."""

    def __repr__(self) -> str:
        return "Odd()"


API_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-2**80, 2**80), st.floats(allow_nan=True),
    st.text(max_size=10), st.binary(max_size=4), st.just(10**5000), st.just(Odd()),
    st.sampled_from([np.float64(1000.0), np.int64(-5), np.float64("nan"), np.int32(7),
                     np.bool_(True), np.array([1, 2]), "10Mb/s", "5ms", "1e39s", "-1s",
                     {"uniform": ["0s", "1e39s"]}, {"kind": "bernoulli", "p": 0.5},
                     {"kind": "nope"}, [1, 2], (), {}, {"a": {"b": {}}}, float("inf"),
                     "reno", "cubic", "droptail", "red", "summary.json", "../x.tr"]))
CALLS = ["rate", "delay", "queue_limit", "queue_limit_bytes", "queue", "loss", "ecn",
         "start", "stop", "variant", "cc", "sink", "size", "window", "packet_size",
         "min_rto", "trace", "udp.packet_size", "udp.rate", "udp.interval", "udp.start",
         "udp.app", "trace.file", "trace.links", "run.duration", "run.warmup", "run.seed",
         "run.sample_interval", "node", "name", "profile", "defaults.window"]


def _api_call(where: str, value: Any, out: Path) -> Any:
    net = Network(value if where == "name" else "n",
                  profile=value if where == "profile" else "ns2")
    net.nodes("a", "b")
    if where == "node":
        net.node(value)
    link = {"rate": "10Mb/s", "delay": "5ms", "queue_limit": 20}
    if where in ("rate", "delay", "queue_limit", "queue_limit_bytes", "queue", "loss", "ecn"):
        link[where] = value
    net.link("a", "b", **link)
    tcp: dict[str, Any] = {}
    if where in ("start", "stop", "variant", "cc", "sink", "size", "window", "packet_size",
                 "min_rto", "trace"):
        tcp[where] = value
    net.tcp("t", "a", "b", **tcp)
    if where.startswith("udp."):
        udp: dict[str, Any] = {"packet_size": 100, "rate": "1Mb/s"}
        udp[where[4:]] = value
        net.udp("u", "a", "b", **udp)
    if where.startswith("trace."):
        net.trace("ns2", value if where == "trace.file" else "x.tr",
                  links=value if where == "trace.links" else None)
    if where == "defaults.window":
        net.defaults(window=value)
    run: dict[str, Any] = {"duration": "0.05s"}
    if where.startswith("run."):
        run[where[4:]] = value
    return net.run(**run, out=out)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(CALLS), API_VALUES)
def test_any_value_anywhere_in_the_python_api(tmp_path: Path, where: str, value: Any) -> None:
    out = tmp_path / "out"
    try:
        res = _api_call(where, value, out)
    except ScenarioError as e:
        message = str(e)
        assert message and "\n" not in message
        assert not out.exists()
    else:
        assert isinstance(res, ac.Results) and (out / "summary.json").is_file()
        import shutil

        shutil.rmtree(out)
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".")]


@FAST
@given(st.one_of(st.text(min_size=0, max_size=40),
                 st.lists(st.sampled_from(["a", "..", ".", "", "/", "~", "b.tr", "runs",
                                           "summary.json", "x" * 256, "\\", "\0"]),
                          max_size=5).map("/".join)))
def test_any_trace_name_stays_inside_the_folder_or_is_refused(
        cli: Cli, earlier: Any, tmp_path: Path, name: str) -> None:
    before = snapshot(tmp_path / "out")
    quoted = '"' + "".join(f"\\u{ord(c):04x}" if ord(c) < 0x20 or c in '\x7f"\\' else c
                           for c in name) + '"'
    (tmp_path / "t.toml").write_text(SMALL + TRACE.format(file=quoted))
    outside = set(os.listdir(tmp_path))
    status, lines = cli("run", "t.toml", "--out", "out", "--quiet")
    if status == 0:
        files = snapshot(tmp_path / "out")
        assert os.path.normpath(name) in files, (name, sorted(files))
        assert files[os.path.normpath(name)] != "dir"
    else:
        assert status == 2 and len(lines) == 1, lines
        assert lines[0].startswith("ackclock: error: t.toml: trace[0].file: "), lines
        assert snapshot(tmp_path / "out") == before
    assert set(os.listdir(tmp_path)) == outside


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["run.seed", "run.duration", "link.a-b.rate", "x",
                                        "flow.t.window", ""]),
                       st.one_of(st.lists(API_VALUES, max_size=2), API_VALUES), max_size=2),
       st.one_of(st.integers(-2, 2), st.just(10**12), st.floats(), st.none()))
def test_any_sweep_grid(tmp_path: Path, grid: dict[str, Any], replications: Any) -> None:
    (tmp_path / "s.toml").write_text(SMALL.replace("0.2s", "0.02s"))
    try:
        runs = ac.run_sweep(tmp_path / "s.toml", grid, replications, jobs=1, out=tmp_path / "o",
                        progress=False)
    except ScenarioError as e:
        assert str(e) and "\n" not in str(e)
    else:
        n = math.prod(len(v) for v in grid.values()) * replications
        assert runs.attrs["runs"] <= n
