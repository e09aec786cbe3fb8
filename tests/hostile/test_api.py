"""Every mistake through the Python API is a ScenarioError of one line naming the place, with
the message the command line prints for the same mistake (issue 32, item 7)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _hostile import SMALL, Cli

import ackclock as ac
from ackclock import Network, ScenarioError


def _net() -> Network:
    net = Network("n")
    net.nodes("a", "b")
    net.link("a", "b", rate="10Mb/s", delay="5ms")
    net.tcp("t", "a", "b")
    return net


def _small(tmp_path: Path) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(SMALL)
    return p


CASES: dict[str, tuple[Callable[[Path], Any], str]] = {
    "run(10**5000)": (lambda d: _net().run(10**5000), "run.duration: expected a time"),
    "run(-1)": (lambda d: _net().run(-1), "run.duration: expected a non-negative time"),
    "run(nan)": (lambda d: _net().run(float("nan")), "run.duration: expected a time"),
    "run(None)": (lambda d: _net().run(None), "run.duration: expected a time"),
    "run(seed=-1)": (lambda d: _net().run("1s", seed=-1), "run.seed: expected"),
    "run(seed=2.5)": (lambda d: _net().run("1s", seed=2.5), "run.seed: expected"),
    "run(seed=2**64)": (lambda d: _net().run("1s", seed=2**64), "run.seed: expected a seed"),
    "run_scenario(None)": (lambda d: ac.run_scenario(None), "run_scenario: expected a Scenario"),
    "run_scenario('x.toml')": (lambda d: ac.run_scenario("x.toml"),
                               "run_scenario: expected a Scenario"),
    "resolve(42)": (lambda d: ac.resolve(42), "resolve: expected a Scenario"),
    "overrides=[5]": (lambda d: ac.load_scenario(_small(d), overrides=[5]),
                      "overrides: expected a KEY=VALUE string"),
    "overrides='run.seed=3'": (lambda d: ac.load_scenario(_small(d), overrides="run.seed=3"),
                               "overrides: expected a list of KEY=VALUE strings"),
    "overrides=None-item": (lambda d: ac.load_scenario(_small(d), overrides=[None]),
                            "overrides: expected a KEY=VALUE string"),
    "load_scenario(b'...')": (lambda d: ac.load_scenario(b"x.toml"),
                              "scenario file: expected a file name"),
    "load_scenario(None)": (lambda d: ac.load_scenario(None), "scenario file: expected"),
    "load_scenario(3)": (lambda d: ac.load_scenario(3), "scenario file: expected"),
    "load_scenario('')": (lambda d: ac.load_scenario(""), "scenario file: expected"),
    "load_scenario(folder)": (lambda d: ac.load_scenario(d), "is a folder, not a regular file"),
    "load_sweep(b'...')": (lambda d: ac.load_sweep(b"x"), "sweep file: expected a file name"),
    "dumbbell(2.5)": (lambda d: Network.dumbbell(2.5), "dumbbell(n): expected a whole number"),
    "dumbbell(-3)": (lambda d: Network.dumbbell(-3), "dumbbell(n): expected a whole number"),
    "dumbbell(0)": (lambda d: Network.dumbbell(0), "dumbbell(n): expected a whole number"),
    "dumbbell('3')": (lambda d: Network.dumbbell("3"), "dumbbell(n): expected a whole number"),
    "dumbbell(600000)": (lambda d: Network.dumbbell(600000), "dumbbell(n): 600000 flows"),
    "dumbbell(True)": (lambda d: Network.dumbbell(True), "dumbbell(n): expected"),
    "sweep(grid={'run.seed': 5})": (lambda d: ac.run_sweep(_small(d), grid={"run.seed": 5}),
                                    'grid."run.seed": expected a non-empty list'),
    "sweep(grid={'run.seed': []})": (lambda d: ac.run_sweep(_small(d), grid={"run.seed": []}),
                                     'grid."run.seed": expected a non-empty list'),
    "sweep(grid={'run.seed': 'abc'})": (lambda d: ac.run_sweep(_small(d), grid={"run.seed": "ab"}),
                                        'grid."run.seed": expected a non-empty list'),
    "sweep(grid=[1])": (lambda d: ac.run_sweep(_small(d), grid=[1]), "grid: expected a table"),
    "sweep(grid={5: [1]})": (lambda d: ac.run_sweep(_small(d), grid={5: [1]}),
                             "grid: expected a dotted path"),
    "sweep(grid value None)": (lambda d: ac.run_sweep(_small(d), grid={"run.seed": [None]}),
                               'grid."run.seed"[0]: expected a value TOML can write'),
    "sweep(grid value object)": (lambda d: ac.run_sweep(_small(d), grid={"run.seed": [object()]}),
                                 'grid."run.seed"[0]: expected a value TOML can write'),
    "sweep(replications=0)": (lambda d: ac.run_sweep(_small(d), {}, 0),
                              "replications: expected a whole number >= 1"),
    "sweep(replications=1.5)": (lambda d: ac.run_sweep(_small(d), {}, 1.5),
                                "replications: expected a whole number >= 1"),
    "sweep(replications=10**9)": (lambda d: ac.run_sweep(_small(d), {}, 10**9),
                                  "replications: 1,000,000,000 runs is more than"),
    "sweep(200**3 grid)": (lambda d: ac.run_sweep(_small(d), {"run.seed": range(200),
                                                          "name": [str(i) for i in range(200)],
                                                          "run.warmup": range(200)}),
                           'grid."run.warmup": the grid and replications make more than'),
    "sweep(jobs=0)": (lambda d: ac.run_sweep(_small(d), {}, jobs=0),
                      "jobs: expected a number >= 1"),
    "sweep(jobs='2')": (lambda d: ac.run_sweep(_small(d), {}, jobs="2"), "jobs: expected a number"),
    "sweep(fixed=[1])": (lambda d: ac.run_sweep(_small(d), {}, fixed=[1]), "set: expected a table"),
    "sweep(None)": (lambda d: ac.run_sweep(None, {}), "scenario: expected a file name"),
    "sweep(Network)": (lambda d: ac.run_sweep(_net(), {}), "scenario: expected a file name"),
    "Results.load(None)": (lambda d: ac.Results.load(None), "results folder: expected"),
    "Results.load(empty)": (lambda d: ac.Results.load(d), "not a results folder"),
    "link(rate=None)": (lambda d: _with(lambda n: n.link("a", "b", rate=None, delay="1ms")),
                        "link[1].rate: expected a rate"),
    "link(delay=np.nan)": (lambda d: _with(lambda n: n.link("a", "b", rate="1Mb/s",
                                                             delay=np.float64("nan"))),
                           "link[1].delay: expected a time"),
    "tcp(window=np.int64(-5))": (lambda d: _with(lambda n: n.tcp("u", "a", "b",
                                                                 window=np.int64(-5))),
                                 "window"),
    "tcp(packet_size='big')": (lambda d: _with(lambda n: n.tcp("u", "a", "b",
                                                               packet_size="big")),
                               "packet_size"),
    "udp(rate=-1)": (lambda d: _with(lambda n: n.udp("u", "a", "b", packet_size=100, rate=-1)),
                     "flow[1].app.rate: expected a positive rate"),
    "udp(packet_size=0)": (lambda d: _with(lambda n: n.udp("u", "a", "b", packet_size=0,
                                                           rate="1Mb/s")),
                           "flow[1].app.packet_size: expected a positive size"),
    "tcp(start={'uniform': ['0s', '1e39s']})": (
        lambda d: _with(lambda n: n.tcp("u", "a", "b", start={"uniform": ["0s", "1e39s"]})),
        "flow[1].app.start.uniform[1]: expected a time below 2^64 ps"),
    # The keyword form follows a scenario file's app table (schema.APP): a keyword of another
    # application is refused, not ignored (an FTP given a rate once ran endless, unpaced).
    "tcp(rate=...) without app": (lambda d: _with(lambda n: n.tcp("u", "a", "b", rate="1Mb/s")),
                                  'flow[1].app.rate: app="ftp" takes no rate=; its keywords'),
    "tcp(app='cbr', size=...)": (lambda d: _with(lambda n: n.tcp("u", "a", "b", app="cbr",
                                                                 rate="1Mb/s", size=100)),
                                 'flow[1].app.size: app="cbr" takes no size='),
    "tcp(tmix=..., app='cbr')": (lambda d: _with(lambda n: n.tcp("u", "a", "b", app="cbr",
                                                                 tmix="x.vec")),
                                 'flow[1].app: tmix= replays connection vectors'),
    "udp(file=...) with cbr": (lambda d: _with(lambda n: n.udp("u", "a", "b", rate="1Mb/s",
                                                               packet_size=100, file="x")),
                               'flow[1].app.file: app="cbr" takes no file='),
    "trace(file=None)": (lambda d: _with(lambda n: n.trace("ns2", None)),
                         "trace[0].file: expected a file name"),
    "node(None)": (lambda d: _with(lambda n: n.node(None)), "node[2].name: expected"),
    "Network(name=5)": (lambda d: Network(5).run("1s"), "name: expected a non-empty string"),
    "Network(profile='x')": (lambda d: Network("n", profile="x").run("1s"), "profile"),
}


def _with(change: Callable[[Network], object]) -> Any:
    net = _net()
    change(net)
    return net.run("0.1s")


@pytest.mark.parametrize("name", list(CASES))
def test_every_api_mistake_is_one_scenario_error_naming_the_place(tmp_path: Path,
                                                                  name: str) -> None:
    call, expected = CASES[name]
    with pytest.raises(ScenarioError) as info:
        call(tmp_path)
    message = str(info.value)
    assert "\n" not in message
    assert expected in message, message
    assert list(tmp_path.iterdir()) in ([], [tmp_path / "s.toml"])


def test_numpy_numbers_are_taken_as_the_numbers_they_hold() -> None:
    net = Network.dumbbell(1, packet_size=np.float64(1000.), window=np.int64(20))
    res = net.run(np.float64(0.5), seed=np.int64(3))
    assert res.summary["seed"] == 3 and res.summary["duration_s"] == 0.5


SAME = [
    # (--set override, the equivalent Python API call's change)
    ("run.duration=-1", "run.duration: expected a non-negative time"),
    ("run.seed=2.5", "run.seed: expected"),
    ("flow.t.app={ kind = \"ftp\", start = { uniform = [\"0s\", \"1e39s\"] } }",
     "flow[0].app.start.uniform[1]: expected a time below 2^64 ps"),
]


@pytest.mark.parametrize("override,expected", SAME)
def test_the_command_line_prints_the_api_message(cli: Cli, tmp_path: Path, override: str,
                                                 expected: str) -> None:
    (tmp_path / "s.toml").write_text(SMALL)
    line = cli.error("run", "s.toml", "--set", override, "--out", "out")
    with pytest.raises(ScenarioError) as info:
        ac.load_scenario("s.toml", [override])
    assert expected in line and expected in str(info.value)
    assert line.endswith(" ".join(str(info.value).split()))
    assert not (tmp_path / "out").exists()
