"""Hypothesis strategies for scenario files: random text, and valid files garbled by line
edits, random values and truncation (shared by the property tests and scripts/fuzz.py)."""

from __future__ import annotations

import json
import math
from typing import Any

from harness import seeds
from hypothesis import strategies as st

UNITS = ["", "s", "ms", "us", "ns", "ps", "b/s", "Mb/s", "Gbps", "Mb", "B", "KB", "MB", "%",
         "x", " s", "e3", "e400"]
KEYS = ["name", "profile", "duration", "warmup", "seed", "sample_interval", "check",
        "max_events", "max_packets", "from", "to", "rate", "delay", "queue", "loss", "kind",
        "limit", "limit_bytes", "p", "count", "variant", "cc", "sink", "app", "start", "stop",
        "size", "interval", "packet_size", "window", "duplex", "random", "on", "off", "file",
        "min_thresh", "max_thresh", "target", "flows", "{i}", "a.b", "\"q\""]
TABLES = ["[run]", "[[node]]", "[[link]]", "[[flow]]", "[defaults.tcp]", "[[trace]]", "[x]",
          "[run.x]", "[[run]]"]


def _number(x: float | int) -> str:
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
    return repr(x)


scalars = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(_number),
    st.booleans().map(lambda b: "true" if b else "false"),
    st.text(max_size=12).map(lambda s: json.dumps(s)),
    st.tuples(st.one_of(st.integers(-5, 10**30), st.floats(-1e30, 1e30, allow_nan=False)),
              st.sampled_from(UNITS)).map(lambda t: json.dumps(f"{t[0]}{t[1]}")),
    st.sampled_from(['"reno"', '"sack"', '"droptail"', '"red"', '"codel"', '"fq_codel"',
                     '"pie"', '"ftp"', '"cbr"', '"tmix"', '"bernoulli"', '"s{i}"', '""',
                     '"1e-400s"', '"-1s"', '"0s"', '"1e25b/s"', '"1ns"']),
)


def _value(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.lists(children, max_size=3).map(lambda v: "[" + ", ".join(v) + "]"),
        st.lists(st.tuples(st.sampled_from(KEYS), children), max_size=3).map(
            lambda kv: "{ " + ", ".join(f"{k} = {v}" for k, v in kv) + " }"),
    )


values = st.recursive(scalars, _value, max_leaves=6)
lines = st.one_of(
    st.tuples(st.sampled_from(KEYS), values).map(lambda kv: f"{kv[0]} = {kv[1]}"),
    st.sampled_from(TABLES),
    st.text(max_size=20),
)


@st.composite
def garbled(draw: Any) -> tuple[str, str]:
    """(source, text): a seed scenario file with a few random edits."""
    source, text = draw(st.sampled_from(seeds()))
    out = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.integers(0, 5))
        i = draw(st.integers(0, max(0, len(out) - 1)))
        if op == 0 and out:
            del out[i]
        elif op == 1 and out:
            out.insert(i, out[i])
        elif op == 2 and out and "=" in out[i]:
            key = out[i].split("=", 1)[0]
            out[i] = f"{key}= {draw(values)}"
        elif op == 3:
            out.insert(i, draw(lines))
        elif op == 4:
            joined = "\n".join(out)
            cut = draw(st.integers(0, len(joined)))
            out = joined[:cut].split("\n")
        else:
            # Small scenarios run fast: shorten the run.
            out.insert(i, f"duration = {draw(values)}")
    return source, "\n".join(out)


inputs = st.one_of(garbled(), st.text(max_size=200).map(lambda t: ("fuzz.toml", t)))
