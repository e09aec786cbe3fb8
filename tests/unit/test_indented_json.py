"""ackclock.indented_json writes exactly what json.dumps(indent=2) writes."""

from __future__ import annotations

import io
import json
import math
import random
from collections import OrderedDict
from typing import Any

import pytest

from ackclock.indented_json import dump_indented, dumps_indented

CASES: list[Any] = [
    {}, [], (), "", 0, -1, 2**70, 1.5, -0.0, 1e300, float("nan"), float("inf"),
    float("-inf"), True, False, None, "é\n\"{i}\"\u2028", {"a": []}, {"a": {}}, [[[]]],
    [(), {}], {"a": [1, {"b": "x\n{y}"}], "c": (1, 2)}, {"é": "ü", "\n": "\t"},
    {1: 2, None: 3, 1.5: 4, False: 5}, {"a": {1: [1]}}, [{"k": OrderedDict(b=1, a=[2])}],
    {"a": {"b": {"c": [1, {"d": {}, "e": [None, [], [[]]]}]}}},
]


@pytest.mark.parametrize("value", CASES, ids=range(len(CASES)))
def test_same_text_as_json_dumps(value: Any) -> None:
    expected = json.dumps(value, indent=2)
    assert dumps_indented(value) == expected
    for depth in range(4):
        f = io.StringIO()
        dump_indented(value, f, stream_depth=depth)
        assert f.getvalue() == expected


def _random_value(rng: random.Random, depth: int) -> Any:
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return rng.randrange(-10**6, 10**6)
    if kind == 1:
        return rng.choice([rng.random() * 10 ** rng.randrange(-30, 30), 0.0, float("nan")])
    if kind == 2:
        return "".join(rng.choice('ab{}[],:"\\\n\u00e9 ') for _ in range(rng.randrange(6)))
    if kind == 3:
        return rng.choice([True, False, None])
    if kind in (4, 5):
        return rng.choice([[], {}])
    if kind == 6:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    shared = _random_value(rng, depth + 1)
    return {f"k{i}": shared if i % 2 else _random_value(rng, depth + 1)
            for i in range(rng.randrange(5))}


def test_random_documents_with_shared_tables() -> None:
    rng = random.Random(7)
    for _ in range(300):
        value = _random_value(rng, 0)
        expected = json.dumps(value, indent=2)
        assert dumps_indented(value) == expected
        f = io.StringIO()
        dump_indented(value, f)
        assert f.getvalue() == expected


def test_unencodable_value_raises_as_json_does() -> None:
    with pytest.raises(TypeError):
        dumps_indented({"a": {1, 2}})
    with pytest.raises(TypeError):
        dumps_indented({"a": [{"b": object()}]})


# The binding's encoder (crates/ackclock-py/src/json_text.rs), which the functions above try
# first: the same bytes as json.dumps with and without indentation, and None (so that the
# caller falls back) on anything it does not cover.
_core = pytest.importorskip("ackclock._core")

STRINGS = ["", "a", " ~", '"', "\\", "\n\r\t\b\f", "\x00\x1f\x7f\x80", "é\u2028\uffff",
           "\U0001f600", "/{i}", "x" * 100]
FLOATS = [0.0, -0.0, 0.1, 1e15, 1e16, 1.5e16, 1e-4, 1e-5, 5e-324, 1.7976931348623157e308,
          123456789012345678.0, 1e22, float("nan"), float("inf"), float("-inf"), 2.5, -3.75]
INTS = [0, -1, 2**63 - 1, -2**63, 2**63, 2**64, -2**64 - 5, 10**40]


@pytest.mark.parametrize("indent", [None, 0, 2, 4])
def test_binding_writes_what_json_dumps_writes(indent: int | None) -> None:
    values: list[Any] = [*CASES[:19], *STRINGS, *FLOATS, *INTS, {s: s for s in STRINGS},
                         [*FLOATS, *INTS, True, False, None], ([1, (2, {"a": ()})],)]
    for value in values:
        if any(isinstance(v, dict) and any(type(k) is not str for k in v)
               for v in (value, *(value.values() if isinstance(value, dict) else ()))):
            continue
        assert _core.json_dumps(value, indent) == json.dumps(value, indent=indent), value
    rng = random.Random(11)
    for _ in range(300):
        value = _random_value(rng, 0)
        assert _core.json_dumps(value, indent) == json.dumps(value, indent=indent)
    for _ in range(20000):
        x = rng.choice([math.ldexp(rng.random(), rng.randrange(-1080, 1024)), rng.getrandbits(64),
                        float(rng.getrandbits(60)), -rng.random()])
        assert _core.json_dumps(x, indent) == json.dumps(x, indent=indent)


def test_binding_shares_nothing_between_depths() -> None:
    """A table met at two depths is written at each one's indentation."""
    shared = {"a": [1, {"b": 2}]}
    value = {"x": shared, "y": [shared, {"z": shared}], "w": [[shared]]}
    assert _core.json_dumps(value, 2) == json.dumps(value, indent=2)
    assert _core.json_dumps(value) == json.dumps(value)


class _Dict(dict[str, Any]):
    pass


@pytest.mark.parametrize("value", [
    _Dict(a=1), {"a": _Dict()}, [OrderedDict()], {1: 2}, {None: 1}, {"a": {1, 2}},
    "\ud800", {"x": ["\udfff"]}, {"x": object()}, True.__class__.__mro__, [1.5, _Dict()],
])
def test_binding_gives_up_on_what_it_does_not_cover(value: Any) -> None:
    assert _core.json_dumps(value) is None
    assert _core.json_dumps(value, 2) is None


def test_binding_gives_up_on_cycles_and_deep_nesting() -> None:
    cycle: list[Any] = []
    cycle.append(cycle)
    assert _core.json_dumps(cycle) is None
    deep: list[Any] = []
    inner = deep
    for _ in range(1000):
        inner.append([])
        inner = inner[0]
    assert _core.json_dumps(deep) is None


def test_a_file_written_past_what_the_binding_covers_starts_again() -> None:
    """The binding writes 128 kB at a time; meeting a subclass after that, it stops and
    the Python writer writes the whole text again from where the binding started."""
    value = {"big": ["x" * 1000] * 3000, "late": _Dict(a=[1, 2])}
    f = io.StringIO()
    f.write("head\n")
    dump_indented(value, f)
    assert f.getvalue() == "head\n" + json.dumps(value, indent=2)
    assert _core.json_dump({"a": 1}, f, 2, "\n") is True


def test_shared_tables_across_the_binding_s_pieces() -> None:
    """Tables met again that are larger than the binding keeps (64 kB), or that a piece
    written to the file cut (128 kB pieces), are written again in full each time."""
    small = {"k": list(range(50))}
    big = {"k": ["y" * 100] * 1000}
    value = {"a": [small, big] * 40, "b": {"c": [big, small]}, "d": [[small]] * 3}
    for indent in (None, 2):
        f = io.StringIO()
        assert _core.json_dump(value, f, indent, "\n") is True
        assert f.getvalue() == json.dumps(value, indent=indent) + "\n"
        assert _core.json_dumps(value, indent) == json.dumps(value, indent=indent)


def test_the_engine_takes_the_document_itself() -> None:
    """``Simulation(document)`` encodes the document in the binding as ``json.dumps`` writes it
    (the command line's run: no Python str of a 10 000-flow document's 27 MB); what the
    binding's encoder does not cover goes through ``json.dumps``, errors included."""
    from pathlib import Path

    from ackclock import load_scenario, resolve
    from ackclock._core import Simulation

    root = Path(__file__).resolve().parents[2]
    doc = resolve(load_scenario(root / "benchmarks" / "ackclock" / "trivial.toml",
                                ["run.duration=0.2s"]))

    def summary(sim: Any) -> dict[str, Any]:
        sim.run_until(sim.duration_ps)
        s = sim.results()["summary"]
        return {k: v for k, v in s.items() if "wall" not in k and not k.endswith("_per_s")}

    expected = summary(Simulation(json.dumps(doc)))
    assert expected["packet_hops"] > 0
    assert summary(Simulation(doc)) == expected

    class Table(dict[str, Any]):  # not covered by the binding's encoder: json.dumps writes it
        pass

    assert summary(Simulation(Table(doc))) == expected
    cyclic = dict(doc)
    cyclic["run"] = {**doc["run"], "self": cyclic}
    with pytest.raises(ValueError, match="Circular reference"):
        Simulation(cyclic)
    with pytest.raises(TypeError, match="not JSON serializable"):
        Simulation({**doc, "name": object()})


def test_arrays_as_the_lists_of_their_numbers() -> None:
    # A Tmix application's connection vectors are array.arrays in the resolved document
    # (python/ackclock/tmix.py): the binding writes each as json.dumps writes its tolist().
    from array import array

    floats = [0.0, -0.0, 0.1, 1e-05, 1e16, 123.456, 5e-324, float("inf"), float("nan")]
    columns = [array("Q", [0, 1, 2**64 - 1]), array("q", [-(2**63), -1, 2**63 - 1]),
               array("B", [0, 1, 255]), array("b", [-128, 127]), array("I", [2**32 - 1]),
               array("h", [-32768]), array("H", [65535]), array("d", floats), array("Q")]
    for indent in (None, 2):
        for value in [*columns, {"c": columns, "n": [array("B", [1])]}]:
            plain = ([c.tolist() for c in value["c"]] if isinstance(value, dict) else
                     value.tolist())
            if isinstance(value, dict):
                plain = {"c": plain, "n": [[1]]}
            assert _core.json_dumps(value, indent) == json.dumps(plain, indent=indent)
    # Other typecodes are left to json.dumps (which refuses arrays).
    assert _core.json_dumps(array("f", [1.5])) is None
