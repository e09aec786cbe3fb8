"""ns-2's textual values: bandwidths, times, booleans, and how bound variables print."""

from __future__ import annotations

import functools
import re
from fractions import Fraction

from ..errors import ScenarioError
from ..units import PS_PER_S, parse_time

_NUMBER = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


class BadValue(ValueError):
    """A script's value that is not what a command expects (reported as a Tcl error)."""


def _c_number(text: str) -> float | None:
    """The number C's strtod reads at the start of ``text`` (None: no number there)."""
    m = _NUMBER.match(text)
    return float(m.group()) if m is not None else None


# A script gives a network's links a few distinct rates and delays, each many times (a
# 10 000-flow dumbbell: 40 000 links, two rates), and its agents a few distinct texts for
# each variable (10 000 agents: some 500 000 readings): readings are remembered. Each is a
# function of its arguments alone; an error is not remembered and is raised again.
_remembered = functools.lru_cache(maxsize=1024)


@_remembered
def to_float(text: str, what: str = "a number") -> float:
    """A double variable as ns-2 reads it (strtod): ``0.1``, ``1e-3``; what follows the number
    is ignored (ns-2 reads ``2m`` as 2); ``true``/``false`` are 0, as in ns-2."""
    try:
        return float(text)
    except ValueError:
        pass
    x = _c_number(text)
    if x is None:
        if text.strip().lower() in _WORDS:
            return 0.0
        raise BadValue(f"expected {what}, got {text!r}")
    return x


@_remembered
def to_int(text: str, what: str = "an integer") -> int:
    """An integer variable as ns-2 reads it (atoi-like: "5.0" is 5, "1k" is 1, and the words
    true and false are 0, as ns-2 reads them)."""
    try:
        return int(text)
    except ValueError:
        pass
    x = _c_number(text)
    if x is None:
        if text.strip().lower() in _WORDS:
            return 0
        raise BadValue(f"expected {what}, got {text!r}")
    return int(x)


def int_arg(text: str, what: str = "an integer") -> int:
    """A command's integer argument: a wrong one is the script's Tcl error."""
    from .objects import TclError

    try:
        return to_int(text, what)
    except ValueError as e:
        raise TclError(str(e)) from None


# Words ns-2 scripts give where a number is read; ns-2's C parsers read them as 0, except that
# a boolean starting with t or T is true.
_WORDS = {"true", "false", "t", "f", "yes", "no", "on", "off"}


@_remembered
def to_bool(text: str) -> bool:
    """A boolean variable as ns-2 reads it: text starting with t or T is true (``true``), a
    number is true unless 0, and other words are false (ns-2 reads ``yes`` and ``on`` as 0)."""
    t = text.strip()
    if t[:1] in ("t", "T"):
        return True
    x = _c_number(t)
    if x is not None:
        return x != 0
    if t.lower() in _WORDS:
        return False
    raise ValueError(f"expected a boolean (0/1/true/false), got {text!r}")


# ns-2 (tclcl's bandwidth parser): a number, then an optional multiplier k, m, g or t (either
# case; a lowercase m is mega too), then B for bytes, which counts only after a multiplier
# ("1MB" is 8e6 b/s, "5B" is 5 b/s); anything after that is ignored ("10Mbps", "64Kbyte").
_BW_MULT = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
# ns-2's time parser: a number and an optional unit s, ms, us, ns or ps; others are errors.
_TIME_UNIT: dict[str, Fraction | int] = {
    "": 1, "s": 1, "ms": Fraction(1, 10**3), "us": Fraction(1, 10**6), "ns": Fraction(1, 10**9),
    "ps": Fraction(1, 10**12)}


@_remembered
def ns2_bandwidth(text: str) -> Fraction:
    """A bandwidth as ns-2 reads it, in bit/s, exactly: ``100k``, ``1mb``, ``64KB``, ``1.5Mb``,
    ``10Mbps``, ``2e6``. Like ns-2 (which uses strtod), text without a leading number is 0."""
    m = _NUMBER.match(text)
    if m is None:
        return Fraction(0)
    value = Fraction(m.group().strip())
    rest = text[m.end():]
    mult = _BW_MULT.get(rest[:1].lower())
    if mult is not None:
        value *= mult
        if rest[1:2] == "B":
            value *= 8
    return value


@_remembered
def ns2_time(text: str) -> Fraction:
    """A time as ns-2 reads it, in seconds, exactly: ``10ms``, ``0.5``, ``3us``, ``2ns``."""
    m = _NUMBER.match(text)
    unit = text[m.end():].strip() if m is not None else None
    if m is None or unit not in _TIME_UNIT:
        raise BadValue(f"expected a time like 10ms or 0.5 (units s, ms, us, ns, ps), got {text!r}")
    return Fraction(m.group().strip()) * _TIME_UNIT[unit]


_TIME_UNIT_DOUBLE = {"": 1.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}


@_remembered
def ns2_time_double(text: str) -> float:
    """A time as the double an ns-2 object's bound time variable holds (tclcl
    ``InstVar::time_atof``: the number, then times 1e-3, 1e-6, ... for its unit, in doubles),
    which may be one unit in the last place from the exact time."""
    ns2_time(text)  # checks the text
    m = _NUMBER.match(text)
    assert m is not None
    return float(m.group().strip()) * _TIME_UNIT_DOUBLE[text[m.end():].strip()]


@_remembered
def ns2_bandwidth_double(text: str) -> float:
    """A bandwidth as the double an ns-2 object's bound bandwidth variable holds (tclcl's
    parser: the number, times 1e3, 1e6, 1e9 or 1e12 for its multiplier, then times 8 for
    bytes, in doubles): ``1.1Mb`` is 1100000.0000000002 where the exact value is 1100000."""
    m = _NUMBER.match(text)
    if m is None:
        return 0.0
    value = float(m.group().strip())
    rest = text[m.end():]
    mult = _BW_MULT.get(rest[:1].lower())
    if mult is not None:
        value *= float(mult)
        if rest[1:2] == "B":
            value *= 8.0
    return value


@_remembered
def delay_double(text: str) -> float:
    """A link's ``delay_`` as ns-2 holds it (``ns2_time_double``), for a time it reads."""
    try:
        return ns2_time_double(text)
    except ValueError:
        return time_ps(text) / PS_PER_S


@_remembered
def bandwidth_bps(text: str) -> float:
    """A link's bandwidth: ``10Mb``, ``1e25Mb``, ``448Kb``, ``100k``, ``1mb``, ``2.5e6`` ->
    bit/s, the double ns-2's link holds (``ns2_bandwidth_double``: its transmission times
    and the nam trace use it)."""
    bps = ns2_bandwidth(text)
    if bps <= 0:
        raise ValueError(f"expected a positive bandwidth like 10Mb, got {text!r}")
    return ns2_bandwidth_double(text)


def rate_text(text: str) -> str:
    """A rate for the scenario: the bit/s ns-2 reads from ``text``, written exactly."""
    bps = ns2_bandwidth(text)
    if bps <= 0:
        raise BadValue(f"expected a positive rate like 1Mb, got {text!r}")
    return str(bps.numerator) if bps.denominator == 1 else repr(float(bps))


@_remembered
def time_ps(text: str) -> int:
    """``1ms``, ``0.5``, ``100us`` -> picoseconds (ns-2's units; a negative time is an error)."""
    try:
        t = ns2_time(text)
    except BadValue:
        try:
            return parse_time(text.strip())
        except ScenarioError:
            raise ValueError(f"expected a time like 10ms or 0.5, got {text!r}") from None
    if t < 0:
        raise ValueError(f"expected a non-negative time like 10ms or 0.5, got {text!r}")
    return round(t * PS_PER_S)


def time_text(text: str) -> str:
    """A time for the scenario, in picoseconds, from ns-2's reading of ``text``."""
    try:
        return f"{time_ps(text)}ps"
    except ValueError as e:
        raise BadValue(str(e)) from None


def seconds(text: str) -> float:
    return time_ps(text) / PS_PER_S


def sim_seconds_to_ps(t: float) -> int:
    """A scheduler time (a double, as ns-2 keeps it) in picoseconds."""
    return round(Fraction(t) * PS_PER_S)


def fmt_double(x: float) -> str:
    """A bound C++ double as ns-2 prints it (``%.17g``)."""
    return f"{x:.17g}"


def fmt_tcl_double(x: float) -> str:
    """A double computed in Tcl, as Tcl prints it with ns-2's tcl_precision 17 (``2.0``)."""
    text = f"{x:.17g}"
    return text if any(c in text for c in ".eEn") else text + ".0"


def fmt_traced_double(x: float) -> str:
    """A TracedDouble (cwnd_) as ns-2 prints it (``%g``)."""
    return f"{x:g}"
