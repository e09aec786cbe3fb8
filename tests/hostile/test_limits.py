"""Up-front memory estimates against a limit (issue 32, item 5): a run that would not fit is
refused before the engine builds it, with one line naming what takes the memory and how to
raise the limit, the same from the command line and the Python API."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from _hostile import SMALL, Cli

import ackclock as ac
from ackclock.limits import estimate, memory_limit

DUMBBELL = """\
name = "db"
[run]
duration = "1s"
[[node]]
name = "r1"
[[node]]
name = "r2"
[[node]]
name = "s{i}"
count = N
[[node]]
name = "d{i}"
count = N
[[link]]
from = "r1"
to = "r2"
rate = "10Mb/s"
delay = "20ms"
[[link]]
from = "s{i}"
to = "r1"
rate = "100Mb/s"
delay = "1ms"
count = N
[[link]]
from = "r2"
to = "d{i}"
rate = "100Mb/s"
delay = "1ms"
count = N
[[flow]]
name = "t{i}"
kind = "tcp"
from = "s{i}"
to = "d{i}"
count = N
"""


def test_a_20000_flow_dumbbell_is_refused_up_front(cli: Cli, earlier: Callable[[], None],
                                                   tmp_path: Path) -> None:
    (tmp_path / "db.toml").write_text(DUMBBELL.replace("N", "20000"))
    start = time.monotonic()
    line = cli.error("run", "db.toml", "--out", "out", "--max-memory", "200MB")
    assert time.monotonic() - start < 30
    assert line.startswith("ackclock: error: db.toml: link: the run would need about"), line
    assert ("of it for 80,002 link directions, more than the limit"
            " ACKCLOCK_MAX_MEMORY=200MB (200.0 MB);"
            " make the scenario smaller or raise the limit with --max-memory SIZE (or"
            " ACKCLOCK_MAX_MEMORY)") in line
    earlier()


def test_hosts_share_their_routers_routing_tree() -> None:
    """Routing tables grow with nodes x trees, one tree per router that destinations hang off
    (net/routing.rs): a 20 000-flow dumbbell needs two, not 40 000."""
    from ackclock.toml_loader import loads_resolved

    _, doc = loads_resolved(DUMBBELL.replace("N", "2000"))
    parts = {key: what for _, key, what in estimate(doc)}
    assert parts["node"] == "routing tables (4,002 nodes x 2 trees)"


@pytest.mark.parametrize("limit,flows,ok", [("70MB", 600, False), ("200MB", 600, True),
                                            ("80MB", 1, True)])
def test_the_api_and_the_command_line_apply_the_same_limit(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: str, flows: int,
        ok: bool) -> None:
    (tmp_path / "db.toml").write_text(DUMBBELL.replace("N", str(flows)).replace(
        '"1s"', '"0.01s"'))
    status, lines = cli("run", "db.toml", "--out", "out", "--max-memory", limit, "--quiet")
    monkeypatch.setenv("ACKCLOCK_MAX_MEMORY", limit)
    if ok:
        assert status == 0, lines
        ac.Network.dumbbell(flows).scenario("0.01s")
        return
    assert status == 2 and len(lines) == 1
    with pytest.raises(ac.ScenarioError) as info:
        ac.Network.dumbbell(flows).run("0.01s")
    assert str(info.value).startswith("link: the run would need about 79.4 MB of memory, 7.4 MB"
                                      " of it for 2,402 link directions, more than the limit")
    assert lines[0].endswith(str(info.value).split(": ", 1)[1])


@pytest.mark.parametrize("value", ["lots", "-1GB", "1e99GB", ""])
def test_a_bad_limit_is_named(cli: Cli, tmp_path: Path, value: str,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "s.toml").write_text(SMALL)
    if value:
        line = cli.error("run", "s.toml", f"--max-memory={value}")
        assert line.startswith("ackclock: error: --max-memory: expected"), line
    monkeypatch.setenv("ACKCLOCK_MAX_MEMORY", value or " x")
    with pytest.raises(ac.ScenarioError,
                       match=r"s.toml: ACKCLOCK_MAX_MEMORY \(or --max-memory\): expected"):
        ac.load_scenario(tmp_path / "s.toml")


def test_tmix_vectors_trace_records_and_samples_are_counted() -> None:
    doc = {"nodes": [0, 1], "links": [{}], "run": {"duration_ps": 10**12,
                                                   "sample_interval_ps": 10**6},
           "flows": [{"from": 0, "to": 1, "kind": "tcp",
                      "app": {"connections": {"start_ps": [0] * 1000, "adu_bytes": [1] * 5000}}},
                     {"from": 0, "to": 1, "kind": "udp", "app": {"records": [[0, 1]] * 100}}]}
    parts = {key: (n, what) for n, key, what in estimate(doc)}
    assert parts["run.sample_interval"] == (96 * (10**6 + 1) * 4, "4,000,004 time-series rows")
    assert parts["node"][0] == 4 * 2 * 2
    whats = [what for _, _, what in estimate(doc)]
    assert "Tmix connection vectors" in whats and "trace records to replay" in whats


def test_the_default_limit_is_the_memory_available(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ACKCLOCK_MAX_MEMORY", raising=False)
    limit, source = memory_limit()
    assert source == "the memory available" and limit > 0


@pytest.mark.parametrize("example", ["many_flows.toml", "full_tcp.toml", "tmix.toml",
                                     "reno_vs_cbr.toml"])
def test_the_estimate_of_a_scenario_being_resolved_is_the_document_s(example: str) -> None:
    """Resolving estimates the routing tables from the names (limits.check_topology) and,
    once resolved, only what the flows' applications and sampling add (check_resolved): the
    same parts as estimating the resolved document from scratch (two-way connections add
    their reply flows, Tmix its vectors). A run of that document reuses them; a document
    whose lists changed since is estimated again."""
    from ackclock import limits
    from ackclock.toml_loader import load_resolved

    _, doc = load_resolved(Path(__file__).parents[2] / "examples" / example, share=True)
    assert limits._checked is not None
    assert limits._checked[1] == estimate(doc)
    doc["flows"].append(dict(doc["flows"][0], name="another"))
    limits.check_memory(doc)
    assert limits._checked[1] == estimate(doc)
    assert any(what == f"{len(doc['flows']):,} flows" for _, _, what in limits._checked[1])
