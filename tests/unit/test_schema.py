"""One owner of the scenario schema (issue 27): python/ackclock/schema.py.

- The published JSON Schema (docs/scenario.schema.json, for editors) is the one schema.py makes.
- Every example scenario file is accepted by the published schema, the loader and the engine.
- Structural mistakes made in every example (an unknown key in each table, a kind that does not
  exist, a value of the wrong type, a required key left out) are rejected by both the schema and
  the loader, and both name the same place.
- The engine's rules (scenario/validate.rs), which the front end asks through rules.py, name
  the same key for a mistake in the file as for the same mistake in the resolved document
  (tests/unit/test_rules.py holds the JSON Schema and the engine to the same corpus).
- The engine reads every resolved document as the front end wrote it and decides no default of
  its own (but a TFRC flow's, which it owns); the scenario model's dataclasses have the
  schema's keys.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ackclock import schema
from ackclock.errors import ScenarioError
from ackclock.indented_json import dumps
from ackclock.toml_loader import parse_toml, resolved_from_raw

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "examples").glob("*.toml")) + [ROOT / "python/ackclock/demo.toml"]
# Too large to resolve once per mutation (10 000 flows); still checked whole below.
MUTATE = [p for p in SCENARIOS if p.name != "many_flows.toml"]


def _validator() -> Any:
    return jsonschema.Draft7Validator(schema.json_schema())


def _raw(path: Path) -> dict[str, Any]:
    return parse_toml(path.read_text(encoding="utf-8"))


def _loader_place(raw: dict[str, Any], path: Path) -> tuple[Any, ...] | None:
    """Where the loader rejects ``raw`` (as a key path tuple), or None if it accepts it."""
    try:
        resolved_from_raw(raw, str(path))
    except ScenarioError as e:
        assert e.path, str(e)
        return _parse_place(e.path)
    return None


def _parse_place(text: str) -> tuple[Any, ...]:
    """``flow[0]{i=3}.app.kind`` as ('flow', 0, 'app', 'kind')."""
    out: list[Any] = []
    for part in re.sub(r"\{i=\d+\}", "", text).split("."):
        m = re.fullmatch(r"([^\[]+)((?:\[\d+\])*)", part)
        assert m, text
        out.append(m.group(1))
        out.extend(int(i) for i in re.findall(r"\[(\d+)\]", m.group(2)))
    return tuple(out)


def _schema_places(raw: dict[str, Any]) -> set[tuple[Any, ...]]:
    """Every place the schema names in rejecting ``raw``: the value's path, and for a key that
    is unknown or missing, the key's path."""
    places: set[tuple[Any, ...]] = set()
    for err in _validator().iter_errors(raw):
        at = tuple(err.absolute_path)
        places.add(at)
        if err.validator in ("additionalProperties", "required"):
            for key in re.findall(r"'([^']+)'", err.message):
                places.add((*at, key))
    return places


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_every_example_is_accepted_by_schema_loader_and_engine(
        path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the engine opens the packet-trace files it names
    raw = _raw(path)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in _validator().iter_errors(raw)]
    assert errors == []
    _, document = resolved_from_raw(raw, str(path))
    from ackclock._core import Simulation

    Simulation(dumps(document))  # the engine accepts the resolved document


def test_published_schema_is_the_generated_one() -> None:
    published = json.loads((ROOT / "docs/scenario.schema.json").read_text(encoding="utf-8"))
    assert published == schema.json_schema(), (
        "docs/scenario.schema.json is out of date: python -m ackclock.schema >"
        " docs/scenario.schema.json")


def test_schema_is_a_valid_draft7_schema() -> None:
    jsonschema.Draft7Validator.check_schema(schema.json_schema())


def _tables(raw: dict[str, Any]) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Each table of the file with its path: top level, run, defaults(.tcp), the first of
    each array of tables and their queue, loss and app tables."""
    yield (), raw
    for key in ("run", "defaults"):
        if isinstance(raw.get(key), dict):
            yield (key,), raw[key]
    if isinstance(raw.get("defaults", {}).get("tcp"), dict):
        yield ("defaults", "tcp"), raw["defaults"]["tcp"]
    for kind in ("node", "link", "flow", "trace"):
        for i, entry in enumerate(raw.get(kind, [])[:3]):
            yield (kind, i), entry
            for sub in ("queue", "loss", "app"):
                if isinstance(entry.get(sub), dict):
                    yield (kind, i, sub), entry[sub]


def _at(raw: dict[str, Any], place: tuple[Any, ...]) -> Any:
    for step in place:
        raw = raw[step]
    return raw


def _mutations(raw: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], tuple[Any, ...]]]:
    """(what, mutated document, the place a check must name)."""
    for place, table in list(_tables(raw)):
        doc = copy.deepcopy(raw)
        _at(doc, place)["no_such_key"] = 1
        yield "unknown key", doc, (*place, "no_such_key")
        if "kind" in table:
            doc = copy.deepcopy(raw)
            _at(doc, place)["kind"] = "no_such_kind"
            yield "unknown kind", doc, (*place, "kind")
        for key, value in table.items():
            if isinstance(value, bool):
                doc = copy.deepcopy(raw)
                _at(doc, place)[key] = "yes"
                yield "a string for a boolean", doc, (*place, key)
            elif key in ("rate", "delay", "duration", "warmup", "sample_interval", "stop",
                         "size", "limit", "packet_size", "window", "seed", "p"):
                doc = copy.deepcopy(raw)
                _at(doc, place)[key] = [1, 2]
                yield "a list for a number", doc, (*place, key)
    for place, key in [(("run",), "duration"), (("link", 0), "rate"), (("flow", 0), "kind"),
                       (("node", 0), "name")]:
        doc = copy.deepcopy(raw)
        try:
            del _at(doc, place)[key]
        except (KeyError, IndexError):
            continue
        yield "a required key left out", doc, (*place, key)


@pytest.mark.parametrize("path", MUTATE, ids=lambda p: p.name)
def test_schema_and_loader_reject_the_same_mistakes_at_the_same_place(path: Path) -> None:
    raw = _raw(path)
    cases = 0
    for what, doc, place in _mutations(raw):
        loader = _loader_place(doc, path)
        schema_places = _schema_places(doc)
        assert loader is not None, f"{what} at {place}: the loader accepts it"
        assert schema_places, f"{what} at {place}: the schema accepts it"
        # Entries made by `count = N` are named by their copy; the schema sees the table.
        assert loader == place, f"{what}: the loader names {loader}, not {place}"
        assert place in schema_places, f"{what} at {place}: the schema names {schema_places}"
        cases += 1
    assert cases >= 10


# Rules the engine checks, for the file (through the front end) and for the document.
_BOTH = """
name = "both"
[run]
duration = "10s"
sample_interval = "1s"
[[node]]
name = "a"
[[node]]
name = "b"
[[link]]
from = "a"
to = "b"
rate = "10Mb/s"
delay = "5ms"
duplex = false
loss = { kind = "periodic", period = 10, offset = 2, burst = 1 }
[[link]]
from = "b"
to = "a"
rate = "10Mb/s"
delay = "5ms"
duplex = false
[[flow]]
name = "t"
kind = "tcp"
from = "a"
to = "b"
[[flow]]
name = "u"
kind = "udp"
from = "a"
to = "b"
app = { kind = "cbr", rate = "1Mb/s", packet_size = 500 }
"""


def _set(doc: dict[str, Any], path: str, value: Any) -> None:
    *head, last = path.split(".")
    for step in head:
        doc = doc[int(step)] if isinstance(doc, list) else doc[step]
    if isinstance(doc, list):
        doc[int(last)] = value
    else:
        doc[last] = value


# (file key = value, document key = value, the place both must name)
CASES = [
    ("run.duration", "0s", "run.duration_ps", 0, "run.duration"),
    ("run.warmup", "10s", "run.warmup_ps", 10 * 10**12, "run.warmup"),
    ("run.sample_interval", "0s", "run.sample_interval_ps", 0, "run.sample_interval"),
    ("node.1.name", "a", "nodes.1", "a", "node[1].name"),
    ("flow.1.name", "t", "flows.1.name", "t", "flow[1].name"),
    ("flow.0.to", "a", "flows.0.to", 0, "flow[0]"),
    ("link.0.to", "a", "links.0.to", 0, "link[0]"),
    ("flow.1.app.packet_size", 0, "flows.1.app.packet_size", 0, "flow[1].app.packet_size"),
    ("flow.0.trace", ["nonesuch"], "flows.0.trace", ["nonesuch"], "flow[0].trace"),
    ("flow.1.trace", ["cwnd"], "flows.1.trace", ["cwnd"], "flow[1].trace"),
    ("link.0.loss", {"kind": "bernoulli", "p": 1.5}, "links.0.loss",
     {"kind": "bernoulli", "p": 1.5}, "link[0].loss.p"),
    ("link.0.loss", {"kind": "gilbert_elliott", "p_good_bad": 0.1, "p_bad_good": -0.5},
     "links.0.loss", {"kind": "gilbert_elliott", "p_good_bad": 0.1, "p_bad_good": -0.5,
                      "loss_good": 0.0, "loss_bad": 1.0}, "link[0].loss.p_bad_good"),
    ("link.1.queue", {"limit": 10, "limit_bytes": 1000}, "links.1.queue.limit_bytes", 1000,
     "link[1].queue"),
    # A flow's TCP parameters (scenario.py's _tcp checks, validate.rs's TcpConfig::validate).
    ("flow.0.segs_per_ack", 0, "flows.0.tcp.segs_per_ack", 0, "flow[0].segs_per_ack"),
    ("flow.0.packet_size", 0, "flows.0.tcp.packet_size", 0, "flow[0].packet_size"),
    ("flow.0.window_init", 0, "flows.0.tcp.window_init", 0, "flow[0].window_init"),
    ("flow.0.dupack_threshold", 0, "flows.0.tcp.dupack_threshold", 0,
     "flow[0].dupack_threshold"),
    ("flow.0.min_rto", "70s", "flows.0.tcp.min_rto_ps", 70 * 10**12, "flow[0].min_rto"),
    ("flow.0.rcv_buffer", 0, "flows.0.tcp.rcv_buffer_bytes", 0, "flow[0].rcv_buffer"),
    ("flow.0.read_rate", "1Mb/s", "flows.0.tcp.app_read_rate_bps", 1e6, "flow[0].read_rate"),
    # Loss models and applications.
    ("link.0.loss", {"kind": "periodic", "period": 10, "offset": 10}, "links.0.loss.offset", 10,
     "link[0].loss.offset"),
    ("link.0.loss", {"kind": "periodic", "period": 10, "burst": 11}, "links.0.loss.burst", 11,
     "link[0].loss.burst"),
    # A rate so high that no picosecond separates two packets: the engine's interval of 0.
    ("flow.1.app.rate", "1e30Gb/s", "flows.1.app.interval_ps", 0, "flow[1].app.rate"),
]


@pytest.mark.parametrize("file_key,file_value,doc_key,doc_value,place", CASES,
                         ids=[c[4] + ":" + c[0] for c in CASES])
def test_front_end_and_engine_reject_the_same_mistake_at_the_same_place(
        file_key: str, file_value: Any, doc_key: str, doc_value: Any, place: str) -> None:
    from ackclock._core import Simulation

    raw = parse_toml(_BOTH)
    _, document = resolved_from_raw(copy.deepcopy(raw), "both.toml")
    Simulation(json.dumps(document))  # the base is accepted by both

    bad = copy.deepcopy(raw)
    _set(bad, file_key, file_value)
    with pytest.raises(ScenarioError) as front:
        resolved_from_raw(bad, "both.toml")
    assert front.value.path is not None
    assert front.value.path == place or front.value.path.startswith(place + "."), str(front.value)

    engine_doc = copy.deepcopy(document)
    _set(engine_doc, doc_key, doc_value)
    with pytest.raises(ValueError) as engine:
        Simulation(json.dumps(engine_doc))
    assert str(engine.value).startswith(place + ":") or str(engine.value).startswith(
        place + "."), str(engine.value)


def test_resource_guards_are_the_engines() -> None:
    """The engine's resource guards (scenario/validate.rs: samples per series, time-series rows,
    packets of one application) have no copy in the front end, which asks the engine's checks
    (rules.py) and names the place in the scenario's words."""
    from ackclock import scenario

    for name in ("MAX_SAMPLES", "MAX_SAMPLE_ROWS", "MAX_APP_PACKETS"):
        assert not hasattr(scenario, f"_{name}"), name
    raw = parse_toml(_BOTH)
    raw["run"]["sample_interval"] = "100ns"  # 10 s / 100 ns = 1e8 samples per series
    with pytest.raises(ScenarioError) as e:
        resolved_from_raw(raw, "both.toml")
    assert str(e.value) == ("both.toml: run.sample_interval: 100,000,001 samples per series,"
                            " more than 50,000,000; choose a longer interval")
    raw = parse_toml(_BOTH)
    raw["flow"][1]["app"]["rate"] = "1000Tb/s"  # 4 ps between packets: 2.5e12 packets
    with pytest.raises(ScenarioError) as e:
        resolved_from_raw(raw, "both.toml")
    assert str(e.value) == ("both.toml: flow[1].app.rate: one packet every 4 ps is"
                            " 2,500,000,000,000 packets over run.duration, more than"
                            " 10,000,000,000; lower the rate")


def _engine_reading(document: dict[str, Any]) -> dict[str, Any]:
    from ackclock._core import read_scenario

    reading: dict[str, Any] = json.loads(read_scenario(dumps(document)))
    return reading


def _differences(front: Any, engine: Any, path: str = "") -> Iterator[tuple[str, str, Any]]:
    """(place, what, value): keys the engine fills in that the front end did not write
    ("added"), keys it did not read back ("dropped") and values that differ."""
    if isinstance(front, dict) and isinstance(engine, dict):
        for k, v in engine.items():
            if k in front:
                yield from _differences(front[k], v, f"{path}.{k}")
            else:
                yield f"{path}.{k}", "added", v
        for k in front.keys() - engine.keys():
            yield f"{path}.{k}", "dropped", front[k]
    elif isinstance(front, list) and isinstance(engine, list) and len(front) == len(engine):
        for i, (a, b) in enumerate(zip(front, engine, strict=True)):
            yield from _differences(a, b, f"{path}[{i}]")
    elif front != engine:
        yield path, "differs", (front, engine)


# Keys the engine may fill in with false or 0 (nothing asked): a UDP flow's header bytes on a
# TCP flow, ns-2's entry-side loss model (the ns-2 front end's), per-flow queue monitors.
_EMPTY_BY_DEFAULT = {"header_size", "loss_at_entry", "monitor_flows"}


def _profile_networks() -> Iterator[tuple[str, dict[str, Any]]]:
    """Per profile: TCP one way (and two way), UDP and TFRC flows, resolved."""
    import ackclock as ac

    for profile in ("ns2", "linux", "ns3", "ikr"):
        net = ac.Network(f"every-{profile}", profile=profile)
        net.nodes("a", "b")
        net.link("a", "b", rate="10Mb/s", delay="1ms")
        net.tcp("one", "a", "b")
        if profile in ("ns2", "ikr"):  # the others' receive buffers are one-way only yet
            net.tcp("two", "a", "b", two_way=True, size="10KB", reply_size="20KB")
        net.udp("u", "a", "b", rate="1Mb/s", packet_size=500)
        net.tfrc("t", "a", "b", packet_size=500, ca=False)
        yield profile, ac.resolve(net.scenario("1s"))


def _documents() -> Iterator[tuple[str, dict[str, Any]]]:
    for path in MUTATE:
        yield path.name, resolved_from_raw(_raw(path), str(path))[1]
    yield from _profile_networks()


def test_the_engine_reads_what_the_front_end_wrote_and_decides_no_default() -> None:
    """The resolved document, read by the engine (``_core.read_scenario``: its serde types and
    checks) and written back, is the front end's for every example file and every profile:
    each value read as written, none dropped, and no value the engine fills in on its own but
    absent options, empty lists and nothing-asked flags. So the profiles
    (python/ackclock/profiles.py) decide every default, never the engine's serde defaults.
    The one exception is a TFRC flow's parameters: their defaults (ns-2.35's, whatever the
    profile) are the engine's TfrcConfig, which the schema's descriptions read
    (schema.tfrc_defaults); the front end passes on what a flow gives."""
    problems = []
    for name, document in _documents():
        # The text the engine reads: a Tmix flow's vector columns (arrays) as JSON lists.
        document = json.loads(dumps(document))
        for place, what, value in _differences(document, _engine_reading(document)):
            key = place.rsplit(".", 1)[-1]
            if what == "added" and (value in (None, [], {}) or (
                    key in _EMPTY_BY_DEFAULT and value in (False, 0))):
                continue
            if what == "added" and re.search(r"\.tfrc\.[a-z_]+$", place):
                continue
            problems.append(f"{name}{place}: {what} {value!r}")
    assert problems == []


def test_tfrc_defaults_are_the_engines_and_ns2s() -> None:
    """A TFRC flow's defaults are the engine's (schema.tfrc_defaults reads them back from
    it), the published schema gives those, and they are ns-2.35's Agent/TFRC and
    Agent/TFRCSink defaults as the ns-2 front end lists them (ns2/defaults.py)."""
    from ackclock.ns2.defaults import DEFAULTS
    from ackclock.ns2.tfrc import SENDER_PARAMS, SINK_PARAMS

    engine = schema.tfrc_defaults()
    assert set(engine) == set(schema.TFRC)
    published = json.loads((ROOT / "docs/scenario.schema.json").read_text(encoding="utf-8"))
    tfrc = published["properties"]["flow"]["items"]["properties"]["tfrc"]["properties"]
    for key, value in engine.items():
        shown = json.dumps(value) if isinstance(value, bool) else f"{value:g}"
        assert tfrc[key]["description"].endswith(f"; default {shown}"), key
    seen = set()
    for cls, params in (("Agent/TFRC", SENDER_PARAMS), ("Agent/TFRCSink", SINK_PARAMS)):
        for var, (key, kind) in params.items():
            text = DEFAULTS[cls][var][0]
            ns2 = {"int": int, "float": float}.get(kind, lambda t: t in ("1", "true"))(text)
            assert ns2 == engine[key], f"{cls} {var} {text}: the engine's {key} is {engine[key]}"
            seen.add(key)
    # Those without an ns-2 variable of their own: SndrType_ 1 (app_limited), useHeaders_.
    assert set(engine) - seen <= {"app_limited"}, set(engine) - seen


# The scenario model (scenario.py's dataclasses) against the schema's tables: a field that is
# not a key of its table, and a key that is not a field, each with the reason.
_FIELDS_NOT_KEYS = {
    "origin": "where in the file the table came from, for error messages",
    "loss_at_entry": "the ns-2 front end's: ns-2's lossmodel sits at a link's entry",
    "loss_behind": "the ns-2 front end's: a link's further errormodules, met after the first",
    "lost_untraced": "the ns-2 front end's: loss-model drops of links made before trace-all",
    "ahead_of_loss": "the ns-2 front end's: a trace-queue made after the link's errormodule",
    "ports": "the ns-2 front end's: its agents' port numbers in packet traces",
    "tcp": "the flow's other TCP parameters, given among its keys (profiles.TCP_PARAMS)",
    "params": "the discipline's own keys (queues.SPECS), given among the queue's keys",
    "source": "the file the scenario came from, for error messages",
}
_KEYS_NOT_FIELDS = {
    "count": "copies made by the loader, {i} replaced",
    "fid_": "ns-2's name for fid",
    "setbit_": "ns-2's name for ecn",
}


def test_the_scenario_model_has_the_schemas_keys() -> None:
    """Each dataclass of the scenario model (Scenario, RunConfig, Node, Link, QueueConfig,
    Flow, PacketTrace) has a field for each key of its schema table and no other, but those
    named above with their reasons (apps and loss models: test_apps.py, test_scenario.py)."""
    from dataclasses import fields

    from ackclock import scenario as sc
    from ackclock.profiles import TCP_PARAMS

    top = {"defaults": "defaults_tcp", "node": "nodes", "link": "links", "flow": "flows",
           "trace": "traces"}
    for cls, table, extra in (
            (sc.Scenario, {top.get(k, k): v for k, v in schema.TOP.items()}, {}),
            (sc.RunConfig, schema.RUN, {}),
            (sc.Node, schema.NODE, {}),
            (sc.Link, schema.LINK, {}),
            (sc.QueueConfig, schema.QUEUE_COMMON, {}),
            # A flow's TCP parameters and a UDP flow's header bytes stand among its keys.
            (sc.Flow, schema.FLOW, {**TCP_PARAMS, "header_size": "size"}),
            (sc.PacketTrace, schema.TRACE, {})):
        names = {f.name.rstrip("_") if f.name == "from_" else f.name for f in fields(cls)}
        assert names - set(table) - set(extra) - set(_FIELDS_NOT_KEYS) == set(), cls.__name__
        assert set(table) - names - set(_KEYS_NOT_FIELDS) == set(), cls.__name__


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))


def _canonical(key: str, value: Any) -> Any:
    """A TCP parameter's value, as written in profiles.py or in the docs' table, in one form."""
    from ackclock.profiles import TCP_PARAMS
    from ackclock.units import parse_size, parse_time

    kind = TCP_PARAMS[key]
    if isinstance(value, str):
        value = value.strip().strip("`").strip('"')
        if value in ("none", "unbounded"):
            return None
        if value in ("true", "false"):
            return value == "true"
        if value == "{}":
            return {}
    if value is None or kind in ("name", "bool", "table") or value == "window":
        return value
    if kind in ("time",):
        return parse_time(str(value).replace(" ", "") if isinstance(value, str) else value)
    if kind in ("size", "size_or_none"):
        return parse_size(value)
    if kind == "number":
        return float(value)
    return int(value)


def test_documented_profile_defaults_are_the_profiles() -> None:
    """docs/scenario-files.md's table of TCP parameters gives each profile's default as
    profiles.py (their one owner) has it, for every parameter."""
    from ackclock.profiles import PROFILES, TCP_ALIASES, TCP_PARAMS

    text = (ROOT / "docs/scenario-files.md").read_text(encoding="utf-8")
    header = ("| key | ns-2 alias | `ns2` profile | `linux` profile | `ns3` profile"
              " | `ikr` profile |")
    start = text.index(header)
    rows = text[start:text.index("\n\n", start)].splitlines()[2:]
    seen = []
    for row in rows:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        key = re.match(r"`([a-z0-9_]+)`", cells[0]).group(1)  # type: ignore[union-attr]
        seen.append(key)
        alias = {v: k for k, v in TCP_ALIASES.items()}.get(key)
        assert cells[1] == (f"`{alias}`" if alias else ""), key
        for name, cell in zip(PROFILES, cells[2:], strict=True):
            assert _canonical(key, cell) == _canonical(key, PROFILES[name].tcp[key]), (
                f"{key}: the docs give {cell} for {name}, profiles.py"
                f" {PROFILES[name].tcp[key]!r}")
    assert seen == list(TCP_PARAMS)


def test_profiles_page_table_is_the_profiles() -> None:
    """docs/profiles.md's table of the profiles gives the numbers profiles.py (their one
    owner) has: segment, window or receive buffer, initial window, delayed-ACK count and
    delay, the RTO's floor, first value and cap, the congestion control and DropTail's
    default buffer, each in the words of its cell."""
    from ackclock.profiles import PROFILES
    from ackclock.units import parse_size, parse_time

    text = (ROOT / "docs/profiles.md").read_text(encoding="utf-8")
    rows = {}
    for line in text[text.index("| | `ns2`"):].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[cells[0]] = dict(zip(PROFILES, cells[1:], strict=True))

    def num(n: float) -> str:  # 10 000, 131 072: the page's thousands
        return f"{n:,.0f}".replace(",", " ")

    for name, prof in PROFILES.items():
        tcp = prof.tcp
        where = f"docs/profiles.md, {name}"
        seg = rows["segment, window"][name]
        assert seg.startswith(f"{parse_size(tcp['packet_size'])} B"), (where, seg)
        if tcp.get("rcv_buffer") is not None:
            assert f"{num(parse_size(tcp['rcv_buffer']))}-byte receive buffer" in seg, where
        else:
            assert f"{num(tcp['window'])} segments" in seg, (where, seg)
        assert rows["initial window"][name] == str(tcp["window_init"]), where
        receiver = rows["receiver"][name]
        if tcp["sink"] == "ack-every" and not tcp["delayed_ack"]:
            assert receiver == "an ACK per segment", (where, receiver)
        else:
            ms = parse_time(tcp["ack_delay"]) / 10**9
            assert f"delayed ACKs ({tcp['segs_per_ack']} segments / {ms:g} ms)" in receiver, (
                where, receiver)
        rto = rows["RTO"][name]
        floor_s = parse_time(tcp["min_rto"]) / 10**12
        assert f"max({floor_s:g} s, " in rto or f"max(4 RTTVAR, {floor_s:g} s)" in rto or (
            f"rounded up to {parse_time(tcp['timer_granularity']) / 10**9:g} ms" in rto), (
                where, rto)
        first_s = parse_time(tcp["initial_rto"]) / 10**12
        assert f"{first_s:g} s before a sample" in rto or f"max({first_s:g} s" in rto, (
            where, rto)
        if "at most" in rto:
            assert f"at most {parse_time(tcp['max_rto']) / 10**12:g} s" in rto, (where, rto)
        cc = rows["congestion control"][name]
        assert cc.lower().startswith(tcp["cc"]), (where, cc)
        droptail = rows["DropTail"][name]
        limit = "unlimited" if prof.queue_limit >= 1_000_000 else str(prof.queue_limit)
        assert re.search(rf"(^|, ){limit}( packets|$| \()", droptail), (where, droptail)
        assert ("ns-2's" in droptail) == prof.queue_ns2, (where, droptail)


def test_engine_fixture_profile_file_is_current() -> None:
    """crates/ackclock-core/tests/data/ns2_tcp.json is the TCP document the ns2 profile
    resolves to; the engine's tests/profile_defaults.rs holds fixtures::ns2_tcp() to it, so
    that the engine tests' ns-2 defaults come from profiles.py too (with their departures
    named there)."""
    path = ROOT / "crates/ackclock-core/tests/data/ns2_tcp.json"
    assert path.read_text(encoding="utf-8") == json.dumps(
        schema.profile_tcp("ns2"), indent=2) + "\n", (
        f"{path} is out of date: python -m ackclock.schema --profile-tcp ns2 > {path}")
