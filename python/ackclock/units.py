"""Rates, times and sizes as users write them, converted exactly.

Conversions go through :class:`fractions.Fraction` built from the decimal text the user wrote,
never through binary floating point, so ``"29ms"`` is exactly 29_000_000_000 ps and
``0.1`` (a TOML float) is exactly 100_000_000_000 ps.

Units (case matters: ``M`` is mega, ``m`` is milli and not a rate prefix):

- rates, in bit/s: ``b/s``, ``bps``, ``bit/s`` and ns-2's bare ``b``, with prefixes ``k``/``K``
  (10^3), ``M`` (10^6), ``G`` (10^9), ``T`` (10^12); ``B/s``, ``Bps`` and ``B`` count bytes
  (x 8), as ns-2's ``bw_parse`` does. A bare number is bit/s. Prefixes are decimal, as in ns-2.
- times: ``s``, ``ms``, ``us`` (or ``µs``), ``ns``, ``ps``; a bare number is seconds. Results
  are integer picoseconds, rounded to the nearest one (half to even) when finer.
- sizes: ``B``, decimal ``kB``/``KB`` (1000), ``MB``, ``GB`` and binary ``KiB`` (1024), ``MiB``,
  ``GiB``; a bare number is bytes. A size must come to a whole number of bytes.
"""

from __future__ import annotations

import functools
import math
import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from .errors import ScenarioError, quote

PS_PER_S = 10**12

_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_WITH_UNIT = re.compile(rf"\s*({_NUMBER})\s?([^\s\d.+-][^\s]*)?\s*")

_RATE_PREFIXES = {"": 1, "k": 10**3, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
_RATE_BASES = {"b/s": 1, "bps": 1, "bit/s": 1, "b": 1, "B/s": 8, "Bps": 8, "B": 8}
_RATE_UNITS = {
    p + b: Fraction(pv * bv) for p, pv in _RATE_PREFIXES.items() for b, bv in _RATE_BASES.items()
}

_TIME_UNITS = {
    "s": Fraction(PS_PER_S),
    "ms": Fraction(10**9),
    "us": Fraction(10**6),
    "\u00b5s": Fraction(10**6),  # micro sign
    "\u03bcs": Fraction(10**6),  # Greek small mu, which some keyboards produce instead
    "ns": Fraction(10**3),
    "ps": Fraction(1),
}

_SIZE_UNITS = {
    "B": Fraction(1),
    "kB": Fraction(10**3),
    "KB": Fraction(10**3),
    "MB": Fraction(10**6),
    "GB": Fraction(10**9),
    "KiB": Fraction(2**10),
    "MiB": Fraction(2**20),
    "GiB": Fraction(2**30),
}

RATE_EXAMPLE = '"10Mb/s"'
TIME_EXAMPLE = '"29ms"'
SIZE_EXAMPLE = '"1000B"'


# Numbers of any unit are below 1e40 (and, unless zero, above 1e-40): beyond that a value is
# a typo, and building its exact fraction could take unbounded time and memory.
_EXPONENT = 40
_LARGEST = 10**_EXPONENT


def _split(value: object) -> tuple[Fraction, str] | None:
    """(number, unit) for an int, a float or a string like "10Mb/s"; None if malformed.

    Floats go through their shortest decimal repr, which is the text the user typed.
    """
    value = plain_number(value)
    if isinstance(value, (str, int, float)):
        # A scenario with many flows repeats the same few values; exact parsing is slow.
        return _split_cached(value)
    return _split_uncached(value)


def plain_number(value: object) -> object:
    """A NumPy (or other) number as the Python int or float it holds; other values as they
    are. np.float64 is a float whose repr is not a number ("np.float64(1.5)")."""
    if isinstance(value, (bool, str)) or value is None:
        return value
    if isinstance(value, float):
        return float(value)
    if isinstance(value, int):
        return int(value)
    if type(value).__module__ == "numpy":
        item = getattr(value, "item", None)
        if callable(item):
            try:
                v = item()
            except (TypeError, ValueError):
                return value
            if isinstance(v, (bool, int, float)):
                return v
    return value


@functools.lru_cache(maxsize=4096, typed=True)
def _split_cached(value: str | int | float) -> tuple[Fraction, str] | None:
    return _split_uncached(value)


def _split_uncached(value: object) -> tuple[Fraction, str] | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return (Fraction(value), "") if abs(value) < _LARGEST else None
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) >= _LARGEST:
            return None
        return Fraction(Decimal(repr(value))), ""
    if not isinstance(value, str) or len(value) > 100:
        return None
    m = _WITH_UNIT.fullmatch(value)
    if m is None:
        return None
    try:
        decimal = Decimal(m.group(1))
    except InvalidOperation:  # pragma: no cover - the regex admits only valid decimals
        return None
    # Guard: "1e999999999" would otherwise become an integer of a billion digits.
    if decimal and not -_EXPONENT <= decimal.adjusted() < _EXPONENT:
        return None
    return Fraction(decimal), m.group(2) or ""


def _parse(
    value: object, units: dict[str, Fraction], path: str, what: str, default_unit: str
) -> Fraction:
    """The value in base units, or a ScenarioError naming ``path``."""
    split = _split(value)
    if split is None or (split[1] or default_unit) not in units:
        raise ScenarioError(f"expected {what}, got {quote(value)}", path=path)
    number, unit = split
    return number * units[unit or default_unit]


# Values that parsed, per kind: a scenario with 10 000 flows repeats the same few rates, delays
# and sizes tens of thousands of times, and exact parsing (fractions) took a third of resolving
# it. Keyed by type and value (1 and 1.0 differ in what they may mean); failures are not kept,
# so each still raises with its own path.
_PARSED: dict[tuple[str, type, object], Any] = {}
_PARSED_MAX = 4096


def _key(kind: str, value: object) -> tuple[str, type, object] | None:
    t = type(value)
    return (kind, t, value) if t is str or t is int or t is float else None


def _remember(key: tuple[str, type, object] | None, result: Any) -> Any:
    if key is not None and len(_PARSED) < _PARSED_MAX:
        _PARSED[key] = result
    return result


def parse_rate(value: object, path: str = "rate") -> Fraction:
    """A positive rate in bit/s, exactly."""
    key = _key("rate", value)
    if key is not None and key in _PARSED:
        return _PARSED[key]  # type: ignore[no-any-return]
    what = f"a rate like {RATE_EXAMPLE}, \"10Mbps\" or 2.5e6 (bit/s)"
    bps = _parse(value, _RATE_UNITS, path, what, "b/s")
    if bps <= 0:
        raise ScenarioError(
            f"expected a positive rate like {RATE_EXAMPLE}, got {quote(value)}", path=path
        )
    return _remember(key, bps)  # type: ignore[no-any-return]


def parse_time(value: object, path: str = "time") -> int:
    """A non-negative time in integer picoseconds (rounded to the nearest picosecond)."""
    key = _key("time", value)
    if key is not None and key in _PARSED:
        return _PARSED[key]  # type: ignore[no-any-return]
    what = f"a time like {TIME_EXAMPLE}, \"1.5s\", \"100us\" or 2 (seconds)"
    ps = _parse(value, _TIME_UNITS, path, what, "s")
    if ps < 0:
        raise ScenarioError(
            f"expected a non-negative time like {TIME_EXAMPLE}, got {quote(value)}", path=path
        )
    if ps >= 2**64:
        # The engine keeps times in 64-bit picoseconds.
        raise ScenarioError(f"expected a time below 2^64 ps (213 days), got {quote(value)}",
                            path=path)
    return _remember(key, round(ps))  # type: ignore[no-any-return]


def parse_size(value: object, path: str = "size") -> int:
    """A non-negative whole number of bytes."""
    key = _key("size", value)
    if key is not None and key in _PARSED:
        return _PARSED[key]  # type: ignore[no-any-return]
    what = f"a size like {SIZE_EXAMPLE}, \"64KB\", \"64KiB\" or 1460 (bytes)"
    size = _parse(value, _SIZE_UNITS, path, what, "B")
    if size < 0:
        raise ScenarioError(
            f"expected a non-negative size like {SIZE_EXAMPLE}, got {quote(value)}", path=path
        )
    if size.denominator != 1:
        raise ScenarioError(
            f"expected a whole number of bytes, got {quote(value)} = {float(size)} B", path=path
        )
    return _remember(key, int(size))  # type: ignore[no-any-return]


def parse_int(value: object, path: str, *, minimum: int = 0, what: str = "an integer") -> int:
    """A plain integer (a count, a window in packets, a seed) of at least ``minimum``."""
    value = plain_number(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"expected {what}, got {quote(value)}", path=path)
    if value < minimum:
        raise ScenarioError(f"expected {what} >= {minimum}, got {quote(value)}", path=path)
    return value
