"""Queue-discipline parameters: names, ns-2/ns-3 aliases, units and per-profile defaults.

A ``queue = { kind = "red", limit = 100, max_thresh = 20 }`` table gives a discipline's own
keys next to ``kind``/``limit``/``ecn``. :func:`resolve_params` checks them and fills the rest
from the profile, giving the engine's ``queue.red`` / ``queue.codel`` / ``queue.pie`` document
(``docs/engine-contract.md``), or ``queue.params`` for the other disciplines. Every
discipline, its parameters, defaults (per profile where they differ: the ``ns2`` profile's RED
is ns-2.35's ``Queue/RED``, ``tcl/lib/ns-default.tcl``), ranges and aliases come from the
engine's registry (``crates/ackclock-core/src/queue/``, read through
``ackclock._core.queue_registry``): a discipline added there needs nothing here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import ScenarioError, quote
from .schema import QUEUE_COMMON
from .units import parse_int, parse_time


@dataclass(frozen=True)
class Param:
    """One parameter of a queue discipline: its type, defaults, aliases and check."""

    kind: str  # "float" | "bool" | "time" | "int"
    # Per-profile defaults in the engine's units; "*" applies to every profile.
    default: Mapping[str, Any]
    aliases: tuple[str, ...] = ()
    # An alias whose value must be converted (ns-2's linterm_ = 1 / max_p).
    convert: Mapping[str, Callable[[float], float]] | None = None
    # A range check on the (converted) value: the registry's range name.
    check: str | None = None
    # ns-2's name of the variable, where ns-2 has one (``thresh_``).
    ns2: str | None = None


def _inverse(x: float) -> float:
    return 1.0 / x


def _param(p: Mapping[str, Any]) -> Param:
    cast: Callable[[Any], Any]
    if p["range"] == "flag":
        kind, cast = "bool", bool
    elif p["unit"] == "time":
        kind, cast = "time", int
    elif p["range"] == "count":
        kind, cast = "int", int
    else:
        kind, cast = "float", float
    default = {"*": cast(p["default"]), **{k: cast(v) for k, v in p["profile_defaults"].items()}}
    names = [a for a in (p["ns2"], *p["aliases"], p["ns3"]) if a]
    inverse = tuple(p["inverse_aliases"])
    return Param(kind, default, (*names, *inverse),
                 convert={a: _inverse for a in inverse} or None, check=p["range"],
                 ns2=p["ns2"] or None)


class _Registry:
    """The engine's queue-discipline registry, read on first use."""

    def __init__(self) -> None:
        self._entries: dict[str, Mapping[str, Any]] | None = None

    def entries(self) -> dict[str, Mapping[str, Any]]:
        if self._entries is None:
            from .run import engine

            self._entries = {e["name"]: e for e in engine().queue_registry()}
        return self._entries


_REGISTRY = _Registry()


class _Kinds(Sequence[str]):
    """The disciplines' names, in the engine's order."""

    def __getitem__(self, i: Any) -> Any:
        return tuple(_REGISTRY.entries())[i]

    def __len__(self) -> int:
        return len(_REGISTRY.entries())

    def __contains__(self, x: object) -> bool:
        return x in _REGISTRY.entries()


class _Specs(Mapping[str, Mapping[str, Param]]):
    """Each discipline's parameters by name."""

    def __init__(self) -> None:
        self._specs: dict[str, Mapping[str, Param]] = {}

    def __getitem__(self, kind: str) -> Mapping[str, Param]:
        spec = self._specs.get(kind)
        if spec is None:
            entry = _REGISTRY.entries()[kind]
            spec = self._specs[kind] = {p["name"]: _param(p) for p in entry["params"]}
        return spec

    def __iter__(self) -> Iterator[str]:
        return iter(_REGISTRY.entries())

    def __len__(self) -> int:
        return len(_REGISTRY.entries())


KINDS: Sequence[str] = _Kinds()
SPECS: Mapping[str, Mapping[str, Param]] = _Specs()


def default_limit(kind: str) -> int | None:
    """The buffer ``kind`` gets when the scenario gives no limit, where it differs from the
    profile's (Linux's fq_codel limit; RFC 8290 section 5.2.3 discusses it)."""
    return _REGISTRY.entries()[kind]["default_limit"]  # type: ignore[no-any-return]


def marks(kind: str) -> bool:
    """Whether ``kind`` marks ECN-capable packets under ``ecn = true``."""
    return bool(_REGISTRY.entries()[kind]["ecn"])


def holds(kind: str) -> bool:
    """Whether ``kind`` holds its packets and hands them out at dequeue (a discipline a
    device queue can go below)."""
    return bool(_REGISTRY.entries()[kind]["service"] == "dequeue")


def takes_bytes(kind: str) -> bool:
    """Whether ``kind`` takes its limit in bytes (``limit_bytes``)."""
    return bool(_REGISTRY.entries()[kind]["limit_bytes"])


# Keys every queue table may have besides its discipline's own.
COMMON_KEYS = tuple(QUEUE_COMMON)


@functools.cache
@functools.cache  # per link direction of a large network (the registry does not change)
def known_keys(kind: str) -> tuple[str, ...]:
    spec = SPECS.get(kind, {})
    names: list[str] = list(COMMON_KEYS)
    for name, param in spec.items():
        names.append(name)
        names.extend(param.aliases)
    return tuple(names)


def _default(param: Param, profile: str) -> Any:
    """The default in the engine's units."""
    return param.default.get(profile, param.default["*"])


def _value(param: Param, value: Any, path: str) -> Any:
    if param.kind == "bool":
        if not isinstance(value, bool):
            raise ScenarioError(f"expected true or false, got {quote(value)}", path=path)
        return value
    if param.kind == "time":
        return parse_time(value, path)
    if param.kind == "int":
        return parse_int(value, path, minimum=1, what="a positive integer")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ScenarioError(f"expected a number, got {quote(value)}", path=path)
    return float(value)


def resolve_params(kind: str, given: Mapping[str, Any], profile: str, path: str) -> dict[str, Any]:
    """The engine's parameter document for ``kind``, from the keys the user gave."""
    spec = SPECS[kind]
    by_alias = {a: name for name, p in spec.items() for a in (name, *p.aliases)}
    chosen: dict[str, tuple[str, Any]] = {}
    for key, value in given.items():
        name = by_alias.get(key)
        if name is None:
            expected = ", ".join(spec) or "no keys of its own"
            raise ScenarioError(
                f"unknown key for a {kind} queue; expected {expected}", path=f"{path}.{key}"
            )
        if name in chosen:
            raise ScenarioError(
                f"{quote(key)} and {quote(chosen[name][0])} set the same parameter",
                path=f"{path}.{key}",
            )
        chosen[name] = (key, value)
    out: dict[str, Any] = {}
    for name, param in spec.items():
        if name in chosen:
            key, raw = chosen[name]
            value = _value(param, raw, f"{path}.{key}")
            if param.convert and key in param.convert:
                if value == 0:
                    raise ScenarioError("must not be 0", path=f"{path}.{key}")
                value = param.convert[key](value)
            _check(param, value, f"{path}.{key}")
        else:
            value = _default(param, profile)
        out[name] = value
    return _engine_document(kind, out)


def _check(param: Param, value: Any, path: str) -> None:
    if param.check == "fraction" and not 0 < value <= 1:
        raise ScenarioError(f"expected a probability in (0, 1], got {quote(value)}", path=path)
    if param.check == "nonnegative" and value < 0:
        raise ScenarioError(f"must not be negative, got {quote(value)}", path=path)
    if param.check == "positive" and not value > 0:
        raise ScenarioError(f"must be positive, got {quote(value)}", path=path)
    if param.check == "weight" and not (0 < value <= 1 or value in (0, -1, -2)):
        raise ScenarioError(
            "expected a weight in (0, 1], or 0, -1, -2 for ns-2's automatic values, got"
            f" {quote(value)}",
            path=path,
        )


# The engine document's tables of the disciplines that had one before the registry, with the
# parameters each table carries (times keyed NAME_ps). Everything else goes in `params`, and a
# parameter outside these tables only when it differs from the engine's default (the engine
# fills in the rest; a profile's own default differs from it and is written), so that the
# documents of the four stay as they were.
_TABLES: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "red": ("red", ("min_thresh", "max_thresh", "q_weight", "max_p", "gentle", "wait", "bytes",
                    "queue_in_bytes", "mean_pktsize", "target_delay", "use_mark_p", "mark_p")),
    "codel": ("codel", ("target", "interval", "mtu")),
    "fq_codel": ("codel", ("target", "interval", "mtu", "flows", "quantum")),
    "pie": ("pie", ("target", "t_update", "alpha", "beta", "max_burst", "mean_pktsize",
                    "mark_ecn_threshold")),
}


def _engine_document(kind: str, v: Mapping[str, Any]) -> dict[str, Any]:
    spec = SPECS[kind]
    table, keys = _TABLES.get(kind, ("", ()))
    doc: dict[str, Any] = {}
    if table:
        doc[table] = {(f"{k}_ps" if spec[k].kind == "time" else k): v[k] for k in keys}
    params = {k: float(x) for k, x in v.items()
              if k not in keys and x != spec[k].default["*"]}
    if params:
        doc["params"] = params
    return doc
