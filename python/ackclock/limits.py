"""Up-front estimates of a run's memory, checked against a limit before the engine builds it.

A scenario that cannot fit (a million-flow dumbbell, a large mesh's routing tables, millions of
Tmix connections, a long trace) is refused with one line naming what takes the memory and how to
raise the limit, instead of the engine's allocation failing (an abort) or the OOM killer
ending the process. The limit is ``ACKCLOCK_MAX_MEMORY`` (a size: ``"64GB"``; the command
line's ``--max-memory`` sets it), by default the memory available now (``MemAvailable`` of
/proc/meminfo, else the physical memory). See docs/reliability.md, "Resource guards".
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping
from operator import methodcaller
from typing import Any

from .errors import ScenarioError

ENV = "ACKCLOCK_MAX_MEMORY"

# Bytes per item, upper estimates of the engine's structures (crates/ackclock-core):
# the routing table (a next-hop link id of 4 bytes per node and destination tree:
# net/routing.rs), a flow's sender, receiver, scoreboard and counters,
# a link direction's queue, line and counters, a Tmix connection and each of its ADUs, a
# trace record, a time-series row (trace/sampler.rs), and the engine and interpreter themselves.
# A flow and a link direction as benchmarks/memory_costs.py measures them (the whole
# command's peak memory per extra entry, engine, document and result tables; 2026-11-26):
# 5.4 kB per flow, 1.8 kB per link direction (3.7 kB per router of a chain, two directions
# and a node), 11.9 kB per flow of a dumbbell with its own hosts (a flow, four directions);
# these are about 1.5 times that, for the packets a flow holds in longer runs. A Tmix
# connection (437 bytes) and an ADU (108 bytes) are 1.5 times the measure too (2026-11-28,
# after the vectors went to the engine as columns without JSON text: 291 and 72 bytes, from
# the families of 2 and of 20 ADUs; docs/performance.md, "Tmix without the document's
# text"), which is above what seed 003's replays hold (its study shape, 6.52 million
# connections of 5 ADUs: 3.19 GB measured, 6.4 GB by these).
ROUTE_ENTRY = 4
FLOW = 8 * 1024
LINK_DIRECTION = 3 * 1024
TMIX_CONNECTION = 437
TMIX_ADU = 108
TRACE_RECORD = 32
SAMPLE_ROW = 96
BASE = 64 * 1024 * 1024


def _size(n: float) -> str:
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n:.0f} B"


def memory_limit() -> tuple[int, str]:
    """The limit in bytes and where it comes from (for the message)."""
    text = os.environ.get(ENV)
    if text:
        from .units import parse_size

        try:
            return parse_size(text.strip(), ENV), f"the limit {ENV}={text.strip()}"
        except ScenarioError as e:
            raise ScenarioError(e.message, path=f"{ENV} (or --max-memory)") from None
    try:
        with open("/proc/meminfo", "rb") as f:
            for line in f:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024, "the memory available"
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"), "the physical memory"
    except (OSError, ValueError, AttributeError):
        return 1 << 62, "no limit"


_SEVERAL = object()


def estimate(doc: Mapping[str, Any]) -> list[tuple[int, str, str]]:
    """(bytes, key, what) for each large part of a resolved scenario's engine state."""
    nodes = len(doc.get("nodes", []))
    flows = doc.get("flows", [])
    links = doc.get("links", [])
    dests = set()
    for f in flows:
        dest, src = f.get("to"), f.get("from")
        dests.add(dest if isinstance(dest, (int, str)) else id(f))
        if f.get("kind") == "tcp":
            dests.add(src if isinstance(src, (int, str)) else -id(f))
    upstream: dict[Any, Any] = {}
    # ("topology": the links of a scenario not resolved yet, checked before it is resolved.)
    directions = len(links)
    for link in doc.get("topology", links):
        if isinstance(link, Mapping):
            a, b = link.get("from"), link.get("to")
            if not isinstance(a, (int, str)) or not isinstance(b, (int, str)):
                continue  # a malformed endpoint, reported when the links are resolved
            # A resolved document lists directions; a scenario file's link is duplex unless
            # it says otherwise.
            both = "rate_bps" not in link and link.get("duplex", True) is not False
            if not links:
                directions += 2 if both else 1
            for x, y in ((a, b), (b, a)) if both else ((a, b),):
                upstream[y] = x if upstream.get(y, x) == x else _SEVERAL
    return [*_parts(nodes, dests, upstream, len(flows), directions), *_extras(doc)]


def _parts(nodes: int, dests: set[Any], upstream: Mapping[Any, Any], flows: int,
           directions: int) -> list[tuple[int, str, str]]:
    """The routing tables, the flows and the link directions. A destination whose incoming
    links all come from one node shares that node's tree (net/routing.rs): one table column
    per tree."""
    trees = {upstream.get(d, d) if upstream.get(d, _SEVERAL) is not _SEVERAL else d
             for d in dests}
    return [
        (ROUTE_ENTRY * nodes * len(trees), "node",
         f"routing tables ({nodes:,} nodes x {len(trees):,} trees)"),
        (FLOW * flows, "flow", f"{flows:,} flows"),
        (LINK_DIRECTION * directions, "link", f"{directions:,} link directions"),
    ]


def _extras(doc: Mapping[str, Any]) -> list[tuple[int, str, str]]:
    """Tmix connection vectors, trace records to replay, time-series rows."""
    flows = doc.get("flows", [])
    parts = []
    tmix = records = 0
    # Each distinct application table once, times the flows that share it.
    apps = list(map(methodcaller("get", "app"), flows))
    ids = list(map(id, apps))
    tables = dict(zip(ids, apps, strict=True))
    for key, n in Counter(ids).items():
        app = tables[key] or {}
        conns = app.get("connections")
        if isinstance(conns, Mapping):
            tmix += n * (TMIX_CONNECTION * len(conns.get("start_ps", ()))
                         + TMIX_ADU * len(conns.get("adu_bytes", ())))
        if isinstance(app.get("records"), list):
            records += n * TRACE_RECORD * len(app["records"])
    if tmix:
        parts.append((tmix, "flow.app.file", "Tmix connection vectors"))
    if records:
        parts.append((records, "flow.app.file", "trace records to replay"))
    run = doc.get("run", {})
    interval = run.get("sample_interval_ps")
    if interval:
        links = doc.get("links", [])
        rows = (run["duration_ps"] // interval + 1) * (len(flows) + 2 * len(links))
        parts.append((SAMPLE_ROW * rows, "run.sample_interval", f"{rows:,} time-series rows"))
    return parts


def check_topology(nodes: int, flows: Iterable[Any], links: Iterable[Any]
                   ) -> tuple[int, str, str] | None:
    """The check of :func:`check_memory` from a scenario's names alone, before it is
    resolved (a large network's routing tables are refused before they are built):
    ``flows`` and ``links`` are its Flow and Link models. Returns the routing tables' part
    for :func:`check_resolved` (None for a malformed scenario: its own checks follow)."""
    try:
        flows = list(flows)
        dests = set()
        for f in flows:
            dest, src = f.to, f.from_
            dests.add(dest if isinstance(dest, (int, str)) else id(f))
            if f.kind == "tcp":
                dests.add(src if isinstance(src, (int, str)) else -id(f))
        upstream: dict[Any, Any] = {}
        directions = 0
        for link in links:
            a, b = link.from_, link.to
            if not isinstance(a, (int, str)) or not isinstance(b, (int, str)):
                continue  # reported when the links are resolved
            # As estimate's loop over each direction (x, y): y's upstream is x, or several.
            upstream[b] = a if upstream.get(b, a) == a else _SEVERAL
            if link.duplex is not False:
                upstream[a] = b if upstream.get(a, b) == b else _SEVERAL
                directions += 2
            else:
                directions += 1
        parts = _parts(nodes, dests, upstream, len(flows), directions)
    except (TypeError, ValueError, AttributeError, KeyError):
        return None
    _check(parts)
    return parts[0]


# The last document checked and its parts, so that a run of the document just resolved does
# not estimate it again (run_document checks too, for a document replayed or built by hand).
_checked: tuple[tuple[Any, ...], list[tuple[int, str, str]]] | None = None


def _identity(doc: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a document's estimate depends on, by identity and length (the objects themselves
    are held, so that their ids stay theirs)."""
    lists = tuple(doc.get(k) for k in ("nodes", "links", "flows"))
    run = doc.get("run")
    return (*lists, *(len(x) if isinstance(x, list) else -1 for x in lists), run,
            run.get("duration_ps") if isinstance(run, dict) else None,
            run.get("sample_interval_ps") if isinstance(run, dict) else None)


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return len(a) == len(b) and all(x is y or (type(x) is int and x == y)
                                    for x, y in zip(a, b, strict=True))


def check_resolved(doc: Mapping[str, Any], routes: tuple[int, str, str] | None) -> None:
    """:func:`check_memory` of a document just resolved, whose routing tables'
    :func:`check_topology` estimated from the names (the same graph): only the flows (two-way
    connections add their reply's), link directions and what the applications and sampling
    hold are counted again."""
    global _checked
    if routes is None:
        check_memory(doc)
        return
    try:
        flows, links = len(doc["flows"]), len(doc["links"])
        parts = [routes, (FLOW * flows, "flow", f"{flows:,} flows"),
                 (LINK_DIRECTION * links, "link", f"{links:,} link directions"),
                 *_extras(doc)]
    except (TypeError, ValueError, AttributeError, KeyError):
        return
    _check(parts)
    _checked = (_identity(doc), parts)


def check_memory(doc: Mapping[str, Any]) -> None:
    """Raises ScenarioError when the estimate exceeds the limit, naming the largest part."""
    global _checked
    try:
        key = _identity(doc)
        if _checked is not None and _same(key, _checked[0]):
            parts = _checked[1]  # the document just resolved: its lists as they were
        else:
            parts = estimate(doc)
            _checked = (key, parts)
    except (TypeError, ValueError, AttributeError, KeyError):
        # A malformed document (names that are lists...): the checks after this one name
        # what is wrong; an estimate must not fail first with a traceback.
        return
    _check(parts)


def _check(parts: list[tuple[int, str, str]]) -> None:
    total = BASE + sum(p[0] for p in parts)
    limit, source = memory_limit()
    if total <= limit:
        return
    largest = max(parts, key=lambda p: p[0])
    raise ScenarioError(
        f"the run would need about {_size(total)} of memory, {_size(largest[0])} of it for"
        f" {largest[2]}, more than {source} ({_size(limit)}); make the scenario smaller or"
        f" raise the limit with --max-memory SIZE (or {ENV})", path=largest[1])
