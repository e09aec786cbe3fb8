"""The resolved document's JSON Schema, made by the engine from its own types (issue 27: "Rust
types that generate a JSON Schema ... a test proves both sides agree").

``ackclock._core.scenario_schema()`` is schemars' reading of the types serde reads the
resolved document into (crates/ackclock-core/src/scenario.rs and scenario/), so it changes
when they do; docs/engine.schema.json is it as published. The front end's documents validate
against it, what the engine refuses at reading it refuses too, and its names (queue
disciplines, loss models, applications, TCP's enumerated keys) are the scenario file's schema's
(docs/scenario.schema.json, written by the front end): the two schemas describe the two forms
of one scenario, and this test holds them to the same names.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ackclock as ac
from ackclock.indented_json import dumps
from ackclock.toml_loader import parse_toml, resolved_from_raw

jsonschema = pytest.importorskip("jsonschema")
_core = pytest.importorskip("ackclock._core")

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ROOT / "docs" / "engine.schema.json"


def _engine_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(_core.scenario_schema())
    return schema


def _validator() -> Any:
    schema = _engine_schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _documents() -> Iterator[tuple[str, dict[str, Any]]]:
    """Resolved documents: every example scenario file (many_flows.toml's 10 000 flows
    aside), TCP one and two way, UDP and TFRC flows under each profile, a queue of every
    discipline of the registry, and one written in Python."""
    for path in sorted((ROOT / "examples").glob("*.toml")):
        if path.name != "many_flows.toml":
            raw = parse_toml(path.read_text(encoding="utf-8"))
            yield path.name, resolved_from_raw(raw, str(path))[1]
    for profile in ("ns2", "linux", "ns3", "ikr"):
        net = ac.Network(f"every-{profile}", profile=profile)
        net.nodes("a", "b")
        net.link("a", "b", rate="10Mb/s", delay="1ms")
        net.tcp("one", "a", "b")
        if profile in ("ns2", "ikr"):
            net.tcp("two", "a", "b", two_way=True, size="10KB", reply_size="20KB")
        net.udp("u", "a", "b", rate="1Mb/s", packet_size=500)
        net.tfrc("t", "a", "b", packet_size=500, ca=False)
        yield f"profile {profile}", ac.resolve(net.scenario("1s"))
    for entry in json.loads(json.dumps(_core.queue_registry())):
        kind = entry["name"]
        net = ac.Network(f"queue-{kind}", profile="linux")
        net.nodes("a", "b")
        params: dict[str, Any] = {"token_rate": 2e6, "burst": 5000} if kind == "tbf" else {}
        if kind == "cbq":
            params = {"classes": [{"name": "root", "allot": 1.0},
                                  {"name": "leaf", "parent": "root", "allot": 1.0, "limit": 20,
                                   "flows": ["one"]}]}
        if kind == "dsred":
            params = {"diffserv": {"queues": 1, "precedences": 1, "phb": [
                {"code_point": 0, "queue": 0, "precedence": 0}], "red": [
                {"queue": 0, "precedence": 0, "min_thresh": 5, "max_thresh": 15,
                 "max_p": 0.1}]}}
        net.link("a", "b", rate="10Mb/s", delay="1ms", queue=kind, **params)
        net.tcp("one", "a", "b")
        yield f"queue {kind}", ac.resolve(net.scenario("1s"))


def test_the_published_engine_schema_is_the_engines() -> None:
    """docs/engine.schema.json is what the engine makes now (regenerate it with
    ``python -m ackclock.schema --engine > docs/engine.schema.json``)."""
    assert json.loads(PUBLISHED.read_text(encoding="utf-8")) == _engine_schema()


def test_every_resolved_document_validates_against_the_engines_schema() -> None:
    validator = _validator()
    problems = []
    for name, document in _documents():
        # As the engine reads it: a Tmix flow's vector columns (arrays) as JSON lists.
        document = json.loads(dumps(document))
        for e in validator.iter_errors(document):
            problems.append(f"{name}: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")
    assert problems == []


def test_what_the_engine_refuses_at_reading_the_schema_refuses() -> None:
    """A key the engine does not know, a queue discipline or loss model it does not have, a
    value of the wrong type: refused by the schema as by the engine's reading."""
    validator = _validator()
    net = ac.Network("bad", profile="ns2")
    net.nodes("a", "b")
    net.link("a", "b", rate="10Mb/s", delay="1ms")
    net.tcp("one", "a", "b")
    good = ac.resolve(net.scenario("1s"))
    assert not list(validator.iter_errors(good))

    def changed(path: list[Any], value: Any) -> dict[str, Any]:
        doc = json.loads(json.dumps(good))
        at = doc
        for key in path[:-1]:
            at = at[key]
        at[path[-1]] = value
        return doc

    for path, value in ((["links", 0, "queue", "kind"], "wfq"),
                        (["links", 0, "queue", "limt"], 3),
                        (["links", 0, "loss"], {"kind": "bursty", "p": 0.1}),
                        (["flows", 0, "tcp", "windw"], 3),
                        (["flows", 0, "tcp", "window"], "20"),
                        (["flows", 0, "app", "kind"], "telnet"),
                        (["run", "duration_ps"], -1)):
        doc = changed(path, value)
        assert list(validator.iter_errors(doc)), path
        with pytest.raises(ValueError):
            _core.read_scenario(json.dumps(doc))


def _enum_at(schema: dict[str, Any], node: Any) -> set[Any]:
    """The names a (sub)schema allows: its ``enum``/``const`` values, through ``$ref``s,
    ``anyOf``/``oneOf`` branches and the ``kind`` property of tagged variants."""
    out: set[Any] = set()
    if not isinstance(node, dict):
        return out
    if "$ref" in node:
        target: Any = schema
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        out |= _enum_at(schema, target)
    out |= set(node.get("enum", []))
    if "const" in node:
        out.add(node["const"])
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in node.get(key, []):
            out |= _enum_at(schema, branch)
    kind = node.get("properties", {}).get("kind")
    if kind is not None:
        out |= _enum_at(schema, kind)
    return out


def _def(schema: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = schema["$defs"][name]
    return found


def test_the_engines_names_are_the_scenario_files() -> None:
    """Each enumerated key is given the same names in both schemas: queue disciplines, loss
    models, applications, flow kinds, packet-trace formats, and TCP's keys that take a name
    (recovery variant, sink, window unit, RTO rule, ns-2's first-loss and ECN rules,
    HyStart; the scenario file's HyStart also takes true/false). One name is the file's
    alone by design: a byte-wise Bernoulli loss is the file's ``bernoulli`` with ``unit =
    "byte"``."""
    engine = _engine_schema()
    toml = json.loads((ROOT / "docs/scenario.schema.json").read_text(encoding="utf-8"))
    props = toml["properties"]
    link = props["link"]["items"]["properties"]
    flow = props["flow"]["items"]["properties"]
    tcp_file = props["defaults"]["properties"]["tcp"]["properties"]

    def names(node: Any) -> set[Any]:
        return {v for v in _enum_at(toml, node) if isinstance(v, str)}

    pairs = {
        "queue kind": (_enum_at(engine, _def(engine, "QueueDocument")["properties"]["kind"]),
                       names(link["queue"])),
        # The file's `bernoulli` with unit = "byte" is the engine's byte_bernoulli
        # (scenario.py's loss model).
        "loss": (_enum_at(engine, _def(engine, "LossConfig")) - {"byte_bernoulli"},
                 names(link["loss"])),
        "app kind": (_enum_at(engine, _def(engine, "AppConfig")), names(flow["app"])),
        "flow kind": (_enum_at(engine, _def(engine, "FlowKind")), names(flow["kind"])),
        "trace format": (_enum_at(engine, _def(engine, "TraceFormat")),
                         names(props["trace"]["items"]["properties"]["format"])),
    }
    tcp = _def(engine, "TcpDocument")["properties"]
    for key in ("variant", "sink", "window_unit", "rto_rule", "ns2_first_loss", "ns2_ecn",
                "hystart"):
        pairs[f"tcp.{key}"] = (_enum_at(engine, tcp[key]), names(tcp_file[key]))
    differ = {what: (sorted(map(str, a)), sorted(map(str, b)))
              for what, (a, b) in pairs.items() if a != b or not a}
    assert differ == {}


def test_tcps_keys_are_the_engines() -> None:
    """TCP's parameters have one owner, the engine's field list (``tcp_config!`` in
    crates/ackclock-core/src/scenario/tcp.rs): each field says its scenario-file key and kind,
    published as ``x-ackclock-keys`` on the engine schema's ``TcpDocument``. The front end's
    ``TCP_PARAMS`` is that list (with the document's own ``cc`` and ``cc_params``), the scenario
    file's schema has exactly those TCP properties (and the ns-2 aliases), each ``name`` key
    takes its engine enum's names, and a resolved flow's TCP document has exactly the engine's
    fields, in the list's order."""
    from ackclock.profiles import PROFILES, TCP_ALIASES, TCP_CHOICES, TCP_PARAMS
    from ackclock.schema import profile_tcp

    engine = _engine_schema()
    doc = _def(engine, "TcpDocument")
    listed = doc["x-ackclock-keys"]
    fields = [field for _, field, _ in listed]
    assert set(doc["properties"]) == {*fields, "cc", "cc_params"}
    assert [k for k in TCP_PARAMS if k not in ("cc", "cc_params")] == [k for k, _, _ in listed]
    assert {k: TCP_PARAMS[k] for k, _, _ in listed} == {k: kind for k, _, kind in listed}
    for key, field, kind in listed:
        if kind == "name":
            assert set(TCP_CHOICES[key]) == _enum_at(engine, doc["properties"][field]), key
        if kind == "time":
            assert field == f"{key}_ps", key
    toml = json.loads((ROOT / "docs/scenario.schema.json").read_text(encoding="utf-8"))
    tcp_file = toml["properties"]["defaults"]["properties"]["tcp"]["properties"]
    assert list(tcp_file) == [*TCP_PARAMS, *TCP_ALIASES]
    resolved_order = [TCP_PARAMS.field(k) for k in TCP_PARAMS]
    for profile in PROFILES:
        assert list(profile_tcp(profile)) == resolved_order, profile
        assert set(PROFILES[profile].tcp) == set(TCP_PARAMS), profile


def _engine_props(engine: dict[str, Any], name: str) -> dict[str, Any]:
    """The properties of the engine's type ``name`` (schema.Resolved.engine)."""
    if not name:
        props: dict[str, Any] = engine["properties"]
        return props
    defn, _, kind = name.partition(".")
    node = _def(engine, defn)
    if kind:
        [node] = [v for v in node["oneOf"] if v["properties"]["kind"].get("const") == kind]
    props = node["properties"]
    return props


def _nested(engine: dict[str, Any], prop: dict[str, Any]) -> dict[str, Any]:
    """The properties of the table a property holds (through ``$ref`` and ``anyOf`` null)."""
    for branch in [prop, *prop.get("anyOf", [])]:
        if "$ref" in branch:
            return _engine_props(engine, branch["$ref"].rsplit("/", 1)[1])
    raise AssertionError(f"not a table: {prop}")


def test_every_tables_keys_are_the_engines() -> None:
    """The scenario file's other tables (the top level, run, link, flow, trace, queue, each
    application and loss model, tfrc) against the engine's types: each file key becomes one
    field of the engine's type (by schema.RESOLVED's rule) or is declared the front end's
    alone, and each field of the engine's type is reached by a key or declared made by the
    front end, so a key added on one side only fails here. TFRC's keys take the engine's
    value types (booleans, numbers, integers; unsigned where the engine's are)."""
    from ackclock.schema import RESOLVED, TFRC, engine_field

    engine = _engine_schema()
    problems: list[str] = []
    for table, (keys, resolved) in RESOLVED.items():
        props = _engine_props(engine, resolved.engine)
        reached: dict[str, set[str]] = {}
        for name in resolved.renamed:
            if name not in keys:
                problems.append(f"{table}: renamed key {name} is not the file's")
        for name, key in keys.items():
            field = engine_field(name, key, resolved)
            if field is None:
                continue
            top, _, inner = field.partition(".")
            if top not in props:
                problems.append(f"{table}.{name}: the engine's {resolved.engine or 'document'}"
                                f" has no field {top}")
            elif inner:
                reached.setdefault(top, set()).add(inner)
            else:
                reached.setdefault(top, set())
        for top, inner_fields in reached.items():
            if inner_fields:
                nested = set(_nested(engine, props[top]))
                if nested != inner_fields:
                    problems.append(f"{table}.{top}: file keys reach {sorted(inner_fields)},"
                                    f" the engine has {sorted(nested)}")
        for field in resolved.made:
            if field not in props:
                problems.append(f"{table}: made field {field} is not the engine's")
            elif field in reached:
                problems.append(f"{table}: made field {field} is also a file key's")
        missing = set(props) - set(reached) - set(resolved.made)
        if missing:
            problems.append(f"{table}: the engine's fields {sorted(missing)} have no key")
    tfrc = _def(engine, "TfrcConfig")["properties"]
    types = {"bool": ("boolean", True), "number": ("number", None), "count": ("integer", True),
             "count1": ("integer", True), "integer": ("integer", False)}
    for name, key in TFRC.items():
        want, unsigned = types[key.type]
        got = tfrc[name]
        if got["type"] != want or (unsigned is not None and want == "integer"
                                   and ("minimum" in got) != unsigned):
            problems.append(f"tfrc.{name}: the file's {key.type}, the engine's {got}")
    assert problems == []


def test_a_key_on_one_side_only_fails_the_agreement(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: a key added to the file's link table alone is caught."""
    from ackclock import schema

    table, resolved = schema.RESOLVED["link"]
    extended = {**schema.RESOLVED, "link": ({**table, "jitter": schema.Key("time", "x")},
                                             resolved)}
    monkeypatch.setattr(schema, "RESOLVED", extended)
    with pytest.raises(AssertionError, match="link.jitter"):
        test_every_tables_keys_are_the_engines()
