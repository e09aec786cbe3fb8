"""ns-2's OTcl object model, as far as scripts see it: classes with defaults, objects with
instance variables and instance procedures.

An object is a Tcl command (``_o12``); ``$obj set var_ ?value?`` reads or writes a variable,
``$obj cmd args`` calls the method ``cmd_<cmd>`` (dashes become underscores). ``Class set var_
value`` changes the default that objects created afterwards start from, as in ns-2.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .defaults import DEFAULTS, PARENT, default_text, lineage, var_type
from .errors import Location, Ns2Error
from .values import (
    BadValue,
    fmt_double,
    fmt_traced_double,
    ns2_bandwidth,
    seconds,
    to_bool,
    to_float,
    to_int,
)

if TYPE_CHECKING:
    from .interp import Context


class TclError(Exception):
    """An error the script sees as an ordinary Tcl error (it may ``catch`` it)."""


class ClassDefaults:
    """The class variables (``Agent/TCP set window_ 100``), starting from ns-2's defaults.

    A script's own classes (OTcl ``Class``) have their variables here too; ``user`` holds the
    precedence list of each one that descends from one of ackclock's classes."""

    def __init__(self) -> None:
        self.values: dict[str, dict[str, str]] = {
            c: {k: v[0] for k, v in d.items()} for c, d in DEFAULTS.items()
        }
        self.set_at: dict[tuple[str, str], Location] = {}
        self.user: dict[str, list[str]] = {}
        # for_instance's and where's tables per class, until a class variable or class
        # changes (a 10 000-flow script asks them some 500 000 times).
        self._merged: dict[str, dict[str, str]] = {}
        self._where: dict[str, dict[str, Location]] = {}

    def define(self, cls: str, precedence: list[str]) -> None:
        """A script's class and its OTcl precedence list (itself first)."""
        if cls in PARENT:
            return
        self._forget()
        for c in precedence:
            if c in PARENT:
                mine = precedence[:precedence.index(c)]
                self.user[cls] = mine + list(lineage(c))
                return
        self.user[cls] = [c for c in precedence if c not in ("Object",)]

    def lineage(self, cls: str) -> Sequence[str]:
        return self.user.get(cls) or lineage(cls)

    def get(self, cls: str, var: str) -> str | None:
        for c in self.lineage(cls):
            if var in self.values.get(c, {}):
                return self.values[c][var]
        return None

    def set(self, cls: str, var: str, value: str, where: Location) -> None:
        self.values.setdefault(cls, {})[var] = bound_value(var_type(cls, var), value)
        self.set_at[(cls, var)] = where
        self._forget()

    def _forget(self) -> None:
        self._merged.clear()
        self._where.clear()

    def for_instance(self, cls: str) -> dict[str, str]:
        """A new instance's variables, each its class's or the nearest ancestor's: merged
        once per class (a 10 000-flow script makes 90 000 objects) and copied."""
        merged = self._merged.get(cls)
        if merged is None:
            merged = self._merged[cls] = {}
            for c in reversed(self.lineage(cls)):
                merged.update(self.values.get(c, {}))
        return dict(merged)

    def where(self, cls: str, var: str) -> Location | None:
        """Where the script set ``var`` on ``cls`` or the nearest ancestor it set it on."""
        table = self._where.get(cls)
        if table is None:
            table = self._where[cls] = {}
            for c in reversed(self.lineage(cls)):
                table.update({v: at for (owner, v), at in self.set_at.items() if owner == c})
        return table.get(var)


def bound_value(kind: str | None, text: str) -> str:
    """What a C++-bound variable of this type holds when a script sets it to ``text``: the
    text itself, or ``0`` where it has no number to read (`$errmodel set offset_ n`, a typo
    in ns-2.35's test-suite-tcp-init-win-full). tclcl hands a bound variable's text to C's
    strtod or atoi (ns-2.35's bind, bind_time, bind_bw and bind_bool read a number at its
    start), which give 0 for such text; ns-2 runs on with it (`[$obj set var]` is 0)."""
    if kind is None:
        return text
    try:
        format_value(kind, text)
    except TclError:
        return "0"
    return text


@functools.lru_cache(maxsize=4096)
def is_default(cls: str, var: str, value: str) -> bool:
    """Whether ``value`` of ``var`` prints as ns-2's default of ``cls`` does (True for a
    variable ns-2 does not bind). Remembered: 10 000 agents ask it some 800 000 times, of a
    few distinct texts."""
    default = default_text(cls, var)
    if default is None or value == default:  # most are: the same text formats the same
        return True
    kind = var_type(cls, var)
    return format_value(kind, value) == format_value(kind, default)


def format_value(kind: str | None, text: str) -> str:
    """How an instance prints a variable of this type."""
    try:
        if kind == "int":
            return str(to_int(text))
        if kind == "bool":
            return "1" if to_bool(text) else "0"
        if kind == "double":
            return fmt_double(to_float(text))
        if kind == "tdouble":
            return fmt_traced_double(to_float(text))
        if kind == "time":
            return fmt_double(seconds(text))
        if kind == "bw":
            return fmt_double(float(ns2_bandwidth(text)))
    except ValueError as e:
        raise TclError(str(e)) from None
    return text


class TclObject:
    """Base of every ns-2 object the front end implements."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location,
                 args: list[str] | None = None):
        self.ctx = ctx
        self.cls = cls
        self.handle = handle
        self.created_at = where
        self.vars: dict[str, str] = ctx.classes.for_instance(cls)
        self.set_at: dict[str, Location] = {}

    def __repr__(self) -> str:
        return f"{self.cls}({self.handle})"

    # --- variables -------------------------------------------------------------------------

    def var_kind(self, var: str) -> str | None:
        return var_type(self.cls, var)

    def var_number(self, var: str) -> int | bool | float:
        """``var`` read as the C++ variable ns-2 binds it to: an ``int`` (atoi), a ``bool``
        (bind_bool), a time in seconds, a bandwidth in b/s, else a double (strtod); an
        error naming the variable and where it was set if its text holds no number."""
        text = self.vars[var]
        kind = self.var_kind(var)
        try:
            if kind == "int":
                return to_int(text)
            if kind == "bool":
                return to_bool(text)
            if kind == "time":
                return seconds(text)
            if kind == "bw":
                return float(ns2_bandwidth(text))
            return to_float(text)
        except ValueError as e:
            raise Ns2Error(f"{var}: {e}", self.var_where(var)) from None

    def live_var(self, var: str) -> str | None:
        """A variable whose value comes from the running engine; None: the stored one."""
        return None

    def read_var(self, var: str) -> str:
        live = self.live_var(var)
        if live is not None:
            return live
        if var not in self.vars:
            raise TclError(f'can\'t read "{var}": no such variable')
        return format_value(self.var_kind(var), self.vars[var])

    def write_var(self, var: str, value: str) -> None:
        value = bound_value(self.var_kind(var), value)
        self.vars[var] = value
        self.set_at[var] = self.ctx.where()
        self.on_write(var, value)

    def on_write(self, var: str, value: str) -> None:
        """A hook for variables whose writes act at once (a sink's ``bytes_ 0``)."""

    def var_where(self, var: str) -> Location:
        """Where ``var`` got its value: the instance's set, the class's, or creation."""
        return self.set_at.get(var) or self.ctx.classes.where(self.cls, var) or self.created_at

    def var_is_default(self, var: str) -> bool:
        return var not in self.vars or is_default(self.cls, var, self.vars[var])

    # --- commands --------------------------------------------------------------------------

    def call(self, args: list[str]) -> str:
        if not args:
            raise TclError(f"{self.handle}: no command given")
        name, rest = args[0], args[1:]
        if name == "set":
            if len(rest) == 1:
                return self.read_var(rest[0])
            if len(rest) >= 2:  # tclcl's SplitObject set: the words after the value ignored
                self.write_var(rest[0], rest[1])
                return rest[1]
            raise TclError(f"wrong # args: should be \"{self.handle} set var ?value?\"")
        method = getattr(self, "cmd_" + name.replace("-", "_").replace("?", "_"), None)
        if method is None:
            raise Ns2Error(f"{self.cls} command \"{shorten(' '.join(args))}\" is not supported"
                           " by ackclock")
        try:
            result = method(*rest) if _accepts(method, len(rest)) else _arity_error(self, name)
        except BadValue as e:  # a number the script wrote wrong: its own error, with its line
            raise TclError(str(e)) from None
        return "" if result is None else str(result)

    def cmd___ac_array(self, var: str) -> str:
        """An array variable the object keeps in Python, as ``name value ...`` (otcl.py's
        pylink asks it at ``$self instvar``); a Tcl error for none."""
        raise TclError(f"{self.handle}: no array {var}")

    def cmd_info(self, what: str = "", *args: str) -> str:
        if what == "class":
            return self.cls
        if what == "vars":
            return " ".join(self.vars)
        raise Ns2Error(f"{self.handle} info {what} is not supported by ackclock")

    def cmd_destroy(self) -> None:
        self.ctx.delete(self)


def shorten(text: str, limit: int = 60) -> str:
    """A command as an error message quotes it: its first line, at most ``limit`` characters
    (never a whole procedure body)."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    if len(first) > limit or first != text.strip():
        return first[:limit].rstrip() + " ..."
    return first


def _accepts(method: Callable[..., object], n: int) -> bool:
    """Whether ``method`` takes ``n`` positional arguments. The bounds are worked out once
    per function (a 10 000-flow script makes some 120 000 calls)."""
    func = getattr(method, "__func__", None)
    if func is None:
        return _arity(method)[0] <= n <= _arity(method)[1]
    bounds = _ARITY.get(func)
    if bounds is None:
        bounds = _ARITY[func] = _arity(method)
    return bounds[0] <= n <= bounds[1]


_ARITY: dict[object, tuple[float, float]] = {}


def _arity(method: Callable[..., object]) -> tuple[float, float]:
    """The fewest and most positional arguments ``method`` takes (inf: any number; a
    keyword-only argument without a default: none, as (inf, -1))."""
    import inspect

    lo, hi = 0.0, 0.0
    for p in inspect.signature(method).parameters.values():
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            hi += 1
            if p.default is p.empty:
                lo += 1
        elif p.kind is p.VAR_POSITIONAL:
            hi = math.inf
        elif p.kind is p.KEYWORD_ONLY and p.default is p.empty:
            return math.inf, -1.0
    return lo, hi


def _arity_error(obj: TclObject, name: str) -> str:
    raise TclError(f"wrong # args for \"{obj.handle} {name}\"")
