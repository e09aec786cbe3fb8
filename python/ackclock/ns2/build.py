"""Turns the script's objects into a scenario (``ackclock.scenario``) for the engine."""

from __future__ import annotations

import heapq
import math
from typing import TYPE_CHECKING

from .. import apps
from ..errors import ScenarioError
from ..profiles import TCP_CHOICES
from ..scenario import (
    Bernoulli,
    Flow,
    Link,
    Node,
    QueueConfig,
    RunConfig,
    Scenario,
    loss_from_table,
)
from .agents import (
    Agent,
    Cbr,
    Ftp,
    FullTcpAgent,
    NullAgent,
    OnOff,
    TcpAgent,
    TcpSink,
    UdpAgent,
)
from .callbacks import HostAgent
from .errmodule import ErrorModule, ListErrorModel, PeriodicErrorModel
from .errors import Location, Ns2Error, unsupported
from .rap import RapAgent
from .telnet import Telnet
from .tfrc import TfrcAgent, TfrcSinkAgent
from .tmix import TMIX_AGENTS, DelayBox, TmixEnd
from .topology import ErrorModel
from .values import to_bool, to_float, to_int

if TYPE_CHECKING:
    from .simulator import Simulator
    from .topology import SimplexLink

# The engine's clock counts picoseconds in 64 bits, so it ends after about 213 days; the run
# is given (nearly) all of it: ns-2 has no end time, a script ends where its events end.
HORIZON_S = 18_000_000
# Applications start only when the script says so: their configured start is past the end.
NEVER = f"{HORIZON_S + 1}s"
# The agents an engine flow is made from (their sinks share it).
SENDERS = (TcpAgent, UdpAgent, TfrcAgent, RapAgent)


def _check_delay_link(sim: Simulator, link: SimplexLink) -> None:
    """ns-2.35's ``DelayLink`` ``avoidReordering_`` (link/delay.cc ``LinkDelay::recv``: a
    packet never arrives before one sent earlier after a bandwidth or delay change) is not
    modelled: a script that sets it stops rather than run differently."""
    value = sim.ctx.classes.get("DelayLink", "avoidReordering_")
    if value is not None and to_bool(value):
        raise Ns2Error(unsupported("DelayLink avoidReordering_ true"), link.where)


def build_scenario(sim: Simulator, name: str) -> Scenario:
    nodes = [Node(n.name) for n in sim.nodes]
    links: list[Link] = []
    # (link index, its ErrorModules in order): their loss needs the flows' names
    modules: list[tuple[int, list[ErrorModule]]] = []
    bare = []  # (link index, ErrorModel/List): likewise
    for link in sim.links:
        _check_delay_link(sim, link)
        loss = None
        if isinstance(link.loss, ErrorModule):
            behind = [m for m in link.loss_behind if isinstance(m, ErrorModule)]
            modules.append((len(links), [link.loss, *behind]))
        elif isinstance(link.loss, ListErrorModel):
            bare.append((len(links), link.loss))
        elif isinstance(link.loss, PeriodicErrorModel):
            raise Ns2Error(unsupported(f"{link.loss.cls} as a link's loss model (only in an"
                                       " ErrorModule bound to a flow id)"), link.loss_where)
        elif link.loss is not None:
            for var in ("markecn_", "delay_pkt_"):
                if to_bool(link.loss.vars.get(var, "false")):
                    raise Ns2Error(unsupported(f"{link.loss.cls} {var} true as a link's loss"
                                               " model (only in an ErrorModule)"),
                                   link.loss_where)
            unit = "byte" if link.loss.unit == "byte" else None
            loss = Bernoulli(p=link.loss.probability(), unit=unit)
        links.append(Link(
            from_=link.src.name, to=link.dst.name, rate=link.rate_bps,
            delay=f"{link.delay_ps}ps",
            queue=QueueConfig(kind=link.queue.kind,
                              limit=_with_delayer_slot(link),
                              limit_bytes=link.queue.limit_bytes(),
                              ecn=link.queue.ecn(), params=link.queue.params(),
                              diffserv=_diffserv(sim, link)),
            duplex=False, loss=loss, monitor_flows=link.monitor_flows,
            loss_at_entry=link.loss_at_entry,
            origin=f"{link.where}|{link.name}"))
    flows: list[Flow] = []
    owners: set[int] = set()  # the agents whose flow is their own
    for agent in sim.agents:
        flow = _flow(agent)
        if flow is not None:
            agent.flow = len(flows)
            owners.add(id(agent))
            # A sink shares its sender's flow; an agent with its own (an Agent/UDP that may
            # send data back, udp_data.py) keeps it.
            if agent.peer is not None and not isinstance(agent.peer, NullAgent) \
                    and id(agent.peer) not in owners:
                agent.peer.flow = len(flows)
            flows.append(flow)
    for t in sim.tmix:
        flow = _tmix_flow(sim, t)
        if flow is not None:
            t.flow = len(flows)
            flows.append(flow)
    if sim.dv is not None:
        # The DV agents' updates to their peers (rtproto_dv.py): a host flow per agent and
        # peer, its packets one byte per node.
        for name, a, b, pa, pb in sim.dv.prepare():
            flows.append(Flow(name=name, kind="udp", from_=a.name, to=b.name,
                              app=apps.Cbr(start=NEVER, interval="1s", packet_size=1),
                              header_size=0, fid=0, ports=[pa, pb],
                              origin=f"{sim.dv.where}|rtproto DV"))
    if modules:
        fids: dict[int, list[str]] = {}
        for agent in sim.agents:
            if isinstance(agent, SENDERS) and agent.flow is not None:
                names = fids.setdefault(_fid(agent), [])
                # Both ends of a FullTcp connection are one flow.
                if flows[agent.flow].name not in names:
                    names.append(flows[agent.flow].name)
        two_way = {f.name for f in flows if f.two_way}
        for i, chain in modules:
            rate_model = chain[0].sole_rate_model() if len(chain) == 1 else None
            if rate_model is not None:
                links[i].loss = _module_rate_loss(sim, sim.links[i], chain[0], rate_model,
                                                  flows)
                continue
            stages = []
            for em in chain:
                models = em.loss_for(fids, two_way, _initiator_side(sim, sim.links[i], flows))
                # A module no flow's packets reach: as if absent.
                for table in models:
                    if "delay" in table and not sim.links[i].loss_at_entry:
                        raise Ns2Error(unsupported("a loss model delaying the packets it"
                                                   " takes (delay_pkt_) after the link"
                                                   " ($ns link-lossmodel)"),
                                       sim.links[i].loss_where)
                    if (len(chain) > 1 or len(models) > 1) \
                            and (table["flow"] in two_way or em.retargeted):
                        raise Ns2Error(unsupported("a FullTcp connection's or a retargeted"
                                                   " module among several loss models on"
                                                   f" link {sim.links[i].name}"),
                                       em.created_at)
                    _on_acks_path(sim, sim.links[i], table, flows)
                    stages.append(loss_from_table(str(table["kind"]), table))
            if stages:
                # The first met numbers the flow's packets as the engine's drop_list does;
                # those behind it count what reaches them (ListErrorModel::corrupt's cnt_).
                links[i].loss = stages[0]
                links[i].loss_behind = stages[1:] or None
    for i, model in bare:
        d = _bare_list_loss(sim, sim.links[i], model, flows)
        if d is not None:
            links[i].loss = loss_from_table("drop_list", d)
    if any(lk.queue.kind == "cbq" for lk in sim.links):
        # CBQ links bind classes to flow ids (`$cbqlink bind`): each flow id's flows.
        from .cbq import classes

        of_fid: dict[int, list[str]] = {}
        for agent in sim.agents:
            if isinstance(agent, SENDERS) and agent.flow is not None:
                names = of_fid.setdefault(_fid(agent), [])
                if flows[agent.flow].name not in names:
                    names.append(flows[agent.flow].name)
        for i, lk in enumerate(sim.links):
            if lk.queue.kind == "cbq":
                links[i].queue.classes = classes(lk, of_fid)
    return Scenario(name=name, profile="ns2",
                    run=RunConfig(duration=f"{HORIZON_S}s", seed=sim.seed(),
                                  max_packets=2**63, ties="ns2", routing="ns2"),
                    nodes=nodes, links=links, flows=flows, source=sim.ctx.script,
                    quick_start=_quick_start(sim))


def _diffserv(sim: Simulator, link: SimplexLink) -> dict[str, object] | None:
    """A dsRED queue's tables (diffserv.py), its policies' nodes by their scenario names."""
    from .diffserv import DsQueue

    if not isinstance(link.queue, DsQueue):
        return None
    return link.queue.diffserv(
        lambda i: sim.nodes[i].name if 0 <= i < len(sim.nodes) else None)


def _quick_start(sim: Simulator) -> dict[str, object] | None:
    """The nodes' Quick-Start agents (`$ns node-config -QS ON`; qs/qsagent.cc) as the
    engine's routers: each agent's variables, and the utilisation measure of the queues of
    the links out of its node (queue/queue.cc: `util_weight_`, `util_check_intv_`,
    `util_records_`, which those queues must share). ns-2's `rate_function_` is one static
    variable, which each agent made sets from the class's value: the last one's."""
    agents = [(n, n.qs_agent) for n in sim.nodes if n.qs_agent is not None]
    if not agents:
        return None
    routers = []
    for node, qa in agents:
        try:
            r: dict[str, object] = {
                "node": node.name,
                "enabled": to_int(qa.vars["qs_enabled_"]) != 0,
                "algorithm": to_int(qa.vars["algorithm_"]),
                "alloc_rate": to_float(qa.vars["alloc_rate_"]),
                "threshold": to_float(qa.vars["threshold_"]),
                "max_rate": to_int(qa.vars["max_rate_"]),
                "state_delay": to_float(qa.vars["state_delay_"]),
            }
        except ValueError as e:
            raise Ns2Error(f"{qa.cls}: {e}", qa.created_at) from None
        util = None
        for link in sim.links:
            if link.src is not node:
                continue
            q = link.queue
            try:
                this = (to_float(q.vars["util_weight_"]), to_float(q.vars["util_check_intv_"]),
                        to_int(q.vars["util_records_"]))
            except ValueError as e:
                raise Ns2Error(f"{q.cls}: {e}", q.created_at) from None
            if util is not None and this != util:
                raise Ns2Error(unsupported("queues out of one Quick-Start node with different"
                                           " util_weight_, util_check_intv_ or util_records_"),
                               q.created_at)
            util = this
        if util is not None:
            r["util_weight"], r["util_interval"], r["util_records"] = util
        routers.append(r)
    rate_function = to_int(agents[-1][1].vars["rate_function_"])
    return {"rate_function": "exponential" if rate_function == 2 else "linear",
            "router": routers}


def _hops(sim: Simulator, start: str) -> dict[str, float]:
    """Distances from node `start` over the simplex links (ns-2's static routing: hop counts,
    or the sums of the links' costs, `$ns cost`)."""
    dist = {start: 0.0}
    done: set[str] = set()
    heap = [(0.0, start)]
    while heap:
        d, n = heapq.heappop(heap)
        if n in done:
            continue
        done.add(n)
        for lk in sim.links:
            if lk.src.name == n:
                via = d + lk.cost()
                if via < dist.get(lk.dst.name, math.inf):
                    dist[lk.dst.name] = via
                    heapq.heappush(heap, (via, lk.dst.name))
    return dist


def _crosses(sim: Simulator, link: SimplexLink, src: str, dst: str) -> bool:
    """Whether packets from node `src` to node `dst` cross `link` (static routing: the link
    lies on a shortest path, by hop count or by the links' costs)."""
    d = _hops(sim, src)
    back = _hops(sim, link.dst.name)
    a = link.src.name
    return dst in d and a in d and dst in back \
        and math.isclose(d[a] + link.cost() + back[dst], d[dst])


def _on_acks_path(sim: Simulator, link: SimplexLink, d: dict[str, object],
                  flows: list[Flow]) -> None:
    """ns-2.35's ErrorModule classifies by `fid_`, which a TCP sink copies into its ACKs
    (`TcpSink::ack`), so on a link that only a one-way flow's ACKs cross, its model counts and
    takes ACKs: the engine's `drop_list` with `acks` (set in `d`), marking them CE with
    `markecn_` (ErrorModel::recv; the sender reads no CE on ACKs) or delaying them
    (`ErrorModel::recv` schedules them to its target)."""
    flow = next((f for f in flows if f.name == d.get("flow")), None)
    if flow is None or flow.two_way or flow.kind == "udp":
        return
    if _crosses(sim, link, flow.from_, flow.to) or not _crosses(sim, link, flow.to, flow.from_):
        return
    d["acks"] = True


def _module_rate_loss(sim: Simulator, link: SimplexLink, em: ErrorModule,
                      model: ErrorModel, flows: list[Flow]) -> Bernoulli | None:
    """An ErrorModel (`ErrorModel/Uniform`) bound in an ErrorModule to flow ids that every
    packet crossing the link carries: `ErrorModule::recv` hands each to the model, which
    draws for it as a model on the link by itself does (`ErrorModel::CorruptPkt`), so it is
    the link's Bernoulli loss. A flow crossing the link with another flow id (which would pass
    without a draw), or the ACKs of one crossing it, is not supported."""
    for f in flows:
        data = _crosses(sim, link, f.from_, f.to)
        back = f.kind != "udp" and _crosses(sim, link, f.to, f.from_)
        if not (data or back):
            continue
        index = flows.index(f)
        fid = next((_fid(a) for a in sim.agents if a.flow == index
                    and isinstance(a, SENDERS)), -1)
        if back or f.two_way or em.bound.get(fid) is not model:
            raise Ns2Error(unsupported(f"an {model.cls} in an ErrorModule on link {link.name}"
                                       f" that flow {f.name}'s packets cross"
                                       f"{' in its reverse direction' if back else ''} without"
                                       " a draw (only every crossing flow's data, bound)"),
                           em.created_at)
    for var in ("markecn_", "delay_pkt_"):
        if to_bool(model.vars.get(var, "false")):
            raise Ns2Error(unsupported(f"{model.cls} {var} true in an ErrorModule"),
                           model.created_at)
    p = model.probability()
    if p == 0:
        return None
    return Bernoulli(p=p, unit="byte" if model.unit == "byte" else None)


def _fid_of(sim: Simulator, flow: Flow, flows: list[Flow]) -> int:
    index = flows.index(flow)
    return next((_fid(a) for a in sim.agents if a.flow == index and isinstance(a, TcpAgent)), -1)


def _bare_list_loss(sim: Simulator, link: SimplexLink, model: ListErrorModel,
                    flows: list[Flow]) -> dict[str, object] | None:
    """An ErrorModel/List placed on a link by itself (`$ns lossmodel`, `link-lossmodel`):
    ns-2.35's `ListErrorModel::corrupt` numbers every packet that crosses the link (from 0).
    When the data of exactly one flow and nothing else cross it (static routing by hop
    count; its ACKs go the other way), that numbering is the flow's: the engine's
    `drop_list` on that flow, as for a List bound in an ErrorModule (errmodule.py); when only
    one one-way flow's ACKs cross it, the list numbers those ACKs (`acks`)."""
    if not model.drops:
        return None
    data = [f for f in flows if _crosses(sim, link, f.from_, f.to)]
    acks = [f for f in flows if f.kind != "udp" and _crosses(sim, link, f.to, f.from_)]
    if not data and len(acks) == 1 and not acks[0].two_way:
        # Only one one-way flow's ACKs cross: the model numbers them.
        data, acks, on_acks = acks, [], True
    else:
        on_acks = False
    if len(data) != 1 or acks or data[0].two_way:
        raise Ns2Error(unsupported(f"{model.cls} as a link's loss model, crossed by"
                                   f" {len(data)} flows' data and {len(acks)} flows' ACKs"
                                   " (only one one-way flow's data or ACKs)"), link.loss_where)
    for var in ("markecn_", "delay_pkt_"):
        if to_bool(model.vars.get(var, "false")):
            raise Ns2Error(unsupported(f"{model.cls} {var} true as a link's loss model (only"
                                       " in an ErrorModule)"), link.loss_where)
    out: dict[str, object] = {"kind": "drop_list", "flow": data[0].name,
                              "packets": [n + 1 for n in model.drops]}
    if on_acks:
        out["acks"] = True
    return out


def _initiator_side(sim: Simulator, link: SimplexLink, flows: list[Flow]) -> set[str]:
    """The two-way connections whose initiator's packets cross `link` (static routing by
    hop count: the link leads away from the initiator's node)."""
    out = set()
    for f in flows:
        if not f.two_way:
            continue
        hops = {f.from_: 0}
        frontier = [f.from_]
        while frontier:
            nxt = []
            for n in frontier:
                for lk in sim.links:
                    if lk.src.name == n and lk.dst.name not in hops:
                        hops[lk.dst.name] = hops[n] + 1
                        nxt.append(lk.dst.name)
            frontier = nxt
        if hops.get(link.src.name, -1) + 1 == hops.get(link.dst.name):
            out.add(f.name)
    return out


def _flow(agent: object) -> Flow | None:
    if isinstance(agent, FullTcpAgent):
        return _full_flow(agent)
    if isinstance(agent, TcpAgent):
        return _tcp_flow(agent)
    if isinstance(agent, UdpAgent):
        return _udp_flow(agent)
    if isinstance(agent, TfrcAgent):
        return _tfrc_flow(agent)
    if isinstance(agent, RapAgent):
        return _rap_flow(agent)
    if isinstance(agent, HostAgent):
        return _host_flow(agent)
    return None


def _host_flow(agent: HostAgent) -> Flow | None:
    """An agent whose arrivals call back (callbacks.py): the engine's host flow to the agent
    it is connected to, whose packets the agent sends one at a time (its CBR never starts)."""
    ends = _endpoints(agent)  # type: ignore[arg-type]
    peer = agent.peer
    if ends is None and agent.anywhere and agent.node is not None and peer is None:
        # Not connected, sending anywhere (MessagePassing's sendto): a flow to a neighbour.
        near = next((lk.dst for lk in agent.sim().links if lk.src is agent.node), None)
        if near is None:
            return None
        ends = (agent.node.name, near.name)
        ports = [agent.port, agent.port]
    elif ends is None:
        return None
    else:
        ports = _ports(agent)  # type: ignore[arg-type]
        # Data sent to an Agent/Null goes to it and no further (udp_data.py).
        if not isinstance(peer, type(agent)) and not isinstance(agent, type(peer)) \
                and not (isinstance(agent, UdpAgent) and type(peer) is NullAgent):
            raise Ns2Error(unsupported(f"{agent.cls} connected to {peer.cls if peer else '?'}"
                                       f" (only to another {agent.cls})"), agent.created_at)
    agent.check_vars({"packetSize_"})
    agent.hosted = True
    app = apps.Cbr(start=NEVER, interval="1s", packet_size=max(1, agent.packet_size()))
    return Flow(name=agent.handle, kind="udp", from_=ends[0], to=ends[1], app=app,
                header_size=0, fid=_fid(agent), ports=ports,
                origin=f"{agent.created_at}|{agent.cls} {agent.handle}")


def _endpoints(agent: TcpAgent | UdpAgent) -> tuple[str, str] | None:
    peer = agent.peer
    if peer is None:
        return None
    if agent.node is None or peer.node is None:
        raise Ns2Error(f"agent {agent.handle} or its peer is connected but not attached to a"
                       " node", agent.created_at)
    if agent.node is peer.node:
        raise Ns2Error(unsupported("a connection within one node"), agent.created_at)
    return agent.node.name, peer.node.name


def _tcp_flow(agent: TcpAgent) -> Flow | None:
    ends = _endpoints(agent)
    if ends is None:
        return None
    sink = agent.peer
    if not isinstance(sink, TcpSink):
        raise Ns2Error(f"TCP agent {agent.handle} is connected to a {sink.cls if sink else '?'}"
                       ", not a TCPSink", agent.created_at)
    if agent.app is not None and not isinstance(agent.app, Ftp | Telnet | Cbr | OnOff):
        raise Ns2Error(unsupported(f"{agent.app.cls} over TCP (only Application/FTP,"
                                   " Telnet, Traffic/CBR, /Exponential and /Pareto)"),
                       agent.app.created_at)
    params = agent.tcp_params()
    params.update(sink.sink_params())
    variant, cc = agent.variant, agent.cc
    for key, value, where in (("variant", variant, agent.created_at),
                              ("cc", cc, agent.cc_where)):
        if value not in TCP_CHOICES[key]:
            what = "loss recovery" if key == "variant" else "congestion control"
            raise Ns2Error(unsupported(f"{what} {value!r} ({agent.cls})"), where)
    sink_kind = params.pop("sink")
    return Flow(name=agent.handle, kind="tcp", from_=ends[0], to=ends[1], variant=variant,
                cc=cc, sink=str(sink_kind), tcp=params,
                app=apps.Ftp(start=NEVER),
                trace=[v.rstrip("_") for v in agent.traced] or None,
                fid=_fid(agent), ports=_ports(agent),
                origin=f"{agent.created_at}|{agent.cls} {agent.handle}")


def _ports(agent: TcpAgent | UdpAgent) -> list[int]:
    """The agents' ns-2 port numbers, given in the order the script attached them."""
    assert agent.peer is not None
    return [agent.port, agent.peer.port]


def _full_flow(agent: FullTcpAgent) -> Flow | None:
    """Two connected FullTcp agents: one two-way connection, from the end that opens it."""
    ends = _endpoints(agent)
    if ends is None or not agent.initiator():
        return None
    peer = agent.peer
    if not isinstance(peer, FullTcpAgent):
        raise Ns2Error(f"{agent.cls} {agent.handle} is connected to a"
                       f" {peer.cls if peer else '?'}, not a FullTcp agent", agent.created_at)
    if agent.app is not None and peer.app is not None and not (agent.listening
                                                              or peer.listening):
        # Both ends would connect (FullTcpAgent::advance_bytes in CLOSED): a simultaneous
        # open, SYNs crossing.
        raise Ns2Error(unsupported("FullTcp applications on both ends of a connection that"
                                   " neither end listens on (a simultaneous open)"),
                       peer.app.created_at)
    for a in (agent, peer):
        if a.app is not None and not isinstance(a.app, Ftp):
            raise Ns2Error(unsupported(f"{a.app.cls} over FullTcp (only Application/FTP)"),
                           a.app.created_at)
    params = agent.tcp_params()
    peer.tcp_params()  # its own variables must be ones ackclock runs, too
    # FullTcpAgent::headersize: every segment of an agent, its SYN and pure ACKs included,
    # carries tcpip_base_hdr_size_, with timestamps_ ts_option_size_ more (sendpacket).
    params["header_size"] = agent.headersize()
    params["ack_size"] = peer.headersize()
    variant = agent.variant
    sink = "sack" if variant == "sack" else "ack-every"
    # The connection's receivers acknowledge as the listener (the receiver of the opening
    # side's data) does, FullTcpAgent::need_send: every segsperack_ full segments, else at
    # the next tick of its delayed-ACK timer (interval_; the engine's delayed ACK under
    # ns2_full_tcp). The engine has one rule for both directions: the opening side's must be
    # the same where the listener sends data too.
    per_ack, interval = peer.acks()
    if peer.app is not None and agent.acks() != (per_ack, interval) \
            and max(per_ack, agent.acks()[0]) > 1:
        raise Ns2Error(unsupported("FullTcp agents of one connection acknowledging"
                                   " differently (segsperack_, interval_) with data both"
                                   " ways"), agent.created_at)
    # need_send counts bytes: with segsperack_ 1 a full segment is acknowledged at once, a
    # short one (a byte stream's, engine tcp/sender/stream.rs) waits for the timer's tick.
    if per_ack > 1 or interval > 0:
        params["segs_per_ack"] = per_ack
        params["ack_delay"] = f"{interval}ps"
        if sink == "sack":
            params["delayed_ack"] = True
        else:
            sink = "delack"
    return Flow(name=agent.handle, kind="tcp", from_=ends[0], to=ends[1], variant=variant,
                cc=agent.cc, sink=sink, tcp=params,
                two_way=True,
                # The listener sends what its own FTP gives it as the run goes (engine
                # advance_app): its direction has no size known in advance.
                app=apps.Ftp(start=NEVER, exchange="open",
                             reply_size="endless" if peer.app is not None else None),
                trace=[v.rstrip("_") for v in agent.traced] or None,
                fid=_fid(agent), ports=_ports(agent),
                origin=f"{agent.created_at}|{agent.cls} {agent.handle}")


def _udp_flow(agent: UdpAgent) -> Flow | None:
    if agent.app is None and isinstance(agent, HostAgent) \
            and (isinstance(agent.peer, UdpAgent) or type(agent.peer) is NullAgent):
        return _host_flow(agent)  # it may send data (udp_data.py)
    ends = _endpoints(agent)
    if ends is None or agent.app is None:
        return None
    # ns-2's UdpAgent::recv frees what arrives: a UDP agent receives as an Agent/Null does.
    if not isinstance(agent.peer, (NullAgent, UdpAgent)):
        raise Ns2Error(f"UDP agent {agent.handle} must be connected to an Agent/Null,"
                       " Agent/LossMonitor or Agent/UDP", agent.created_at)
    if not isinstance(agent.app, (Cbr, OnOff)):
        raise Ns2Error(unsupported(f"{agent.app.cls} over UDP"), agent.app.created_at)
    params = agent.app.app_params()
    app = apps.from_table(str(params.pop("kind")), {**params, "start": NEVER})
    return Flow(name=agent.handle, kind="udp", from_=ends[0], to=ends[1], app=app,
                fid=_fid(agent), ports=_ports(agent),
                origin=f"{agent.created_at}|{agent.cls} {agent.handle}")


def _tfrc_flow(agent: TfrcAgent) -> Flow | None:
    """An Agent/TFRC connected to an Agent/TFRCSink: one engine TFRC flow, started by the
    agent's start (SndrType_ 0) or fed by its FTP (SndrType_ 1)."""
    ends = _endpoints(agent)  # type: ignore[arg-type]
    if ends is None:
        return None
    sink = agent.peer
    if not isinstance(sink, TfrcSinkAgent):
        raise Ns2Error(f"TFRC agent {agent.handle} is connected to a"
                       f" {sink.cls if sink else '?'}, not an Agent/TFRCSink", agent.created_at)
    if agent.app is not None and not isinstance(agent.app, Ftp | Cbr | OnOff):
        raise Ns2Error(unsupported(f"{agent.app.cls} over TFRC (only Application/FTP,"
                                   " Traffic/CBR, /Exponential and /Pareto)"),
                       agent.app.created_at)
    return Flow(name=agent.handle, kind="tfrc", from_=ends[0], to=ends[1],
                tfrc=agent.tfrc_params(sink), app=apps.Ftp(start=NEVER),
                fid=_fid(agent), ports=_ports(agent),  # type: ignore[arg-type]
                origin=f"{agent.created_at}|{agent.cls} {agent.handle}")


def _rap_flow(agent: RapAgent) -> Flow | None:
    """Two connected Agent/RAP: one engine RAP flow from the one made first, started and
    stopped by its start and stop (rap.py)."""
    if not agent.is_source():
        return None
    ends = _endpoints(agent)  # type: ignore[arg-type]
    if ends is None:
        return None
    sink = agent.peer
    if not isinstance(sink, RapAgent):
        raise Ns2Error(f"RAP agent {agent.handle} is connected to a"
                       f" {sink.cls if sink else '?'}, not an Agent/RAP", agent.created_at)
    for end in (agent, sink):
        if end.app is not None:
            raise Ns2Error(unsupported(f"{end.app.cls} over Agent/RAP (its media"
                                       " applications)"), end.app.created_at)
    return Flow(name=agent.handle, kind="rap", from_=ends[0], to=ends[1],
                rap=agent.rap_params(sink), app=apps.Ftp(start=NEVER),
                fid=_fid(agent), ports=_ports(agent),  # type: ignore[arg-type]
                origin=f"{agent.created_at}|{agent.cls} {agent.handle}")


def _fid(agent: Agent) -> int:
    """The agent's fid_, which labels its packets in traces."""
    try:
        return int(float(agent.read_var("fid_")))
    except ValueError:
        raise Ns2Error(f"{agent.handle}: fid_ must be a number, got"
                       f" {agent.read_var('fid_')!r}", agent.created_at) from None


def explain(e: ScenarioError, script: str) -> Ns2Error:
    """A scenario check that failed, pointed at the script line of the object it concerns."""
    path = e.path or ""
    if "|" in path:
        where, _, what = path.partition("|")
        file, _, line = where.rpartition(":")
        return Ns2Error(f"{what}: {e.message}", Location(file, int(line) if line.isdigit() else 0))
    return Ns2Error(f"{path}: {e.message}" if path else e.message, Location(script, 0))


def _tmix_flow(sim: Simulator, t: TmixEnd) -> Flow | None:
    """A Tmix object as a TCP flow with a tmix application; each side of its connections is
    the FullTcp agent Tmix allocates (``Tmix instproc alloc-tcp``: ``Agent/TCP/FullTcp`` for
    its default ``Reno``, ``Agent/TCP/FullTcp/<type>`` for another ``set-TCP``), with that
    class's defaults as the script set them (so ``Agent/TCP set window_ ...`` and
    ``Agent/TCP/FullTcp set segsperack_ ...`` apply)."""
    if t.init is None and t.acc is None and t.cvfile is None:
        return None
    if t.init is None or t.acc is None or t.cvfile is None:
        raise Ns2Error(f"Tmix {t.handle} needs set-init, set-acc and set-cvfile", t.created_at)
    if t.init is t.acc:
        raise Ns2Error(unsupported("Tmix within one node"), t.created_at)
    cls = TMIX_AGENTS[t.variant]
    agent = sim.ctx.new_object(cls, [])
    try:
        assert isinstance(agent, FullTcpAgent)
        agent.tmix_side = True
        # FullTcpAgent's own rules (the engine's ns2_full_tcp): its idle restart from the
        # initial window (foutput), its delayed-ACK timer's ticks (FullTcpAgent::timeout),
        # its recovery (dupack_action) ...
        params = agent.tcp_params()
        # FullTcpAgent::headersize: every segment, pure ACKs included, carries
        # tcpip_base_hdr_size_, with timestamps_ ts_option_size_ more (sendpacket).
        params["header_size"] = agent.headersize()
        params["ack_size"] = agent.headersize()
        # Each side acknowledges every segsperack_ segments, else at the next tick of its
        # delayed-ACK timer of interval_ (FullTcpAgent::need_send, delack_timer_).
        per_ack, interval = agent.acks()
        cc = agent.cc
    finally:
        sim.ctx.delete(agent)
    # Tmix's pkt_size_ (1460 by default, set-pkt-size) is each agent's segsize_ (Tmix
    # instproc setup-tcp), whatever the script's FullTcp segsize_ says.
    params["packet_size"] = t.packet_size
    sink_kind = "sack" if t.variant == "sack" else "ack-every"
    if per_ack > 1 or interval > 0:
        params["segs_per_ack"] = per_ack
        params["ack_delay"] = f"{interval}ps"
        if sink_kind == "sack":
            params["delayed_ack"] = True
        else:
            sink_kind = "delack"
    boxes = [(box, f) for box in sim.nodes if isinstance(box, DelayBox) for f in box.files]
    mine = [box for box, (path, i, a) in boxes
            if path == t.cvfile and i == t.init.id and a == t.acc.id]
    # ns-2.35's delay box holds each packet r / 2 on top of the path
    # (Tmix_DelayBoxClassifier::create_flow_table, recv), and its Tmix sets each FullTcp
    # agent's window_ to its side's w over the MSS (ConnVector::set_init_win, Tmix
    # instproc setup-tcp); its connections close fin_time_ after the last write
    # (Tmix::read_one_cvec's closing ADU, TmixApp::timeout).
    # Each box holding the file holds the connection's packets (and drops them) again: a
    # file on both ends' boxes, 2 (taken to be on the connection's path).
    app = apps.Tmix(start=NEVER, file=str(t.cvfile), delay_box=bool(mine),
                    losses=bool(mine) and not any(b.lossless for b in mine),
                    rtt_added=bool(mine), delay_boxes=len(mine) if len(mine) > 1 else None,
                    windows=True, fin_wait=f"{t.fin_time}us")
    return Flow(name=t.handle, kind="tcp", from_=t.init.name, to=t.acc.name,
                variant=t.variant, cc=cc, sink=str(sink_kind), tcp=params, app=app,
                fid=t.ident, origin=f"{t.created_at}|{t.cls} {t.handle}")


def _with_delayer_slot(link: SimplexLink) -> int | None:
    """The queue's packet limit, one more with a Delayer on the link (the packet it holds
    beyond `limit_` while the line is busy, `Delayer::recv`)."""
    limit = link.queue.limit()
    return limit + 1 if limit is not None and link.delayer is not None else limit
