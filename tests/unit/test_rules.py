"""One owner of the scenario's rules (issue 27): the engine's scenario/validate.rs.

The front end reads the user's words into the engine's document and asks the engine's checks
through the binding (``ackclock._core.check_scenario``, python/ackclock/rules.py); it keeps no
copy of them. These tests hold:
- the published JSON Schema (docs/scenario.schema.json, what editors check a file with) and the
  engine accept and reject the same documents of a small corpus, naming the same place;
- the rules the schema cannot say (one value against another: warmup against duration, the two
  ends of a link) are the engine's alone, and reach the user in the scenario's words;
- the engine's places (its document's indices: the fourth link direction, a two-way
  connection's reply flow) come back as the scenario's (``link[1].reverse_loss``,
  ``flow[0]{i=3}``).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from ackclock import rules
from ackclock.errors import ScenarioError
from ackclock.toml_loader import parse_toml, resolved_from_raw

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[2]

BASE = """
name = "corpus"
[run]
duration = "10s"
warmup = "1s"
sample_interval = "1s"
[[node]]
name = "a"
[[node]]
name = "b"
[[node]]
name = "c"
[[link]]
from = "a"
to = "b"
rate = "10Mb/s"
delay = "5ms"
queue = { kind = "red", limit = 50 }
loss = { kind = "bernoulli", p = 0.001 }
[[link]]
from = "b"
to = "c"
rate = "10Mb/s"
delay = "5ms"
duplex = false
[[link]]
from = "c"
to = "a"
rate = "10Mb/s"
delay = "5ms"
duplex = false
[[flow]]
name = "t"
kind = "tcp"
from = "a"
to = "c"
cc = "cubic"
window = 64
[[flow]]
name = "u"
kind = "udp"
from = "a"
to = "c"
app = { kind = "cbr", rate = "1Mb/s", packet_size = 500 }
"""

# Documents both accept: the base with one key changed (key path, value).
GOOD = [
    ("run.sample_interval", "10ms"),
    ("link.0.loss", {"kind": "gilbert_elliott", "p_good_bad": 0.01, "p_bad_good": 0.3}),
    ("link.0.loss", {"kind": "periodic", "period": 10, "offset": 9, "burst": 1}),
    ("link.0.reverse_loss", {"kind": "bernoulli", "p": 1}),
    ("link.0.queue", {"kind": "fq_codel", "limit": 100, "ecn": True}),
    ("link.0.queue", {"kind": "droptail", "limit_bytes": "64KB"}),
    ("flow.0.trace", ["cwnd", "srtt_"]),
    ("flow.0.app", {"kind": "cbr", "rate": "2Mb/s"}),
    ("flow.0.variant", "sack"),
    ("flow.1.app", {"kind": "poisson", "rate": "1Mb/s", "packet_size": 200}),
]

# Documents both reject, and the place both name: (key path, value, place).
BAD = [
    ("link.0.loss", {"kind": "bernoulli", "p": 1.5}, "link[0].loss.p"),
    ("link.0.reverse_loss", {"kind": "bernoulli", "p": -0.1}, "link[0].reverse_loss.p"),
    ("link.0.loss", {"kind": "gilbert_elliott", "p_good_bad": 0.1, "p_bad_good": 2},
     "link[0].loss.p_bad_good"),
    ("link.0.loss", {"kind": "periodic", "period": 10, "burst": 0}, "link[0].loss.burst"),
    ("link.0.loss", {"kind": "periodic", "period": 0}, "link[0].loss.period"),
    ("link.0.queue", {"kind": "fq_codel", "device_limit": 0}, "link[0].queue.device_limit"),
    ("link.0.queue", {"kind": "no_such_kind"}, "link[0].queue.kind"),
    ("flow.0.window", 0, "flow[0].window"),
    ("flow.0.window_init", 0, "flow[0].window_init"),
    ("flow.0.segs_per_ack", 0, "flow[0].segs_per_ack"),
    ("flow.0.dupack_threshold", 0, "flow[0].dupack_threshold"),
    ("flow.0.cc", "no_such_cc", "flow[0].cc"),
    ("flow.1.kind", "sctp", "flow[1].kind"),
]

# Documents the published schema accepts and the engine rejects (key path, value, place):
# - one value against another, which no JSON Schema keyword compares (warmup and duration, the
#   two ends of a link, offset + burst and period, a sink for a variant, ECN for a kind);
# - what the schema does not say today: a queue parameter's range (its keys are listed without
#   their registry ranges), a traced variable's name, the applications of a UDP flow.
ENGINE_ONLY = [
    ("run.warmup", "10s", "run.warmup"),
    ("link.1.to", "b", "link[1]"),
    ("link.2", {"from": "b", "to": "c", "rate": "1Mb/s", "delay": "1ms", "duplex": False},
     "link[2]"),
    ("flow.0.to", "a", "flow[0]"),
    ("link.0.loss", {"kind": "periodic", "period": 10, "offset": 8, "burst": 3},
     "link[0].loss.burst"),
    ("flow.0.variant", "sack", None),  # the profile's sink becomes "sack" with it
    ("flow.0", {"name": "t", "kind": "tcp", "from": "a", "to": "c", "variant": "sack",
                "sink": "delack", "prr": True}, "flow[0].sink"),
    ("flow.0.min_rto", "70s", "flow[0].min_rto"),
    ("flow.0.read_rate", "1Mb/s", "flow[0].read_rate"),
    ("flow.1.trace", ["cwnd"], "flow[1].trace"),
    ("link.0.queue", {"kind": "droptail", "limit": 10, "ecn": True}, "link[0].queue.ecn"),
    ("link.0.queue", {"kind": "red", "limit": 50, "max_p": 2}, "link[0].queue.max_p"),
    ("flow.0.trace", ["cwnd", "no_such_variable"], "flow[0].trace"),
    ("flow.1.app", {"kind": "ftp"}, "flow[1].app.kind"),
    # Found by the engine in reading the document (its typed congestion controls), named
    # the same way.
    ("flow.0.cc_params", {"gamma": 1}, "flow[0].cc_params.gamma"),
]


def _set(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    *head, last = path.split(".")
    at: Any = doc
    for step in head:
        at = at[int(step)] if isinstance(at, list) else at[step]
    if isinstance(at, list):
        at[int(last)] = value
    else:
        at[last] = value
    return doc


def _schema_places(raw: dict[str, Any]) -> set[str]:
    """The places the published schema names in rejecting ``raw``, as the loader writes them
    (``flow[0].app.kind``)."""
    published = json.loads((ROOT / "docs/scenario.schema.json").read_text(encoding="utf-8"))
    places = set()
    for err in jsonschema.Draft7Validator(published).iter_errors(raw):
        at = list(err.absolute_path)
        keys = [at]
        if err.validator in ("additionalProperties", "required"):
            keys = [[*at, k] for k in re.findall(r"'([^']+)'", err.message)]
        for key in keys:
            text = ""
            for step in key:
                text += f"[{step}]" if isinstance(step, int) else f".{step}"
            places.add(text.lstrip("."))
    return places


def _engine_place(raw: dict[str, Any]) -> str | None:
    """Where the front end, with the engine's rules, rejects ``raw``; None if it accepts it."""
    try:
        _, document = resolved_from_raw(raw, "corpus.toml")
    except ScenarioError as e:
        assert e.path, str(e)
        assert "\n" not in str(e), str(e)
        return e.path
    from ackclock._core import Simulation

    Simulation(json.dumps(document))  # accepted: the engine builds it
    return None


def _base() -> dict[str, Any]:
    return parse_toml(BASE)


def test_the_base_document_is_accepted_by_both() -> None:
    assert _schema_places(_base()) == set()
    assert _engine_place(_base()) is None


@pytest.mark.parametrize("key,value", GOOD, ids=[f"{k}={v}" for k, v in GOOD])
def test_schema_and_engine_accept_the_same_documents(key: str, value: Any) -> None:
    raw = _set(_base(), key, value)
    assert _schema_places(raw) == set()
    assert _engine_place(raw) is None


@pytest.mark.parametrize("key,value,place", BAD, ids=[p for _, _, p in BAD])
def test_schema_and_engine_reject_the_same_documents_at_the_same_place(
        key: str, value: Any, place: str) -> None:
    raw = _set(_base(), key, value)
    assert place in _schema_places(raw), _schema_places(raw)
    assert _engine_place(raw) == place


def test_the_corpus_reaches_the_engines_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """Most of the corpus's mistakes are the engine's to find: with the engine's check taken
    away, the front end alone lets them through (it reads words, it does not judge values)."""
    monkeypatch.setattr(rules, "check", lambda document, scenario: None)
    through = [place for key, value, place in BAD + ENGINE_ONLY
               if place is not None and _engine_place_no_run(_set(_base(), key, value)) is None]
    assert len(through) >= 12, through


def _engine_place_no_run(raw: dict[str, Any]) -> str | None:
    try:
        resolved_from_raw(raw, "corpus.toml")
    except ScenarioError as e:
        return e.path
    return None


@pytest.mark.parametrize("key,value,place", ENGINE_ONLY,
                         ids=[f"{k}:{p}" for k, _, p in ENGINE_ONLY])
def test_what_the_schema_cannot_say_is_the_engines(key: str, value: Any,
                                                     place: str | None) -> None:
    raw = _set(_base(), key, value)
    assert _schema_places(raw) == set()
    assert _engine_place(raw) == place


def test_engine_places_are_named_in_the_scenarios_words() -> None:
    # The reverse direction of a duplex link is the fourth... here the second link direction.
    raw = _set(_base(), "link.0.reverse_loss", {"kind": "periodic", "period": 4, "offset": 4})
    with pytest.raises(ScenarioError) as e:
        resolved_from_raw(raw, "corpus.toml")
    assert str(e.value) == ("corpus.toml: link[0].reverse_loss.offset: must be smaller than"
                            " period")
    # A copy of a `count = N` table is named by its copy, the other entry too.
    raw = _base()
    raw["link"][1] = {"from": "b", "to": "c", "rate": "1Mb/s", "delay": "1ms",
                      "duplex": False, "count": 2}
    with pytest.raises(ScenarioError) as e:
        resolved_from_raw(raw, "corpus.toml")
    assert str(e.value) == ("corpus.toml: link[1]{i=1}: duplicate link b->c (already given by"
                            " link[1]{i=0})")


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, str)):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"


def _toml(raw: dict[str, Any]) -> str:
    """``raw`` as a scenario file: tables and arrays of tables, their values inline."""
    lines = [f"{k} = {_toml_value(v)}" for k, v in raw.items() if not isinstance(v, (dict, list))]
    for k, v in raw.items():
        for table in ([v] if isinstance(v, dict) else v if isinstance(v, list) else []):
            lines.append(f"[{k}]" if isinstance(v, dict) else f"[[{k}]]")
            lines += [f"{key} = {_toml_value(x)}" for key, x in table.items()]
    return "\n".join(lines) + "\n"


RUN_CASES = [(k, v, p) for k, v, p in BAD + ENGINE_ONLY if p is not None]


@pytest.mark.parametrize("key,value,place", RUN_CASES, ids=[p for _, _, p in RUN_CASES])
def test_a_run_names_the_engines_rejection_in_the_scenarios_words(
        key: str, value: Any, place: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`ackclock run` resolves without the engine's rules (building the run checks them
    anyway); a document the engine then refuses is named as resolving with them names it."""
    from ackclock.cli import main

    path = tmp_path / "corpus.toml"
    raw = _set(_base(), key, value)
    path.write_text(_toml(raw))
    assert parse_toml(path.read_text()) == raw
    with pytest.raises(ScenarioError) as e:
        resolved_from_raw(parse_toml(path.read_text()), str(path))
    assert e.value.path == place
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    assert capsys.readouterr().err == f"ackclock: error: {e.value}\n"
    assert not (tmp_path / "out").exists()


def test_the_command_lines_resolving_leaves_the_engines_rules_to_the_run() -> None:
    """The premise of the test above: without the engine's rules most of the corpus's
    mistakes resolve, so the run's naming of the engine's refusal is what names them."""
    through = [place for key, value, place in RUN_CASES
               if _resolves(_set(_base(), key, value))]
    assert len(through) >= 12, through


def _resolves(raw: dict[str, Any]) -> bool:
    try:
        resolved_from_raw(raw, "corpus.toml", share=True, engine_rules=False)
    except ScenarioError:
        return False
    return True
