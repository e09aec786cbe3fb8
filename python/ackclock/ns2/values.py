"""ns-2's textual values: bandwidths, times, booleans, and how bound variables print."""

from __future__ import annotations

from fractions import Fraction

from ..errors import ScenarioError
from ..units import PS_PER_S, parse_rate, parse_time


class BadValue(ValueError):
    """A script's value that is not what a command expects (reported as a Tcl error)."""


def to_float(text: str, what: str = "a number") -> float:
    try:
        return float(text)
    except ValueError:
        raise BadValue(f"expected {what}, got {text!r}") from None


def to_int(text: str, what: str = "an integer") -> int:
    """ns-2 reads integer variables with atoi-like leniency for "5.0"."""
    try:
        return int(text)
    except ValueError:
        try:
            return int(float(text))
        except ValueError:
            raise BadValue(f"expected {what}, got {text!r}") from None


def int_arg(text: str, what: str = "an integer") -> int:
    """A command's integer argument: a wrong one is the script's Tcl error."""
    from .objects import TclError

    try:
        return to_int(text, what)
    except ValueError as e:
        raise TclError(str(e)) from None


def to_bool(text: str) -> bool:
    t = text.strip().lower()
    if t in ("1", "true", "yes", "on"):
        return True
    if t in ("0", "false", "no", "off"):
        return False
    try:
        return float(t) != 0
    except ValueError:
        raise ValueError(f"expected a boolean (0/1/true/false), got {text!r}") from None


def bandwidth_bps(text: str) -> float:
    """``10Mb``, ``1e25Mb``, ``448Kb``, ``2.5e6`` -> bit/s."""
    try:
        return float(parse_rate(text.strip()))
    except ScenarioError:
        raise ValueError(f"expected a bandwidth like 10Mb, got {text!r}") from None


def time_ps(text: str) -> int:
    """``1ms``, ``0.5``, ``100us`` -> picoseconds."""
    try:
        return parse_time(text.strip())
    except ScenarioError:
        raise ValueError(f"expected a time like 10ms or 0.5, got {text!r}") from None


def seconds(text: str) -> float:
    return time_ps(text) / PS_PER_S


def sim_seconds_to_ps(t: float) -> int:
    """A scheduler time (a double, as ns-2 keeps it) in picoseconds."""
    return round(Fraction(t) * PS_PER_S)


def fmt_double(x: float) -> str:
    """A bound C++ double as ns-2 prints it (``%.17g``)."""
    return f"{x:.17g}"


def fmt_traced_double(x: float) -> str:
    """A TracedDouble (cwnd_) as ns-2 prints it (``%g``)."""
    return f"{x:g}"
