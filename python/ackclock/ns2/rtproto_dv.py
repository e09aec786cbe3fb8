"""``$ns rtproto DV``: ns-2.35's distance-vector routing, as it behaves in a trace.

ns-2.35 runs it in OTcl (tcl/rtglib/route-proto.tcl) over a small C++ agent
(routing/rtProtoDV.cc); each rule below names the procedure it follows.

- ``$ns run`` (``RouteLogic instproc configure``, ``Agent/rtProto/DV proc init-all``): on
  every node (a list of nodes is not supported: ns-2.35's ``init-all`` fails on more than
  one, ``eval "set nodeslist $args"``) a routing object (``rtObject instproc
  init``: no route to any other node, the null agent in each slot) with its ``Direct``
  protocol (a route to each neighbour over its link, preference 100, metric the link's cost),
  then a DV agent (preference 120); both are agents of the node and take its next two ports.
  Each DV agent's neighbours that run DV are its peers (``add-peer``), believed at
  ``INFINITY`` (32) to every node at first.
- ``Agent/rtProto/DV instproc init``: the first periodic update at uniform(0, 0.5) s of
  ``$rtglibRNG`` (an RNG seeded 1 when ns-2 starts), drawn in node order;
  ``send-periodic-update``: updates to every peer, the next at ``advertInterval`` (2 s) times
  uniform(0.9, 1.1) from now.
- ``send-updates``: to every peer whose link is up (peers in ``lsort -dictionary`` order of
  their nodes' names, that is creation order), or after a change that installed no route,
  only to the peers whose link just came up.
- ``send-to-peer``: the routing object's metric to every node, ``INFINITY`` where it has none
  or where its next hop is the link to that peer (poison reverse). ns-2 keeps the table in a
  Tcl array and sends a packet of type ``rtProtoDV`` whose size is the number of entries (one
  byte per node), flow id 0, no sequence number (``rtProtoDV::sendpkt``); it goes through the
  node's classifier and the link as any packet.
- ``recv-update``: each entry plus the cost of the link toward the sender (at most
  ``INFINITY``) becomes what that peer offers; if any changed, ``compute-routes`` and the
  routing object's ``compute-routes``, which sends updates (``send-updates`` with its number
  of changes).
- ``Agent/rtProto/DV instproc compute-routes``: per node, the current next hop's peer's
  metric is taken again; the best of the peers' offers (lowest preference, then metric; ties
  kept together) replaces the route if better; at equal metric the current next hop stays
  if it is among the best.
- ``rtObject instproc compute-routes``: per node, the best of Direct's and DV's routes
  (lowest preference, then metric); a new next hop is installed in the classifier (ns-2's
  ``add-routes``), no route puts the null agent back (``delete-routes``): what a node has no
  route for is dropped there, untraced.
- ``rtmodel-at`` (tcl/rtglib/dynamics.tcl, ``rtModel instproc notify``): after each time's
  link changes, each model's nodes (``array names nodes_`` order) run ``intf-changed``
  (``rtObject instproc intf-changed``: Direct's routes follow the links; DV believes a peer
  whose link went down at ``INFINITY`` to every node and remembers the peers whose link came
  up), each protocol's ``compute-routes``, then the routing object's.

Where ns-2 chooses among equal new next hops by Tcl's hash order of its link objects' names
(``array names nh``), ackclock takes the link made first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from .dynamics import rtglib_rng
from .errors import Location, Ns2Error, unsupported
from .rng import MAXINT

if TYPE_CHECKING:
    from .simulator import Simulator
    from .topology import Node, SimplexLink

INFINITY = 32  # Agent/rtProto/DV set INFINITY [Agent set ttl_] (ns-default.tcl)
MAXPREF = 255  # rtObject set maxpref_
UNREACH = -1  # rtObject set unreach_
DIRECT_PREF = 100  # Agent/rtProto/Direct set preference_
DV_PREF = 120  # Agent/rtProto/DV set preference_
ADVERT_INTERVAL = 2  # Agent/rtProto/DV set advertInterval
PACKET_TYPE = "rtProtoDV"


def _cost(link: SimplexLink) -> int:
    """``$link cost?``: 1 unless the script set another (``$ns cost``)."""
    return int(link.cost())


@dataclass
class Peer:
    """``rtPeer``: what one neighbour's DV agent offers, per destination node id."""

    node: Node
    port: int
    metric: dict[int, int]
    pref: dict[int, int]


@dataclass
class Direct:
    """``Agent/rtProto/Direct``: routes to the neighbours over their links."""

    ifs: dict[int, SimplexLink]
    nh: dict[int, SimplexLink | None]
    pref: dict[int, int]
    metric: dict[int, int]
    rts_changed: int = 0

    def compute_routes(self) -> None:
        """``Agent/rtProto/Direct instproc compute-routes``."""
        self.rts_changed = 0
        for nbr, link in self.ifs.items():
            if self.nh[nbr] is None and link.is_up:
                self.nh[nbr] = link
                self.metric[nbr] = _cost(link)
                self.rts_changed += 1
            elif self.nh[nbr] is not None and not link.is_up:
                self.nh[nbr] = None
                self.metric[nbr] = -1
                self.rts_changed += 1


@dataclass
class DvNode:
    """One node's routing object (``rtObject``) with its Direct and DV protocols."""

    node: Node
    direct: Direct
    dv_port: int
    # rtObject's table: next hop (link), preference, metric and protocol ("Direct", "DV",
    # "" for none) per destination node id.
    nh: dict[int, SimplexLink | None] = field(default_factory=dict)
    pref: dict[int, int] = field(default_factory=dict)
    metric: dict[int, int] = field(default_factory=dict)
    via: dict[int, str] = field(default_factory=dict)
    # Agent/rtProto/DV's state.
    ifs: dict[int, SimplexLink] = field(default_factory=dict)
    ifstat: dict[int, bool] = field(default_factory=dict)
    peers: dict[int, Peer] = field(default_factory=dict)  # in peer order
    dv_pref: dict[int, int] = field(default_factory=dict)
    dv_nh: dict[int, SimplexLink | None] = field(default_factory=dict)
    dv_peer: dict[int, Peer | None] = field(default_factory=dict)
    dv_metric: dict[int, int] = field(default_factory=dict)
    dv_changed: int = 0
    ifs_up: list[int] = field(default_factory=list)
    flows: dict[int, int] = field(default_factory=dict)  # peer node id -> engine flow


class DvChannel:
    """The engine's host flow from one DV agent to one peer (callbacks.py): the tables it
    carries, by packet number (``payloads``), as ns-2 keeps each message in
    ``Agent/rtProto/DV``'s ``msg_`` array until it arrives."""

    def __init__(self, routing: DvRouting, src: DvNode, dst: DvNode, where: Location):
        self.routing = routing
        self.src = src
        self.dst = dst
        self.payloads: dict[int, Any] = {}
        self.created_at = where

    def arrived(self, src: int, payload: Any) -> None:
        """The update reached the peer's agent: ``rtProtoDV::recv`` calls ``recv-update``."""
        self.routing.recv_update(self.dst, src, payload)


class DvRouting:
    """Every node's DV routing of one simulation."""

    def __init__(self, sim: Simulator, where: Location):
        self.sim = sim
        self.where = where
        self.rows: dict[int, DvNode] = {}
        self.order: list[int] = []  # the DV nodes' ids in init-all's order
        self.index: dict[str, int] = {}  # the engine's flows by name, once resolved

    def uniform(self, a: float, b: float) -> float:
        """``RNG instproc uniform``."""
        return a + (b - a) * (rtglib_rng(self.sim).next_random() * 1.0 / MAXINT)

    # -- before the engine is built -------------------------------------------------------

    def prepare(self) -> list[tuple[str, Node, Node, int, int]]:
        """``rtObject init-all`` and the DV agents' ports: each DV node's Direct agent, then
        (after every node's) its DV agent, take the node's next ports. Returns the flows the
        agents send on: (name, from, to, from port, to port), one per agent and peer."""
        sim = self.sim
        everyone = nodes = sorted(sim.nodes, key=lambda n: n.id)  # `all-nodes-list`
        tcl = sim.ctx.tcl
        multi = [str(tcl.eval("Node set multiPath_"))] \
            if tcl.eval("catch {Node set multiPath_}") == "0" else []
        multi += [str(n.vars["multiPath_"]) for n in nodes if "multiPath_" in n.vars]
        if any(v not in ("0", "false") for v in multi):
            # Agent/rtProto/DV instproc compute-routes keeps every equal next hop then.
            raise Ns2Error(unsupported("rtproto DV with multiPath_ (several next hops)"),
                           self.where)
        for lk in sim.links:
            if (lk.dst.id, lk.src.id) not in sim.by_ends:
                # Its far end has no peer for the near one: ns-2.35's recv-update stops the
                # run at the first update across it ("... from unknown peer").
                raise Ns2Error(unsupported(f"rtproto DV over a one-way link ({lk.src.id} ->"
                                           f" {lk.dst.id})"), self.where)
        for n in nodes:  # each rtObject's Direct agent
            n.next_port += 1
        for n in nodes:
            links = {lk.dst.id: lk for lk in sim.links if lk.src is n}
            ifs = {d: sim.by_ends[(n.id, d)] for d in links}
            row = DvNode(node=n, dv_port=n.next_port,
                         direct=Direct(ifs=ifs, nh={}, pref={}, metric={}))
            n.next_port += 1
            self.rows[n.id] = row
            self.order.append(n.id)
        flows = []
        for nid in self.order:
            row = self.rows[nid]
            for d in sorted(row.direct.ifs):
                if d not in self.rows:
                    continue
                peer = self.rows[d]
                row.ifs[d] = row.direct.ifs[d]
                row.peers[d] = Peer(node=peer.node, port=peer.dv_port,
                                    metric={m.id: INFINITY for m in everyone},
                                    pref={m.id: DV_PREF for m in everyone})
                flows.append((f"rtProtoDV {row.node.name}->{peer.node.name}", row.node,
                              peer.node, row.dv_port, peer.dv_port))
        return flows

    # -- once the engine is built ----------------------------------------------------------

    def start(self) -> None:
        """Once the engine is built: each agent-to-peer flow becomes its host flow of type
        rtProtoDV; the routes become the routing objects' (``rtObject proc init-all``)."""
        sim = self.sim
        for nid in self.order:
            row = self.rows[nid]
            for d in row.peers:
                flow = self.index[f"rtProtoDV {row.node.name}->{self.rows[d].node.name}"]
                sim.engine.host_flow(flow, PACKET_TYPE, False)
                sim.host_agents[flow] = DvChannel(self, row, self.rows[d], self.where)
                row.flows[d] = flow
        sim.engine.ns2_dynamic_routes()
        ids = [n.id for n in sim.nodes]
        for nid in self.order:  # rtObject instproc init
            row = self.rows[nid]
            for d in ids:
                row.nh[d] = None
                if d == nid:
                    row.pref[d], row.metric[d], row.via[d] = 0, 0, "Local"
                else:
                    row.pref[d], row.metric[d], row.via[d] = MAXPREF, UNREACH, ""
            dr = row.direct  # Agent/rtProto/Direct instproc init
            for d in ids:
                dr.pref[d], dr.nh[d], dr.metric[d] = MAXPREF, None, -1
            for d in dr.ifs:
                dr.pref[d] = DIRECT_PREF
            dr.compute_routes()
        for nid in self.order:  # rtObject proc init-all: each object's compute-routes
            self.rt_compute_routes(self.rows[nid], dv=False)

    def schedule(self) -> None:
        """``Agent/rtProto/DV instproc init`` on each node in turn (``$ns run``, after
        ``rtmodel-configure``): the first periodic update's time."""
        sim = self.sim
        ids = [n.id for n in sim.nodes]
        for nid in self.order:
            row = self.rows[nid]
            for d in ids:
                row.dv_pref[d], row.dv_nh[d], row.dv_peer[d] = DV_PREF, None, None
                row.dv_metric[d] = UNREACH
            row.ifstat = {d: lk.is_up for d, lk in row.ifs.items()}
            first = self.uniform(0.0, 0.5)
            sim.call_after(first - sim.now_s, partial(self.periodic, row))

    # -- the agents' procedures --------------------------------------------------------------

    def periodic(self, row: DvNode) -> None:
        """``send-periodic-update``."""
        self.send_updates(row, 1)
        sim = self.sim
        now = sim.now_s
        at = now + ADVERT_INTERVAL * self.uniform(0.9, 1.1)
        sim.call_after(at - now, partial(self.periodic, row))

    def send_updates(self, row: DvNode, changes: int) -> None:
        """``Agent/rtProto/DV instproc send-updates``."""
        to = list(row.peers) if changes else row.ifs_up
        row.ifs_up = []
        for nbr in to:
            if row.ifs[nbr].is_up:
                self.send_to_peer(row, nbr)

    def send_to_peer(self, row: DvNode, nbr: int) -> None:
        """``send-to-peer``: the table with poison reverse, one byte per entry."""
        link = row.ifs[nbr]
        update = {}
        for d, metric in row.metric.items():
            if metric < 0 or row.nh[d] is link:
                update[d] = INFINITY
            else:
                update[d] = metric
        sim = self.sim
        ch = sim.host_agents[row.flows[nbr]]
        sim.host_tag += 1
        ch.payloads[sim.host_tag] = update
        sim.engine.host_send(row.flows[nbr], len(update), None, -1, sim.host_tag)

    def recv_update(self, row: DvNode, src: int, metrics: dict[int, int] | None) -> None:
        """``recv-update``: the peer's table, plus the cost of the link to it."""
        if metrics is None or src not in row.peers:
            return
        peer = row.peers[src]
        cost = _cost(row.ifs[src])
        changed = 0
        for d, m in metrics.items():
            metric = min(m + cost, INFINITY)
            if metric != peer.metric[d]:
                peer.metric[d] = metric
                changed += 1
        if changed:
            self.dv_compute_routes(row)
            row.dv_changed += changed
            self.rt_compute_routes(row)

    def dv_compute_routes(self, row: DvNode) -> None:
        """``Agent/rtProto/DV instproc compute-routes``."""
        row.dv_changed = 0
        for d in row.dv_metric:
            p = row.dv_peer[d]
            if p is not None:
                row.dv_metric[d] = p.metric[d]
                row.dv_pref[d] = p.pref[d]
            pf, mt = MAXPREF, INFINITY
            best: dict[int, tuple[SimplexLink, Peer]] = {}  # by link index: ns-2's nh
            for nbr, peer in row.peers.items():
                pmt, ppf = peer.metric[d], peer.pref[d]
                if pmt < 0 or pmt >= INFINITY or ppf > pf or pmt > mt:
                    continue
                if ppf < pf or pmt < mt:
                    pf, mt = ppf, pmt
                    best = {}
                link = row.ifs[nbr]
                best[link.index] = (link, peer)
            if pf == MAXPREF and mt == INFINITY:
                continue
            if pf > row.dv_pref[d] or (row.dv_metric[d] >= 0 and mt > row.dv_metric[d]):
                continue
            if mt >= INFINITY:
                mt = UNREACH
            row.dv_changed += 1
            better = pf < row.dv_pref[d] or mt < row.dv_metric[d]
            row.dv_pref[d], row.dv_metric[d] = pf, mt
            current = row.dv_nh[d]
            if not better and current is not None and current.index in best:
                row.dv_peer[d] = best[current.index][1]  # the current next hop stays
                continue
            link, peer = best[min(best)]
            row.dv_nh[d], row.dv_peer[d] = link, peer

    def rt_compute_routes(self, row: DvNode, dv: bool = True) -> None:
        """``rtObject instproc compute-routes``: the best of the protocols' routes, installed
        in the node's classifier; then each protocol's ``send-updates``."""
        dr = row.direct
        if not dr.rts_changed and not (dv and row.dv_changed):
            return
        dr.rts_changed = 0
        if dv:
            row.dv_changed = 0
        protos: list[tuple[str, dict[int, SimplexLink | None], dict[int, int],
                           dict[int, int]]] = [("Direct", dr.nh, dr.pref, dr.metric)]
        if dv:
            protos.append(("DV", row.dv_nh, row.dv_pref, row.dv_metric))
        engine = self.sim.engine
        nid = row.node.id
        changes = 0
        for d in row.nh:
            if d == nid:
                continue
            nh: SimplexLink | None = None
            pf, mt, rv = MAXPREF, UNREACH, ""
            for name, pnhs, pprefs, pmetrics in protos:
                pnh = pnhs[d]
                if pnh is None:
                    continue
                ppf, pmt = pprefs[d], pmetrics[d]
                if ppf < pf or (ppf == pf and pmt < mt) or mt < 0:
                    nh, pf, mt, rv = pnh, ppf, pmt, name
            if nh is None:
                if row.nh[d] is not None:  # no route: the null agent again
                    engine.ns2_set_route(nid, d, None)
                    row.nh[d], row.pref[d], row.metric[d], row.via[d] = None, pf, mt, rv
                    changes += 1
                continue
            if rv == row.via[d]:
                if nh is not row.nh[d]:
                    engine.ns2_set_route(nid, d, nh.index)
                    row.nh[d] = nh
                    changes += 1
                if mt != row.metric[d]:
                    row.metric[d] = mt
                    changes += 1
                row.pref[d] = pf
                continue
            if row.via[d] == "Direct":  # the protocol that had the route: its values now
                row.nh[d], row.pref[d], row.metric[d] = dr.nh[d], dr.pref[d], dr.metric[d]
            elif row.via[d] == "DV":
                row.nh[d], row.pref[d] = row.dv_nh[d], row.dv_pref[d]
                row.metric[d] = row.dv_metric[d]
            if row.pref[d] != pf or row.metric[d] != mt:
                engine.ns2_set_route(nid, d, nh.index)
                row.nh[d], row.pref[d], row.metric[d], row.via[d] = nh, pf, mt, rv
                changes += 1
        if dv:
            self.send_updates(row, changes)

    def intf_changed(self, nid: int) -> None:
        """``rtObject instproc intf-changed`` on node ``nid`` (if it runs DV)."""
        row = self.rows.get(nid)
        if row is None:
            return
        row.direct.compute_routes()
        row.ifs_up = []  # Agent/rtProto/DV instproc intf-changed
        for nbr, link in row.ifs.items():
            if link.is_up != row.ifstat[nbr]:
                row.ifstat[nbr] = link.is_up
                if not link.is_up:
                    peer = row.peers[nbr]
                    for d in peer.metric:
                        peer.metric[d] = INFINITY
                else:
                    row.ifs_up.append(nbr)
        self.dv_compute_routes(row)
        self.rt_compute_routes(row)
