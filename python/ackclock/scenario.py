"""The scenario model every front end builds, and its resolution into the engine's document.

The model keeps values as the user wrote them ("10Mb/s", "29ms", { uniform = [...] }), so that
error messages can quote them and a scenario can be written back out. :func:`resolve` checks
everything and converts it into the JSON document of ``docs/engine-contract.md``: names become
indices, units become integers, profile defaults are filled in, duplex links become two
directions.
"""

from __future__ import annotations

import gc
import math
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from . import queues
from .apps import APPS, AnyApp, Cbr, Ftp, OnOff, Replay, Tmix
from .errors import ScenarioError, quote
from .profiles import (
    CC_ALIASES,
    CC_NS3_ALIASES,
    CC_PARAMS,
    TCP_CHOICES,
    TCP_PARAMS,
    Profile,
    canonical_cc,
    get_profile,
    normalize_tcp_params,
)
from .schema import (
    APP_KINDS as APP_KINDS,
)
from .schema import (
    DISTRIBUTIONS as DISTRIBUTIONS,
)
from .schema import (
    EXCHANGES as EXCHANGES,
)
from .schema import (
    FLOW_KINDS as FLOW_KINDS,
)
from .schema import (
    LOSS_KINDS as LOSS_KINDS,
)
from .schema import (
    QUEUE_KINDS as QUEUE_KINDS,
)
from .schema import (
    RAP,
    ROUTINGS,
    TFRC,
    TIES,
    Key,
)
from .schema import (
    TRACE_EVENTS as TRACE_EVENTS,
)
from .schema import (
    TRACE_FORMATS as TRACE_FORMATS,
)
from .schema import (
    TRACEABLE as TRACEABLE,
)
from .units import PS_PER_S, parse_int, parse_rate, parse_size, parse_time

if TYPE_CHECKING:
    from .custom import QueueDiscipline

# What each key takes as the user writes it (schema.py describes each; resolve() checks them):
# a time "29ms" or seconds, a rate "10Mb/s" or bit/s, a size "64KB" or bytes, a time or a
# distribution table ({ uniform = ["0s", "1s"] }).
Time = str | int | float
Rate = str | int | float
Size = str | int
When = Time | Mapping[str, Any]
Names = str | list[str]

# The kinds each `kind` key takes are the schema's (re-exported above: front ends import them
# from here).
_U32 = 2**32
_U64 = 2**64
# The types copy.deepcopy gives back as they are.
_ATOMIC = frozenset({str, int, float, bool, type(None)})
# A dataclass's field names in its __init__'s order, a getter of them all (one tuple), and
# whether it is frozen: what both copiers read of an entry class (_fields).
_FIELDS: dict[type, tuple[tuple[str, ...], Any, bool]] = {}


def _fields(cls: type) -> tuple[tuple[str, ...], Any, bool]:
    """``cls``'s field names, a getter of them all and whether it is frozen, found once."""
    known = _FIELDS.get(cls)
    if known is None:
        import dataclasses
        import operator

        names = tuple(f.name for f in dataclasses.fields(cls))
        known = _FIELDS[cls] = (names, operator.attrgetter(*names),
                                cls.__dataclass_params__.frozen)  # type: ignore[attr-defined]
    return known


def _deepcopy_slots(self: Any, memo: dict[int, Any]) -> Any:
    """``copy.deepcopy`` of an entry (a slotted dataclass: Node, Link, Flow, QueueConfig, an
    application): the same copy as the standard library's (each field deep-copied, through
    ``memo``), without its generic path per object (``Network.scenario`` copies every entry:
    most of a sweep point's cost for a function building 50 flows; 10 000 flows: 70 000
    entries). The fields are read in one call and set by the class's own ``__init__``."""
    cls = type(self)
    names, getter, frozen = _fields(cls)
    values = getter(self)
    if len(names) == 1:
        values = (values,)
    if frozen and all(type(v) in _ATOMIC for v in values):
        # Immutable throughout (a node, most flows' applications): itself is as good as a copy.
        memo[id(self)] = self
        return self
    new = object.__new__(cls)
    memo[id(self)] = new  # before the fields: a field that holds the entry gets the copy
    cls.__init__(new, *[v if type(v) in _ATOMIC else copy_entry(v, memo) for v in values])
    return new


def copy_entry(value: Any, memo: dict[int, Any]) -> Any:
    """``copy.deepcopy(value, memo)`` of an entry or one of its values, without the generic
    path for the ones most entries hold: another entry (a link's queue), an empty dict or list
    (most entries' `tcp`, `params`, `classes`). ``value`` is held by an entry that outlives
    the copy, so its id is not reused meanwhile (deepcopy keeps it alive for that)."""
    new = memo.get(id(value))
    if new is not None:
        return new
    t = type(value)
    if t.__dict__.get("__deepcopy__") is _deepcopy_slots:
        return _deepcopy_slots(value, memo)
    if (t is dict or t is list) and not value:
        new = memo[id(value)] = t()
        return new
    from copy import deepcopy

    return deepcopy(value, memo)


def copy_entries(entries: list[Any], memo: dict[int, Any]) -> list[Any]:
    """``[copy_entry(e, memo) for e in entries]`` by the engine's copier (``_core.copy_entries``:
    the entry classes, dicts and lists copied without a Python call each; a 10 000-flow
    dumbbell's 50 000 entries: 0.18 -> 0.08 s), which reads each class's facts in _FIELDS."""
    from ._core import copy_entries as fast

    for cls in _ENTRY_CLASSES:
        _fields(cls)
    return fast(entries, memo, _FIELDS, copy_entry)


# The rules a resolved scenario follows (resource guards included) are the engine's
# (scenario/validate.rs): resolve() asks them through rules.check, after the user's words are
# read into the document here.
# At most this many nodes, links, flows or traces (the same bound as `count = N` copies).
MAX_ENTRIES = 1_000_000


@dataclass
class RunConfig:
    """The ``[run]`` table: how long, which seed, what to sample and check."""

    duration: Time
    warmup: Time = "0s"
    seed: int = 1
    sample_interval: Time | None = None  # None: no time series
    # Reliability (docs/reliability.md): run the invariant checker; stop cleanly after this
    # many events / with more than this many packets held in the network.
    check: bool = False
    max_events: int | None = None
    max_packets: int | None = None
    # Among equal-cost shortest paths: "shortest" (the first declared link), "ecmp" (per
    # flow, by a hash) or "ns2" (ns-2.35's RouteLogic::compute_routes: the lowest-numbered
    # node).
    routing: str = "shortest"
    # Events of one exact instant: "insertion" (the order they were scheduled) or "ns2"
    # (ns-2.35's order: its double-valued event times, then its scheduling order).
    ties: str = "insertion"


# Frozen: a network's snapshot (Network.scenario) shares its nodes. No attribute dict per
# entry (10 000 flows: 40 000 links).
@dataclass(frozen=True, slots=True)
class Node:
    """A ``[[node]]``: a host or router, known by its name."""

    __deepcopy__ = _deepcopy_slots

    name: str
    # Where the entry came from ("node[3]"), for error messages; None: its list position.
    origin: str | None = field(default=None, compare=False, repr=False)


@dataclass(slots=True)
class QueueConfig:
    """A link's ``queue = { ... }``: the discipline, its limit and its own keys."""

    __deepcopy__ = _deepcopy_slots

    # A registry name, or a discipline written in Python: "module:Class", a QueueDiscipline
    # subclass or instance; None (not given): the profile's default stack (a DropTail of
    # `limit` packets, or under the ns3 profile FqCoDel above a device queue of `limit`).
    kind: str | type[QueueDiscipline] | QueueDiscipline | None = None
    limit: int | None = None  # packets; None with limit_bytes None: unlimited
    limit_bytes: Size | None = None
    ns2: bool | None = None  # ns-2 DropTail accounting; None: the profile decides
    ecn: bool | None = None  # mark ECN-capable packets instead of dropping them early
    # A device queue of this many packets below the discipline (ns-3's traffic-control layer);
    # None: the discipline feeds the line.
    device_limit: int | None = None
    bql: bool | None = None  # byte queue limits on the device queue (needs device_limit)
    # BQL's hold time (ns-3's DynamicQueueLimits::HoldTime); None: 1 s, ns-3's and Linux's.
    bql_hold_time: Time | None = None
    # The transmit loop above the device queue as ns-3.44's QueueDisc::Run (it stops when the
    # discipline empties; a wake runs it even then); None: the profile's (Profile.ns3_run).
    ns3_run: bool | None = None
    # The discipline's own keys (queues.SPECS), as given: { max_thresh = 20 }.
    params: dict[str, Any] = field(default_factory=dict)
    # A cbq queue's class tree (docs/models/cbq.md): one table per class, in the order the
    # scheduler's round robin follows.
    classes: list[dict[str, Any]] = field(default_factory=list)
    # A dsred queue's tables (docs/models/diffserv.md), as the engine takes them.
    diffserv: dict[str, Any] | None = None


# A loss model on one direction of a link: one class per `kind` with only its own keys
# (schema.LOSS; tests/unit/test_scenario.py holds them to it). None: not given (resolve() fills
# in the default or names a required key missing).
@dataclass(frozen=True, slots=True)
class Bernoulli:
    """Each packet (or, with unit "byte", each byte) lost with probability ``p``."""

    p: float | None = None
    unit: str | None = None  # "packet" (default) or "byte"
    kind: ClassVar[str] = "bernoulli"


@dataclass(frozen=True, slots=True)
class GilbertElliott:
    """Two states with their own loss probabilities (0 and 1 by default), changing per packet."""

    p_good_bad: float | None = None
    p_bad_good: float | None = None
    loss_good: float | None = None
    loss_bad: float | None = None
    kind: ClassVar[str] = "gilbert_elliott"


@dataclass(frozen=True, slots=True)
class Periodic:
    """Of every ``period`` packets, ``burst`` (default 1) from ``offset`` (default 0) are lost."""

    period: int | None = None
    offset: int | None = None
    burst: int | None = None
    mark_ecn: bool | None = None
    # Delay the packets this long instead of dropping them (ns-2's delay_pkt_; the ns-2 front
    # end, at a link's entry only).
    delay: Time | None = None
    kind: ClassVar[str] = "periodic"


@dataclass(frozen=True, slots=True)
class DropList:
    """The listed data transmissions of one flow (numbered from 1) are lost."""

    flow: str | None = None
    packets: list[int] | None = None
    # Mark the packets CE and let them pass instead of dropping them (ns-2's markecn_).
    mark_ecn: bool | None = None
    # As Periodic's.
    delay: Time | None = None
    # Take the flow's ACKs crossing the link (numbered from 1 as they reach the model)
    # instead of its data: ns-2's ErrorModule on the ACKs' path.
    acks: bool | None = None
    # Number every packet of the flow's two-way connection crossing the link (both
    # directions' data and ACKs), from 1: ns-2's ErrorModule bound to a FullTcp fid_.
    connection: bool | None = None
    # Number the flow's packets as they reach the model rather than by the sender's count
    # (ns-2's ListErrorModel counts what it is offered).
    counted: bool | None = None
    kind: ClassVar[str] = "drop_list"


LossConfig = Bernoulli | GilbertElliott | Periodic | DropList
LOSS_MODELS: tuple[type[LossConfig], ...] = (Bernoulli, GilbertElliott, Periodic, DropList)
LOSS_BY_KIND: Mapping[str, type[LossConfig]] = {cls.kind: cls for cls in LOSS_MODELS}


def loss_from_table(kind: str, table: Mapping[str, Any]) -> LossConfig:
    """The loss model of ``kind`` (one of schema.LOSS_KINDS) with the keys of ``table``, which
    the caller has checked against the schema's key list for ``kind``."""
    return LOSS_BY_KIND[kind](**{k: v for k, v in table.items() if k != "kind"})


@dataclass(slots=True)
class Link:
    """A ``[[link]]`` between two nodes: rate, delay, queue; both directions unless
    ``duplex = false``."""

    __deepcopy__ = _deepcopy_slots

    from_: str
    to: str
    rate: Rate
    delay: Time
    queue: QueueConfig = field(default_factory=QueueConfig)
    duplex: bool = True
    loss: LossConfig | None = None
    # A loss model on the reverse direction (to -> from), where the ACKs of from -> to flows go.
    reverse_loss: LossConfig | None = None
    # Per-flow queue counters on both directions (queue_flows.csv).
    monitor_flows: bool = False
    # `loss` takes packets as they enter the link, before its queue (ns-2's `$ns lossmodel`),
    # not as they leave it (`$ns link-lossmodel`); set by the ns-2 front end.
    loss_at_entry: bool = False
    origin: str | None = field(default=None, compare=False, repr=False)
    # Further loss models at the entry, met after `loss` in this order (ns-2's second
    # `$link errormodule`, placed ahead of the first: the ns-2 front end lists it first);
    # drop_list and periodic only, each numbering what reaches it. Set by the ns-2 front end.
    loss_behind: list[LossConfig] | None = None


@dataclass(slots=True)
class Flow:
    """A ``[[flow]]``: a TCP connection or a UDP stream from one node to another."""

    __deepcopy__ = _deepcopy_slots

    name: str
    kind: str = "tcp"
    from_: str = ""
    to: str = ""
    variant: str | None = None  # None: [defaults.tcp], then the profile
    cc: str | None = None
    sink: str | None = None
    tcp: dict[str, Any] = field(default_factory=dict)  # canonical TCP parameter names
    header_size: Size | None = None  # UDP only; None: the profile's
    # Its application, one class per kind (apps.py); a TCP flow's default: an endless FTP.
    app: AnyApp = field(default_factory=Ftp)
    # TCP variables traced on every change (tcp_trace.csv); True: all of them.
    trace: bool | Names | None = None
    # ns-2 fid_: the flow id in packet traces; None: the flow's index.
    fid: int | None = None
    # Its packets' priority, 0..15 (Linux's skb->priority, ns-3's SocketPriorityTag), which
    # prio and pfifo_fast queues map to a band; None: 0.
    priority: int | None = None
    # ns-2 port numbers [sender, receiver] in packet traces (the ns-2 front end numbers agents
    # in the order the script attaches them); None: the engine numbers them flow by flow.
    ports: list[int] | None = None
    # A two-way TCP connection (docs/full-tcp.md): data back from `to` in a flow "NAME.reply".
    two_way: bool | None = None
    # A tfrc flow's parameters (schema.TFRC; docs/tfrc.md); None: ns-2.35's defaults.
    tfrc: dict[str, Any] | None = None
    # A rap flow's parameters (schema.RAP; docs/models/rap.md); None: ns-2.35's defaults.
    rap: dict[str, Any] | None = None
    origin: str | None = field(default=None, compare=False, repr=False)


# The classes the engine's copier (copy_entries) copies field by field.
_ENTRY_CLASSES: tuple[type, ...] = (Node, QueueConfig, Link, Flow, *APPS)


@dataclass
class PacketTrace:
    """A packet trace file (docs/traces.md): ns-2 lines or pcap frames."""

    format: str = "ns2"
    file: str = ""
    links: Names | None = None  # link directions "from->to"; None (and no nodes): every link
    nodes: Names | None = None  # pcap only: capture at these nodes
    # ns2 only: events to record ("+", "-", "r", "d", "lost"); None: all.
    events: Names | None = None
    # ns2 front end only: link directions whose loss-model drops this trace leaves out.
    lost_untraced: list[str] | None = None
    # ns2 front end only: link directions where this trace's "+" comes before the loss model
    # at the link's entry (ns-2: trace-queue after the link's errormodule).
    ahead_of_loss: list[str] | None = None
    # ns2 only: append ackno, flags, hlen and SACK blocks (ns-2's show_tcphdr_).
    tcp_header: bool | None = None
    origin: str | None = field(default=None, compare=False, repr=False)


@dataclass
class Scenario:
    """A whole scenario, as a scenario file or :class:`ackclock.Network` describes it."""

    name: str
    profile: str
    run: RunConfig
    defaults_tcp: dict[str, Any] = field(default_factory=dict)
    nodes: list[Node] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    flows: list[Flow] = field(default_factory=list)
    traces: list[PacketTrace] = field(default_factory=list)
    # The file the scenario came from, named in error messages; None for the Python API.
    source: str | None = field(default=None, compare=False)
    # Quick-Start routers (RFC 4782; docs/quick-start.md): ``rate_function`` and ``routers``,
    # each a table with ``node`` (a name) and the router's parameters.
    quick_start: dict[str, Any] | None = None


def resolve(scenario: Scenario) -> dict[str, Any]:
    """The engine's document for ``scenario`` (see docs/engine-contract.md).

    Raises ScenarioError naming the file (if any), the key path and what was expected.
    """
    if not isinstance(scenario, Scenario):
        raise ScenarioError(f"expected a Scenario (from load_scenario or Network.scenario),"
                            f" got {type(scenario).__name__}", path="resolve")
    try:
        return _resolve(scenario, share=False)
    except ScenarioError as e:
        e.in_file(scenario.source)
        raise


def resolve_shared(scenario: Scenario, engine_rules: bool = True,
                   boot_per_flow: bool = False) -> dict[str, Any]:
    """:func:`resolve`, with the tables that come out the same shared instead of copied: the
    TCP parameters of the flows of one table, the queue of the link directions of one table
    (10 000 flows: some 20 MB less). For a document that goes to the engine and into
    summary.json unchanged (the command line's, a sweep's), not for one a user changes.

    ``engine_rules=False`` leaves the engine's rules to the engine building the run, which
    checks them anyway (10 000 flows: 0.1 s less); the caller then names a rejection in the
    scenario's words by resolving again with them (the command line's ``run``).

    ``boot_per_flow=True`` puts a flow's own ``ns2_boot_time`` beside its TCP table, as the
    flow's ``ns2_boot_time_ps`` (docs/engine-contract.md), not into a copy of the table: an
    ns-2 script's agents each draw their own (ns2/agents.py), and their 10 000 flows then
    share one table. Only for a document that goes to the engine alone (``ackclock ns2``'s):
    summary.json records each flow's time in its ``tcp``."""
    if not isinstance(scenario, Scenario):
        return resolve(scenario)
    try:
        return _resolve(scenario, share=True, engine_rules=engine_rules,
                        boot_per_flow=boot_per_flow)
    except ScenarioError as e:
        e.in_file(scenario.source)
        raise


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector waits while a scenario is resolved: resolving makes
    hundreds of thousands of tables and none of them cyclic, which it would pass over again
    and again (10 000 flows: about a fifth of the time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _resolve(sc: Scenario, share: bool, engine_rules: bool = True,
             boot_per_flow: bool = False) -> dict[str, Any]:
    if not isinstance(sc.name, str) or not sc.name:
        raise ScenarioError(f"expected a non-empty string, got {quote(sc.name)}", path="name")
    for what, entries in (("node", sc.nodes), ("link", sc.links), ("flow", sc.flows),
                          ("trace", sc.traces)):
        if not isinstance(entries, list):
            raise ScenarioError(f"expected a list, got {quote(entries)}", path=what)
        if len(entries) > MAX_ENTRIES:
            raise ScenarioError(f"{len(entries)} entries, more than {MAX_ENTRIES}", path=what)
    profile = get_profile(sc.profile)
    run = _run(sc.run)
    from .limits import check_resolved, check_topology

    # The routing tables first, from the names alone: before a large network is resolved.
    routes = check_topology(len(sc.nodes), (f for f in sc.flows if isinstance(f, Flow)),
                            (x for x in sc.links if isinstance(x, Link)))
    nodes = _nodes(sc.nodes)
    links = _links(sc.links, nodes, profile, flow_names(sc.flows), share)
    defaults = normalize_tcp_params(sc.defaults_tcp, "defaults.tcp")
    # Files a scenario names (traces) are relative to the scenario file.
    base_dir = Path(sc.source).parent if sc.source else None
    flows = _flows(sc.flows, nodes, profile, defaults, base_dir, share, boot_per_flow)
    doc = {
        "name": sc.name,
        "profile": profile.name,
        "run": run,
        "nodes": list(nodes),
        "links": links,
        "flows": flows,
    }
    if sc.traces:
        doc["traces"] = _traces(sc.traces, nodes, links)
    if sc.quick_start is not None:
        doc["quick_start"] = _quick_start(sc.quick_start, nodes)
    if engine_rules:
        from .rules import check

        check(doc, sc)  # the engine's rules, named back in the scenario's words
    check_resolved(doc, routes)
    return doc


_QS_ROUTER_KEYS = ("node", "enabled", "algorithm", "alloc_rate", "threshold", "max_rate",
                   "state_delay", "util_weight", "util_interval", "util_records")


def _quick_start(qs: Mapping[str, Any], nodes: Mapping[str, int]) -> dict[str, Any]:
    """The engine's ``quick_start`` (routers by node index, times in ps) from the scenario's
    ``[quick_start]``: ``rate_function`` and ``[[quick_start.router]]`` tables."""
    if not isinstance(qs, Mapping):
        raise ScenarioError(f"expected a table, got {quote(qs)}", path="quick_start")
    for k in qs:
        if k not in ("rate_function", "router"):
            raise ScenarioError(f"unknown key {quote(k)} (rate_function, router)",
                                path="quick_start")
    out: dict[str, Any] = {}
    if "rate_function" in qs:
        rf = qs["rate_function"]
        if rf not in ("linear", "exponential"):
            raise ScenarioError(f"expected \"linear\" or \"exponential\", got {quote(rf)}",
                                path="quick_start.rate_function")
        out["rate_function"] = rf
    routers = []
    for i, r in enumerate(qs.get("router", [])):
        p = f"quick_start.router[{i}]"
        if not isinstance(r, Mapping):
            raise ScenarioError(f"expected a table, got {quote(r)}", path=p)
        for k in r:
            if k not in _QS_ROUTER_KEYS:
                raise ScenarioError(f"unknown key {quote(k)} ({', '.join(_QS_ROUTER_KEYS)})",
                                    path=p)
        name = r.get("node")
        if not isinstance(name, str) or name not in nodes:
            raise ScenarioError(f"no node named {quote(name)}", path=f"{p}.node")
        d: dict[str, Any] = {"node": nodes[name]}
        for k in ("enabled", "algorithm", "alloc_rate", "threshold", "max_rate",
                  "util_weight", "util_records"):
            if k in r:
                d[k] = r[k]
        for k in ("state_delay", "util_interval"):
            if k in r:
                d[k + "_ps"] = parse_time(r[k], f"{p}.{k}")
        routers.append(d)
    out["routers"] = routers
    return out


def _traces(traces: list[PacketTrace], nodes: Mapping[str, int],
            links: list[dict[str, Any]]) -> list[dict[str, Any]]:
    names = list(nodes)
    by_name = {f"{names[x['from']]}->{names[x['to']]}": i for i, x in enumerate(links)}
    out: list[dict[str, Any]] = []
    files: dict[str, str] = {}
    for i, t in enumerate(traces):
        p = t.origin or f"trace[{i}]"
        if t.format not in TRACE_FORMATS:
            raise ScenarioError(
                f"expected one of {', '.join(quote(f) for f in TRACE_FORMATS)},"
                f" got {quote(t.format)}", path=f"{p}.format")
        check_output_path(t.file, f"{p}.file")
        if t.file in files:
            raise ScenarioError(f"{quote(t.file)} is already written by {files[t.file]}",
                                path=f"{p}.file")
        for other, q in files.items():
            if other.startswith(t.file + "/") or t.file.startswith(other + "/"):
                raise ScenarioError(f"{quote(t.file)} and {quote(other)} ({q}) cannot both be"
                                    " files: one is inside the other", path=f"{p}.file")
        files[t.file] = p
        link_ids = []
        for j, name in enumerate(_name_list(t.links, f"{p}.links")):
            key = name.replace(" ", "")
            if key not in by_name:
                raise ScenarioError(
                    f"no link direction {quote(name)}; expected \"from->to\", one of"
                    f" {_listing(by_name)}", path=f"{p}.links[{j}]")
            link_ids.append(by_name[key])
        node_ids = [_node_ref(n, nodes, f"{p}.nodes[{j}]")
                    for j, n in enumerate(_name_list(t.nodes, f"{p}.nodes"))]
        events = _name_list(t.events, f"{p}.events")
        for j, e in enumerate(events):
            if e not in TRACE_EVENTS:
                raise ScenarioError(f"expected one of {', '.join(quote(x) for x in TRACE_EVENTS)},"
                                    f" got {quote(e)}", path=f"{p}.events[{j}]")
        if events and t.format != "ns2":
            raise ScenarioError("only an ns2 trace selects events", path=f"{p}.events")
        entry: dict[str, Any] = {"format": t.format, "path": t.file, "links": link_ids,
                                 "nodes": node_ids}
        if events:
            entry["events"] = events
        if t.lost_untraced:
            entry["lost_untraced"] = [by_name[n] for n in t.lost_untraced]
        if t.ahead_of_loss:
            entry["ahead_of_loss"] = [by_name[n] for n in t.ahead_of_loss]
        if _flag(t.tcp_header, False, f"{p}.tcp_header"):
            if t.format != "ns2":
                raise ScenarioError("only an ns2 trace adds TCP header columns",
                                    path=f"{p}.tcp_header")
            entry["tcp_header"] = True
        out.append(entry)
    return out


# Names a results folder or a sweep folder uses for itself; no trace may take them.
RESULTS_NAMES = frozenset({"summary.json", "flows.csv", "queues.csv", "timeseries.csv",
                           "queue_timeseries.csv", "tcp_trace.csv", "connections.csv",
                           "flows_detail.csv", "cc_state.csv", "queue_flows.csv",
                           "cwnd.png", "throughput.png", "queue.png", "rtt.png",
                           "runs", "runs.csv", "runs.parquet", "summary.csv"})


def check_output_path(file: Any, path: str) -> str:
    """A file a run writes (a packet trace): a relative path inside the results folder, with
    no ``..``, ``.`` or empty component, not a results file's name; else a ScenarioError."""
    if not isinstance(file, str) or not file:
        raise ScenarioError(f"expected a file name, got {quote(file)}", path=path)
    expected = "a relative path inside the results folder"
    if file.startswith("/") or file.startswith("~") or "\\" in file or "\0" in file:
        raise ScenarioError(f"expected {expected} (no /, ~ or \\ at the start, no \\ or NUL),"
                            f" got {quote(file)}", path=path)
    parts = file.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise ScenarioError(f"expected {expected} (no empty, . or .. component), got"
                            f" {quote(file)}", path=path)
    if any(len(part.encode()) > 255 for part in parts):
        raise ScenarioError(f"a component of {quote(file)} is longer than 255 bytes", path=path)
    if len(file.encode()) > 1024:
        raise ScenarioError(f"expected a path of at most 1024 bytes, got {len(file.encode())}",
                            path=path)
    if parts[0] in RESULTS_NAMES:
        raise ScenarioError(f"{quote(parts[0])} is a results file's name; choose another",
                            path=path)
    if parts[0].startswith(".") and ".ackclock-" in parts[0]:
        raise ScenarioError(f"{quote(parts[0])} is a name ackclock uses for temporary files",
                            path=path)
    return file


def _name_list(value: Any, path: str) -> list[str]:
    if value is None:
        return []
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ScenarioError(f"expected a list of names, got {quote(value)}", path=path)
    return names


def _run(run: RunConfig) -> dict[str, Any]:
    duration = parse_time(run.duration, "run.duration")
    warmup = parse_time(run.warmup, "run.warmup")
    if duration >= _U64:
        raise ScenarioError(f"expected a time below 2^64 ps (213 days), got {quote(run.duration)}",
                            path="run.duration")
    seed = parse_int(run.seed, "run.seed", what="a non-negative integer seed")
    if seed >= _U64:
        raise ScenarioError(f"expected a seed below 2^64, got {quote(seed)}", path="run.seed")
    interval = None
    if run.sample_interval is not None:
        interval = parse_time(run.sample_interval, "run.sample_interval")
    document: dict[str, Any] = {
        "duration_ps": duration,
        "warmup_ps": warmup,
        "seed": seed,
        "sample_interval_ps": interval,
    }
    # Written only when set, so documents (and sweep cache keys) of scenarios that do not
    # use them stay as they were.
    if not isinstance(run.check, bool):
        raise ScenarioError(f"expected true or false, got {quote(run.check)}", path="run.check")
    if run.check:
        document["check"] = True
    for key in ("max_events", "max_packets"):
        value = getattr(run, key)
        if value is not None:
            n = parse_int(value, f"run.{key}", minimum=1, what="a whole number")
            if n >= _U64:
                raise ScenarioError(f"expected a number below 2^64, got {quote(n)}",
                                    path=f"run.{key}")
            document[key] = n
    if run.routing not in ROUTINGS:
        raise ScenarioError(f"expected \"shortest\", \"ecmp\" or \"ns2\", got"
                            f" {quote(run.routing)}", path="run.routing")
    if run.routing != "shortest":
        document["routing"] = run.routing
    if run.ties not in TIES:
        raise ScenarioError(f"expected \"insertion\" or \"ns2\", got {quote(run.ties)}",
                            path="run.ties")
    if run.ties == "ns2":
        document["ties"] = "ns2"
    return document


def _unique_name(name: object, p: str, first: dict[str, str], what: str) -> None:
    """Checks that ``name`` is a non-empty string not used before; records where it was."""
    if not isinstance(name, str) or not name:
        raise ScenarioError(f"expected a non-empty string, got {quote(name)}", path=f"{p}.name")
    if name in first:
        raise ScenarioError(f"duplicate {what} name {quote(name)} (also {first[name]})",
                            path=f"{p}.name")
    first[name] = p


def _nodes(nodes: list[Node]) -> dict[str, int]:
    index: dict[str, int] = {}
    first: dict[str, str] | None = None  # name -> where it was given, once needed
    for i, node in enumerate(nodes):
        name = node.name
        if first is None and type(name) is str and name and name not in index:
            index[name] = i
            continue
        # Not a plain name, or taken: _unique_name decides (and names where it was first
        # given), for this node and the ones after it.
        if first is None:
            first = {n: nodes[j].origin or f"node[{j}]" for n, j in index.items()}
        _unique_name(name, node.origin or f"node[{i}]", first, "node")
        index[name] = i
    return index


def _node_ref(name: object, nodes: Mapping[str, int], path: str) -> int:
    if isinstance(name, str) and name in nodes:
        return nodes[name]
    if not isinstance(name, str) or not name:
        raise ScenarioError(f"expected a node name, got {quote(name)}", path=path)
    import difflib  # only on a mistake: imports are part of every run's start-up

    hint = difflib.get_close_matches(name, list(nodes), n=1)
    known = _listing(nodes)
    suggestion = f" (did you mean {quote(hint[0])}?)" if hint else ""
    raise ScenarioError(f"unknown node {quote(name)}{suggestion}; nodes are {known}", path=path)


def _listing(names: Iterable[str], limit: int = 12) -> str:
    names = list(names)
    if not names:
        return "(none)"
    shown = ", ".join(names[:limit])
    return shown + (f", ... ({len(names)} in all)" if len(names) > limit else "")


_NOTHING = object()


def _links(
    links: list[Link], nodes: Mapping[str, int], profile: Profile, flow_names: list[str],
    share: bool = False,
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    queues_done: dict[Any, dict[str, Any]] = {}
    # (rate, delay) as given -> as resolved: most links have one of a few (a `count = N`
    # table's copies, a script's loop).
    line_done: dict[Any, tuple[float, int]] = {}
    last: tuple[Any, ...] = (_NOTHING, _NOTHING, _NOTHING, None)
    for i, link in enumerate(links):
        p = link.origin or f"link[{i}]"
        a = nodes.get(link.from_) if type(link.from_) is str else None
        if a is None:
            a = _node_ref(link.from_, nodes, f"{p}.from")
        b = nodes.get(link.to) if type(link.to) is str else None
        if b is None:
            b = _node_ref(link.to, nodes, f"{p}.to")
        if link.rate is last[0] and link.delay is last[1] and link.queue is last[2]:
            line = last[3]  # the same objects as the link before (the copies of one table)
        else:
            line_key: tuple[Any, ...] | None = (type(link.rate), link.rate, type(link.delay),
                                                 link.delay)
            try:
                rate_delay = line_done.get(line_key)
            except TypeError:  # a rate or delay that is no scalar: named by its parser below
                rate_delay, line_key = None, None
            if rate_delay is None:
                rate_delay = (float(parse_rate(link.rate, f"{p}.rate")),
                              parse_time(link.delay, f"{p}.delay"))
                if line_key is not None:
                    line_done[line_key] = rate_delay
            line = (*rate_delay, _queue_cached(link.queue, f"{p}.queue", profile, queues_done))
            last = (link.rate, link.delay, link.queue, line)
        rate_bps, delay_ps, queue = line
        if not isinstance(link.duplex, bool):
            raise ScenarioError(f"expected true or false, got {quote(link.duplex)}",
                                path=f"{p}.duplex")
        loss = None if link.loss is None else _loss(link.loss, f"{p}.loss", flow_names)
        reverse = None if link.reverse_loss is None else _loss(
            link.reverse_loss, f"{p}.reverse_loss", flow_names)
        if reverse is not None and not link.duplex:
            raise ScenarioError("a link with duplex = false has no reverse direction",
                                path=f"{p}.reverse_loss")
        if not isinstance(link.monitor_flows, bool):
            raise ScenarioError(f"expected true or false, got {quote(link.monitor_flows)}",
                                path=f"{p}.monitor_flows")
        # `loss` sits on the data direction, `reverse_loss` on the other (the ACKs' of flows
        # from -> to) (docs/scenario-files.md).
        directions = [(a, b, loss), (b, a, reverse)] if link.duplex else [(a, b, loss)]
        for x, y, direction_loss in directions:
            direction = {"from": x, "to": y, "rate_bps": rate_bps, "delay_ps": delay_ps,
                         "queue": queue if share else dict(queue), "loss": direction_loss}
            if link.monitor_flows:
                direction["monitor_flows"] = True
            if profile.tx_time_ns:
                direction["tx_time_ns"] = True
            if link.loss_at_entry and x == a:
                direction["loss_at_entry"] = True
                if link.loss_behind:
                    direction["loss_behind"] = [
                        _loss(m, f"{p}.loss_behind[{k}]", flow_names)
                        for k, m in enumerate(link.loss_behind)]
            out.append(direction)
    return out


def _probability(value: Any, path: str) -> float:
    """A number; the engine checks that it lies in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ScenarioError(f"expected a probability in [0, 1], got {quote(value)}", path=path)
    return float(value)


def _loss(loss: LossConfig, path: str, flow_names: list[str]) -> dict[str, Any]:
    if not isinstance(loss, LOSS_MODELS):
        raise ScenarioError(f"expected a loss model such as {{ kind = \"bernoulli\", p = 0.01 }},"
                            f" got {quote(loss)}", path=path)
    if isinstance(loss, Bernoulli):
        p = _probability(loss.p, f"{path}.p")
        unit = "packet" if loss.unit is None else loss.unit
        if unit not in ("packet", "byte"):
            raise ScenarioError(f'expected "packet" or "byte", got {quote(unit)}',
                                path=f"{path}.unit")
        return {"kind": "bernoulli" if unit == "packet" else "byte_bernoulli", "p": p}
    if isinstance(loss, GilbertElliott):
        for key in ("p_good_bad", "p_bad_good"):
            if getattr(loss, key) is None:
                raise ScenarioError("missing: a transition probability per packet",
                                    path=f"{path}.{key}")
        return {
            "kind": "gilbert_elliott",
            "p_good_bad": _probability(loss.p_good_bad, f"{path}.p_good_bad"),
            "p_bad_good": _probability(loss.p_bad_good, f"{path}.p_bad_good"),
            "loss_good": _probability(0 if loss.loss_good is None else loss.loss_good,
                                      f"{path}.loss_good"),
            "loss_bad": _probability(1 if loss.loss_bad is None else loss.loss_bad,
                                     f"{path}.loss_bad"),
        }
    if isinstance(loss, Periodic):
        if loss.period is None:
            raise ScenarioError("missing: every how many packets the loss repeats",
                                path=f"{path}.period")
        period = _below(parse_int(loss.period, f"{path}.period", minimum=1,
                                  what="a number of packets"), _U64, f"{path}.period")
        offset = 0 if loss.offset is None else parse_int(loss.offset, f"{path}.offset",
                                                         what="a packet position")
        burst = 1 if loss.burst is None else parse_int(loss.burst, f"{path}.burst", minimum=1,
                                                       what="a number of packets")
        offset, burst = (_below(x, _U64, f"{path}.{key}")
                         for x, key in ((offset, "offset"), (burst, "burst")))
        return {"kind": "periodic", "period": period, "offset": offset, "burst": burst,
                **_mark_ecn(loss.mark_ecn, path), **_delay(loss.delay, path)}
    if loss.flow is None:
        raise ScenarioError("missing: the name of the flow whose packets to drop",
                            path=f"{path}.flow")
    if loss.flow not in flow_names:
        raise ScenarioError(
            f"unknown flow {quote(loss.flow)}; flows are {_listing(flow_names)}",
            path=f"{path}.flow",
        )
    if not isinstance(loss.packets, (list, tuple)):
        raise ScenarioError(
            f"expected a list of transmission numbers like [30, 32], got {quote(loss.packets)}",
            path=f"{path}.packets",
        )
    packets = [
        _below(parse_int(n, f"{path}.packets[{i}]", minimum=1, what="a transmission number"),
               _U64, f"{path}.packets[{i}]")
        for i, n in enumerate(loss.packets)
    ]
    acks: dict[str, bool] = {}
    if loss.acks is not None:
        if not isinstance(loss.acks, bool):
            raise ScenarioError(f"expected true or false, got {quote(loss.acks)}",
                                path=f"{path}.acks")
        if loss.acks:
            acks = {"acks": True}
    if loss.connection is not None:
        if not isinstance(loss.connection, bool):
            raise ScenarioError(f"expected true or false, got {quote(loss.connection)}",
                                path=f"{path}.connection")
        if loss.connection:
            acks["connection"] = True
    if loss.counted is not None:
        if not isinstance(loss.counted, bool):
            raise ScenarioError(f"expected true or false, got {quote(loss.counted)}",
                                path=f"{path}.counted")
        if loss.counted:
            acks["counted"] = True
    return {"kind": "drop_list", "flow": flow_names.index(loss.flow), "packets": packets,
            **_mark_ecn(loss.mark_ecn, path), **_delay(loss.delay, path), **acks}


def _delay(value: Any, path: str) -> dict[str, int]:
    """A loss model's ``delay`` for the engine (given only when not zero)."""
    if value is None:
        return {}
    ps = parse_time(value, f"{path}.delay")
    return {"delay_ps": ps} if ps else {}


def _mark_ecn(value: Any, path: str) -> dict[str, bool]:
    """A loss model's ``mark_ecn`` for the engine (given only when true)."""
    if value is None:
        return {}
    if not isinstance(value, bool):
        raise ScenarioError(f"expected true or false, got {quote(value)}", path=f"{path}.mark_ecn")
    return {"mark_ecn": True} if value else {}


def _queue_cached(q: QueueConfig, path: str, profile: Profile,
                  done: dict[Any, dict[str, Any]]) -> dict[str, Any]:
    """:func:`_queue`, remembered per distinct queue table (the links of a `count = N` table
    all have the same one) and per QueueConfig object (loaded with ``share``, those links
    have the same object: no key to build; every link's model is alive while they are
    resolved, so an id is one object's)."""
    cached = done.get(id(q))
    if cached is not None:
        return cached
    if q.classes or q.diffserv:  # a class tree or DiffServ tables: built for its link alone
        return _queue(q, path, profile)
    # Every field a queue resolves from, each with its type (1 and True are equal keys).
    key = (type(q.kind), q.kind, type(q.limit), q.limit, type(q.limit_bytes), q.limit_bytes,
           type(q.ns2), q.ns2, type(q.ecn), q.ecn, type(q.device_limit), q.device_limit,
           type(q.bql), q.bql, type(q.bql_hold_time), q.bql_hold_time, type(q.ns3_run),
           q.ns3_run, tuple((k, type(v), v) for k, v in q.params.items()) if q.params else ())
    try:
        cached = done.get(key)
    except TypeError:  # a value that is no scalar: resolved (and named) for this link alone
        return _queue(q, path, profile)
    if cached is None:
        cached = done[key] = _queue(q, path, profile)
    done[id(q)] = cached
    return cached


def _default_stack(q: QueueConfig, path: str, profile: Profile) -> QueueConfig:
    """A queue table without `kind`: a DropTail of `limit` packets, or, under a profile with a
    default root discipline (ns3: ns-3.44's TrafficControlHelper::Default, an FqCoDelQueueDisc
    that Ipv4AddressHelper::Assign installs on every device without one), that discipline with
    its own defaults above a device queue of `limit` packets (the point-to-point device's
    DropTailQueue, 100 packets by default). docs/models/traffic-control.md."""
    root = profile.default_root
    if root is None:
        return replace(q, kind="droptail")
    if q.limit_bytes is not None:
        raise ScenarioError(
            f"the {profile.name} profile's default stack ({root} above a device queue of limit"
            " packets) takes its limit in packets; give kind = \"droptail\" for a DropTail of"
            " limit_bytes", path=f"{path}.limit_bytes")
    if q.params:
        key = next(iter(q.params))
        raise ScenarioError(f"a discipline's key without a kind; give kind = \"{root}\" (the"
                            f" {profile.name} profile's default) or another", path=f"{path}.{key}")
    if q.device_limit is not None:
        raise ScenarioError(
            f"without a kind, limit is the device queue below the {profile.name} profile's"
            f" {root}; give kind = \"{root}\" to set both", path=f"{path}.device_limit")
    device = profile.queue_limit if q.limit is None else parse_int(
        q.limit, f"{path}.limit", minimum=1, what="a number of packets")
    # ns-3's FqCoDelQueueDisc::UseEcn is true (CoDel's false): ECN-capable packets are marked.
    return replace(q, kind=root, limit=None, device_limit=device,
                               ecn=True if q.ecn is None else q.ecn)


def _queue(q: QueueConfig, path: str, profile: Profile) -> dict[str, Any]:
    if q.kind is None:
        q = _default_stack(q, path, profile)
    if not isinstance(q.kind, str) or ":" in q.kind:
        from .custom import is_custom_queue

        if is_custom_queue(q.kind):
            return _custom_queue(q, path, profile)
    kind = check_kind(q.kind, QUEUE_KINDS, f"{path}.kind")
    limit = None if q.limit is None else parse_int(
        q.limit, f"{path}.limit", what="a number of packets"
    )
    limit_bytes = None if q.limit_bytes is None else parse_size(q.limit_bytes,
                                                                f"{path}.limit_bytes")
    if limit is None and limit_bytes is None:
        limit = queues.default_limit(kind) or profile.queue_limit
    ns2 = profile.queue_ns2 if q.ns2 is None else q.ns2
    if not isinstance(ns2, bool):
        raise ScenarioError(f"expected true or false, got {quote(ns2)}", path=f"{path}.ns2")
    ecn = False if q.ecn is None else q.ecn
    if not isinstance(ecn, bool):
        raise ScenarioError(f"expected true or false, got {quote(ecn)}", path=f"{path}.ecn")
    if ecn and not queues.marks(kind):
        marking = ", ".join(k for k in queues.KINDS if queues.marks(k))
        name = "DropTail" if kind == "droptail" else f"a {kind} queue"
        raise ScenarioError(f"{name} never marks; ECN needs {marking}", path=f"{path}.ecn")
    for key, value in (("limit", limit), ("limit_bytes", limit_bytes)):
        if value is not None and value >= _U64:
            raise ScenarioError(f"too large: {quote(value)}", path=f"{path}.{key}")
    doc: dict[str, Any] = {"kind": kind, "limit_packets": limit, "limit_bytes": limit_bytes,
                           "ns2": ns2, "ecn": ecn}
    doc.update(queues.resolve_params(kind, q.params, profile.name, path))
    if kind == "cbq" or q.classes:
        doc["classes"] = _cbq_classes(q.classes, kind, f"{path}.classes")
    if kind == "dsred" or q.diffserv is not None:
        if kind != "dsred":
            raise ScenarioError("DiffServ tables are for a dsred queue", path=f"{path}.diffserv")
        if not isinstance(q.diffserv, Mapping):
            raise ScenarioError("a dsred queue needs its tables: { phb = [...], ... }",
                                path=f"{path}.diffserv")
        doc["diffserv"] = dict(q.diffserv)  # the engine checks them (queue::dsred)
    device = _device(q, kind, path, profile)
    if device is not None:
        doc["device"] = device
    return doc


_CBQ_CLASS_KEYS = ("name", "parent", "allot", "borrow", "maxidle", "priority", "level",
                   "extradelay", "limit", "flows")


def _cbq_classes(classes: Any, kind: str, path: str) -> list[dict[str, Any]]:
    """A cbq queue's ``classes`` as the engine takes them (crates/ackclock-core/src/queue/
    cbq.rs checks the tree itself): maxidle and extradelay, times, in seconds (``maxidle_s``,
    ``extradelay_s``; a number is seconds, kept exactly as ns-2's doubles)."""
    if kind != "cbq":
        raise ScenarioError("a class tree is for a cbq queue", path=path)
    if not isinstance(classes, (list, tuple)) or not classes:
        raise ScenarioError("a cbq queue needs its class tree: a list of tables like"
                            ' { name = "root", allot = 1.0 }', path=path)
    out = []
    for i, c in enumerate(classes):
        at = f"{path}[{i}]"
        if not isinstance(c, Mapping):
            raise ScenarioError(f"expected a table, got {quote(c)}", path=at)
        for k in c:
            if k not in _CBQ_CLASS_KEYS:
                raise ScenarioError(f"unknown key (a class has: {', '.join(_CBQ_CLASS_KEYS)})",
                                    path=f"{at}.{k}")
        d: dict[str, Any] = {}
        for k, v in c.items():
            if k in ("maxidle", "extradelay"):
                if isinstance(v, bool) or not isinstance(v, (int, float, str)):
                    raise ScenarioError(f"expected a time, got {quote(v)}", path=f"{at}.{k}")
                d[f"{k}_s"] = (float(v) if not isinstance(v, str)
                               else parse_time(v, f"{at}.{k}") / 1e12)
            elif k == "flows":
                if isinstance(v, str) or not isinstance(v, (list, tuple)) or not all(
                        isinstance(x, str) for x in v):
                    raise ScenarioError(f"expected a list of flow names, got {quote(v)}",
                                        path=f"{at}.{k}")
                d[k] = list(v)
            else:
                d[k] = v
        # The engine's defaults, written out (it decides none itself).
        d.setdefault("borrow", True)
        d.setdefault("priority", 0)
        d.setdefault("extradelay_s", 0.0)
        out.append(d)
    return out


def _device(q: QueueConfig, kind: str, path: str, profile: Profile) -> dict[str, Any] | None:
    """The device queue below a discipline (``device_limit``, ``bql``, ``ns3_run``), or
    None."""
    for key, value in (("bql", q.bql), ("ns3_run", q.ns3_run)):
        if value is not None and not isinstance(value, bool):
            raise ScenarioError(f"expected true or false, got {quote(value)}",
                                path=f"{path}.{key}")
    if q.device_limit is None:
        if q.bql:
            raise ScenarioError("byte queue limits need a device queue: give device_limit",
                                path=f"{path}.bql")
        if q.ns3_run:
            raise ScenarioError("ns3_run is the loop above a device queue: give device_limit",
                                path=f"{path}.ns3_run")
        return None
    if q.bql_hold_time is not None and not q.bql:
        raise ScenarioError("a hold time for byte queue limits needs bql = true",
                            path=f"{path}.bql_hold_time")
    n = _below(parse_int(q.device_limit, f"{path}.device_limit", minimum=1,
                         what="a number of packets"), _U64, f"{path}.device_limit")
    device: dict[str, Any] = {"limit_packets": n, "bql": bool(q.bql)}
    if q.bql_hold_time is not None:
        device["bql_hold_time_ps"] = parse_time(q.bql_hold_time, f"{path}.bql_hold_time")
    if (profile.ns3_run if q.ns3_run is None else q.ns3_run):
        device["ns3_run"] = True
    return device


def _custom_queue(q: QueueConfig, path: str, profile: Profile) -> dict[str, Any]:
    """A discipline written in Python (docs/custom-algorithms.md): a QueueDiscipline class,
    an instance (its keyword arguments are its parameters) or "module:Class", with the
    link's limit (the profile's when none is given) and the scenario's ECN switch."""
    from .custom import QueueDiscipline, as_name

    name, params = as_name(q.kind, f"{path}.kind", QueueDiscipline)
    if q.device_limit is not None or q.bql or q.bql_hold_time is not None or q.ns3_run:
        raise ScenarioError("a device queue goes below a built-in discipline that holds its"
                            " packets; not below one written in Python (not supported yet)",
                            path=f"{path}.device_limit")
    for key, value in q.params.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ScenarioError(f"expected a number, got {quote(value)}", path=f"{path}.{key}")
        if key in params:
            raise ScenarioError("given twice (in the instance and the table)",
                                path=f"{path}.{key}")
        params[key] = float(value)
    limit = None if q.limit is None else parse_int(q.limit, f"{path}.limit",
                                                   what="a number of packets")
    limit_bytes = None if q.limit_bytes is None else parse_size(q.limit_bytes,
                                                                f"{path}.limit_bytes")
    if limit is None and limit_bytes is None:
        limit = profile.queue_limit
    ns2 = profile.queue_ns2 if q.ns2 is None else q.ns2
    ecn = False if q.ecn is None else q.ecn
    for key, flag in (("ns2", ns2), ("ecn", ecn)):
        if not isinstance(flag, bool):
            raise ScenarioError(f"expected true or false, got {quote(flag)}",
                                path=f"{path}.{key}")
    for key, value in (("limit", limit), ("limit_bytes", limit_bytes)):
        if value is not None and value >= _U64:
            raise ScenarioError(f"too large: {quote(value)}", path=f"{path}.{key}")
    return {"kind": "droptail", "custom": name, "limit_packets": limit,
            "limit_bytes": limit_bytes, "ns2": ns2, "ecn": ecn, "params": params}


def check_kind(value: object, known: Sequence[str], path: str) -> str:
    """``value`` if it is one of ``known``; else an error listing them."""
    if not isinstance(value, str) or value not in known:
        raise ScenarioError(
            f"expected one of {', '.join(quote(k) for k in known)}, got {quote(value)}",
            path=path,
        )
    return value


REPLY_SUFFIX = ".reply"


def flow_names(flows: list[Flow]) -> list[str]:
    """The engine's flows by name, in order: the scenario's, then the reply direction of each
    two-way flow (``NAME.reply``)."""
    names = [f.name for f in flows]
    return names + [f"{f.name}{REPLY_SUFFIX}" for f in flows if f.two_way is True]


def _flows(
    flows: list[Flow], nodes: Mapping[str, int], profile: Profile, defaults: Mapping[str, Any],
    base_dir: Path | None = None, share: bool = False, boot_per_flow: bool = False,
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    replies: list[tuple[int, Flow, str]] = []
    first: dict[str, str] = {}
    tcp_done: dict[Any, dict[str, Any]] = {}
    tcp_bases: dict[bool, Any] = {}
    # With ``share``: (app object, what else _app reads) -> the resolved app (the flows of a
    # `count = N` table loaded with share have one app object; every flow's model is alive
    # meanwhile, so an id is one object's).
    app_done: dict[Any, dict[str, Any]] = {}
    for i, flow in enumerate(flows):
        p = flow.origin or f"flow[{i}]"
        if type(flow.name) is str and flow.name and flow.name not in first:
            first[flow.name] = p
        else:
            _unique_name(flow.name, p, first, "flow")
        if flow.kind not in FLOW_KINDS:
            kinds = ", ".join(quote(k) for k in FLOW_KINDS)
            raise ScenarioError(f"expected one of {kinds}, got {quote(flow.kind)}",
                                path=f"{p}.kind")
        src = nodes.get(flow.from_) if type(flow.from_) is str else None
        if src is None:
            src = _node_ref(flow.from_, nodes, f"{p}.from")
        dst = nodes.get(flow.to) if type(flow.to) is str else None
        if dst is None:
            dst = _node_ref(flow.to, nodes, f"{p}.to")
        entry: dict[str, Any] = {"name": flow.name, "kind": flow.kind, "from": src, "to": dst}
        entry["trace"] = [] if flow.trace is None or flow.trace is False else _trace(flow, p)
        if flow.fid is not None:
            fid = parse_int(flow.fid, f"{p}.fid", what="a non-negative flow id")
            entry["fid"] = _below(fid, 2**32, f"{p}.fid")
        if flow.priority is not None:
            entry["priority"] = _below(
                parse_int(flow.priority, f"{p}.priority", what="a priority from 0 to 15"), 16,
                f"{p}.priority")
        if flow.ports is not None:
            entry["ports"] = [_below(parse_int(x, f"{p}.ports", what="a port number"), 2**32,
                                     f"{p}.ports") for x in flow.ports]
            if len(entry["ports"]) != 2:
                raise ScenarioError("expected [sender port, receiver port]", path=f"{p}.ports")
        if flow.kind == "tcp":
            entry["tcp"] = _tcp_cached(flow, p, profile, defaults, tcp_done, tcp_bases, share,
                                       tmix=isinstance(flow.app, Tmix),
                                       boot_apart=boot_per_flow)
            boot = (flow.tcp or {}).get(_BOOT_TIME) if boot_per_flow else None
            if boot is not None:
                entry[_BOOT_FIELD] = parse_time(boot, f"{p}.{_BOOT_TIME}")
        elif flow.kind == "tfrc":
            entry["tfrc"] = _tfrc(flow, p)
        elif flow.kind == "rap":
            entry["rap"] = _own_table(flow, p, "rap", flow.rap, RAP)
        else:
            entry["header_size"] = _udp_header(flow, p, profile)
        mss = entry["tcp"]["packet_size"] if flow.kind == "tcp" else None
        # Before the application, whose reply keys a two-way flow alone takes.
        two_way = _flag(flow.two_way, False, f"{p}.two_way")
        if share:
            app_key = (id(flow.app), flow.kind, flow.two_way is True, mss)
            app = app_done.get(app_key)
            if app is None:
                app = app_done[app_key] = _app(flow, p, base_dir, mss, profile)
            entry["app"] = app
        else:
            entry["app"] = _app(flow, p, base_dir, mss, profile)
        if two_way:
            _check_two_way(flow, entry, p)
            replies.append((i, flow, p))
        out.append(entry)
    for i, flow, p in replies:
        out.append(_reply(out[i], i, len(out), flow, p, first))
    return out


def _tfrc(flow: Flow, p: str) -> dict[str, Any]:
    """A tfrc flow's parameters as the engine takes them (``schema.TFRC``): those given;
    the engine holds ns-2.35's defaults for the rest (docs/tfrc.md)."""
    return _own_table(flow, p, "tfrc", flow.tfrc, TFRC)


def _own_table(flow: Flow, p: str, kind: str, raw: Any, table: Mapping[str, Key]
               ) -> dict[str, Any]:
    """A tfrc or rap flow's own parameters (``schema.TFRC``, ``schema.RAP``) as the engine
    takes them: those given; the engine holds ns-2.35's defaults for the rest."""
    if flow.tcp or flow.variant is not None or flow.cc is not None or flow.sink is not None:
        given = next(iter(flow.tcp), None) or "variant, cc or sink"
        raise ScenarioError(f"a {kind} flow takes no TCP parameters; its own go in {kind}",
                            path=f"{p}.{given}")
    if flow.header_size is not None:
        raise ScenarioError("a tfrc flow's header bytes are tfrc.header_size" if kind == "tfrc"
                            else "a rap flow's packets are rap.packet_size bytes on the wire",
                            path=f"{p}.header_size")
    raw = raw or {}
    tp = f"{p}.{kind}"
    if not isinstance(raw, Mapping):
        raise ScenarioError(f"expected a table like {{ packet_size = 1000 }}, got {quote(raw)}",
                            path=tp)
    out: dict[str, Any] = {}
    for key, value in raw.items():
        spec = table.get(key)
        if spec is None:
            raise ScenarioError(f"unknown key; expected some of {', '.join(table)}",
                                path=f"{tp}.{key}")
        kp = f"{tp}.{key}"
        if spec.type == "bool":
            out[key] = _flag(value, False, kp)
        elif spec.type == "number":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ScenarioError(f"expected a number, got {quote(value)}", path=kp)
            out[key] = float(value)
        else:
            low = {"count": 0, "count1": 1}.get(spec.type, -(2**31))
            out[key] = _below(parse_int(value, kp, minimum=low), 2**31, kp)
    return out


def _check_two_way(flow: Flow, entry: dict[str, Any], p: str) -> None:
    """Checks what a two-way connection needs of its flow (docs/full-tcp.md)."""
    if flow.kind != "tcp":
        raise ScenarioError("only a TCP flow can be a two-way connection", path=f"{p}.two_way")
    if entry["app"]["kind"] != "ftp":
        raise ScenarioError(f"a two-way connection needs an ftp application, got"
                            f" {quote(entry['app']['kind'])}", path=f"{p}.app.kind")
    tcp = entry["tcp"]
    if "syn" in flow.tcp and tcp["syn"] is False:
        raise ScenarioError("a two-way connection always opens with a handshake; remove syn",
                            path=f"{p}.syn")
    entry["tcp"] = {**tcp, "syn": True}  # a copy: other flows may share the table


def _reply(entry: dict[str, Any], i: int, j: int, flow: Flow, p: str,
           first: dict[str, str]) -> dict[str, Any]:
    """The engine flow of a two-way connection's reply direction (index ``j``), and the
    connection on the initiator's flow ``entry`` (index ``i``)."""
    app = flow.app
    assert isinstance(app, Ftp)  # _check_two_way: a two-way connection's app is an ftp
    ap = f"{p}.app"
    name = f"{flow.name}{REPLY_SUFFIX}"
    if name in first:
        raise ScenarioError(f"the reply direction's name {quote(name)} is taken by"
                            f" {first[name]}", path=f"{p}.name")
    first[name] = p
    if app.reply_size is None or app.reply_size == 0:
        reply = 0
    elif app.reply_size == "endless":
        reply = None
    else:
        reply = _below(parse_size(app.reply_size, f"{ap}.reply_size"), _U64, f"{ap}.reply_size")
    size = entry["app"]["size_bytes"]
    exchange = app.exchange
    if exchange is None:
        exchange = "concurrent" if size is None else "request-response"
    if exchange not in EXCHANGES:
        raise ScenarioError(f"expected one of {', '.join(quote(e) for e in EXCHANGES)},"
                            f" got {quote(exchange)}", path=f"{ap}.exchange")
    entry["connection"] = {"peer": j, "initiator": True, "exchange": exchange}
    back = {"name": name, "kind": "tcp", "from": entry["to"], "to": entry["from"],
            "trace": list(entry["trace"]), "tcp": dict(entry["tcp"]),
            "app": {"kind": "ftp", "start": entry["app"]["start"],
                    "stop_ps": entry["app"]["stop_ps"], "size_bytes": reply},
            "connection": {"peer": i, "initiator": False, "exchange": exchange}}
    if "fid" in entry:
        back["fid"] = entry["fid"]
    if "priority" in entry:
        back["priority"] = entry["priority"]
    if _BOOT_FIELD in entry:  # the initiator's, as its table is (resolve_shared)
        back[_BOOT_FIELD] = entry[_BOOT_FIELD]
    return back


def _trace(flow: Flow, p: str) -> list[str]:
    """The variables to trace; the engine checks their names (and that the flow is TCP)."""
    if flow.trace is None or flow.trace is False:
        return []
    if flow.trace is True:
        return list(TRACEABLE)
    names = [flow.trace] if isinstance(flow.trace, str) else flow.trace
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise ScenarioError(f"expected true or a list of variable names, got {quote(names)}",
                            path=f"{p}.trace")
    # ns-2 names (cwnd_, srtt_) are accepted too.
    return [name.rstrip("_") for name in names]


def _tcp_cached(
    flow: Flow, p: str, profile: Profile, defaults: Mapping[str, Any],
    done: dict[Any, dict[str, Any]], bases: dict[bool, Any], share: bool = False,
    tmix: bool = False, boot_apart: bool = False,
) -> dict[str, Any]:
    """:func:`_tcp`, remembered per distinct set of the flow's own TCP keys: the flows of a
    `count = N` table all resolve the same parameters (10 000 flows: most of resolving).
    A set not seen before is resolved from ``bases``, the parameters before the flows' own
    (:func:`_tcp_over`).
    With ``share`` the flows get the same table, else each its copy. With ``boot_apart``
    the table leaves out (as 0) the flow's own ``ns2_boot_time``, which the caller puts
    beside it (:func:`resolve_shared`'s ``boot_per_flow``)."""
    own = flow.tcp or {}
    boot = own.get(_BOOT_TIME)
    try:
        # Each value with its type: 1 and 1.0 are equal keys, and only one of them is a
        # window.
        key = (flow.variant, flow.cc, flow.sink, flow.header_size,
               tuple((k, type(v), v) for k, v in own.items() if k != _BOOT_TIME), boot is None,
               tmix)
        hash(key)
    except TypeError:  # a table or list among the values: resolved every time
        return _tcp(flow, p, profile, defaults, tmix)
    cached = done.get(key)
    if cached is None:
        # The parameters before the flow's own, resolved once (None: they fail alone, where
        # a flow's own may mend them, or hold a congestion control written in Python).
        base = bases.get(tmix, _NOTHING)
        if base is _NOTHING:
            base = bases[tmix] = _tcp_base(profile, defaults, tmix)
        cached = done[key] = (_tcp(flow, p, profile, defaults, tmix) if base is None
                              else _tcp_over(base, flow, p))
        if boot is not None and boot_apart:
            cached[_BOOT_FIELD] = 0  # the first flow's time is its own, not the table's
        return cached if share else dict(cached)
    if boot is None or boot_apart:
        return cached if share else dict(cached)
    # An ns-2 script's agents each draw their own boot_time_ (ns2/agents.py), which would
    # make every flow's table its own: the rest is remembered, the flow's time read as _tcp
    # reads it and set on its copy.
    return {**cached, _BOOT_FIELD: parse_time(boot, f"{p}.{_BOOT_TIME}")}


_BOOT_TIME = "ns2_boot_time"
_BOOT_FIELD = "ns2_boot_time_ps"  # TCP_PARAMS.field(_BOOT_TIME), and a flow's own (the engine's)


def _tcp(
    flow: Flow, p: str, profile: Profile, defaults: Mapping[str, Any], tmix: bool = False
) -> dict[str, Any]:
    merged = _tcp_merged(profile, defaults, tmix)
    merged.update(_tcp_own(flow, p))
    return _tcp_from(merged)


def _tcp_base(profile: Profile, defaults: Mapping[str, Any], tmix: bool
              ) -> tuple[dict[str, tuple[Any, str]], dict[str, Any], dict[Any, Any]] | None:
    """The parameters before a flow's own and their table, for :func:`_tcp_over`; None if
    they hold a congestion control written in Python or fail alone (a flow's own may set
    what is wrong: its :func:`_tcp` then decides)."""
    merged = _tcp_merged(profile, defaults, tmix)
    cc = merged["cc"][0]
    if not isinstance(cc, str) or ":" in cc:
        return None
    try:
        return merged, _tcp_from(dict(merged)), {}
    except ScenarioError:
        return None


def _tcp_merged(profile: Profile, defaults: Mapping[str, Any], tmix: bool
                ) -> dict[str, tuple[Any, str]]:
    """Every TCP parameter's value and key path before a flow's own: the profile's (with
    Tmix's sides), then ``[defaults.tcp]``'s."""
    origin = f"profile {quote(profile.name)}: "
    merged: dict[str, tuple[Any, str]] = {
        k: (v, origin + k) for k, v in profile.tcp.items()
    }
    if tmix:
        # The sides of a Tmix application's connections (Profile.tmix_tcp).
        merged.update({k: (v, f"{origin}Tmix's {k}") for k, v in profile.tmix_tcp.items()})
    merged.update({k: (v, f"defaults.tcp.{k}") for k, v in defaults.items()})
    return merged


def _tcp_own(flow: Flow, p: str) -> dict[str, tuple[Any, str]]:
    """A flow's own TCP parameters, each with its key path: they win over the others."""
    if flow.header_size is not None:
        raise ScenarioError(
            "a TCP flow's header size is a TCP parameter (header_size in the flow's table or"
            " Network.tcp(header_size=...))",
            path=f"{p}.header_size",
        )
    own = {key: (value, f"{p}.{key}") for key in ("variant", "cc", "sink")
           if (value := getattr(flow, key)) is not None}
    own.update({k: (v, f"{p}.{k}") for k, v in normalize_tcp_params(flow.tcp, p).items()})
    return own


def _tcp_from(merged: dict[str, tuple[Any, str]]) -> dict[str, Any]:
    """The TCP table of ``merged`` (each parameter's value and key path; changed here)."""
    hystart, hystart_path = merged["hystart"]
    if isinstance(hystart, bool):
        # `hystart = true` asks for the one most users mean: Linux's.
        merged["hystart"] = ("linux" if hystart else "off", hystart_path)
    _sack_sink(merged)
    custom_params: dict[str, float] | None = None
    cc_value, cc_path = merged["cc"]
    if not isinstance(cc_value, str) or ":" in cc_value:
        # A congestion control written in Python (docs/custom-algorithms.md): a class, an
        # instance (its keyword arguments are its parameters) or "module:Class".
        from .custom import as_name, is_custom

        if is_custom(cc_value):
            name, custom_params = as_name(cc_value, cc_path)
            merged["cc"] = (name, cc_path)
    out: dict[str, Any] = {}
    for key, kind in TCP_PARAMS.items():
        value, path = merged[key]
        if key == "cc" and custom_params is not None:
            out[key] = value
        elif key == "cc_params" and custom_params is not None:
            if not isinstance(value, Mapping):
                raise ScenarioError(f"expected a table of numbers like {{ beta = 0.7 }}, got"
                                    f" {quote(value)}", path=path)
            given = dict(custom_params)
            for name, number in value.items():
                if isinstance(number, bool) or not isinstance(number, (int, float)):
                    raise ScenarioError(f"expected a number, got {quote(number)}",
                                        path=f"{path}.{name}")
                given[str(name)] = float(number)
            out[key] = given
        else:
            out[TCP_PARAMS.field(key) if kind in _RENAMED else key] = _tcp_value(
                key, kind, value, path, merged["cc"][0])
    if merged["initial_ssthresh"][0] == "window":
        out["initial_ssthresh"] = out["window"]
    return out


def _sack_sink(merged: dict[str, tuple[Any, str]]) -> None:
    """The sink a SACK variant needs, unless one was given (in ``merged``, changed here)."""
    if merged["variant"][0] in ("sack", "fack", "sack_rh") \
            and merged["sink"][1].startswith("profile "):
        # SACK (and FACK) recovery needs a receiver that sends SACK blocks; the profile's
        # sink does not.
        merged["sink"] = ("sack", merged["variant"][1])


def _tcp_over(base: tuple[dict[str, tuple[Any, str]], dict[str, Any], dict[Any, Any]],
              flow: Flow, p: str) -> dict[str, Any]:
    """:func:`_tcp` from ``base``: the values and table of the parameters before the flow's
    own (:func:`_tcp_merged` and its table, resolved once) and the flows' own values resolved
    so far. Only what the flow's own change is resolved again, with what depends on it (the
    sink on the variant, the congestion control's parameters on ``cc``, ``initial_ssthresh =
    "window"`` on the window). Each other parameter is resolved from its own value alone, so
    the table is :func:`_tcp`'s, and so is the first mistake (the base's values passed; the
    changed ones are checked in the same order). 10 000 flows each with its own window: some
    70 us of resolving each before (docs/performance.md, session 11)."""
    own = _tcp_own(flow, p)
    before = base[0]
    cc = (own.get("cc") or before["cc"])[0]
    if not isinstance(cc, str) or ":" in cc:
        # A congestion control written in Python: all at once.
        return _tcp_from({**before, **own})
    redo = set(own)
    hystart = own.get("hystart")
    if hystart is not None and isinstance(hystart[0], bool):
        own["hystart"] = ("linux" if hystart[0] else "off", hystart[1])
    if "variant" in own or "sink" in own:
        pair = {k: own.get(k) or before[k] for k in ("variant", "sink")}
        _sack_sink(pair)
        own["sink"] = pair["sink"]
        redo.add("sink")
    order = _tcp_order()
    if "cc" in own:
        redo.update(k for k in order if TCP_PARAMS[k] == "table")
    out = dict(base[1])
    done = base[2]
    params = TCP_PARAMS
    for key in sorted(redo, key=order.__getitem__):
        value, path = own.get(key) or before[key]
        # A value resolved before for another flow (each with its type: 1 and 1.0 are equal
        # keys, and only one of them is a window) is not resolved again.
        seen: tuple[Any, ...] | None = (key, type(value), value, cc)
        try:
            known = done.get(seen)
        except TypeError:  # a table: resolved every time
            known = seen = None
        if known is None:
            kind = params[key]
            known = (params.field(key) if kind in _RENAMED else key,
                     _tcp_value(key, kind, value, path, cc))
            if seen is not None and type(known[1]) in _ATOMIC:
                done[seen] = known
        out[known[0]] = known[1]
    if ("window" in redo or "initial_ssthresh" in redo) \
            and (own.get("initial_ssthresh") or before["initial_ssthresh"])[0] == "window":
        out["initial_ssthresh"] = out["window"]
    return out


_TCP_ORDER: dict[str, int] = {}


def _tcp_order() -> dict[str, int]:
    """Each TCP parameter's place in TCP_PARAMS (the engine's registry: read on first use)."""
    if not _TCP_ORDER:
        _TCP_ORDER.update((k, i) for i, k in enumerate(TCP_PARAMS))
    return _TCP_ORDER


# The kinds of TCP parameter whose resolved name is TCP_PARAMS.field's (min_rto -> min_rto_ps).
_RENAMED = frozenset({"size_or_none", "rate_or_none", "time"})


def _tcp_value(key: str, kind: str, value: Any, path: str, cc: Any) -> Any:
    """One TCP parameter as the engine takes it; each depends on its own value alone, but a
    ``table`` (the congestion control's parameters) on the flow's ``cc`` too."""
    if kind == "name":
        return check_kind(value, TCP_CHOICES[key], path)
    if kind == "size":
        size = parse_size(value, path)
        if size == 0 and key != "header_size":
            raise ScenarioError(f"expected a positive size, got {quote(value)}", path=path)
        return _below(size, _U32, path)
    if kind == "count":
        return _below(parse_int(value, path, minimum=1, what="a whole number"), _U32, path)
    if kind == "count_or_zero":
        return _below(parse_int(value, path, minimum=0, what="a whole number"), _U32, path)
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value) or value < 0:
            raise ScenarioError(f"expected a number at least 0, got {quote(value)}", path=path)
        return float(value)
    if kind == "bool":
        if not isinstance(value, bool):
            # ns-2 scripts write booleans as 0/1.
            if value in (0, 1):
                return bool(value)
            raise ScenarioError(f"expected true or false, got {quote(value)}", path=path)
        return value
    if kind == "table":
        if not isinstance(value, Mapping):
            raise ScenarioError(f"expected a table of numbers like {{ beta = 0.7 }}, got"
                                f" {quote(value)}", path=path)
        cc = canonical_cc(str(cc))
        aliases = {**CC_ALIASES.get(cc, {}), **CC_NS3_ALIASES.get(cc, {})}
        known = CC_PARAMS.get(cc, {})
        params: dict[str, float] = {}
        for name, number in value.items():
            if isinstance(number, bool) or not isinstance(number, (int, float)):
                raise ScenarioError(f"expected a number, got {quote(number)}",
                                    path=f"{path}.{name}")
            canonical = str(aliases.get(name, name))
            # Unknown names are the engine's to report (it knows what each algorithm reads).
            ok, what = known.get(canonical, ((lambda x: True), ""))
            if not ok(float(number)):
                raise ScenarioError(f"expected {what}, got {quote(number)}",
                                    path=f"{path}.{name}")
            params[canonical] = float(number)
        return params
    if kind == "size_or_none":
        return None if value is None else _below(parse_size(value, path), _U64, path)
    if kind == "rate_or_none":
        return None if value is None else float(parse_rate(value, path))
    if kind == "count_or_unbounded":
        if value is None or value == "unbounded" or value == "window":
            return None  # "window": _tcp fills it in once the window is known
        return _below(parse_int(value, path, minimum=1, what='a number of packets or "unbounded"'),
                      _U32, path)
    ps = parse_time(value, path)
    if ps == 0 and key not in ("min_rto", "ack_delay", "ns2_boot_time", "send_overhead",
                               "quick_start_rtt"):
        raise ScenarioError(f"expected a positive time, got {quote(value)}", path=path)
    return ps


def _below(value: int, bound: int, path: str) -> int:
    if value >= bound:
        raise ScenarioError(f"too large: {quote(value)}", path=path)
    return value


def _udp_header(flow: Flow, p: str, profile: Profile) -> int:
    for key in ("variant", "cc", "sink"):
        if getattr(flow, key) is not None:
            raise ScenarioError("only TCP flows take this key", path=f"{p}.{key}")
    if flow.tcp:
        key = next(iter(flow.tcp))
        raise ScenarioError("only TCP flows take TCP parameters", path=f"{p}.{key}")
    if flow.header_size is None:
        return profile.udp_header_size
    return _below(parse_size(flow.header_size, f"{p}.header_size"), _U32, f"{p}.header_size")


def _app(flow: Flow, p: str, base_dir: Path | None = None,
         mss: int | None = None, profile: Profile | None = None) -> dict[str, Any]:
    """The application; on a TCP flow (segment payload ``mss``) a cbr, onoff, poisson or
    trace application writes into the connection at its own pace (ns-3's MyApp)."""
    app = flow.app
    ap = f"{p}.app"
    if not isinstance(app, APPS):
        raise ScenarioError(f"expected an application such as Ftp(...) or Cbr(...)"
                            f" (ackclock.apps), got {quote(app)}", path=ap)
    kind = app.kind
    if flow.kind == "rap" and (kind != "ftp" or getattr(app, "size", None) is not None):
        raise ScenarioError('a rap flow sends from an "ftp" application\'s start to its stop,'
                            f" without a size, got {quote(kind)}", path=f"{ap}.kind")
    if flow.kind == "tfrc" and kind != "ftp":
        # The engine's rule too; said here first, before the application's own keys, which a
        # TFRC flow's application does not have (no segment size to write in).
        raise ScenarioError(f'a tfrc flow sends what an "ftp" application gives it, got'
                            f" {quote(kind)}", path=f"{ap}.kind")
    start = _distribution(app.start, f"{ap}.start")
    stop = None if app.stop is None else parse_time(app.stop, f"{ap}.stop")
    if stop is not None and "constant" in start and stop < start["constant"]:
        raise ScenarioError(
            f"earlier than start ({quote(app.start)}), got {quote(app.stop)}", path=f"{ap}.stop"
        )
    base = {"kind": kind, "start": start, "stop_ps": stop}
    if isinstance(app, Ftp):
        if flow.two_way is not True:
            for key in ("reply_size", "exchange"):
                if getattr(app, key) is not None:
                    raise ScenarioError("only a two-way flow (two_way = true) takes this key",
                                        path=f"{ap}.{key}")
        size = None
        if app.size is not None:
            size = _below(parse_size(app.size, f"{ap}.size"), _U64, f"{ap}.size")
            if size == 0:
                raise ScenarioError("expected a positive size", path=f"{ap}.size")
        return base | {"size_bytes": size}
    if isinstance(app, Tmix):
        if app.file is None:
            raise ScenarioError("missing: a file of Tmix connection vectors", path=f"{ap}.file")
        from .tmix import read_vectors

        conns = read_vectors(_relative(app.file, f"{ap}.file", base_dir), f"{ap}.file")
        delay_box = _flag(app.delay_box, True, f"{ap}.delay_box")
        losses = _flag(app.losses, True, f"{ap}.losses") and delay_box
        rtt_added = _flag(app.rtt_added, False, f"{ap}.rtt_added")
        windows = _flag(app.windows, False, f"{ap}.windows")
        n = len(conns["start_ps"])
        if not delay_box:
            conns["rtt_ps"] = array("Q", bytes(8 * n))  # zeros, as read_vectors' columns
        if not losses:
            conns["loss_initiator"] = array("d", bytes(8 * n))
            conns["loss_acceptor"] = array("d", bytes(8 * n))
        boxes = 1 if app.delay_boxes is None else _below(parse_int(
            app.delay_boxes, f"{ap}.delay_boxes", minimum=1, what="a number of delay boxes"),
            256, f"{ap}.delay_boxes")
        if boxes > 1:
            # ns-2.35's boxes each hold a connection's packets r / 2 and drop them at its
            # rates (Tmix_DelayBoxClassifier::recv): n boxes, n times the delay and n chances
            # to be lost.
            if not rtt_added:
                raise ScenarioError("more than one delay box only with rtt_added = true (each"
                                    " box adds the vector's RTT, as ns-2.35's)",
                                    path=f"{ap}.delay_boxes")
            conns["rtt_ps"] = array("Q", (x * boxes for x in conns["rtt_ps"]))
            for key in ("loss_initiator", "loss_acceptor"):
                conns[key] = array("d", (1.0 - (1.0 - x) ** boxes for x in conns[key]))
        windows_i = conns.pop("window_initiator")
        windows_a = conns.pop("window_acceptor")
        if windows and (any(windows_i) or any(windows_a)):
            conns["window_initiator"], conns["window_acceptor"] = windows_i, windows_a
        # Without fin_wait, the profile's (ns2: Tmix's fin_time_ default, 1 s).
        fin_wait = app.fin_wait if app.fin_wait is not None or profile is None \
            else profile.tmix_fin_wait
        # A SEQ vector's trailing t: that connection's own closing wait, where connections
        # close as ns-2.35's (Tmix::read_one_cvec puts it in place of fin_time_).
        own_waits = conns.pop("fin_wait_ps", None)
        if fin_wait is not None and own_waits is not None and any(own_waits):
            conns["fin_wait_ps"] = own_waits
        out = base | {"connections": conns} | ({"rtt_added": True} if rtt_added else {})
        if fin_wait is not None:
            wait = parse_time(fin_wait, f"{ap}.fin_wait")
            if wait == 0:
                # ns-2.35's TmixApp::timeout sets no timer for a wait of 0: no FIN ever.
                raise ScenarioError(f"expected a positive time, got {quote(fin_wait)}",
                                    path=f"{ap}.fin_wait")
            out["fin_wait_ps"] = wait
        return out
    if isinstance(app, Replay):
        if app.file is None:
            raise ScenarioError('missing: a file of "time size" records', path=f"{ap}.file")
        return base | {"records": read_trace(app.file, f"{ap}.file", base_dir)}

    # cbr, onoff, poisson: a packet size and a rate or an interval.
    rate: Any = getattr(app, "rate", None)
    given_interval: Any = getattr(app, "interval", None)
    given_size: Any = getattr(app, "packet_size", None)
    if given_size is None and mss is None:
        raise ScenarioError("missing: the payload bytes of each datagram", path=f"{ap}.packet_size")
    # Over TCP the bytes of each write; by default one segment's payload.
    packet_size = parse_size(given_size, f"{ap}.packet_size") if mss is None or (
        given_size is not None) else mss
    _below(packet_size, _U32, f"{ap}.packet_size")
    if (rate is None) == (given_interval is None):
        raise ScenarioError("give exactly one of rate and interval", path=ap)
    if rate is not None:
        # ns-2's CBR: interval = packet_size x 8 / rate, here rounded to the nearest picosecond.
        from fractions import Fraction  # imported here: it pulls in decimal (start-up time)

        interval = round(Fraction(packet_size * 8 * PS_PER_S) / parse_rate(rate, f"{ap}.rate"))
        if interval == 0 and packet_size > 0:  # a packet size of 0: the engine names it
            raise ScenarioError(
                f"too high for {packet_size}-byte packets: less than 1 ps between packets",
                path=f"{ap}.rate",
            )
    else:
        interval = parse_time(given_interval, f"{ap}.interval")
        if interval == 0:
            raise ScenarioError(f"expected a positive time, got {quote(given_interval)}",
                                path=f"{ap}.interval")
    interval = _below(interval, _U64, f"{ap}.interval")
    if isinstance(app, OnOff):
        for key in ("on", "off"):
            if getattr(app, key) is None:
                raise ScenarioError(
                    f'missing: the {key} times, e.g. {{ exponential = "500ms" }}',
                    path=f"{ap}.{key}")
        return base | {"interval_ps": interval, "packet_size": packet_size,
                       "on": _distribution(app.on, f"{ap}.on"),
                       "off": _distribution(app.off, f"{ap}.off")}
    if not isinstance(app, Cbr):  # Poisson
        return base | {"mean_interval_ps": interval, "packet_size": packet_size}
    random = False if app.random is None else app.random
    if not isinstance(random, bool):
        raise ScenarioError(f"expected true or false, got {quote(random)}", path=f"{ap}.random")
    after = _flag(app.after_connect, False, f"{ap}.after_connect")
    out = base | {"interval_ps": interval, "packet_size": packet_size, "random": random} | (
        {"after_connect": True} if after else {})
    if app.restart_every is not None:
        if not after:
            raise ScenarioError("an OnOffApplication's restarts count from its connection:"
                                " needs after_connect = true", path=f"{ap}.restart_every")
        every = parse_time(app.restart_every, f"{ap}.restart_every")
        if every == 0:
            raise ScenarioError(f"expected a positive time, got {quote(app.restart_every)}",
                                path=f"{ap}.restart_every")
        out["restart_every_ps"] = _below(every, _U64, f"{ap}.restart_every")
    return out


def _flag(value: Any, default: bool, path: str) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ScenarioError(f"expected true or false, got {quote(value)}", path=path)
    return value


def _relative(file: Any, path: str, base_dir: Path | None) -> Path:
    """A file named in a scenario, relative to the scenario file."""
    if not isinstance(file, (str, Path)):
        raise ScenarioError(f"expected a file name, got {quote(file)}", path=path)
    p = Path(file)
    if not p.is_absolute() and base_dir is not None:
        p = base_dir / p
    return p


def read_trace(file: Any, path: str, base_dir: Path | None) -> list[list[int]]:
    """A trace file's records as [time after start in ps, payload bytes].

    One record per line: a time (seconds, or with a unit: "1.5ms") and a size in bytes,
    separated by spaces, tabs or a comma; "#" starts a comment. Times must not decrease.
    """
    from .inputs import MAX_DATA_BYTES, read_text

    p = _relative(file, path, base_dir)
    lines = read_text(p, MAX_DATA_BYTES, key=path).splitlines()
    records: list[list[int]] = []
    for n, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].replace(",", " ").split()
        if not text:
            continue
        where = f"{path} ({p.name} line {n})"
        if len(text) != 2:
            raise ScenarioError(f"expected a time and a size, got {quote(line.strip())}",
                                path=where)
        t = parse_time(text[0], where)
        size = parse_size(text[1], where)
        if size == 0 or size >= _U32:
            raise ScenarioError(f"expected a size of 1 to {_U32 - 1} bytes, got {text[1]}",
                                path=where)
        if records and t < records[-1][0]:
            raise ScenarioError(f"time goes backwards ({text[0]})", path=where)
        records.append([t, size])
    if not records:
        raise ScenarioError(f"{quote(str(p))} has no records", path=path)
    return records


def _distribution(value: Any, path: str) -> dict[str, Any]:
    """A time or a one-key distribution table, in picoseconds."""
    if not isinstance(value, Mapping):
        return {"constant": parse_time(value, path)}
    expected = 'a time or a distribution like { uniform = ["0s", "1s"] } or { constant = "2s" }'
    if len(value) != 1:
        raise ScenarioError(f"expected {expected}, got {quote(dict(value))}", path=path)
    ((kind, arg),) = value.items()
    dp = f"{path}.{kind}"
    check_kind(kind, DISTRIBUTIONS, dp)
    if kind == "constant":
        return {"constant": parse_time(arg, dp)}
    if kind == "exponential":
        mean = parse_time(arg, dp)
        if mean == 0:
            raise ScenarioError("expected a positive mean time", path=dp)
        return {"exponential": mean}
    if not isinstance(arg, (list, tuple)) or len(arg) != 2:
        shape = "[MEAN, SHAPE]" if kind == "pareto" else "[A, B]"
        raise ScenarioError(f"expected {shape}, got {quote(arg)}", path=dp)
    if kind == "pareto":
        mean = parse_time(arg[0], f"{dp}[0]")
        shape = arg[1]
        if isinstance(shape, bool) or not isinstance(shape, (int, float)) or not shape > 1:
            raise ScenarioError(f"expected a shape above 1, got {quote(shape)}", path=f"{dp}[1]")
        if mean == 0:
            raise ScenarioError("expected a positive mean time", path=f"{dp}[0]")
        return {"pareto": [mean, float(shape)]}
    a = parse_time(arg[0], f"{dp}[0]")
    b = parse_time(arg[1], f"{dp}[1]")
    if a > b:
        raise ScenarioError(f"bounds out of order: {quote(arg[0])} > {quote(arg[1])}", path=dp)
    return {"uniform": [a, b]}
