"""The engine's document with shared TCP tables (``ackclock.run.with_tcp_tables``; issue 31):
flows whose ``tcp`` is one table name it by index in ``tcp_tables``, and the engine reads that
document exactly as the one that repeats the table in every flow."""

from __future__ import annotations

import json
from typing import Any

import pytest

import ackclock as ac
from ackclock.errors import ScenarioError
from ackclock.run import run_document, with_tcp_tables
from ackclock.scenario import resolve_shared

_core = pytest.importorskip("ackclock._core")
jsonschema = pytest.importorskip("jsonschema")


def _document(flows: int = 4) -> dict[str, Any]:
    """A dumbbell's resolved document whose flows share one TCP table object but the second,
    whose table is equal to the first's (as a document read back from summary.json has)."""
    net = ac.Network("shared", profile="ns2")
    net.nodes("a", "b", "r")
    net.link("a", "r", rate="10Mb/s", delay="1ms")
    net.link("r", "b", rate="1Mb/s", delay="5ms", queue_limit=10)
    for i in range(flows):
        net.tcp(f"f{i}", "a", "b", start=f"{0.1 * i}s")
    net.udp("u", "a", "b", rate="100kb/s", packet_size=500)
    doc = ac.resolve(net.scenario("3s"))
    one = doc["flows"][0]["tcp"]
    for i, f in enumerate(doc["flows"][:flows]):
        f["tcp"] = dict(one) if i == 1 else one
    return doc


def test_flows_name_one_table_and_the_engine_reads_the_same_scenario() -> None:
    doc = _document()
    shared = with_tcp_tables(doc)
    assert shared["tcp_tables"] == [doc["flows"][0]["tcp"]]
    assert [f.get("tcp_table") for f in shared["flows"]] == [0, 0, 0, 0, None]
    assert all("tcp" not in f for f in shared["flows"][:4])
    assert shared["flows"][4] is doc["flows"][4]  # the UDP flow as it was
    assert "tcp_tables" not in doc and doc["flows"][0]["tcp"]["window"] > 0  # not changed
    assert _core.read_scenario(json.dumps(shared)) == _core.read_scenario(json.dumps(doc))
    schema = json.loads(_core.scenario_schema())
    assert not list(jsonschema.validators.validator_for(schema)(schema).iter_errors(shared))


def test_distinct_tables_stay_distinct_and_without_sharing_the_document_is_unchanged() -> None:
    doc = _document()
    doc["flows"][2]["tcp"] = {**doc["flows"][2]["tcp"], "window": 7}
    shared = with_tcp_tables(doc)
    assert [f.get("tcp_table") for f in shared["flows"]] == [0, 0, 1, 0, None]
    assert shared["tcp_tables"][1]["window"] == 7
    assert _core.read_scenario(json.dumps(shared)) == _core.read_scenario(json.dumps(doc))
    alone = _document(flows=1)
    assert with_tcp_tables(alone) is alone


def test_a_run_of_the_shared_document_gives_the_same_results() -> None:
    doc = _document()
    runs = []
    for text in (json.dumps(with_tcp_tables(doc)), json.dumps(doc)):
        sim = _core.Simulation(text)
        sim.run_until(sim.duration_ps)
        runs.append(json.dumps(sim.results(), sort_keys=True, default=lambda t: t.to_dict()))
    assert runs[0] == runs[1]
    assert '"packet_hops": 0' not in runs[0]
    results = run_document(doc)
    assert results.summary["packet_hops"] > 0
    assert "tcp_tables" not in results.summary["scenario"]  # recorded as given


def test_a_mistake_in_a_shared_table_is_named_at_the_flow() -> None:
    doc = _document()
    doc["flows"][0]["tcp"]["windw"] = 3  # the engine's reading, not its rules, refuses it
    with pytest.raises(ValueError, match=r"tcp_table\[0\]: unknown field `windw`"):
        _core.Simulation(json.dumps(with_tcp_tables(doc)))
    with pytest.raises(ScenarioError) as e:
        run_document(doc)
    assert "flow[0]: unknown field `windw`" in str(e.value)
    assert "tcp_table" not in str(e.value)


def test_flows_alike_but_for_their_boot_times_share_one_table() -> None:
    """``resolve_shared(boot_per_flow=True)`` (``ackclock ns2``'s): each flow's own
    ``ns2_boot_time`` beside one shared table, which the engine reads as the document that
    gives every flow its table with its time; a two-way connection's reply takes the
    initiator's, as its copy of the table did."""
    net = ac.Network("boots", profile="ns2")
    net.nodes("a", "b", "r")
    net.link("a", "r", rate="10Mb/s", delay="1ms")
    net.link("r", "b", rate="1Mb/s", delay="5ms", queue_limit=10)
    boots = ["3ms", "0s", "7.5ms"]
    for i, boot in enumerate(boots):
        net.tcp(f"f{i}", "a", "b", start=f"{0.1 * i}s", ns2_boot_time=boot)
    net.tcp("two", "b", "a", two_way=True, size="20kB", reply_size="30kB",
            ns2_boot_time="1ms")
    sc = net.scenario("3s")
    apart = resolve_shared(sc, boot_per_flow=True)
    inline = ac.resolve(sc)
    one_way = apart["flows"][:3]
    assert all(f["tcp"] is one_way[0]["tcp"] for f in one_way)
    assert one_way[0]["tcp"]["ns2_boot_time_ps"] == 0
    assert [f["ns2_boot_time_ps"] for f in apart["flows"]] == [
        3_000_000_000, 0, 7_500_000_000, 1_000_000_000, 1_000_000_000]
    assert [f["tcp"]["ns2_boot_time_ps"] for f in inline["flows"]] == [
        f["ns2_boot_time_ps"] for f in apart["flows"]]
    assert all("ns2_boot_time_ps" not in f for f in inline["flows"])
    shared = with_tcp_tables(apart)
    # The connection's copies (with syn, which the ns2 profile has on) join the one table.
    assert len(shared["tcp_tables"]) == 1
    read = _core.read_scenario(json.dumps(shared))
    assert read == _core.read_scenario(json.dumps(inline))
    runs = []
    for doc in (shared, inline):
        sim = _core.Simulation(json.dumps(doc))
        sim.run_until(sim.duration_ps)
        runs.append(json.dumps(sim.results(), sort_keys=True, default=lambda t: t.to_dict()))
    assert runs[0] == runs[1]
