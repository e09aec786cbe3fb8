"""ackclock.indented_json writes exactly what json.dumps(indent=2) writes."""

from __future__ import annotations

import io
import json
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
