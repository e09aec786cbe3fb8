"""Queue-discipline parameters: names, ns-2 aliases, units and per-profile defaults.

A ``queue = { kind = "red", limit = 100, max_thresh = 20 }`` table gives a discipline's own
keys next to ``kind``/``limit``/``ecn``. :func:`resolve_params` checks them and fills the rest
from the profile, giving the engine's ``queue.red`` / ``queue.codel`` / ``queue.pie`` document
(``docs/engine-contract.md``). The ``ns2`` profile's RED defaults are ns-2.35's
``Queue/RED`` (``tcl/lib/ns-default.tcl``); CoDel, FQ-CoDel and PIE take their RFCs'
(and Linux's) defaults in every profile.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import ScenarioError, quote
from .schema import QUEUE_COMMON
from .units import parse_int, parse_time


@dataclass(frozen=True)
class Param:
    """One parameter of a queue discipline: its type, defaults, ns-2 aliases and check."""

    kind: str  # "float" | "bool" | "time" | "int"
    # Per-profile defaults; "*" applies to every profile.
    default: Mapping[str, Any]
    aliases: tuple[str, ...] = ()
    # An alias whose value must be converted (ns-2's linterm_ = 1 / max_p).
    convert: Mapping[str, Callable[[float], float]] | None = None
    # A range check on the (converted) value: "probability", "nonnegative", "weight".
    check: str | None = None


def _all(value: Any) -> Mapping[str, Any]:
    return {"*": value}


RED: Mapping[str, Param] = {
    "min_thresh": Param("float", _all(0.0), ("thresh_", "thresh", "min_th"),
                        check="nonnegative"),
    "max_thresh": Param("float", _all(0.0), ("maxthresh_", "maxthresh", "max_th"),
                        check="nonnegative"),
    "q_weight": Param("float", _all(-1.0), ("q_weight_", "w_q"), check="weight"),
    "max_p": Param("float", _all(0.1), ("linterm_", "linterm"),
                   convert={"linterm_": lambda x: 1.0 / x, "linterm": lambda x: 1.0 / x},
                   check="probability"),
    "gentle": Param("bool", _all(True), ("gentle_",)),
    "wait": Param("bool", _all(True), ("wait_",)),
    "bytes": Param("bool", {"ns2": True, "*": False}, ("bytes_",)),
    "queue_in_bytes": Param("bool", {"ns2": True, "*": False}, ("queue_in_bytes_",)),
    "mean_pktsize": Param("int", {"ns2": 500, "*": 1500}, ("mean_pktsize_",)),
    "target_delay": Param("time", _all("5ms"), ("targetdelay_",)),
    "use_mark_p": Param("bool", _all(True), ("use_mark_p_",)),
    "mark_p": Param("float", _all(0.1), ("mark_p_",), check="probability"),
}

CODEL: Mapping[str, Param] = {
    "target": Param("time", _all("5ms"), ("target_",)),
    "interval": Param("time", _all("100ms"), ("interval_",)),
    "mtu": Param("int", _all(1500)),
}

FQ_CODEL: Mapping[str, Param] = {
    **CODEL,
    "flows": Param("int", _all(1024)),
    "quantum": Param("int", _all(1514)),
}

PIE: Mapping[str, Param] = {
    "target": Param("time", _all("15ms"), ("qdelay_ref",)),
    "t_update": Param("time", _all("15ms"), ("tupdate",)),
    "alpha": Param("float", _all(0.125), check="nonnegative"),
    "beta": Param("float", _all(1.25), check="nonnegative"),
    "max_burst": Param("time", _all("150ms")),
    "mean_pktsize": Param("int", _all(1500)),
    "mark_ecn_threshold": Param("float", _all(0.1), check="probability"),
}

SPECS: Mapping[str, Mapping[str, Param]] = {
    "droptail": {},
    "red": RED,
    "codel": CODEL,
    "fq_codel": FQ_CODEL,
    "pie": PIE,
}

# The buffer a discipline gets when the scenario gives no limit, where it differs from the
# profile's: Linux's fq_codel limit (RFC 8290 section 5.2.3 discusses it).
DEFAULT_LIMITS: Mapping[str, int] = {"fq_codel": 10240}

# Keys every queue table may have besides its discipline's own.
COMMON_KEYS = tuple(QUEUE_COMMON)


@functools.cache
def known_keys(kind: str) -> tuple[str, ...]:
    spec = SPECS.get(kind, {})
    names: list[str] = list(COMMON_KEYS)
    for name, param in spec.items():
        names.append(name)
        names.extend(param.aliases)
    return tuple(names)


def _default(param: Param, profile: str) -> Any:
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
            value = _value(param, _default(param, profile), f"{path}.{name}")
        out[name] = value
    return _engine_document(kind, out)


def _check(param: Param, value: Any, path: str) -> None:
    if param.check == "probability" and not 0 < value <= 1:
        raise ScenarioError(f"expected a probability in (0, 1], got {quote(value)}", path=path)
    if param.check == "nonnegative" and value < 0:
        raise ScenarioError(f"must not be negative, got {quote(value)}", path=path)
    if param.check == "weight" and not (0 < value <= 1 or value in (0, -1, -2)):
        raise ScenarioError(
            "expected a weight in (0, 1], or 0, -1, -2 for ns-2's automatic values, got"
            f" {quote(value)}",
            path=path,
        )


def _engine_document(kind: str, v: Mapping[str, Any]) -> dict[str, Any]:
    if kind == "red":
        return {"red": {
            "min_thresh": v["min_thresh"], "max_thresh": v["max_thresh"],
            "q_weight": v["q_weight"], "max_p": v["max_p"], "gentle": v["gentle"],
            "wait": v["wait"], "bytes": v["bytes"], "queue_in_bytes": v["queue_in_bytes"],
            "mean_pktsize": v["mean_pktsize"], "target_delay_ps": v["target_delay"],
            "use_mark_p": v["use_mark_p"], "mark_p": v["mark_p"],
        }}
    if kind in ("codel", "fq_codel"):
        doc = {"target_ps": v["target"], "interval_ps": v["interval"], "mtu": v["mtu"]}
        if kind == "fq_codel":
            doc |= {"flows": v["flows"], "quantum": v["quantum"]}
        return {"codel": doc}
    if kind == "pie":
        return {"pie": {
            "target_ps": v["target"], "t_update_ps": v["t_update"], "alpha": v["alpha"],
            "beta": v["beta"], "max_burst_ps": v["max_burst"],
            "mean_pktsize": v["mean_pktsize"], "mark_ecn_threshold": v["mark_ecn_threshold"],
        }}
    return {}
