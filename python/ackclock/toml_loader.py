"""Scenario files (TOML, docs/scenario-files.md) into the scenario model.

Loading goes: parse the TOML; expand ``count = N`` tables into N copies with ``{i}``
substituted; apply ``--set`` overrides (so they can address copies by name); build the model,
rejecting unknown keys; then resolve once, so that every mistake surfaces at load time with
the file and key path.
"""

from __future__ import annotations

import copy
import gc
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

try:  # compiled where its wheel is (pyproject.toml): large files read twice as fast
    import tomli as tomllib
except ImportError:  # pragma: no cover - installed without its dependencies
    import tomllib  # type: ignore[no-redef]

from . import queues, schema
from .apps import AnyApp, Ftp, from_table
from .errors import ScenarioError, quote
from .profiles import TCP_ALIASES, TCP_PARAMS, canonical_tcp_key, normalize_tcp_params
from .scenario import (
    _ATOMIC,
    APP_KINDS,
    FLOW_KINDS,
    LOSS_KINDS,
    MAX_ENTRIES,
    QUEUE_KINDS,
    Flow,
    Link,
    LossConfig,
    Node,
    PacketTrace,
    QueueConfig,
    RunConfig,
    Scenario,
    check_kind,
    collector_paused,
    loss_from_table,
    resolve,
    resolve_shared,
)
from .units import parse_int

# Every table's keys, from the schema (schema.py): the one owner of the file's structure.
_TOP_KEYS = schema.keys(schema.TOP)
_RUN_KEYS = schema.keys(schema.RUN)
_DEFAULTS_KEYS = schema.keys(schema.DEFAULTS)
_NODE_KEYS = schema.keys(schema.NODE)
_LINK_KEYS = schema.keys(schema.LINK)
_FLOW_KEYS = schema.keys(schema.FLOW) + tuple(TCP_PARAMS) + tuple(TCP_ALIASES)
_APP_KEYS = {kind: schema.app_keys(kind) for kind in schema.APP}
_LOSS_KEYS = {kind: schema.loss_keys(kind) for kind in schema.LOSS}
_REPEATED = ("node", "link", "flow")
# The same as sets: an entry whose keys are all known needs no closer look.
_NODE_KEY_SET = frozenset(_NODE_KEYS)
_LINK_KEY_SET = frozenset(_LINK_KEYS)
_FLOW_KEY_SET = frozenset(_FLOW_KEYS)

_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


class _Entry(dict[str, Any]):
    """A [[node]]/[[link]]/[[flow]] table that remembers where in the file it came from
    (made by :func:`_entry`; dict's own constructor, no Python one: 70 000 entries for
    10 000 flows)."""

    __slots__ = ("origin",)  # no attribute dict
    origin: str


def _entry(items: Mapping[str, Any], origin: str) -> _Entry:
    entry = _Entry(items)
    entry.origin = origin
    return entry


def load_scenario(path: str | Path, overrides: Sequence[str] = ()) -> Scenario:
    """Reads a scenario file, applies ``KEY=VALUE`` overrides and checks it completely."""
    return load_resolved(path, overrides)[0]


def _read(path: Path) -> str:
    from .inputs import read_text

    return read_text(path)


def loads_scenario(
    text: str,
    source: str = "<string>",
    overrides: Sequence[str] = (),
    name: str | None = None,
) -> Scenario:
    """Like :func:`load_scenario`, from TOML text; ``source`` names it in error messages and
    ``name`` is the scenario name to use when the text gives none."""
    return loads_resolved(text, source, overrides, name)[0]


def load_resolved(
    path: str | Path, overrides: Sequence[str] = (), share: bool = False,
    engine_rules: bool = True, freeze: bool = False,
) -> tuple[Scenario, dict[str, Any]]:
    """Like :func:`load_scenario`, with the resolved document its check produced (the
    command line runs it instead of resolving the scenario a second time)."""
    from .inputs import check_path_argument

    path = check_path_argument(path, "scenario file")
    text = _read(path)
    return loads_resolved(text, source=str(path), overrides=overrides, name=path.stem,
                          share=share, engine_rules=engine_rules, freeze=freeze)


def loads_resolved(
    text: str,
    source: str = "<string>",
    overrides: Sequence[str] = (),
    name: str | None = None,
    share: bool = False,
    engine_rules: bool = True,
    freeze: bool = False,
) -> tuple[Scenario, dict[str, Any]]:
    """Like :func:`loads_scenario`, with the resolved document."""
    try:
        raw = parse_toml(text)
    except ScenarioError as e:
        raise e.in_file(source) from None
    return resolved_from_raw(raw, source, overrides, name, share, engine_rules, freeze)


def resolved_from_raw(
    raw: Mapping[str, Any],
    source: str | None = None,
    overrides: Sequence[str] = (),
    name: str | None = None,
    share: bool = False,
    engine_rules: bool = True,
    freeze: bool = False,
) -> tuple[Scenario, dict[str, Any]]:
    """The scenario and its resolved document from a parsed scenario file (or what
    :func:`scenario_to_raw` made of a scenario), with ``--set`` overrides applied.
    ``share``: the document shares the tables that come out the same
    (:func:`ackclock.scenario.resolve_shared`), for a document that is run and recorded
    unchanged (the command line's); with it, ``engine_rules=False`` leaves the engine's rules
    to the engine building the run (:func:`ackclock.scenario.resolve_shared`).
    ``freeze``: for a process that keeps the document to its end (the command line's), every
    object alive once it is resolved leaves the cyclic garbage collector for good
    (``gc.freeze()``; reference counting still frees them)."""
    with collector_paused():
        resolved = _resolved_from_raw(raw, source, overrides, name, share, engine_rules)
        if freeze:
            # Else the collector's next pass, at the first allocation after it is enabled
            # again, walks them all (10 000 flows: some 130 000 objects, 0.02 s), and later
            # passes of the older generations again.
            gc.freeze()
        return resolved


def _resolved_from_raw(raw: Mapping[str, Any], source: str | None, overrides: Sequence[str],
                       name: str | None, share: bool, engine_rules: bool
                       ) -> tuple[Scenario, dict[str, Any]]:
    try:
        raw, overrides, counted = _count_overrides(raw, overrides)
        # With `share` and no override addressing a node, link or flow, a `count = N` table
        # whose copies differ only in their names may stay one table (`_Repeat`).
        doc = expand_counts(raw, share, lazy=share and not _addresses_entries(overrides))
    except ScenarioError as e:
        raise e.in_file(source) from None
    # Override errors are about the command line, not the file, so they name no file.
    set_by = {**counted, **_apply_overrides(doc, overrides)}
    try:
        scenario = build_scenario(doc, source=source, default_name=name, share=share)
        del doc  # the expanded tables: not held while the document is built
        document = resolve_shared(scenario, engine_rules) if share else resolve(scenario)
    except ScenarioError as e:
        for key, override in set_by.items():
            if e.path and (e.path == key or e.path.startswith((key + ".", key + "[", key + "{"))
                           or key.startswith(e.path + ".")):
                e.message += f" (set by --set {override})"
                break
        raise e.in_file(source) from None
    return scenario, document


def _addresses_entries(overrides: Any) -> bool:
    """Whether ``overrides`` may change a [[node]], [[link]] or [[flow]] entry (anything not
    a list of strings counts as may: `_apply_overrides` names the mistake)."""
    if not isinstance(overrides, (list, tuple)):
        return True
    for override in overrides:
        if not isinstance(override, str):
            return True
        if override.partition("=")[0].strip().partition(".")[0] in _REPEATED:
            return True
    return False


def _count_overrides(raw: Mapping[str, Any], overrides: Any
                     ) -> tuple[Mapping[str, Any], Any, dict[str, str]]:
    """Applies ``KIND.NAME.count=N`` overrides to the ``count = N`` table that made the copy
    NAME (``flow.tcp0.count=8``: the table of tcp0, tcp1, ...), before the copies are made;
    returns the raw document, the other overrides and, for error messages, each resized
    table's path with its override. A table that is not repeated cannot be counted."""
    if isinstance(overrides, (str, bytes)) or not isinstance(overrides, Iterable):
        return raw, overrides, {}  # _apply_overrides names the mistake
    rest: list[Any] = []
    set_by: dict[str, str] = {}
    expanded: dict[str, Any] | None = None
    for override in overrides:
        if not isinstance(override, str):
            rest.append(override)
            continue
        key, sep, text = override.partition("=")
        head, _, tail = key.strip().partition(".")
        if not (sep and head in _REPEATED and tail.endswith(".count")):
            rest.append(override)
            continue
        where = f"--set {override}"
        if expanded is None:
            expanded = expand_counts(raw)
        entry, ident = _find_entry(expanded, head, tail, where)
        if tail != f"{ident}.count":
            rest.append(override)  # e.g. an application's own key named count
            continue
        m = re.fullmatch(rf"{head}\[(\d+)\](\{{i=\d+\}})?", entry.origin)
        if m is None or m.group(2) is None:
            raise ScenarioError(
                f"{ident} is not one of the copies of a [[{head}]] table with count = N, so it"
                " has no count to change", path=where)
        index = int(m.group(1))
        tables = list(raw[head])
        tables[index] = {**tables[index], "count": _override_value(text.strip())}
        raw = {**raw, head: tables}
        set_by[f"{head}[{index}]"] = override
        expanded = None
    return raw, rest, set_by


def scenario_to_raw(scenario: Scenario) -> dict[str, Any]:
    """A scenario (one built in Python, say) as the parsed TOML of a file that would load as
    it: ``resolved_from_raw(scenario_to_raw(s))`` resolves to the same document, and dotted
    ``--set`` paths address its keys as they would a file's."""
    import dataclasses

    def present(d: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in d.items() if v is not None}

    run = present({f.name: getattr(scenario.run, f.name)
                   for f in dataclasses.fields(scenario.run)})
    raw: dict[str, Any] = {"name": scenario.name, "profile": scenario.profile, "run": run}
    if scenario.defaults_tcp:
        raw["defaults"] = {"tcp": dict(scenario.defaults_tcp)}
    raw["node"] = [{"name": n.name} for n in scenario.nodes]
    links = []
    for link in scenario.links:
        q = link.queue
        queue = present({"kind": q.kind, "limit": q.limit, "limit_bytes": q.limit_bytes,
                         "ns2": q.ns2, "ecn": q.ecn, "device_limit": q.device_limit,
                         "bql": q.bql, "bql_hold_time": q.bql_hold_time,
                         "ns3_run": q.ns3_run}) | dict(q.params)
        entry = {"from": link.from_, "to": link.to, "rate": link.rate, "delay": link.delay,
                 "queue": queue, "duplex": link.duplex, "monitor_flows": link.monitor_flows}
        if link.loss is not None:
            entry["loss"] = present({"kind": link.loss.kind, **dataclasses.asdict(link.loss)})
        if link.reverse_loss is not None:
            entry["reverse_loss"] = present({"kind": link.reverse_loss.kind,
                                             **dataclasses.asdict(link.reverse_loss)})
        links.append(entry)
    raw["link"] = links
    flows = []
    for f in scenario.flows:
        entry = present({"name": f.name, "kind": f.kind, "from": f.from_, "to": f.to,
                         "variant": f.variant, "cc": f.cc, "sink": f.sink, "trace": f.trace,
                         "fid": f.fid, "priority": f.priority, "two_way": f.two_way})
        entry.update(f.tcp)
        if f.kind == "udp" and f.header_size is not None:
            entry["header_size"] = f.header_size
        if f.tfrc is not None:
            entry["tfrc"] = dict(f.tfrc)
        if f.rap is not None:
            entry["rap"] = dict(f.rap)
        entry["app"] = present({"kind": f.app.kind, **dataclasses.asdict(f.app)})
        flows.append(entry)
    raw["flow"] = flows
    if scenario.traces:
        raw["trace"] = [present({"format": t.format, "file": t.file, "links": t.links,
                                 "nodes": t.nodes, "events": t.events,
                                 "tcp_header": t.tcp_header}) for t in scenario.traces]
    return raw


# Resource guards: tables and arrays nest at most this deep; `count = N` copies make at most
# this many entries of one kind ([[node]], [[link]] or [[flow]]) in all.
MAX_DEPTH = 32


def parse_toml(text: str) -> dict[str, Any]:
    reader = _fast_reader()
    if reader is not None:
        # The engine's reader (toml_reader.rs, tomli's rules; a 6 MB file in a fifth of
        # tomli's time) makes some 300 000 objects, none of them in a cycle.
        with collector_paused():
            fast = reader(text, MAX_DEPTH)
        if fast is not None:
            return fast
    # Anything it does not take, a mistake included: tomli, which names the place.
    try:
        doc = tomllib.loads(text)
    except RecursionError:
        raise ScenarioError("invalid TOML: arrays or tables nested too deeply") from None
    except ValueError as e:
        if isinstance(e, tomllib.TOMLDecodeError):
            raise _toml_error(e) from None
        # e.g. an integer of more than 4300 digits
        raise ScenarioError(f"invalid TOML: {e}") from None
    _check_depth(doc)
    return dict(doc)


def _fast_reader() -> Callable[[str, int], dict[str, Any] | None] | None:
    """The engine's TOML reader (``read_toml``: tomli's values, or None where it gives up: any
    mistake, dates, nesting ``MAX_DEPTH`` deep), or None without the engine."""
    try:
        from . import _core
    except ImportError:  # pragma: no cover - the engine is always built
        return None
    reader: Callable[[str, int], dict[str, Any] | None] | None = getattr(
        _core, "read_toml", None)
    return reader


def _check_depth(doc: Mapping[str, Any]) -> None:
    """Rejects values nested deeper than MAX_DEPTH (the loader recurses on them)."""
    # Only tables and arrays are visited (a file of 10 000 flows written out holds some 300 000
    # other values): one at the limit that holds anything holds a value beyond it.
    nested = (dict, list)
    stack: list[tuple[Any, str, int]] = [(v, str(k), 1) for k, v in doc.items()
                                         if isinstance(v, nested)]
    while stack:
        value, top, depth = stack.pop()
        inside = value.values() if isinstance(value, dict) else value
        if depth >= MAX_DEPTH and inside:
            raise ScenarioError(f"nested more than {MAX_DEPTH} levels deep", path=quote(top)
                                if "\n" in top or "\r" in top else top)
        stack.extend((v, top, depth + 1) for v in inside if isinstance(v, nested))


def _toml_error(e: Exception) -> ScenarioError:
    msg = str(e)
    m = _TOML_POSITION.search(msg)
    where = f"line {m.group(1)}, column {m.group(2)}" if m else None
    msg = _TOML_POSITION.sub("", msg)
    return ScenarioError(f"invalid TOML: {msg}", path=where)


def expand_counts(raw: Mapping[str, Any], share: bool = False, lazy: bool = False
                  ) -> dict[str, Any]:
    """A copy of ``raw`` with every ``count = N`` table replaced by N copies, ``{i}`` in their
    strings replaced by 0..N-1. Entries remember their table (``flow[2]``, ``flow[2]{i=5}``).
    ``share``: the copies share the tables and lists inside them that hold no ``{i}``.
    ``lazy`` (with ``share``): a table whose copies differ only in the strings of their names
    (`_Repeat`) stays one `_Repeat` in the list, which :func:`build_scenario` builds into its
    copies' models directly (10 000 flows: 70 000 entries not made)."""
    doc = dict(raw)
    for key in _REPEATED:
        if key not in raw:
            continue
        tables = raw[key]
        if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
            raise ScenarioError(f"expected an array of tables ([[{key}]])", path=key)
        if lazy and share and not any("count" in t for t in tables):
            # Listed one by one (a file written by a script): the tables themselves, not
            # copies that carry their origin (10 000 flows: 70 000 tables); nothing changes
            # them, and build_scenario names each by its position.
            continue
        entries: list[_Entry] = []
        for i, table in enumerate(tables):
            origin = f"{key}[{i}]"
            if isinstance(table, _Entry):
                entries.append(table)  # already expanded
            elif "count" in table:
                n = parse_int(table["count"], f"{origin}.count", what="a number of copies")
                if len(entries) + n > MAX_ENTRIES:
                    raise ScenarioError(
                        f"{n} copies make more than {MAX_ENTRIES} [[{key}]] entries in all",
                        path=f"{origin}.count")
                body = {k: v for k, v in table.items() if k != "count"}
                repeat = _Repeat.of(key, body, n, origin) if lazy and share else None
                if repeat is not None:
                    entries.append(repeat)  # type: ignore[arg-type]  # build_scenario's
                elif share:
                    entries.extend(_copies(body, n, origin))
                else:
                    entries.extend(_entry(_substitute_all(body, str(c)), f"{origin}{{i={c}}}")
                                   for c in range(n))
            else:
                entries.append(_entry(table, origin))
        doc[key] = entries
    return doc


def _copies(body: dict[str, Any], n: int, origin: str) -> Iterator[_Entry]:
    """The ``n`` copies of a ``count = N`` table: only the values holding ``{i}`` are
    substituted, the others are the table's own (shared: ``_set`` copies before changing)."""
    varying = [(k, v) for k, v in body.items() if _holds_i(v)]
    new = _Entry
    for c in range(n):
        entry = new(body)
        entry.origin = f"{origin}{{i={c}}}"
        if varying:
            i = str(c)
            for k, v in varying:
                # A string (a name with {i}) without a call: most of what varies.
                entry[k] = v.replace("{i}", i) if type(v) is str else _substitute(v, i)
        yield entry


# The keys whose strings may vary between the copies of a table that stays a `_Repeat`: the
# ones every copy takes as they are, with no check that depends on their value before
# resolving (which checks each copy's names as it would the entries').
_REPEAT_VARYING = {"node": frozenset({"name"}), "link": frozenset({"from", "to"}),
                   "flow": frozenset({"name", "from", "to"})}


class _Repeat:
    """A ``count = N`` table of nodes, links or flows whose copies differ only in the strings
    of their names (``name = "s{i}"``, ``from = "s{i}"``). :func:`build_scenario` checks its
    first copy as any entry (so that a mistake names ``link[2]{i=0}`` as before) and gives
    the others the first one's model with their own names and origin: every other check the
    first passed, the others pass alike. The models are the ones the copies would make."""

    __slots__ = ("kind", "body", "n", "origin", "varying")

    def __init__(self, kind: str, body: dict[str, Any], n: int, origin: str,
                 varying: list[tuple[str, str]]) -> None:
        self.kind, self.body, self.n, self.origin, self.varying = (kind, body, n, origin,
                                                                    varying)

    @staticmethod
    def of(kind: str, body: dict[str, Any], n: int, origin: str) -> _Repeat | None:
        """The table as a `_Repeat`, or None if its copies differ in more than their names
        (or hold a loss model: each link's own object) or there are none."""
        if n < 1 or (kind == "link" and ("loss" in body or "reverse_loss" in body)):
            return None
        allowed = _REPEAT_VARYING[kind]
        varying = []
        for k, v in body.items():
            if _holds_i(v):
                if k not in allowed or type(v) is not str:
                    return None
                varying.append((k, v))
        return _Repeat(kind, body, n, origin, varying)

    def first(self) -> _Entry:
        entry = _Entry(self.body)
        entry.origin = f"{self.origin}{{i=0}}"
        for k, v in self.varying:
            entry[k] = v.replace("{i}", "0")
        return entry

    def models(self, out: list[Any], first: Any) -> None:
        """Appends the models of copies 1..N-1 to ``out``, given copy 0's (``first``)."""
        origin, varying = self.origin, dict(self.varying)
        name, a, b = varying.get("name"), varying.get("from"), varying.get("to")
        append = out.append
        if self.kind == "node":
            for c in range(1, self.n):
                i = str(c)
                append(Node(first.name if name is None else name.replace("{i}", i),
                            f"{origin}{{i={c}}}"))
        elif self.kind == "link":
            f = first
            for c in range(1, self.n):
                i = str(c)
                append(Link(f.from_ if a is None else a.replace("{i}", i),
                            f.to if b is None else b.replace("{i}", i), f.rate, f.delay,
                            f.queue, f.duplex, None, None, f.monitor_flows, False,
                            f"{origin}{{i={c}}}"))
        else:
            f = first
            for c in range(1, self.n):
                i = str(c)
                append(Flow(f.name if name is None else name.replace("{i}", i), f.kind,
                            f.from_ if a is None else a.replace("{i}", i),
                            f.to if b is None else b.replace("{i}", i), f.variant, f.cc,
                            f.sink, dict(f.tcp), f.header_size, f.app, f.trace, f.fid,
                            f.priority, f.ports, f.two_way, f.tfrc, f.rap,
                            f"{origin}{{i={c}}}"))


def _holds_i(value: Any) -> bool:
    if isinstance(value, str):
        return "{i}" in value
    if isinstance(value, dict):
        return any(_holds_i(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_i(v) for v in value)
    return False


def _substitute_all(value: Any, i: str) -> Any:
    """:func:`_substitute` without sharing: every table and list a copy of its own."""
    t = type(value)
    if t is dict or isinstance(value, dict):
        return {k: _substitute_all(v, i) for k, v in value.items()}
    if t is list or isinstance(value, list):
        return [_substitute_all(v, i) for v in value]
    return _substitute(value, i)


def _substitute(value: Any, i: str) -> Any:
    # Exact types first: TOML gives plain str, dict and list (10 000 copies of a table made
    # this a fifth of resolving a scenario). A table or list without "{i}" is the same
    # object in every copy (a link's queue table, a flow's app): 100 000 copies of it would
    # be 100 000 tables in memory. `_set` copies a shared table before changing it.
    t = type(value)
    if t is str:
        return value.replace("{i}", i)
    if t is dict:
        out = {k: _substitute(v, i) for k, v in value.items()}
        return value if all(out[k] is v for k, v in value.items()) else out
    if t is list:
        items = [_substitute(v, i) for v in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if isinstance(value, str):
        return value.replace("{i}", i)
    if isinstance(value, dict):
        return {k: _substitute(v, i) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, i) for v in value]
    return value


def apply_overrides(raw: Mapping[str, Any], overrides: Iterable[str]) -> dict[str, Any]:
    """A copy of the raw TOML dict, counts expanded, with ``KEY=VALUE`` overrides applied.

    Keys are dotted paths: ``run.seed``, ``defaults.tcp.window``, ``node.NAME.KEY``,
    ``link.FROM-TO.KEY`` and ``flow.NAME.KEY`` (nested: ``flow.cbr.app.rate``). A value is
    read as TOML if it parses (``50``, ``true``, ``"x"``, ``{ uniform = ["0s", "1s"] }``) and
    as a bare string otherwise (``7Mb/s``).
    """
    doc = copy.deepcopy(expand_counts(raw))
    _apply_overrides(doc, overrides)
    return doc


def _apply_overrides(doc: dict[str, Any], overrides: Iterable[str]) -> dict[str, str]:
    """Applies overrides in place; returns each set key's path in the file's terms
    (``link[1].queue.limit``) with the override that set it, for error messages."""
    set_by: dict[str, str] = {}
    if isinstance(overrides, (str, bytes)) or not isinstance(overrides, Iterable):
        raise ScenarioError(f"expected a list of KEY=VALUE strings, got {quote(overrides)}",
                            path="overrides")
    for override in overrides:
        if not isinstance(override, str):
            raise ScenarioError(f"expected a KEY=VALUE string, got {quote(override)}",
                                path="overrides")
        key, sep, text = override.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ScenarioError("expected KEY=VALUE, e.g. run.seed=3", path=f"--set {override}")
        path = _set(doc, key, _override_value(text.strip()), override)
        set_by[path] = override
    return set_by


def _override_value(text: str) -> Any:
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except (ValueError, RecursionError):  # TOMLDecodeError is a ValueError
        return text
    try:
        _check_depth({"v": value})
    except ScenarioError:
        return text
    return value


def _set(doc: dict[str, Any], key: str, value: Any, override: str) -> str:
    where = f"--set {override}"
    head, _, rest = key.partition(".")
    table: dict[str, Any]
    if head in ("name", "profile") and not rest:
        table, path, keys = doc, "", [head]
    elif head in ("run", "defaults") and rest:
        table, path, keys = doc, "", [head, *rest.split(".")]
    elif head in _REPEATED and rest:
        entry, ident = _find_entry(doc, head, rest, where)
        table, path = entry, entry.origin
        keys = rest[len(ident) + 1:].split(".") if len(rest) > len(ident) else []
        if not keys:
            raise ScenarioError(f"expected {head}.{ident}.KEY", path=where)
    else:
        raise ScenarioError(
            "unknown key; expected name, profile, run.KEY, defaults.tcp.KEY, node.NAME.KEY,"
            " link.FROM-TO.KEY or flow.NAME.KEY",
            path=where,
        )
    if not all(keys):
        raise ScenarioError("empty key in the dotted path", path=where)
    for k in keys[:-1]:
        path = f"{path}.{k}" if path else k
        sub = table.get(k, {})
        if not isinstance(sub, dict):
            raise ScenarioError(f"{path} is {quote(sub)}, not a table", path=where)
        # A copy: the copies of a `count = N` table share their tables (`_substitute`).
        table[k] = sub = dict(sub)
        table = sub
    table[keys[-1]] = value
    return f"{path}.{keys[-1]}" if path else keys[-1]


def _find_entry(doc: dict[str, Any], kind: str, rest: str, where: str) -> tuple[_Entry, str]:
    """The entry that ``rest`` (``NAME.KEY...``) addresses, and the identifier it matched.

    Names may contain dots and dashes, so every entry's identifiers are tried as prefixes and
    the longest match wins.
    """
    best: tuple[_Entry, str] | None = None
    idents: list[str] = []
    for entry in doc.get(kind, []):
        for ident in _identifiers(kind, entry):
            idents.append(ident)
            if (rest == ident or rest.startswith(ident + ".")) and (
                best is None or len(ident) > len(best[1])
            ):
                best = (entry, ident)
    if best is None:
        wanted = rest.split(".")[0]
        what = "link FROM-TO" if kind == "link" else f"{kind} named"
        import difflib  # only on a mistake (start-up time)

        hint = difflib.get_close_matches(wanted, idents, n=1)
        suggestion = f" (did you mean {quote(hint[0])}?)" if hint else ""
        raise ScenarioError(f"no {what} {quote(wanted)}{suggestion}", path=where)
    return best


def _identifiers(kind: str, entry: Mapping[str, Any]) -> list[str]:
    if kind != "link":
        name = entry.get("name")
        return [name] if isinstance(name, str) else []
    a, b = entry.get("from"), entry.get("to")
    if not isinstance(a, str) or not isinstance(b, str):
        return []
    # A duplex link may be addressed from either end.
    return [f"{a}-{b}", f"{b}-{a}"] if entry.get("duplex", True) is not False else [f"{a}-{b}"]


def build_scenario(
    doc: Mapping[str, Any], source: str | None = None, default_name: str | None = None,
    share: bool = False,
) -> Scenario:
    """The model for an expanded TOML document; unknown or missing keys are errors.
    ``share``: the links whose queue table is one object (the copies of a ``count = N``
    table, expanded with ``share``) get one QueueConfig (10 000 flows: 40 000 link tables
    checked once), for a scenario nobody changes afterwards (the command line's)."""
    _check_keys(doc, _TOP_KEYS, "")
    run = _table(doc, "run", "run", required=True)
    _check_keys(run, _RUN_KEYS, "run")
    defaults = _table(doc, "defaults", "defaults")
    _check_keys(defaults, _DEFAULTS_KEYS, "defaults")
    defaults_tcp = normalize_tcp_params(_table(defaults, "tcp", "defaults.tcp"), "defaults.tcp")
    name = doc.get("name", default_name)
    if name is None:
        raise ScenarioError("missing: the scenario's name", path="name")
    # id of a queue table, or its plain keys and values -> (the table, kept alive so that its
    # id stays its own; its model)
    queues: dict[Any, tuple[Any, QueueConfig]] | None = {} if share else None
    apps: dict[int, tuple[Any, AnyApp]] | None = {} if share else None
    return Scenario(
        name=name,
        profile=doc.get("profile", "ns2"),
        run=RunConfig(
            duration=_required(run, "duration", "run"),
            warmup=run.get("warmup", "0s"),
            seed=run.get("seed", 1),
            sample_interval=run.get("sample_interval"),
            check=run.get("check", False),
            max_events=run.get("max_events"),
            max_packets=run.get("max_packets"),
            routing=run.get("routing", "shortest"),
            ties=run.get("ties", "insertion"),
        ),
        defaults_tcp=defaults_tcp,
        nodes=_models(doc, "node", lambda e, p: _node(e, p)),
        links=_models(doc, "link", lambda e, p: _link(e, p, queues)),
        flows=_models(doc, "flow", lambda e, p: _flow(e, p, apps)),
        traces=[_packet_trace(e, _origin(e, "trace", i))
                for i, e in enumerate(_tables(doc, "trace"))],
        source=source,
        quick_start=_quick_start(doc),
    )


def _quick_start(doc: Mapping[str, Any]) -> dict[str, Any] | None:
    """``[quick_start]`` with its ``[[quick_start.router]]`` tables (resolved against the
    nodes by scenario._quick_start)."""
    if "quick_start" not in doc:
        return None
    qs = _table(doc, "quick_start", "quick_start")
    _check_keys(qs, schema.keys(schema.QUICK_START), "quick_start")
    routers = []
    for i, r in enumerate(qs.get("router", [])):
        if not isinstance(r, Mapping):
            raise ScenarioError(f"expected a table, got {r!r}", path=f"quick_start.router[{i}]")
        _check_keys(r, schema.keys(schema.QS_ROUTER), f"quick_start.router[{i}]")
        routers.append(dict(r))
    out: dict[str, Any] = {"router": routers}
    if "rate_function" in qs:
        out["rate_function"] = qs["rate_function"]
    return out


def _models(doc: Mapping[str, Any], kind: str, make: Any) -> list[Any]:
    """The model of each [[kind]] entry (``make(entry, origin)``), a `_Repeat`'s copies
    among them."""
    entries = doc.get(kind, [])
    if not any(type(e) is _Repeat for e in entries):
        return [make(e, e.origin if type(e) is _Entry else _origin(e, kind, i))
                for i, e in enumerate(entries)]
    out: list[Any] = []
    for e in entries:  # all `_Entry`s or `_Repeat`s (expand_counts with lazy)
        if type(e) is _Repeat:
            first = e.first()
            model = make(first, first.origin)
            out.append(model)
            e.models(out, model)
        else:
            out.append(make(e, e.origin))
    return out


def _tables(doc: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    value = doc.get(key, [])
    if not isinstance(value, list) or not all(isinstance(e, Mapping) for e in value):
        raise ScenarioError(f"expected [[{key}]] tables", path=key)
    return value


_TRACE_KEYS = schema.keys(schema.TRACE)


def _packet_trace(t: Mapping[str, Any], p: str) -> PacketTrace:
    _check_keys(t, _TRACE_KEYS, p)
    return PacketTrace(format=t.get("format", "ns2"), file=_required(t, "file", p),
                       links=t.get("links"), nodes=t.get("nodes"), events=t.get("events"),
                       tcp_header=t.get("tcp_header"), origin=p)


def _origin(entry: Mapping[str, Any], kind: str, i: int) -> str:
    return entry.origin if type(entry) is _Entry else getattr(entry, "origin", f"{kind}[{i}]")


def _node(t: Mapping[str, Any], p: str) -> Node:
    if not _NODE_KEY_SET.issuperset(t):
        _check_keys(t, _NODE_KEYS, p)
    return Node(t["name"] if "name" in t else _required(t, "name", p), p)  # name, origin


def _link(t: Mapping[str, Any], p: str,
          queues: dict[Any, tuple[Any, QueueConfig]] | None = None) -> Link:
    if not _LINK_KEY_SET.issuperset(t):
        _check_keys(t, _LINK_KEYS, p)
    loss = loss_model(_table(t, "loss", f"{p}.loss"), f"{p}.loss") if "loss" in t else None
    reverse = (loss_model(_table(t, "reverse_loss", f"{p}.reverse_loss"), f"{p}.reverse_loss")
               if "reverse_loss" in t else None)
    table = t.get("queue")
    known = None if queues is None else queues.get(id(table))
    # A table written out on each link (a file that lists its links one by one) is known by
    # its keys and values, when they are plain: equal tables, one model.
    key = (None if known is not None or queues is None or type(table) is not dict
           or not _ATOMIC.issuperset(map(type, table.values()))
           else tuple((k, type(v), v) for k, v in table.items()))
    if key is not None and queues is not None:
        known = queues.get(key)
    if known is not None:
        queue = known[1]
    else:
        queue = _queue(_table(t, "queue", f"{p}.queue"), f"{p}.queue")
        if queues is not None and type(table) is dict:
            queues[id(table)] = (table, queue)
            if key is not None:
                queues[key] = (table, queue)
    try:
        from_, to, rate, delay = t["from"], t["to"], t["rate"], t["delay"]
    except KeyError:  # the first missing one, named
        from_, to, rate, delay = (_required(t, k, p) for k in ("from", "to", "rate", "delay"))
    # By position (40 000 links for 10 000 flows; keywords cost a third more): the fields in
    # the order _LINK_FIELDS holds.
    return Link(from_, to, rate, delay, queue, t.get("duplex", True), loss, reverse,
                t.get("monitor_flows", False), False, p)


_LINK_FIELDS = ("from_", "to", "rate", "delay", "queue", "duplex", "loss", "reverse_loss",
                "monitor_flows", "loss_at_entry", "origin", "loss_behind")
_FLOW_FIELDS = ("name", "kind", "from_", "to", "variant", "cc", "sink", "tcp", "header_size",
                "app", "trace", "fid", "priority", "ports", "two_way", "tfrc", "rap", "origin")
if tuple(f.name for f in fields(Link)) != _LINK_FIELDS or [f.name for f in fields(Node)] != [
        "name", "origin"] or tuple(f.name for f in fields(Flow)) != _FLOW_FIELDS:
    raise ImportError(  # pragma: no cover - a field added to the model
        "toml_loader builds Link, Node and Flow by position: update _link, _node and"
        " _Repeat.models")


def _queue(t: Mapping[str, Any], p: str) -> QueueConfig:
    raw_kind = t.get("kind")
    if isinstance(raw_kind, str) and ":" in raw_kind:
        # A discipline written in Python (docs/custom-algorithms.md): its keys are its
        # constructor's parameters.
        params = {k: v for k, v in t.items() if k not in queues.COMMON_KEYS}
        return QueueConfig(kind=raw_kind, limit=t.get("limit"),
                           limit_bytes=t.get("limit_bytes"), ns2=t.get("ns2"),
                           ecn=t.get("ecn"), params=params,
                           device_limit=t.get("device_limit"), bql=t.get("bql"),
                           bql_hold_time=t.get("bql_hold_time"), ns3_run=t.get("ns3_run"))
    # The kind decides which keys are valid, so an unsupported kind is reported first. No kind:
    # the profile's default stack (scenario._default_stack), with DropTail's keys.
    kind = None if "kind" not in t else check_kind(t["kind"], QUEUE_KINDS, f"{p}.kind")
    _check_keys(t, queues.known_keys(kind or "droptail"), p)
    ecn = t.get("ecn", t.get("setbit_"))
    params = {k: v for k, v in t.items() if k not in queues.COMMON_KEYS}
    return QueueConfig(kind=kind, limit=t.get("limit"), limit_bytes=t.get("limit_bytes"),
                       ns2=t.get("ns2"), ecn=ecn, params=params,
                       device_limit=t.get("device_limit"), bql=t.get("bql"),
                       bql_hold_time=t.get("bql_hold_time"), ns3_run=t.get("ns3_run"),
                       classes=t.get("classes") or [],
                       diffserv=t.get("diffserv"))


def loss_model(t: Mapping[str, Any], p: str) -> LossConfig:
    """A ``loss = { kind = ..., ... }`` table as a LossConfig; ``p`` is its key path."""
    if not isinstance(t, Mapping):
        raise ScenarioError(f'expected a table like {{ kind = "bernoulli", p = 0.01 }}, got'
                            f" {quote(t)}", path=p)
    kind = check_kind(_required(t, "kind", p), LOSS_KINDS, f"{p}.kind")
    _check_keys(t, _LOSS_KEYS[kind], p)
    return loss_from_table(kind, t)


_NO_APP = object()
# The keys of a flow's table that are TCP parameters (or their ns-2 names), variant, cc and
# sink apart: a flow whose table has none of them has no TCP parameters of its own.
_TCP_KEYS = frozenset(k for k in (*TCP_PARAMS, *TCP_ALIASES) if canonical_tcp_key(k) is not None
                      and k not in ("variant", "cc", "sink"))


def _flow(t: Mapping[str, Any], p: str,
          apps: dict[int, tuple[Any, AnyApp]] | None = None) -> Flow:
    if not _FLOW_KEY_SET.issuperset(t):
        _check_keys(t, _FLOW_KEYS, p)
    kind = t["kind"] if "kind" in t else _required(t, "kind", p)
    if kind not in FLOW_KINDS:
        raise ScenarioError(
            f"expected one of {', '.join(quote(k) for k in FLOW_KINDS)}, got {quote(kind)}",
            path=f"{p}.kind",
        )
    tcp = {} if _TCP_KEYS.isdisjoint(t) else {k: v for k, v in t.items() if k in _TCP_KEYS}
    header_size = None
    if kind == "udp":
        for key in [k for k in tcp if canonical_tcp_key(k) == "header_size"]:
            header_size = tcp.pop(key)
    # With `apps` (build_scenario's share), the flows whose app table is one object get one
    # application object (as do the TCP flows without one).
    table = t["app"] if "app" in t else _NO_APP
    known = (None if apps is None or (table is _NO_APP and kind == "udp")
             else apps.get(id(table)))
    if known is not None:
        app = known[1]
    else:
        if "app" in t or kind == "udp":
            app = _app(_table(t, "app", f"{p}.app", required=True), f"{p}.app")
        else:
            app = Ftp()  # a TCP or TFRC flow without app: an endless FTP transfer from 0 s
        if apps is not None and (table is _NO_APP or type(table) is dict):
            apps[id(table)] = (table, app)
    try:
        name, from_, to = t["name"], t["from"], t["to"]
    except KeyError:  # the first missing one, named
        name, from_, to = (_required(t, k, p) for k in ("name", "from", "to"))
    return Flow(
        name=name,
        kind=kind,
        from_=from_,
        to=to,
        variant=t.get("variant"),
        cc=t.get("cc"),
        sink=t.get("sink"),
        tcp=tcp,
        header_size=header_size,
        app=app,
        trace=t.get("trace"),
        fid=t.get("fid", t.get("fid_")),
        priority=t.get("priority"),
        two_way=t.get("two_way"),
        tfrc=t.get("tfrc"),
        rap=t.get("rap"),
        origin=p,
    )


def _app(t: Mapping[str, Any], p: str) -> AnyApp:
    kind = check_kind(_required(t, "kind", p), APP_KINDS, f"{p}.kind")
    _check_keys(t, _APP_KEYS[kind], p)
    table = {k: v for k, v in t.items() if k not in ("kind", "random_")}
    if kind == "cbr":
        random = t.get("random", t.get("random_"))
        if isinstance(random, int) and not isinstance(random, bool) and random in (0, 1):
            random = bool(random)  # ns-2 writes random_ 1
        table["random"] = random
        after = t.get("after_connect")
        if isinstance(after, int) and not isinstance(after, bool) and after in (0, 1):
            table["after_connect"] = bool(after)
    return from_table(kind, table)


def _table(
    parent: Mapping[str, Any], key: str, path: str, required: bool = False
) -> Mapping[str, Any]:
    if key not in parent:
        if required:
            raise ScenarioError("missing table", path=path)
        return {}
    value = parent[key]
    if not isinstance(value, dict):
        raise ScenarioError(f"expected a table, got {quote(value)}", path=path)
    return value


def _required(table: Mapping[str, Any], key: str, path: str) -> Any:
    if key not in table:
        raise ScenarioError("missing required key", path=f"{path}.{key}")
    return table[key]


# Each list of allowed keys as a set (a few dozen lists: one per table and kind).
_KEY_SETS: dict[tuple[str, ...], frozenset[str]] = {}


def _check_keys(table: Mapping[str, Any], allowed: Sequence[str], path: str) -> None:
    names = allowed if type(allowed) is tuple else tuple(allowed)
    known = _KEY_SETS.get(names)
    if known is None:
        known = _KEY_SETS[names] = frozenset(names)
    if known.issuperset(table):
        return
    for key in table:
        if key not in allowed:
            import difflib

            hint = difflib.get_close_matches(key, allowed, n=1)
            suggestion = f" (did you mean {quote(hint[0])}?)" if hint else ""
            raise ScenarioError(
                f"unknown key{suggestion}; expected one of {', '.join(allowed)}",
                path=f"{path}.{key}" if path else key,
            )
