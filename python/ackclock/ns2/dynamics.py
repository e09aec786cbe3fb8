"""Links going down and up: ``$ns rtmodel-at <time> up|down $n0 [$n1]`` and ``$ns rtmodel
Exponential|Deterministic|Manual {params} $n0 [$n1]``.

As ns-2.35 does it (tcl/rtglib/dynamics.tcl, tcl/lib/ns-link.tcl, link/dynalink.cc):

- ``rtmodel-at`` makes an ``rtModel/Manual`` on the link between two nodes (both directions),
  or on every link of one node; if ``trace-all`` or ``namtrace-all`` was called before it,
  the model puts its own trace on each of those links (``trace-dynamics``), so each model
  adds one ``v`` line per link to each change, whichever model made the change;
- ``rtmodel Exponential {[start] up down [finish]} ...`` and ``Deterministic`` (a list of
  2, 3 or 4; ``-`` keeps the default: ``rtModel set startTime_ 0.5``, ``finishTime_ -``,
  Exponential's ``upInterval_`` 10 and ``downInterval_`` 1, Deterministic's 2 and 1,
  ns-default.tcl) take their links down first at start + up interval (Exponential: times a
  draw of ``$rtglibRNG exponential``, ``rtModel/Exponential instproc set-first-event``), then
  each change schedules the next one (``up``: down after the up interval, ``down``: up after
  the down interval, Exponential's again times a draw); past ``finishTime_`` only a last ``up``
  is kept, at ``finishTime_`` (``rtModel instproc set-event-exact``). ``$rtglibRNG`` is the
  RNG route-proto.tcl makes and seeds 1 at start-up, which DV draws from too (rtproto_dv.py);
- at ``$ns run`` (``rtmodel-configure``) each model makes its links dynamic and schedules its
  first change with ``$ns at``, after the script's own ``$ns at`` calls (``rtQueue instproc
  insq``: one ``$ns at`` per time); changes of one time run together, in the order they were
  queued (``runq``), and then each model's ``notify``;
- a link going down (``Link instproc down``) drops, with ``d`` lines, the packets its queue
  holds and then those on the line, and from then on drops what reaches it at its head,
  untraced (``DynamicLink::recv``); then each of its traces writes ``v <t> link-down <t> <src>
  <dst>`` (nam: ``l -t <t> -s <src> -d <dst> -S DOWN`` and ``v -t <t> link-down <t> <src>
  <dst>``); a model's links are taken in ``array names links_`` order (Tcl's hash order);
- routes stay as they were (``rtproto Static``, the default, recomputes nothing:
  ``Agent/rtProto compute-all`` does nothing), so packets routed over a link that is down are
  lost until it comes up; under ``rtproto DV`` each model then tells its nodes
  (``rtModel instproc notify``, nodes in ``array names nodes_`` order), whose routing
  recomputes (rtproto_dv.py).

ackclock asks the engine to take the link down or up at that instant
(``Simulation.ns2_set_link``); only a link on ns-2's clock can go down (every link of an ns-2
script; SFQ and DRR drop their packets in the order `Queue::reset` dequeues them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from .errors import Location, Ns2Error, unsupported
from .objects import TclError
from .rng import MAXINT, Mrg32k3a
from .values import fmt_double, to_float

if TYPE_CHECKING:
    from .simulator import Simulator
    from .topology import Node, SimplexLink


@dataclass
class Model:
    """One ``rtModel``: its kind and change times, links (in ``array names links_`` order)
    and the traces it put on them."""

    at: float  # Manual: the change's time
    op: str  # Manual: the change
    links: list[SimplexLink]
    traced: bool
    nam: bool
    where: Location
    # Its nodes' ids in `array names nodes_` order, whose routing `notify` tells.
    nodes: list[int]
    kind: str = "Manual"  # or Exponential, Deterministic
    start: float = 0.5  # startTime_, upInterval_, downInterval_, finishTime_ (None: "-")
    up: float = 0.0
    down: float = 0.0
    finish: float | None = None


# rtModel/<kind> set upInterval_ / downInterval_ (tcl/lib/ns-default.tcl).
INTERVALS = {"Exponential": (10.0, 1.0), "Deterministic": (2.0, 1.0)}


def rtmodel(sim: Simulator, kind: str, parms: list[str], nodes: list[Node]) -> None:
    """``$ns rtmodel kind {parms} $n0 [$n1]`` (``Simulator instproc rtmodel``, each model's
    ``set-parms``)."""
    if kind == "Manual":
        if len(parms) != 2:
            raise TclError("rtmodel Manual: expected {op at}")
        rtmodel_at(sim, parms[1], parms[0], nodes)
        return
    if kind not in INTERVALS:
        raise Ns2Error(unsupported(f"links going down and up ($ns rtmodel {kind})"))
    if len(parms) not in (2, 3, 4):
        raise Ns2Error(unsupported(f"rtmodel {kind} with {len(parms)} parameters"))
    values: list[float | None] = []
    for p in parms:
        try:
            values.append(None if p in ("-", "") else to_float(p, "a time"))
        except ValueError as e:
            raise TclError(str(e)) from None
    fin: float | None = None
    if len(values) == 4:
        off, up, dn, fin = values
    elif len(values) == 3:
        off, up, dn = values
    else:
        off, (up, dn) = None, values
    up0, down0 = INTERVALS[kind]
    _add(sim, nodes, Model(0.0, "", [], False, False, sim.ctx.where(), [], kind,
                           0.5 if off is None else off, up0 if up is None else up,
                           down0 if dn is None else dn, fin))


def rtmodel_at(sim: Simulator, at: str, op: str, nodes: list[Node]) -> None:
    """``$ns rtmodel-at at op $n0 [$n1]``: a model, configured when the run starts."""
    if op not in ("up", "down"):
        raise TclError(f"rtmodel-at: expected up or down, got {op!r}")
    try:
        when = to_float(at, "a time")
    except ValueError as e:
        raise TclError(str(e)) from None
    if when <= 0:
        # rtQueue insq: "Cannot set event in the past" (printed; nothing happens).
        raise Ns2Error(unsupported(f"rtmodel-at {at}: a change at time 0 or before"))
    _add(sim, nodes, Model(when, op, [], False, False, sim.ctx.where(), []))


def _add(sim: Simulator, nodes: list[Node], model: Model) -> None:
    """``rtModel instproc set-elements`` and ``trace``: the model's links and nodes."""
    if len(nodes) == 2:
        pairs = [(nodes[0], nodes[1])]
    elif len(nodes) == 1:
        pairs = [(nodes[0], lk.dst) for lk in sim.links if lk.src is nodes[0]]
    else:
        raise TclError("rtmodel-at: expected one or two nodes")
    keys: list[str] = []
    by_key: dict[str, SimplexLink] = {}
    for a, b in pairs:
        for x, y in ((a, b), (b, a)):
            link = sim.by_ends.get((x.id, y.id))
            if link is None:
                raise TclError(f"rtmodel-at: no link from node {x.id} to node {y.id}")
            key = f"{x.id}:{y.id}"
            if key not in by_key:
                keys.append(key)
            by_key[key] = link
    links = [by_key[k] for k in hash_order(sim, keys)]
    traced = sim.trace_all is not None
    nam = sim.nam_channel is not None
    for link in links:
        link.exposed = True
        if traced:
            link.dynamic_traces += 1
        if nam:
            link.dynamic_nam_traces += 1
    ids = list(dict.fromkeys(str(n.id) for pair in pairs for n in pair))
    model.nodes = [int(k) for k in hash_order(sim, ids)]
    model.links, model.traced, model.nam = links, traced, nam
    sim.rtmodels.append(model)


def hash_order(sim: Simulator, keys: list[str]) -> list[str]:
    """The keys as ``array names`` lists an array filled in this order (Tcl's hash order,
    asked of this interpreter)."""
    tcl = sim.ctx.tcl
    tcl.eval("array unset ::__ac_links")
    for k in keys:
        tcl.call("set", f"::__ac_links({k})", "1")
    order = list(tcl.splitlist(tcl.eval("array names ::__ac_links")))
    tcl.eval("array unset ::__ac_links")
    return [str(k) for k in order]


def rtglib_rng(sim: Simulator) -> Mrg32k3a:
    """``$rtglibRNG`` (tcl/rtglib/route-proto.tcl): ``new RNG``, ``seed 1`` at start-up."""
    if sim.rtglib_rng is None:
        sim.rtglib_rng = Mrg32k3a([1] * 6)
    return sim.rtglib_rng


def _exponential(sim: Simulator) -> float:
    """``RNG instproc exponential`` with mean 1 (tcl/lib/ns-random.tcl)."""
    return -1.0 * math.log((rtglib_rng(sim).next_random() + 1.0) / (MAXINT + 1.0))


def configure(sim: Simulator) -> None:
    """``rtmodel-configure`` at ``$ns run``: each model's first change (``set-first-event``),
    queued among the script's ``$ns at`` events after those the script made."""
    for m in sim.rtmodels:
        if m.kind == "Manual":
            _insq(sim, m.at, m, m.op)
        elif m.kind == "Exponential":
            _set_event(sim, m, m.start + _exponential(sim) * m.up, "down")
        else:
            _set_event(sim, m, m.start + m.up, "down")


def _set_event(sim: Simulator, m: Model, interval: float, op: str) -> None:
    """``rtModel instproc set-event`` / ``set-event-exact``: past ``finishTime_`` only an
    ``up``, at ``finishTime_``."""
    fire = interval + sim.now_s
    if m.finish is not None and fire > m.finish:
        if op == "up":
            _insq(sim, m.finish, m, op)
    else:
        _insq(sim, fire, m, op)


def _insq(sim: Simulator, at: float, m: Model, op: str) -> None:
    """``rtQueue instproc insq``: one ``$ns at`` per time, the changes of that time in order."""
    if sim.now_s >= at:
        return  # "Cannot set event in the past" (ns-2 prints it and goes on)
    if at not in sim.rtq:
        sim.rtq[at] = []
        sim.call_after(at - sim.now_s, partial(_run, sim, at))
    sim.rtq[at].append((m, op))


def _run(sim: Simulator, at: float) -> None:
    """``rtQueue runq``: each queued change in order (the model's ``up`` / ``down``, which
    queues its next change), then each model's ``notify``."""
    now = fmt_double(sim.now_s)
    events = sim.rtq[at]
    for m, op in events:
        for link in m.links:
            _change(sim, link, op == "up", now)
        if m.kind == "Exponential":
            interval = m.up if op == "up" else m.down
            _set_event(sim, m, _exponential(sim) * interval, "down" if op == "up" else "up")
        elif m.kind == "Deterministic":
            _set_event(sim, m, m.up if op == "up" else m.down, "down" if op == "up" else "up")
    del sim.rtq[at]
    if sim.dv is not None:
        # rtModel instproc notify, model by model: `$node intf-changed` on each of its nodes
        # (RouteLogic's notify then calls DV's compute-all, which does nothing).
        for m, _ in events:
            for nid in m.nodes:
                sim.dv.intf_changed(nid)


def _change(sim: Simulator, link: SimplexLink, up: bool, now: str) -> None:
    """``Link instproc up`` / ``down`` on one link direction."""
    sim.write_traces()
    try:
        sim.engine.ns2_set_link(link.index, up)
    except ValueError as e:
        raise Ns2Error(unsupported(f"rtmodel on link {link.name}: {e}")) from None
    link.is_up = up
    sim.write_traces()
    word = "link-up" if up else "link-down"
    a, b = link.src.id, link.dst.id
    if sim.trace_all is not None and link.dynamic_traces:
        sim.ctx.write_channel(sim.trace_all, f"v {now} {word} {a} {b}\n" * link.dynamic_traces)
    if sim.nam_channel is not None and link.dynamic_nam_traces:
        state = "UP" if up else "DOWN"
        sim.ctx.write_channel(sim.nam_channel,
                              (f"l -t {now} -s {a} -d {b} -S {state}\n"
                               f"v -t {now} {word} {now} {a} {b}\n") * link.dynamic_nam_traces)
