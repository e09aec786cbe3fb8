"""``json.dumps(value)`` and ``json.dumps(value, indent=2)``, byte for byte, fast.

The engine's binding encodes first (``ackclock._core.json_dumps``/``json_dump``,
crates/ackclock-py/src/json_text.rs): a 10 000-flow scenario's document for the engine
(20 MB) in about 0.06 s against the standard library's 0.25 s, its summary.json (35 MB) in
0.1 s against 0.4 s. It covers plain documents (exact dicts with string keys, lists,
tuples, strings, numbers, booleans, None) and gives up on anything else; then, and without
the compiled engine, the text comes from Python as follows.

The standard library encodes with indentation in pure Python (its C encoder runs only
without ``indent``, CPython 3.11-3.13): a 10 000-flow scenario's summary.json (30 MB) took
3 s and a list of some 10 million pieces (over 100 MB) before they were joined. Here a table
or list holding no non-empty table or list is encoded by the C encoder in one call, its
items separated by the newline and indentation of their depth (outside strings the encoder
writes no newline of its own: one inside a string is escaped), and only the tables and
lists above those are walked in Python. An object met again at the same depth (the tables
a resolved scenario shares between flows) is encoded once. Anything this does not cover
(keys that are not strings, subclasses of dict or list) goes to ``json.dumps`` itself,
re-indented to its depth. tests/unit/test_indented_json.py compares the bytes with
``json.dumps``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from json import encoder as _std
from typing import IO, Any

_STEP = "  "
_CONTAINERS = (dict, list, tuple)
_PLAIN = {dict, list, tuple}
_quote = _std.encode_basestring_ascii  # json.dumps' default (ensure_ascii)


def _binding() -> Any:
    """The engine binding's encoders, or None (no compiled engine)."""
    try:
        from . import _core
    except ImportError:
        return None
    return _core


def dumps(value: Any) -> str:
    """``json.dumps(value)``."""
    core = _binding()
    text = None if core is None else core.json_dumps(value)
    return json.dumps(value) if text is None else text


def dumps_indented(value: Any) -> str:
    """``json.dumps(value, indent=2)``."""
    core = _binding()
    text = None if core is None else core.json_dumps(value, 2)
    return _Writer().encode(value, 0) if text is None else text


def dump_indented(value: Any, fp: IO[str], stream_depth: int = 3) -> None:
    """Writes ``json.dumps(value, indent=2)`` to ``fp`` piece by piece (128 kB at
    a time from the binding; in Python, the tables and lists less than ``stream_depth``
    deep item by item), so that the whole text (35 MB for a 10 000-flow scenario) is never
    held at once."""
    core = _binding()
    if core is not None and fp.seekable():
        start = fp.tell()
        if core.json_dump(value, fp, 2):
            return
        fp.seek(start)  # something the binding does not cover: the text again, from Python
        fp.truncate()
    for chunk in _Writer().chunks(value, 0, stream_depth):
        fp.write(chunk)


def _flat_encoder(depth: int) -> Any:
    """A function encoding a table or list at ``depth`` whose values hold no non-empty
    table or list, as json.dumps(indent=2) would, without the brackets' own lines."""
    separators = (",\n" + _STEP * (depth + 1), ": ")
    make = getattr(_std, "c_make_encoder", None)
    if make is None:  # no C encoder (another Python): the standard one, one call each
        enc = json.JSONEncoder(separators=separators).encode
        return enc
    c = make(None, json.JSONEncoder().default, _quote, None, separators[1], separators[0],
             False, False, True)
    return lambda v: "".join(c(v, 0))


class _Writer:
    def __init__(self) -> None:
        self.flat: dict[int, Any] = {}
        # (id, depth) -> text; the objects stay alive (they are inside ``value``).
        self.done: dict[tuple[int, int], str] = {}
        self.scalar = json.JSONEncoder().encode

    def encode(self, value: Any, depth: int) -> str:
        t = type(value)
        if t is str:
            return _quote(value)
        if t in _PLAIN:
            if not value:
                return "{}" if t is dict else "[]"
            key = (id(value), depth)
            text = self.done.get(key)
            if text is None:
                text = self._container(value, depth)
                self.done[key] = text
            return text
        if t is int:
            return int.__repr__(value)
        if t is float and value - value == 0:  # finite
            return float.__repr__(value)
        if value is None:
            return "null"
        if isinstance(value, _CONTAINERS):  # subclasses: the standard encoder
            return self._fallback(value, depth)
        return self.scalar(value)

    def chunks(self, value: Any, depth: int, stream_depth: int) -> Iterator[str]:
        """The text of ``value`` at ``depth`` in pieces (see dump_indented)."""
        t = type(value)
        if depth >= stream_depth or t not in _PLAIN or not value:
            yield self.encode(value, depth)
            return
        inner = _STEP * (depth + 1)
        if t is dict:
            if any(type(k) is not str for k in value):
                yield self.encode(value, depth)
                return
            yield "{"
            sep = "\n"
            for k, v in value.items():
                yield f"{sep}{inner}{_quote(k)}: "
                yield from self.chunks(v, depth + 1, stream_depth)
                sep = ",\n"
            yield f"\n{_STEP * depth}}}"
        else:
            yield "["
            sep = "\n"
            for v in value:
                yield f"{sep}{inner}"
                yield from self.chunks(v, depth + 1, stream_depth)
                sep = ",\n"
            yield f"\n{_STEP * depth}]"

    def _container(self, value: Any, depth: int) -> str:
        is_dict = type(value) is dict
        values = value.values() if is_dict else value
        nested = False
        for v in values:
            if type(v) in _PLAIN:
                if v:
                    nested = True
            elif isinstance(v, _CONTAINERS):
                return self._fallback(value, depth)
        if is_dict:
            for k in value:
                if type(k) is not str:
                    return self._fallback(value, depth)
        inner = _STEP * (depth + 1)
        if nested:
            if is_dict:
                body = f",\n{inner}".join(
                    f"{_quote(k)}: {self.encode(v, depth + 1)}" for k, v in value.items())
            else:
                body = f",\n{inner}".join(self.encode(v, depth + 1) for v in value)
        else:
            enc = self.flat.get(depth)
            if enc is None:
                enc = self.flat[depth] = _flat_encoder(depth)
            body = enc(value)[1:-1]
        if is_dict:
            return f"{{\n{inner}{body}\n{_STEP * depth}}}"
        return f"[\n{inner}{body}\n{_STEP * depth}]"

    def _fallback(self, value: Any, depth: int) -> str:
        return json.dumps(value, indent=2).replace("\n", "\n" + _STEP * depth)
