"""Queue-discipline and loss-model parameters: names, ns-2 aliases, defaults, mistakes."""

from __future__ import annotations

from typing import Any

import pytest

from ackclock.errors import ScenarioError
from ackclock.scenario import resolve
from ackclock.toml_loader import loads_scenario

MS = 10**9

BASE = """
name = "q"
[run]
duration = "1s"
[[node]]
name = "a"
[[node]]
name = "b"
[[link]]
from = "a"
to = "b"
rate = "10Mb/s"
delay = "29ms"
QUEUE
[[flow]]
name = "f"
kind = "tcp"
from = "a"
to = "b"
"""


def queue(table: str, profile: str = "ns2") -> dict[str, Any]:
    text = BASE.replace("QUEUE", table)
    if profile != "ns2":
        text = f'profile = "{profile}"\n' + text
    return resolve(loads_scenario(text, source="q.toml"))["links"][0]["queue"]


def error(table: str) -> str:
    with pytest.raises(ScenarioError) as info:
        queue(table)
    return str(info.value)


def test_red_defaults_are_ns2s_in_the_ns2_profile() -> None:
    q = queue('queue = { kind = "red", limit = 100, max_thresh = 20 }')
    assert q["kind"] == "red" and q["limit_packets"] == 100 and q["ecn"] is False
    assert q["red"] == {
        "min_thresh": 0.0, "max_thresh": 20.0, "q_weight": -1.0, "max_p": 0.1,
        "gentle": True, "wait": True, "bytes": True, "queue_in_bytes": True,
        "mean_pktsize": 500, "target_delay_ps": 5 * MS, "use_mark_p": True, "mark_p": 0.1,
    }


def test_red_in_the_linux_profile_measures_packets() -> None:
    r = queue('queue = { kind = "red", limit = 100 }', profile="linux")["red"]
    assert (r["bytes"], r["queue_in_bytes"], r["mean_pktsize"]) == (False, False, 1500)


def test_red_defaults_in_the_ns3_profile_are_red_queue_discs() -> None:
    """ns-3.44's RedQueueDisc attributes (MinTh 5, MaxTh 15, QW 0.002, LInterm 50,
    MeanPktSize 500), not ns-2's automatic thresholds and weight."""
    r = queue('queue = { kind = "red", limit = 25 }', profile="ns3")["red"]
    assert (r["min_thresh"], r["max_thresh"], r["q_weight"], r["max_p"], r["mean_pktsize"]) == (
        5.0, 15.0, 0.002, 0.02, 500)


def test_ns2_names_are_accepted_and_linterm_is_inverted() -> None:
    q = queue('queue = { kind = "red", limit = 60, thresh_ = 5, maxthresh_ = 15, linterm_ = 50,'
              ' q_weight_ = 0.002, setbit_ = true }')
    r = q["red"]
    assert (r["min_thresh"], r["max_thresh"], r["q_weight"]) == (5.0, 15.0, 0.002)
    assert r["max_p"] == pytest.approx(0.02)
    assert q["ecn"] is True


def test_codel_fq_codel_and_pie_defaults_follow_their_rfcs() -> None:
    c = queue('queue = { kind = "codel" }')
    assert c["codel"] == {"target_ps": 5 * MS, "interval_ps": 100 * MS, "mtu": 1500}
    assert c["limit_packets"] == 50  # the ns2 profile's buffer
    f = queue('queue = { kind = "fq_codel", quantum = 300 }')
    assert f["codel"]["flows"] == 1024 and f["codel"]["quantum"] == 300
    assert f["limit_packets"] == 10240
    p = queue('queue = { kind = "pie", limit = 1000, target = "20ms" }')["pie"]
    assert p == {"target_ps": 20 * MS, "t_update_ps": 15 * MS, "alpha": 0.125, "beta": 1.25,
                 "max_burst_ps": 150 * MS, "mean_pktsize": 1500, "mark_ecn_threshold": 0.1}


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('queue = { kind = "red", target = "5ms" }', "link[0].queue.target: unknown key"),
        ('queue = { kind = "red", max_p = 1.5 }', "link[0].queue.max_p: expected a probability"),
        ('queue = { kind = "red", linterm_ = 0 }', "link[0].queue.linterm_: must not be 0"),
        ('queue = { kind = "red", max_thresh = -1 }', "link[0].queue.max_thresh: must not be"),
        ('queue = { kind = "red", q_weight = 3 }', "link[0].queue.q_weight: expected a weight"),
        ('queue = { kind = "red", max_p = 0.1, linterm_ = 10 }',
         'link[0].queue.linterm_: "linterm_" and "max_p" set the same parameter'),
        ('queue = { kind = "codel", target = "soon" }', "link[0].queue.target: "),
        ('queue = { kind = "pie", ecn = "yes" }', "link[0].queue.ecn: expected true or false"),
        ('queue = { kind = "droptail", ecn = true }', "link[0].queue.ecn: DropTail never marks"),
        ('queue = { kind = "codel", limit_bytes = 1000 }',
         "link[0].queue.limit_bytes: a codel queue takes its limit in packets"),
    ],
)
def test_queue_mistakes_name_the_key(table: str, message: str) -> None:
    assert error(table).startswith(f"q.toml: {message}")


def loss(table: str) -> dict[str, Any]:
    text = BASE.replace("QUEUE", f"loss = {table}")
    return resolve(loads_scenario(text, source="q.toml"))["links"][0]["loss"]


def test_loss_models_resolve() -> None:
    assert loss('{ kind = "bernoulli", p = 0.01 }') == {"kind": "bernoulli", "p": 0.01}
    assert loss('{ kind = "bernoulli", p = 1e-5, unit = "byte" }') == {
        "kind": "byte_bernoulli", "p": 1e-5}
    assert loss('{ kind = "gilbert_elliott", p_good_bad = 0.01, p_bad_good = 0.3 }') == {
        "kind": "gilbert_elliott", "p_good_bad": 0.01, "p_bad_good": 0.3, "loss_good": 0.0,
        "loss_bad": 1.0}
    assert loss('{ kind = "periodic", period = 100 }') == {
        "kind": "periodic", "period": 100, "offset": 0, "burst": 1}


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('{ kind = "bernoulli", p = 0.1, unit = "bit" }', 'link[0].loss.unit: expected "packet"'),
        ('{ kind = "gilbert_elliott", p_good_bad = 0.1 }', "link[0].loss.p_bad_good: missing"),
        ('{ kind = "gilbert_elliott", p_good_bad = 2, p_bad_good = 0.1 }',
         "link[0].loss.p_good_bad: expected a probability"),
        ('{ kind = "periodic", period = 10, offset = 10 }',
         "link[0].loss.offset: must be smaller than period"),
        ('{ kind = "periodic", period = 10, offset = 5, burst = 6 }',
         "link[0].loss.burst: offset + burst must not exceed period"),
        ('{ kind = "periodic", p = 0.1, period = 5 }', "link[0].loss.p: unknown key"),
    ],
)
def test_loss_mistakes_name_the_key(table: str, message: str) -> None:
    text = BASE.replace("QUEUE", f"loss = {table}")
    with pytest.raises(ScenarioError) as info:
        resolve(loads_scenario(text, source="q.toml"))
    assert str(info.value).startswith(f"q.toml: {message}")


def test_every_registered_discipline_resolves_and_runs_with_its_defaults() -> None:
    """The front end knows the disciplines only from the engine's registry
    (`ackclock._core.queue_registry()`): each resolves with its defaults, its document is
    accepted by the engine and a short run through it delivers packets; its aliases are
    accepted as keys."""
    from ackclock import _core
    from ackclock.run import run_document

    registry = _core.queue_registry()
    assert [e["name"] for e in registry][:5] == ["droptail", "red", "codel", "fq_codel", "pie"]
    for e in registry:
        # cbq needs its class tree (docs/models/cbq.md): a root and one leaf taking the flow.
        tree = (', classes = [{ name = "root", allot = 1.0 }, { name = "leaf", parent = "root",'
                ' allot = 1.0, limit = 100, flows = ["f"] }]' if e["name"] == "cbq" else "")
        if e["name"] == "dsred":
            # dsred needs its tables (docs/models/diffserv.md): code point 0 to one RED queue.
            tree = (", diffserv = { queues = 1, precedences = 1, phb = [{ code_point = 0,"
                    " queue = 0, precedence = 0 }], red = [{ queue = 0, precedence = 0,"
                    " min_thresh = 20, max_thresh = 40, max_p = 0.1 }] }")
        q = queue(f'queue = {{ kind = "{e["name"]}", limit = 100{tree} }}')
        assert q["kind"] == e["name"]
        for p in e["params"]:
            for alias in (p["ns2"], p["ns3"], *p["aliases"]):
                if alias:
                    value = {"flag": "true", "fraction": "0.5", "weight": "0.5"}.get(
                        p["range"], '"1ms"' if p["unit"] == "time" else "2")
                    table = (f'queue = {{ kind = "{e["name"]}", limit = 100, {alias} = {value}'
                             f'{tree} }}')
                    try:
                        queue(table)
                    except ScenarioError as err:
                        # The key is known; the value may break a rule between parameters
                        # (tbf: a peak_rate above token_rate), which the engine checks.
                        assert err.path == f"link[0].queue.{p['name']}", (table, str(err))
        text = BASE.replace("QUEUE", f'queue = {{ kind = "{e["name"]}", limit = 100{tree} }}')
        result = run_document(resolve(loads_scenario(text, source="q.toml")))
        assert result.flows["packets_delivered"].sum() > 0, e["name"]


def test_parameters_of_other_disciplines_go_in_params() -> None:
    from ackclock.queues import _engine_document

    codel = {"target": 5 * MS, "interval": 100 * MS, "mtu": 1500, "ce_threshold": 0}
    assert _engine_document("codel", codel) == {
        "codel": {"target_ps": 5 * MS, "interval_ps": 100 * MS, "mtu": 1500}}
    assert _engine_document("codel", {**codel, "ce_threshold": MS}) == {
        "codel": {"target_ps": 5 * MS, "interval_ps": 100 * MS, "mtu": 1500},
        "params": {"ce_threshold": float(MS)}}
    assert _engine_document("droptail", {}) == {}


def test_the_binding_exports_every_counter() -> None:
    """The engine's counters are defined once (monitor.rs's `counters!`) and the binding
    hands out every one of them (a flow's, a queue's, a flow's share of a queue), mid-run."""
    import json

    from ackclock import _core

    text = BASE.replace("QUEUE", 'queue = { kind = "red", limit = 100, ecn = true }')
    doc = resolve(loads_scenario(text, source="q.toml"))
    doc["links"][0]["monitor_flows"] = True
    sim = _core.Simulation(json.dumps(doc))
    sim.run_until(500 * MS)
    flow = sim.flow_counters(0)
    assert {"packets_sent", "acks_dropped", "rtt_samples", "rtt_sum_ps", "ecn_reductions",
            "rto_area", "rto_time_ps"} <= flow.keys()
    assert flow["packets_sent"] > 0 and flow["rtt_samples"] > 0
    queue = sim.queue_counters(0)
    assert {"delivered_packets", "max_queue_packets", "sojourn_sum_ps", "max_sojourn_ps",
            "marked_packets", "area_packets_ps"} <= queue.keys()
    assert queue["delivered_packets"] > 0
    per_flow = sim.queue_flow_counters(0)[0]
    counts = {f"{what}_{unit}" for what in ("arrived", "departed", "dropped", "lost",
                                            "early_dropped", "area", "backlog")
              for unit in ("packets", "bytes")}
    assert per_flow.keys() == counts | {"area_packets_ps", "area_bytes_ps", "first_arrival_ps",
                                        "data", "departed_ce_packets", "departed_qs_packets",
                                        "departed_qs_bytes", "dropped_qs_packets", "waited_ps",
                                        "waited_packets"}
    assert per_flow["arrived_packets"] > 0 and per_flow["data"] is True
