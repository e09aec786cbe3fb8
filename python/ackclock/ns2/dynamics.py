"""Links going down and up: ``$ns rtmodel-at <time> up|down $n0 [$n1]``, with static routing.

As ns-2.35 does it (tcl/rtglib/dynamics.tcl, tcl/lib/ns-link.tcl, link/dynalink.cc):

- ``rtmodel-at`` makes an ``rtModel/Manual`` on the link between two nodes (both directions),
  or on every link of one node; if ``trace-all`` or ``namtrace-all`` was called before it,
  the model puts its own trace on each of those links (``trace-dynamics``), so each model
  adds one ``v`` line per link to each change, whichever model made the change;
- at ``$ns run`` (``rtmodel-configure``) each model makes its links dynamic and schedules its
  change with ``$ns at``, after the script's own ``$ns at`` calls; changes of one time run
  together, in the order the models were made (``rtQueue``);
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

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from .errors import Location, Ns2Error, unsupported
from .objects import TclError
from .values import fmt_double, to_float

if TYPE_CHECKING:
    from .simulator import Simulator
    from .topology import Node, SimplexLink


@dataclass
class Model:
    """One ``rtModel/Manual``: its change, links (in ``array names links_`` order) and the
    traces it put on them."""

    at: float
    op: str
    links: list[SimplexLink]
    traced: bool
    nam: bool
    where: Location
    # Its nodes' ids in `array names nodes_` order, whose routing `notify` tells.
    nodes: list[int]


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
    node_ids = [int(k) for k in hash_order(sim, ids)]
    sim.rtmodels.append(Model(when, op, links, traced, nam, sim.ctx.where(), node_ids))


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


def configure(sim: Simulator) -> None:
    """``rtmodel-configure`` at ``$ns run``: each time's changes, scheduled among the
    script's ``$ns at`` events after those the script made."""
    times: dict[float, list[Model]] = {}
    for m in sim.rtmodels:
        times.setdefault(m.at, []).append(m)
    for when, models in times.items():
        sim.call_after(when - sim.now_s, partial(_run, sim, models))


def _run(sim: Simulator, models: list[Model]) -> None:
    """``rtQueue runq``: each model's change, in order."""
    now = fmt_double(sim.now_s)
    for m in models:
        for link in m.links:
            _change(sim, link, m.op == "up", now)
    if sim.dv is not None:
        # rtModel instproc notify, model by model: `$node intf-changed` on each of its nodes
        # (RouteLogic's notify then calls DV's compute-all, which does nothing).
        for m in models:
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
