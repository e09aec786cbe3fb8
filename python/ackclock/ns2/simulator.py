"""``new Simulator``: topology and agent wiring commands, and the `$ns at` scheduler that
interleaves the script's events with the engine's run."""

from __future__ import annotations

import atexit
import heapq
import math
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ScenarioError
from ..run import engine as load_engine
from ..run import simulation, under_checker
from ..scenario import REPLY_SUFFIX, PacketTrace, resolve_shared
from . import callbacks, dynamics, nam
from .agents import (
    Agent,
    Application,
    Cbr,
    FullTcpAgent,
    LossMonitorAgent,
    NullAgent,
    OnOff,
    TcpAgent,
    TcpSink,
    UdpAgent,
)
from .build import HORIZON_S, build_scenario, explain
from .callbacks import HostAgent
from .delayer import Delayer
from .errmodule import ErrorModule
from .errors import Location, Ns2Error, unsupported
from .interrupt import Progress
from .monitors import FidClassifier, FlowMonitor, QueueMonitor, trace_line, trace_rank
from .objects import TclError, TclObject
from .rap import RapAgent
from .rng import Mrg32k3a
from .rtproto_dv import DvChannel, DvRouting
from .tfrc import TfrcAgent
from .topology import (
    ErrorModel,
    Link,
    Node,
    QsAgent,
    Queue,
    SimplexLink,
    TraceObject,
    check_queue_kind,
)
from .values import (
    bandwidth_bps,
    delay_double,
    fmt_double,
    int_arg,
    sim_seconds_to_ps,
    time_ps,
    to_bool,
    to_float,
    to_int,
)

if TYPE_CHECKING:
    from .interp import Context
    from .tmix import TmixEnd

# One-way agents whose eventtrace E lines the engine writes (tcp/sender/events.rs).
EVENT_TRACED = ("Agent/TCP", "Agent/TCP/Reno", "Agent/TCP/Newreno", "Agent/TCP/Sack1")


class Simulator(TclObject):
    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        if args:
            shown = " ".join(args)
            feature = "multicast" if "-multicast" in args else "options"
            raise Ns2Error(unsupported(f"Simulator {feature} (new Simulator {shown})"))
        if ctx.simulator is not None:
            raise Ns2Error(unsupported("a second Simulator object"))
        ctx.simulator = self
        self.nodes: list[Node] = []
        self.links: list[SimplexLink] = []
        self.by_ends: dict[tuple[int, int], SimplexLink] = {}
        # What ns-2.35's Tcl does to the Simulator's array link_ as links are made, in order
        # (True: `info exists link_(key)`, False: `set link_(key)`): nam.array_names replays
        # it to list the links as ns-2's `array names link_` does.
        self.link_array_ops: list[tuple[bool, str]] = []
        self._link_objects: dict[int, str] = {}  # id(SimplexLink) -> its SimpleLink object
        self.agents: list[Agent] = []
        self._agent_ids: set[int] = set()  # id() of each agent in `agents`
        self.tmix: list[TmixEnd] = []
        self.events: list[tuple[float, int, str | Callable[[], None], Location]] = []
        self._seq = 0
        self.now_s = 0.0
        self.started = False
        self.multicast = False  # $ns multicast (cmd_multicast)
        self.halted = False
        self.engine: Any = None
        # What the script asked of applications before `$ns run`, done in order once the
        # engine is built: starts and stops, FTP produce.
        self.pending: list[Callable[[], None]] = []
        self.trace_all: str | None = None
        self.event_trace: str | None = None  # eventtrace-all's channel
        self.nam_channel: str | None = None
        self.agent_lines: list[tuple[Agent, Callable[[], str]]] = []
        self.nam_layout = nam.NamLayout()
        # Packet traces (trace-all, trace-queue): the Tcl channel, the link directions
        # ("a->b" by node name; None: every link), the engine's own file, and how much of it
        # the channel has received.
        self.packet_traces: list[_PacketTrace] = []
        self.rtmodels: list[dynamics.Model] = []  # $ns rtmodel-at (dynamics.py)
        # rtQueue's changes by time, and $rtglibRNG once drawn from (dynamics.py).
        self.rtq: dict[float, list[tuple[dynamics.Model, str]]] = {}
        self.rtglib_rng: Mrg32k3a | None = None
        # `$ns rtproto DV` (rtproto_dv.py); whether the script named Static too.
        self.dv: DvRouting | None = None
        self.static_named = False
        # `$ns node-config -QS ON`: new nodes get a Quick-Start agent (topology.QsAgent).
        self.quick_start = False
        # (flow, variable) pairs whose initial value the engine recorded (ns-2 prints none).
        self._trace_started: set[tuple[str, str]] = set()
        self._last_cwnd: dict[str, float] = {}
        self._last_ssthresh: dict[str, float] = {}
        # Agents whose arrivals call back into the script (callbacks.py), by engine flow;
        # the last packet number given out; arrivals taken from the engine, not yet handled.
        self.host_agents: dict[int, HostAgent | DvChannel] = {}
        self.host_tag = 0
        self._arrivals: list[tuple[int, int, int, int, int, float]] = []
        # What each stop of the engine for the script looks at, chosen when the run starts so
        # that a stop costs what these hold, not what the network holds: the one-way TCP
        # agents that make Quick-Start requests, the links whose queue variables are traced.
        self._qs_agents: list[TcpAgent] = []
        self._traced_links: list[SimplexLink] = []
        self._tcp_by_handle: dict[str, TcpAgent] = {}  # the traced-variable rows' agents
        self._senders: dict[int, Agent] = {}  # agent_of_flow's, made when the run starts

    # --- topology --------------------------------------------------------------------------

    def cmd_node(self, *args: str) -> str:
        return self._new_node("Node")

    def cmd_Tmix_DelayBox(self) -> str:
        """``$ns Tmix_DelayBox``: a node that holds Tmix connections to their vectors' RTTs."""
        return self._new_node("Node/Tmix_DelayBox")

    def cmd_tmix_net(self) -> str:
        return self._new_node("Node/Tmix_DelayBox")

    def _new_node(self, cls: str) -> str:
        self._before_run("node")
        node = self.ctx.new_object(cls, [])
        assert isinstance(node, Node)
        node.id = len(self.nodes)
        self.nodes.append(node)
        if self.quick_start:
            # RtModule/QS register (tcl/lib/ns-qsnode.tcl): an Agent/QSAgent in front of the
            # node's classifier, with the class's variables as they stand now.
            agent = self.ctx.new_object("Agent/QSAgent", [])
            assert isinstance(agent, QsAgent)
            node.qs_agent = agent
            node.next_port += 1  # `$node attach` of the agent: it takes port 0
        return node.handle

    def _node(self, handle: str) -> Node:
        n = self.ctx.lookup(handle, Node, "a node")
        assert isinstance(n, Node)
        return n

    def cmd_simplex_link(self, a: str, b: str, bw: str, delay: str, qtype: str,
                         *args: str) -> str:
        self._before_run("simplex-link")
        if args:
            raise Ns2Error(unsupported(f"queue arguments ({' '.join(args)})"))
        src, dst = self._node(a), self._node(b)
        if src is dst:
            raise TclError("a link needs two different nodes")
        # ns-2.35's `Simulator instproc simplex-link` sets link_($sid:$did) anew: a second link
        # between the same nodes replaces the first, which stays in memory but carries nothing
        # (routes are computed from link_ at `$ns run`). What was set on the first (its queue's
        # limit, a loss model, its delay) stays with it.
        old = self.by_ends.get((src.id, dst.id))
        if old is not None and old.exposed:
            raise Ns2Error(unsupported(f"a second link from node {src.id} to node {dst.id} once"
                                       " the first was handed out, monitored or traced"))
        check_queue_kind(qtype)
        try:
            rate, d = bandwidth_bps(bw), time_ps(delay)
        except ValueError as e:
            raise TclError(str(e)) from None
        queue = self.ctx.new_object(f"Queue/{qtype}", [])
        assert isinstance(queue, Queue)
        if old is not None:
            link = SimplexLink(src, dst, rate, d, queue, self.ctx.where(), old.index)
            self.links[old.index] = link
        else:
            link = SimplexLink(src, dst, rate, d, queue, self.ctx.where(), len(self.links))
            self.links.append(link)
        link.delay2 = delay_double(delay)
        self.by_ends[(src.id, dst.id)] = link
        # `set link_($sid:$did) ...`, then register-nam-linkconfig, which from the second
        # link on asks `info exists link_($did:$sid)` (ns-lib.tcl).
        first = not self.nam_layout.order  # linkConfigList_ does not exist yet
        self.link_array_ops.append((False, f"{src.id}:{dst.id}"))
        if not first:
            self.link_array_ops.append((True, f"{dst.id}:{src.id}"))
        self.nam_layout.register(src.id, dst.id)
        return ""

    def cmd_duplex_link(self, a: str, b: str, bw: str, delay: str, qtype: str,
                        *args: str) -> str:
        # `Simulator instproc duplex-link` first asks `info exists link_($i1:$i2)`.
        self.link_array_ops.append((True, f"{self._node(a).id}:{self._node(b).id}"))
        self.cmd_simplex_link(a, b, bw, delay, qtype, *args)
        self.cmd_simplex_link(b, a, bw, delay, qtype, *args)
        return ""

    def _link(self, a: str, b: str) -> SimplexLink:
        src, dst = self._node(a), self._node(b)
        link = self.by_ends.get((src.id, dst.id))
        if link is None:
            raise TclError(f"no link from node {src.id} to node {dst.id}")
        return link

    def cmd_delay(self, a: str, b: str, delay: str, kind: str = "simplex") -> None:
        """ns-2's ``$ns delay $a $b 10ms ?duplex?``: a link's propagation delay."""
        try:
            d = time_ps(delay)
        except ValueError as e:
            raise TclError(str(e)) from None
        for x, y in ((a, b), (b, a)) if kind == "duplex" else ((a, b),):
            link = self._link(x, y)
            self.change_link(link, link.rate_bps, d, delay_double(delay))

    def cmd_bandwidth(self, a: str, b: str, bw: str, kind: str = "simplex") -> None:
        """ns-2's ``$ns bandwidth $a $b 10Mb ?duplex?``: a link's rate."""
        try:
            rate = bandwidth_bps(bw)
        except ValueError as e:
            raise TclError(str(e)) from None
        for x, y in ((a, b), (b, a)) if kind == "duplex" else ((a, b),):
            link = self._link(x, y)
            self.change_link(link, rate, link.delay_ps, link.delay2)

    def change_link(self, link: SimplexLink, rate: float, delay_ps: int, delay2: float) -> None:
        """A link's ``bandwidth_`` and ``delay_`` (ns-2.35 ``$ns bandwidth`` / ``$ns delay``,
        or ``[$link link] set``). Before the run they make the link; during it the engine
        takes them at once, as ns-2's ``LinkDelay`` does (link/delay.cc ``LinkDelay::recv``
        reads both as each packet starts: the packets on the line keep their times, the
        waiting ones and those to come take the new values)."""
        if self.started:
            if rate <= 0:
                raise Ns2Error(f"link {link.name}: expected a positive bandwidth, got {rate}")
            try:
                self.engine.ns2_set_link_params(link.index, rate, delay_ps)
            except ValueError as e:
                raise Ns2Error(unsupported(f"changing link {link.name} during the run: {e}")
                               ) from None
        link.rate_bps, link.delay_ps, link.delay2 = rate, delay_ps, delay2

    def cmd_queue_limit(self, a: str, b: str, limit: str) -> None:
        self._link(a, b).queue.write_var("limit_", limit)

    def cmd_link(self, a: str, b: str) -> str:
        return self._link_object(self._link(a, b))

    def _link_object(self, link: SimplexLink) -> str:
        """The link's object, one per link as ns-2's link_ array holds it."""
        link.exposed = True
        handle = self._link_objects.get(id(link))
        if handle is None:
            obj = self.ctx.new_object("SimpleLink", [])
            assert isinstance(obj, Link)
            obj.link = link
            handle = self._link_objects[id(link)] = obj.handle
        return handle

    def cmd___ac_array(self, var: str) -> str:
        """The Simulator's arrays a script reads through ``$self instvar`` (in a ``Simulator
        instproc`` of its own): ``link_`` (``link_($sid:$did)``, each link's object) and
        ``Node_`` (``Node_($id)``, each node), as they are now (otcl.py's pylink)."""
        if var == "link_":
            pairs = [(f"{s}:{d}", self._link_object(lk)) for (s, d), lk in self.by_ends.items()]
        elif var == "Node_":
            pairs = [(str(n.id), n.handle) for n in self.nodes]
        else:
            raise TclError(f"no array {var}")
        return " ".join(f"{k} {v}" for k, v in pairs)

    def cmd_duplex_link_op(self, a: str, b: str, op: str = "", *value: str) -> None:
        """nam's layout of a link: ``orient``, ``color``, ``queuePos`` and ``label`` are
        written into the nam trace; other options change nothing ackclock writes."""
        self._link_op(a, b, op, value, duplex=True)

    def cmd_simplex_link_op(self, a: str, b: str, op: str = "", *value: str) -> None:
        self._link_op(a, b, op, value, duplex=False)

    def _link_op(self, a: str, b: str, op: str, value: tuple[str, ...], duplex: bool) -> None:
        # `Simulator instproc duplex-link-op` runs the op on link_(a:b), then on link_(b:a).
        link = self._link(a, b)
        text = " ".join(value)
        ends = [(link.src.id, link.dst.id)]
        if duplex and (link.dst.id, link.src.id) in self.by_ends:
            ends.append((link.dst.id, link.src.id))
        for x, y in ends:
            look = self.nam_layout.look(x, y)
            if op == "orient":
                look.orient = text
                self.nam_layout.register(x, y)  # Link instproc orient
            elif op == "color":
                look.color = text
            elif op == "queuePos":
                look.queue_pos = text
        if op == "label" and self.nam_channel is not None:
            back = self.by_ends.get((link.dst.id, link.src.id)) if duplex else None
            lines = [nam.link_label(x, text) for x in (link, back) if x is not None]
            self.ctx.write_channel(self.nam_channel, "".join(lines))

    def cmd_cost(self, a: str, b: str, c: str) -> None:
        """``Simulator instproc cost`` (ns-lib.tcl): the cost of the link from `a` to `b`
        (``$link_(a:b) cost c``)."""
        self._link(a, b).cost_text = c

    def link_costs(self) -> list[float] | None:
        """Each link's cost by engine index, None when all are 1. ns-2.35's static routing
        (ns-route.tcl ``compute-flat-routes``) inserts ``[$link cost?]`` for each link into
        RouteLogic, whose ``compute_routes`` adds them up (the engine's
        ``ns2_link_costs``)."""
        costs = [lk.cost() for lk in self.links]
        if all(c == 1.0 for c in costs):
            return None
        if self.dv is not None:
            raise Ns2Error(unsupported("link costs other than 1 with rtproto DV"))
        for lk, c in zip(self.links, costs, strict=True):
            if not math.isfinite(c) or c < 0:
                raise Ns2Error(unsupported(f"a link cost of {lk.cost_text} ({lk.name})"))
        return costs

    def cmd_color(self, fid: str, name: str) -> None:
        self.nam_layout.colors[fid] = name  # `set color_($id) $name`

    def cmd_trace_annotate(self, *args: str) -> None:
        """``Simulator instproc trace-annotate`` (tcl/lib/ns-namsupp.tcl): a `v` line in the
        trace-all file (`v <now> eval {set sim_annotation {<text>}}`, the time as `$ns now`
        prints it) and one in the nam trace (`%.15g` times and the annotation's number)."""
        text = " ".join(args)
        now = fmt_double(self.now_s)
        if self.trace_all is not None:
            self.write_traces()
            self.ctx.write_channel(self.trace_all,
                                   f"v {now} eval {{set sim_annotation {{{text}}}}}\n")
        self.nam_layout.annotations += 1
        if self.nam_channel is None:
            return
        self.write_traces()
        t15 = f"{self.now_s:.15g}"
        self.ctx.write_channel(self.nam_channel, f"v -t {t15} -e sim_annotation {t15}"
                               f" {self.nam_layout.annotations} {text}\n")

    def cmd_delay_parse(self, spec: str) -> str:
        """``$ns delay_parse 10ms``: the global ``delay_parse`` (procs.py)."""
        self.ctx.tcl.setvar("::__ac_spec", spec)
        return str(self.ctx.tcl.eval("delay_parse $::__ac_spec"))  # Tcl's own text of the double

    def cmd_bw_parse(self, spec: str) -> str:
        """``$ns bw_parse 1.5Mb``: the global ``bw_parse`` (procs.py)."""
        self.ctx.tcl.setvar("::__ac_spec", spec)
        return str(self.ctx.tcl.eval("bw_parse $::__ac_spec"))  # Tcl's own text of the double

    def cmd_set_animation_rate(self, *args: str) -> None:
        return None

    def cmd_use_scheduler(self, kind: str) -> None:
        return None  # every scheduler gives the same order

    def cmd_rtproto(self, proto: str, *args: str) -> None:
        """``$ns rtproto Static`` (the default) or ``DV`` [nodes] (rtproto_dv.py); ns-2's
        ``RouteLogic instproc register``."""
        self._before_run("rtproto")
        if proto == "Static":
            self.static_named = True
        elif proto == "DV":
            if args:
                # ns-2.35 runs DV on the nodes listed only, where it runs at all: its
                # init-all (`eval "set nodeslist $args"`) fails on more than one node.
                raise Ns2Error(unsupported("rtproto DV on a list of nodes"))
            if self.dv is None:
                self.dv = DvRouting(self, self.ctx.where())
        else:
            raise Ns2Error(unsupported(f"dynamic routing (rtproto {proto})"))
        if self.dv is not None and self.static_named:
            raise Ns2Error(unsupported("rtproto DV beside rtproto Static"))

    def cmd_node_config(self, *args: str) -> None:
        """``$ns node-config -QS ON|OFF`` (tcl/lib/ns-qsnode.tcl, ``Simulator instproc QS``):
        the nodes made from now on have a Quick-Start agent, or not. Any other option
        configures wireless nodes, which ackclock does not model."""
        if len(args) == 2 and args[0] == "-QS":
            self.cmd_QS(args[1])
            return
        # What ackclock does not model: one line naming the command, status 2.
        raise Ns2Error(unsupported("wireless nodes ($ns node-config)"))

    def cmd_QS(self, val: str) -> None:
        """``$ns QS ON``: `Node enable-module "QS"` (any other value disables it)."""
        self.quick_start = val == "ON"

    def cmd_multicast(self, *args: str) -> None:
        """``$ns multicast``: ns-2.35's Simulator instproc multicast (tcl/mcast/ns-mcast.tcl)
        sets multiSim_ and `Node enable-module Mcast`, which gives the nodes made after it
        multicast classifiers; unicast traffic goes as before. What would use them (groups,
        `mrtproto`, `join-group`, `Node allocaddr`) is refused where it comes."""
        self.multicast = True

    def cmd_multicast_(self) -> str:
        return "1" if self.multicast else "0"

    def cmd_mrtproto(self, *args: str) -> None:
        raise Ns2Error(unsupported("multicast routing ($ns mrtproto)"))

    def cmd_satnode_polar(self, *args: str) -> None:
        raise Ns2Error(unsupported("satellite networks ($ns satnode-polar)"))

    def cmd_satnode_geo(self, *args: str) -> None:
        raise Ns2Error(unsupported("satellite networks ($ns satnode-geo)"))

    def cmd_rtmodel(self, kind: str, parms: str, *nodes: str) -> None:
        """``$ns rtmodel Exponential|Deterministic|Manual {parms} $n0 [$n1]`` (dynamics.py)."""
        self._before_run("rtmodel")
        dynamics.rtmodel(self, kind, [str(p) for p in self.ctx.tcl.splitlist(parms)],
                         [self._node(n) for n in nodes])

    def cmd_rtmodel_at(self, at: str, op: str, *nodes: str) -> None:
        """``$ns rtmodel-at <time> up|down $n0 [$n1]`` (dynamics.py)."""
        self._before_run("rtmodel-at")
        dynamics.rtmodel_at(self, at, op, [self._node(n) for n in nodes])

    def cmd_lanlink(self, *args: str) -> None:
        raise Ns2Error(unsupported("LANs ($ns make-lan)"))

    def cmd_make_lan(self, *args: str) -> None:
        raise Ns2Error(unsupported("LANs ($ns make-lan)"))

    def cmd_insert_delayer(self, a: str, b: str, delayer: str) -> None:
        """``$ns insert-delayer $a $b $delayer`` (tcl/lib/ns-queue.tcl, SimpleLink instproc
        insert-delayer): the Delayer between the link's queue and its line (delayer.py)."""
        self._before_run("insert-delayer")
        link = self._link(a, b)
        d = self.ctx.lookup(delayer, Delayer, "a Delayer")
        assert isinstance(d, Delayer)
        if link.delayer is not None:
            self.ctx.tcl.call("puts", "stderr", "Delayer already inserted")
            return
        if link.queue.kind != "droptail":
            raise Ns2Error(unsupported(f"a Delayer on link {link.name}, whose queue is"
                                       f" {link.queue.cls} (only DropTail)"))
        link.delayer = d
        d.link = link

    def cmd_link_lossmodel(self, em: str, a: str, b: str) -> None:
        self.set_loss(self._link(a, b), em, at_entry=False)

    def cmd_lossmodel(self, em: str, a: str, b: str) -> None:
        self.set_loss(self._link(a, b), em, at_entry=True)

    def set_loss(self, link: SimplexLink, em: str, at_entry: bool) -> None:
        self._before_run("a loss model")
        model = self.ctx.lookup(em, ErrorModel, "an ErrorModel")
        assert isinstance(model, ErrorModel)
        if link.loss is not None:
            # ns-link.tcl, SimpleLink::errormodule: each module goes to the link's head
            # (Link::add-to-head), ahead of the one placed before, which then takes what the
            # new one lets pass (or has delayed). ErrorModules at the entry only.
            if not (at_entry and link.loss_at_entry and isinstance(model, ErrorModule)
                    and isinstance(link.loss, ErrorModule)):
                raise Ns2Error(unsupported(f"a second loss model on link {link.name} (only"
                                           " ErrorModules, $link errormodule or $ns"
                                           " lossmodel)"))
            link.loss_behind.insert(0, link.loss)
        link.loss = model
        link.loss_where = self.ctx.where()
        link.loss_at_entry = at_entry
        model.installed = True

    # --- agents ----------------------------------------------------------------------------

    def _agent(self, handle: str) -> Agent:
        a = self.ctx.lookup(handle, Agent, "an agent")
        assert isinstance(a, Agent)
        return a

    def cmd_attach_agent(self, node: str, agent: str) -> None:
        self._before_run("attach-agent")
        a = self._agent(agent)
        a.attach_to(self._node(node))
        self._add_agent(a)

    def _add_agent(self, a: Agent) -> None:
        """Appends ``a`` to ``agents`` unless it is there, without walking the list."""
        if id(a) not in self._agent_ids:
            self._agent_ids.add(id(a))
            self.agents.append(a)

    def cmd_detach_agent(self, node: str, agent: str) -> None:
        a = self._agent(agent)
        a.detach()
        if not self.started and id(a) in self._agent_ids:
            self._agent_ids.discard(id(a))
            self.agents.remove(a)

    def cmd_connect(self, a: str, b: str) -> None:
        self._before_run("connect")
        src, dst = self._agent(a), self._agent(b)
        for x in (src, dst):
            if isinstance(x, NullAgent):
                continue  # a Null or LossMonitor receives from every source connected to it
            if x.peer is not None and x.peer not in (src, dst):
                raise Ns2Error(unsupported(f"reconnecting agent {x.handle}"))
        if isinstance(src, NullAgent) and not isinstance(dst, NullAgent):
            src, dst = dst, src  # $ns connect $null $udp: the same connection
        if src.peer is not None and isinstance(src.peer, NullAgent) and src.peer is not dst:
            raise Ns2Error(unsupported(f"reconnecting agent {src.handle}"))
        src.peer, dst.peer = dst, src
        if isinstance(dst, NullAgent):
            dst.sources[src] = None
        # The engine's flow follows the sending agent; keep it in the list, sink out.
        for x in (src, dst):
            self._add_agent(x)

    def cmd_create_connection(self, stype: str, src: str, dtype: str, dst: str,
                              fid: str) -> str:
        return self.cmd_create_connection_list(stype, src, dtype, dst, fid).split()[0]

    def cmd_create_connection_list(self, stype: str, src: str, dtype: str, dst: str,
                                   fid: str) -> str:
        s = self.ctx.new_object(f"Agent/{stype}", [])
        d = self.ctx.new_object(f"Agent/{dtype}", [])
        self.cmd_attach_agent(src, s.handle)
        self.cmd_attach_agent(dst, d.handle)
        self.cmd_connect(s.handle, d.handle)
        s.write_var("fid_", fid)
        d.write_var("fid_", fid)
        return f"{s.handle} {d.handle}"

    def cmd_create_connection_listen(self, stype: str, src: str, dtype: str, dst: str,
                                     fid: str) -> str:
        """ns-2's Simulator::create-connection-listen (tcl/lib/ns-lib.tcl): create-connection
        whose sink end is then told to ``listen`` (FullTcp agents); returns the source."""
        s, d = self.cmd_create_connection_list(stype, src, dtype, dst, fid).split()
        sink = self.ctx.objects[d]
        listen = getattr(sink, "cmd_listen", None)
        if listen is None:
            raise TclError(f"{d}: {sink.cls} has no listen command")
        listen()
        return s

    # --- monitors and traces ---------------------------------------------------------------

    def cmd_monitor_queue(self, a: str, b: str, trace: str = "", interval: str = "") -> str:
        self._before_run("monitor-queue")
        link = self._link(a, b)
        link.exposed = True
        qm = self.ctx.new_object("QueueMonitor", [])
        assert isinstance(qm, QueueMonitor)
        qm.link = link
        qm.integrate()  # SimpleLink instproc init-monitor gives it both integrators
        link.qmon = qm.handle
        link.qtrace = trace or "0"
        link.sample_interval = interval or "0.1"
        return qm.handle

    def cmd_trace_all(self, channel: str) -> None:
        self._before_run("trace-all")
        self.trace_all = channel
        self.packet_traces.append(_PacketTrace(channel, None, tcp_header=self._show_tcphdr()))

    def cmd_namtrace_all(self, channel: str) -> None:
        """``$ns namtrace-all $file``: nam's animation trace (see nam.py)."""
        self._before_run("namtrace-all")
        self.nam_channel = channel
        self.packet_traces.append(_PacketTrace(channel, None, convert=nam.Converter()))

    def cmd_eventtrace_all(self, channel: str = "") -> None:
        """``$ns eventtrace-all [$file]`` (ns-2.35 tcl/lib/ns-lib.tcl): the TCP agents made
        from now on get an event trace (``Agent/TCP instproc init``, ``create-eventtrace``)
        into ``$file``, or without one into trace-all's file. FullTcp agents and the one-way
        Tahoe, Reno, NewReno and Sack1 agents write their congestion events there (``E``
        lines, ``TcpAgent::trace_event``: tcp/sender/events.rs). UDP agents report none."""
        self._before_run("eventtrace-all")
        if not channel:
            if self.trace_all is None:
                # ns-lib.tcl reads traceAllFile_, which only trace-all sets.
                raise TclError('can\'t read "traceAllFile_": no such variable')
            channel = self.trace_all
        self.event_trace = channel

    def cmd_add_agent_trace(self, agent: str, name: str, channel: str = "") -> None:
        """``$ns add-agent-trace $tcp tcp``: names the agent in its trace file (``a`` line)."""
        a = self._agent(agent)
        a.trace_name = name
        self._agent_line(a, lambda: f"a -t {fmt_double(self.now_s)} -s {a.cmd_addr()}"
                                    f" -d {a.cmd_dst_addr()} -n {name}\n")

    def cmd_monitor_agent_trace(self, agent: str) -> None:
        """``$ns monitor-agent-trace $tcp``: the ``v ... monitor_agent`` line."""
        a = self._agent(agent)
        self._agent_line(a, lambda: f"v -t {fmt_double(self.now_s)} -e monitor_agent"
                                    f" {a.cmd_addr()} {a.trace_name or ''}\n")

    def _agent_line(self, a: Agent, line: Callable[[], str]) -> None:
        """An agent-trace line into the agent's trace file; given before the run, ns-2 writes
        it when the run starts (after the agents' reset)."""
        if self.nam_channel is not None:
            raise Ns2Error(unsupported("agent traces in a nam trace (add-agent-trace with"
                                       " namtrace-all)"))
        if not self.started:
            self.agent_lines.append((a, line))
            return
        channel = getattr(a, "trace_channel", None)
        if channel is not None:
            self.ctx.write_channel(channel, line())

    def _reset_agents(self) -> None:
        """What ns-2 writes when ``$ns run`` resets the agents: the traced variables that the
        reset changes (a window_ or windowInit_ set since the agent was made), then the
        agent-trace lines given before."""
        for a in self.agents:
            # (After this reset nothing reads the state an untraced agent's reset would set.)
            if isinstance(a, TcpAgent) and a.traced and a.trace_channel is not None:
                a.reset_traced()
        for a, line in self.agent_lines:
            channel = getattr(a, "trace_channel", None)
            if channel is not None:
                self.ctx.write_channel(channel, line())
        self.agent_lines.clear()

    def cmd_namtrace_all_wireless(self, *args: str) -> None:
        return None

    def cmd_get_ns_traceall(self) -> str:
        return self.trace_all or ""

    def cmd_flush_trace(self) -> None:
        self.write_traces()

    def cmd_trace_queue(self, a: str, b: str, channel: str = "") -> None:
        """``$ns trace-queue $n0 $n1 $file``: ns-2's packet trace of the n0 -> n1 queue."""
        self._before_run("trace-queue")
        link = self._link(a, b)
        link.exposed = True
        channel = channel or self.trace_all or ""
        if not channel:
            raise TclError("trace-queue: no file given and no trace-all file")
        name = f"{link.src.name}->{link.dst.name}"
        tcp_header = self._show_tcphdr()
        # ns-link.tcl: SimpleLink instproc trace and errormodule both add their object to the
        # link's head (add-to-head), so the later one comes first: a trace made after the
        # errormodule writes "+" for every packet offered, before the module marks or drops.
        ahead = link.loss is not None and link.loss_at_entry
        # Several queues traced into one file: ns-2's trace objects write to the channel as
        # their events happen, so the lines of the links interleave in time; one engine trace
        # of those links writes them in that order.
        for t in self.packet_traces:
            if (t.channel == channel and t.links is not None and t.events is None
                    and t.convert is None and t.tcp_header == tcp_header):
                if name not in t.links:
                    t.links.append(name)
                    if ahead:
                        t.ahead_of_loss.append(name)
                return
        t = _PacketTrace(channel, [name], tcp_header=tcp_header)
        if ahead:
            t.ahead_of_loss.append(name)
        self.packet_traces.append(t)

    def _show_tcphdr(self) -> bool:
        """``Trace set show_tcphdr_ 1``: ns-2.35's Trace::Trace binds it when the trace object
        is made (trace-all, trace-queue), so a trace keeps the value of that moment."""
        value = self.ctx.classes.get("Trace", "show_tcphdr_")
        return value is not None and to_int(value) != 0

    def cmd_create_trace(self, kind: str, channel: str, src: str, dst: str,
                         op: str = "") -> str:
        """``$ns create-trace TYPE $file $src $dst``: a trace object (see TraceObject)."""
        self._before_run("create-trace")
        if op:
            raise Ns2Error(unsupported(f"create-trace with operation {op!r}"))
        tr = self.ctx.new_object(f"Trace/{kind}", [])
        assert isinstance(tr, TraceObject)
        tr.src, tr.dst = self._node_id(src), self._node_id(dst)
        tr.channel = channel
        return tr.handle

    def _node_id(self, ref: str) -> int:
        obj = self.ctx.objects.get(ref)
        if isinstance(obj, Node):
            return obj.id
        try:
            return int(ref)
        except ValueError:
            raise TclError(f"expected a node or a node id, got \"{ref}\"") from None

    def cmd_makeflowmon(self, cltype: str, *args: str) -> str:
        """``$ns makeflowmon Fid``: a flow monitor classifying by flow id (``fid_``)."""
        self._before_run("makeflowmon")
        if cltype != "Fid":
            raise Ns2Error(unsupported(f"flow monitors classifying by {cltype} (only Fid)"))
        fm = self.ctx.new_object("QueueMonitor/ED/Flowmon", [])
        cl = self.ctx.new_object("Classifier/Hash/Fid", [])
        assert isinstance(fm, FlowMonitor) and isinstance(cl, FidClassifier)
        fm.classifier, cl.monitor = cl, fm
        return fm.handle

    def cmd_attach_fmon(self, link: str, fmon: str, edrop: str = "0") -> None:
        """``$ns attach-fmon $link $fmon ?edrop?``: the monitor watches that link direction's
        queue. With ``edrop`` not 0 (ns-2.35's Simulator instproc attach-fmon), RED's early
        drops go to their own target (`early-drop-target`): the monitor counts them as drops
        and apart (``epdrops_``, ``ebdrops_``, dump fields 10, 11, 14, 15). A traced link
        still shows them as drops: trace-queue gives RED an early-drop trace of type Drop
        (Queue/RED instproc attach-traces, REDQueue::enque's EDTrace)."""
        self._before_run("attach-fmon")
        lk = self.ctx.lookup(link, Link, "a link (from $ns link)")
        fm = self.ctx.lookup(fmon, FlowMonitor, "a flow monitor (from $ns makeflowmon)")
        assert isinstance(lk, Link) and isinstance(fm, FlowMonitor) and lk.link is not None
        if int_arg(edrop):
            queue = lk.link.queue
            if queue.kind != "red":
                # Only REDQueue::command knows early-drop-target.
                raise Ns2Error(unsupported(f"attach-fmon with early drops on a {queue.cls}"
                                           " (early drops: Queue/RED's)"))
            queue.early_drop_target = True
        lk.link.monitor_flows = True
        fm.link = lk.link

    def agent_of_flow(self, flow: int) -> Agent | None:
        """The sending agent of engine flow ``flow`` once the run has started (the first
        of the agents' list; a flow monitor's dump asks it for each flow on its link)."""
        return self._senders.get(flow)

    # --- time ------------------------------------------------------------------------------

    def cmd_now(self) -> str:
        return fmt_double(self.now_s)

    def cmd_at(self, t: str, script: str) -> str:
        try:
            when = to_float(t, "a time")
        except ValueError as e:
            raise TclError(str(e)) from None
        if when < self.now_s:
            raise TclError(f"can't schedule at {t}: the clock is at {fmt_double(self.now_s)}")
        # ns-2's Scheduler::schedule: delay = t - clock, time = clock + delay, in doubles
        # (not always t again): the order of this script among the engine's events of the
        # same instant follows that double (`_advance`).
        when = self.now_s + (when - self.now_s)
        if when > HORIZON_S:
            raise Ns2Error(f"$ns at {t}: ackclock's clock (64-bit picoseconds) ends at"
                           f" {HORIZON_S} s of simulated time")
        self._seq += 1
        heapq.heappush(self.events, (when, self._seq, script, self.ctx.where()))
        return str(self._seq)

    def call_after(self, delay: float, call: Callable[[], None]) -> None:
        """Calls ``call`` ``delay`` seconds from now, among the scripts of ``$ns at`` in
        ns-2's order (a C++ timer of an agent or application, `TimerHandler::sched`)."""
        when = self.now_s + delay
        if when > HORIZON_S:
            return  # beyond the end of ackclock's clock: it never comes
        self._seq += 1
        heapq.heappush(self.events, (when, self._seq, call, self.ctx.where()))

    def cmd_after(self, delay: str, script: str) -> str:
        return self.cmd_at(fmt_double(self.now_s + to_float(delay, "a delay")), script)

    def cmd_cancel(self, *args: str) -> None:
        raise Ns2Error(unsupported("$ns cancel"))

    def cmd_is_started(self) -> int:
        return int(self.started)

    def cmd_halt(self) -> None:
        self.halted = True

    def cmd_run(self) -> None:
        if self.started:
            raise Ns2Error(unsupported("a second $ns run"))
        self._start()
        dynamics.configure(self)
        if self.dv is not None:
            self.dv.schedule()  # RouteLogic configure: after rtmodel-configure
        progress = Progress()
        while not self.halted:
            if not self.events:
                # ns-2 runs on while events are left: packets on their way to agents that
                # call back, whose procedures may send and schedule again.
                end = self.engine.duration_ps
                if not self.host_agents or self.engine.now_ps >= end \
                        or self._advance(end, progress, end / 1e12):
                    break
                self.run_arrivals()
                continue
            when, _, script, where = self.events[0]
            self._check_lp_debug()
            if when > self.now_s:
                self._check_lone_resets()
            if not self._advance(sim_seconds_to_ps(when), progress, when):
                # A packet reached an agent that calls back (callbacks.py) first: its
                # procedure may have scheduled scripts before this one.
                self.run_arrivals()
                continue
            heapq.heappop(self.events)
            self.now_s = when
            self.write_traces()
            self.ctx.event_where = where
            progress.done()
            try:
                if isinstance(script, str):
                    self.ctx.eval_global(script)
                else:
                    script()
            finally:
                self.ctx.event_where = None
        progress.done()
        self.write_traces()

    def _check_lone_resets(self) -> None:
        """Before the simulation moves on: a one-way TCP agent reset during the run without
        its sink at the same instant is not supported. ns-2 then takes the old sink's ACKs
        of the old connection's segments, sent after the reset, as ACKs of the new one
        (TcpAgent::recv has no upper bound on a new ACK), and the new connection goes on in
        the old one's sequence numbers; the engine's sender does not model ACKs above what it
        sent."""
        for a in self.ctx.lone_resets:
            sink = a.peer.handle if a.peer is not None else "its sink"
            raise Ns2Error(unsupported(
                f"resetting {a.cls} {a.handle} during the run without resetting {sink} at"
                " the same time"), a.reset_where)

    def _check_lp_debug(self) -> None:
        """Before the simulation moves on: an `lp` agent that would print ns-2.35's TCP-LP
        debugging lines (one per ACK under TCP-Linux's debug_level 1) is not supported."""
        for a in self.ctx.lp_agents:
            if a.sends_lp_debug():
                raise Ns2Error(unsupported(
                    f"select_ca lp on {a.handle} with TCP-Linux's debug_level"
                    f" {self.ctx.linux_debug_level} (ns-2.35 prints a TCP-LP debugging line"
                    " per ACK below debug_level 2: `set_ca_default_param linux debug_level"
                    " 2`)"), a.cc_where)

    def _advance(self, t_ps: int, progress: Progress, t2: float) -> bool:
        """Runs the engine up to instant ``t_ps``, the script's time ``t2`` in ns-2's double:
        of the engine's events of that instant, those whose ns-2 time lies before ``t2`` go
        before the script, the others after it (the ns2 profile keeps each event's ns-2 time:
        such ties are ties only in ackclock's exact clock; in ns-2's the packet events fall
        a rounding error to either side of the script's time; other profiles run the whole
        instant first). On a terminal the run goes in slices of about half a second each, so
        the progress line moves. False if it stopped before, at packets that reached agents
        that call back (``run_arrivals``)."""
        if not progress.enabled:
            self.engine.run_until_before(t_ps, t2)
            self._print_quick_start()
            return not self._took_arrivals()
        step = 10**9  # 1 ms of simulated time, then what takes about half a second
        now = self.engine.now_ps
        while now < t_ps:
            target = min(t_ps - 1, now + step)
            began = time.monotonic()
            self.engine.run_until(target)
            if self._took_arrivals():
                self._print_quick_start()
                return False
            took = time.monotonic() - began
            step = max(10**6, min(step * 4, int(step * 0.5 / max(took, 1e-6))))
            now = target
            progress.update(now / 1e12)
        self.engine.run_until_before(t_ps, t2)
        self._print_quick_start()
        return not self._took_arrivals()

    def _took_arrivals(self) -> bool:
        """Whether the engine stopped at packets that reached agents that call back (taken
        into ``_arrivals``); only asked when the script has such agents."""
        if not self.host_agents:
            return False
        self._arrivals.extend(self.engine.take_host_arrivals())
        return bool(self._arrivals)

    def run_arrivals(self) -> None:
        """Hands each packet that reached an agent that calls back to that agent, at the
        arrival's time (ns-2 runs the agent's recv inside the arrival event)."""
        if not self._took_arrivals():
            return
        self.write_traces()
        while self._arrivals and not self.halted:  # `$ns halt`: no later event runs
            flow, tag, src, dst, size, t = self._arrivals.pop(0)
            sender = self.host_agents[flow]
            payload = sender.payloads.pop(tag, None)
            self.now_s = max(self.now_s, t)
            if isinstance(sender, DvChannel):  # a DV agent's update (rtproto_dv.py)
                sender.arrived(src, payload)
                continue
            receiver = sender.receiver(dst, payload)
            if receiver is None:
                continue
            self.ctx.event_where = receiver.created_at
            try:
                receiver.arrived(sender, src, size, payload)
            finally:
                self.ctx.event_where = None

    def _print_quick_start(self) -> None:
        """What ns-2.35's TcpAgent prints with `print_request_` (tcp/tcp.cc, `output`'s request
        and `processQuickStart`'s approval), in time order, as C's printf (Context.c_print)."""
        lines: list[tuple[float, int, str]] = []
        for a in self._qs_agents:
            try:
                printing = to_bool(a.vars.get("print_request_", "false"))
            except ValueError:
                printing = False
            log = self.engine.quick_start_log(a.flow)
            if not printing:
                continue
            for e in log:
                if e[0] == "request":
                    lines.append((e[1], len(lines),
                                  f"QS request (before encoding): {e[2]} KBps\n"))
                else:
                    _, t, bps, encoded, window, rtt, size = e
                    lines.append((t, len(lines),
                                  f"Quick Start request, rate: {bps:g} Bps, encoded rate:"
                                  f" {encoded}\nQuick Start request, window {window} rtt:"
                                  f" {rtt:4.2f} pktsize: {size}\n"))
        for _, _, text in sorted(lines):
            self.ctx.c_print(text)

    def node_hash_order(self) -> list[int]:
        """The node ids in the order ``array names Node_`` lists them in ns-2 (Tcl's hash
        order, asked of this interpreter, the array filled as ns-2 fills Node_)."""
        return [int(k) for k in dynamics.hash_order(self, [str(n.id) for n in self.nodes])]

    def _reset_for_run(self) -> None:
        """``Simulator instproc run`` resets every node's agents, the nodes in the order
        ``array names Node_`` lists them (Tcl's hash order, asked of this interpreter, filled
        as ns-2 fills Node_), each node's in the order they were attached: each TCP agent
        draws its boot_time_ again (rng.py)."""
        for i in self.node_hash_order():
            for a in self.nodes[i].agents:
                if isinstance(a, TcpAgent):
                    a.reset()

    def _start(self) -> None:
        self._reset_for_run()
        scenario = build_scenario(self, self.ctx.script)
        # Loss-model drops go where the model's drop target points: the link's trace-all
        # trace unless the script pointed it elsewhere after installing it.
        elsewhere = [lk.name for lk in self.links if lk.loss is not None and lk.loss.retargeted]
        for t in self.packet_traces:
            t.lost_untraced = elsewhere
        for link in self.links:
            tr = link.loss.drop_trace if link.loss is not None else None
            if tr is None or not tr.channel or link.loss is None or not link.loss.retargeted:
                continue
            if tr.kind != "Drop":
                raise Ns2Error(unsupported(f"a Trace/{tr.kind} as a loss model's drop target"
                                           " (only Trace/Drop)"), tr.created_at)
            if (tr.src, tr.dst) != (link.src.id, link.dst.id):
                raise Ns2Error(unsupported("a drop trace naming nodes other than its link's"
                                           f" ({tr.src} -> {tr.dst} on {link.src.id} ->"
                                           f" {link.dst.id})"), tr.created_at)
            self.packet_traces.append(_PacketTrace(tr.channel, [link.name], ["lost"]))
        self._reset_agents()
        self._event_only_traces()
        if self.nam_channel is not None:
            self.ctx.write_channel(self.nam_channel, nam.header(self))
        if self.packet_traces:
            tmp = Path(tempfile.mkdtemp(prefix="ackclock-ns2-"))
            atexit.register(shutil.rmtree, tmp, True)
            for i, t in enumerate(self.packet_traces):
                t.file = tmp / f"trace{i}.tr"
                scenario.traces.append(PacketTrace(format="ns2", file=f"trace{i}.tr",
                                                   links=t.links, events=t.events,
                                                   lost_untraced=t.lost_untraced,
                                                   ahead_of_loss=t.ahead_of_loss or None,
                                                   tcp_header=t.tcp_header or None))
        try:
            # The flows' equal TCP tables and the links' equal queues as one object each
            # (10 000 flows: some 150 MB less at the peak); nothing here changes them. Each
            # agent's boot_time_ goes beside its flow's table, so that agents alike share one.
            resolved = resolve_shared(scenario, boot_per_flow=True)
        except ScenarioError as e:
            raise explain(e, self.ctx.script) from None
        self._engine_flow_indices(scenario.flows, resolved["flows"])
        # Not needed from here on: freed before the engine is built, which is the run's peak
        # (10 000 flows: some 50 MB).
        del scenario
        # Scenario files name traces inside their results folder; these are ackclock's own
        # temporary files, copied to the script's channels as simulated time reaches them.
        for entry, t in zip(resolved.get("traces", []), self.packet_traces, strict=True):
            entry["path"] = str(t.file)
        try:
            self.engine = simulation(load_engine(), under_checker(resolved))
        except ValueError as e:
            raise Ns2Error(f"the engine rejected the network: {e}") from None
        self.started = True
        # Queue variables are traced and Quick-Start chosen before the run only (Queue.cmd_trace,
        # map_quick_start from build_scenario).
        self._traced_links = [lk for lk in self.links if lk.queue.traced]
        self._qs_agents = [a for a in self.agents if isinstance(a, TcpAgent) and a.quick_start
                           and a.flow is not None and not isinstance(a, FullTcpAgent)]
        self._tcp_by_handle = {a.handle: a for a in self.agents if isinstance(a, TcpAgent)}
        # Agents and their flows are fixed once the run starts (attach-agent, connect and
        # detach-agent come before it).
        for a in self.agents:
            if a.flow is not None and isinstance(a, (TcpAgent, UdpAgent, TfrcAgent, RapAgent)):
                self._senders.setdefault(a.flow, a)
        costs = self.link_costs()
        if costs is not None:
            self.engine.ns2_link_costs(costs)
        # ns-2's default generator: the script's draws and the engine's (RED's early drops,
        # TFRC's send gaps) from one stream, in the order they happen (rng.py).
        self.ctx.default_rng().stream.attach(self.engine)
        for link in self.links:
            # An ErrorModel's per-packet draws come from it as well; an ErrorModule's bound
            # models (List, Periodic) draw nothing, one with its own RNG keeps its own stream.
            model = link.loss
            if isinstance(model, ErrorModule) and not link.loss_behind:
                model = model.sole_rate_model()  # ErrorModel/Uniform bound in a module
            if type(model) is ErrorModel and model.draws_default_rng():
                self.engine.ns2_rng_loss(link.index)
        for a in self.agents:
            if isinstance(a, LossMonitorAgent):
                a.start_monitor()
            # A CBR's sends follow ns-2's clock with ns-2's own interval_, a double; with
            # random_ each gap's jitter is drawn from ns-2's default generator.
            if isinstance(a, UdpAgent) and a.flow is not None and isinstance(a.app, Cbr):
                interval = a.app.ns2_interval()
                if interval is not None and a.app.jittered():
                    self.engine.ns2_cbr_jitter(a.flow, interval)
                elif interval is not None:
                    self.engine.ns2_cbr_interval(a.flow, interval)
            # An Exponential or Pareto source draws its bursts and silences from ns-2's
            # default generator when ns-2 would, and sends on ns-2's clock.
            if isinstance(a, UdpAgent) and a.flow is not None and isinstance(a.app, OnOff):
                draws = a.app.ns2_draws()
                if draws is not None:
                    self.engine.ns2_onoff(a.flow, *draws)
            # UdpAgent::sendmsg (apps/udp.cc) sends a message larger than the agent's
            # packetSize_ as packets of that size and the rest.
            if isinstance(a, UdpAgent) and a.flow is not None and isinstance(a.app, Cbr | OnOff):
                size = to_int(a.vars["packetSize_"])
                if size <= 0:
                    raise Ns2Error(f"{a.handle}: packetSize_ {size} is not positive",
                                   a.var_where("packetSize_"))
                self.engine.ns2_udp_packet_size(a.flow, size)
        for i, t in enumerate(self.packet_traces):
            # nam's times are ns-2's double clock printed %.15g (nam.py).
            if t.convert is not None:
                self.engine.ns2_nam_times(i)
        self._event_traces()
        self._full_iss()
        for link in self.links:
            if link.queue.traced and not self.engine.trace_queue_vars(link.index):
                raise Ns2Error(unsupported(f"{link.queue.cls} variable traces on {link.name}"))
            if link.queue.summarystats():
                # printstats reads the waiting backlog's integral in ns-2's doubles.
                self.engine.keep_queue_integrals(link.index)
        callbacks.start_host_flows(self)
        if self.dv is not None:
            self.dv.start()
        for call in self.pending:
            call()
        self.ctx.resume_collector()  # the network is built (Context.pause_collector)

    def _full_iss(self) -> None:
        """FullTcp agents with an iss_ of their own: their direction's numbers start there;
        those with ecn_syn_ (or ecn_syn_wait_): their SYN-ACK (FullConn::set_ecn_syn); TCP
        sinks with ecn_syn_: the ACK of segment 0 (ns2_sink_ecn_syn)."""
        for a in self.agents:
            if isinstance(a, FullTcpAgent) and a.flow is not None and a.iss() != 0:
                self.engine.ns2_full_iss(a.flow, a.iss())
            if isinstance(a, FullTcpAgent) and a.flow is not None:
                on, wait = a.ecn_syn()
                if on or wait:
                    self.engine.ns2_full_ecn_syn(a.flow, on, wait)
            if isinstance(a, TcpSink) and a.flow is not None and a.ecn_syn():
                self.engine.ns2_sink_ecn_syn(a.flow)

    def _event_only_traces(self) -> None:
        """An ``eventtrace-all`` file that is not trace-all's: an ns-2 trace of no link, into
        which the engine writes only the agents' ``E`` lines."""
        channels = {getattr(a, "event_channel", None) for a in self.agents
                    if isinstance(a, TcpAgent) and a.flow is not None}
        for channel in sorted(c for c in channels if c is not None):
            if not any(t.channel == channel and t.takes_events() for t in self.packet_traces):
                # A trace records every link unless given some; this one records only the
                # loss-model drops of one link, and those go untraced: no packet line.
                first = self.links[0].name
                t = _PacketTrace(channel, [first], ["lost"], event_only=True)
                t.lost_untraced = [first]
                self.packet_traces.append(t)

    def _event_traces(self) -> None:
        """The TCP agents made after ``eventtrace-all`` write their ``E`` lines into its
        file: trace-all's (in order with the packet lines) or one of its own. The engine
        knows the events of FullTcp and of the one-way Tahoe, Reno, NewReno and Sack1
        agents (tcp/sender/events.rs)."""
        for a in self.agents:
            channel = getattr(a, "event_channel", None)
            if channel is None or a.flow is None or not isinstance(a, TcpAgent):
                continue
            if not isinstance(a, FullTcpAgent) and a.cls not in EVENT_TRACED:
                raise Ns2Error(unsupported(f"eventtrace-all with {a.cls} agents"), a.created_at)
            index = next((i for i, t in enumerate(self.packet_traces)
                          if t.channel == channel and t.takes_events()), None)
            if index is None:
                raise Ns2Error(unsupported("eventtrace-all into a file other than trace-all's"
                                           f" with {a.cls} agents"), a.created_at)
            if not self.engine.ns2_event_trace(a.flow, index, a.cmd_addr(), a.cmd_dst_addr()):
                raise Ns2Error(f"{a.cls} {a.handle}: no event trace")

    def _engine_flow_indices(self, flows: list[Any], engine_flows: list[dict[str, Any]]) -> None:
        """The engine's index of each agent's flow: a two-way connection (FullTcp) is two
        engine flows, the listener's the reply direction's."""
        index = {f["name"]: i for i, f in enumerate(engine_flows)}
        for a in self.agents:
            if isinstance(a, HostAgent) and a.hosted:  # its own (callbacks.py), its name
                a.host_flow = index.get(a.handle)
            if a.flow is None:
                continue
            name = flows[a.flow].name
            listener = isinstance(a, FullTcpAgent) and not a.initiator()
            a.flow = index[name + REPLY_SUFFIX if listener else name]
        for t in self.tmix:
            if t.flow is not None:
                t.flow = index[flows[t.flow].name]
        if self.dv is not None:
            self.dv.index = index

    def app_control(self, app: Application, start: bool) -> None:
        if not self.started:
            self.pending.append(lambda: self._schedule(app, start))
        else:
            self._schedule(app, start)

    def when_running(self, call: Callable[[], None]) -> None:
        """Calls ``call`` now when the engine runs, else once it is built (in order)."""
        if not self.started:
            self.pending.append(call)
        else:
            call()

    def _schedule(self, app: Application, start: bool) -> None:
        flow = app.engine_flow()
        if flow is None:
            agent = app.agent.handle if app.agent is not None else "?"
            raise Ns2Error(f"{app.cls} {app.handle}: its agent {agent} is not connected"
                           " to a receiver", app.created_at)
        full = app.agent
        if start and isinstance(full, FullTcpAgent) and not full.initiator():
            # The listening end's FTP: FullTcpAgent::sendmsg(-1), an endless supply from now
            # on its own direction (the connection is opened by the other end).
            full.send_forever()
            return
        if start and isinstance(full, FullTcpAgent):
            full.connect()  # FTP start: FullTcpAgent::sendmsg(-1), advance_bytes(0)
        self.engine.schedule_app(flow, sim_seconds_to_ps(self.now_s), start)

    def write_traces(self) -> None:
        """Writes the packet-trace lines and traced-variable changes recorded so far to their
        channels."""
        if self.engine is None:
            return
        self._write_queue_vars()
        self._copy_packet_trace()
        rows = self.engine.take_tcp_trace()
        if not rows.get("time_s"):
            return
        by_flow = self._tcp_by_handle
        out: dict[str, list[str]] = {}
        rows_in = list(zip(rows["time_s"], rows["flow"], rows["variable"], rows["value"],
                           strict=True))
        rows_in = _label_steps(rows_in)
        clobbered = {(t, flow) for t, flow, var, value in rows_in if var == "srtt" and value == 0}
        records = sorted(rows_in, key=lambda r: (r[0], trace_rank(
            by_flow.get(r[1]), "cwnd" if r[2] == STEP else r[2], r[3],
            (r[0], r[1]) in clobbered)))
        records = _vegas_order(records, by_flow)
        for t, flow, var, value in self._slowdown_steps(records, by_flow):
            agent = by_flow.get(flow)
            if (flow, var) not in self._trace_started:
                self._trace_started.add((flow, var))
                continue
            if agent is None or agent.trace_channel is None:
                continue
            out.setdefault(agent.trace_channel, []).append(trace_line(agent, t, var, value))
        for channel, lines in out.items():
            try:
                self.ctx.write_channel(channel, "".join(lines))
            except Exception:
                raise Ns2Error(f"cannot write the variable trace to channel {channel!r}"
                               " (closed?)") from None

    def _slowdown_steps(self, records: list[tuple[float, str, str, float]],
                        by_flow: dict[str, TcpAgent]) -> list[tuple[float, str, str, float]]:
        """ns-2.35 tcp/tcp.cc TcpAgent::slowdown sets ssthresh_ to half the window, then
        cwnd_, then raises ssthresh_ to 2 if it is below: a traced ssthresh_ shows each step
        (`ssthresh_ 1`, `cwnd_ 1.000`, `ssthresh_ 2`) where the engine has only the end.
        A cut is a fall of cwnd to at most half of min(cwnd, window_) before it (or to one
        segment); the half is of that window."""
        out: list[tuple[float, str, str, float]] = []
        i = 0
        while i < len(records):
            t, flow = records[i][0], records[i][1]
            j = i
            while j < len(records) and records[j][0] == t and records[j][1] == flow:
                j += 1
            group = records[i:j]
            i = j
            prev = self._last_cwnd.get(flow)
            prev_ssthresh = self._last_ssthresh.get(flow)
            cut = next((r for r in group if r[2] == "cwnd" and prev is not None
                        and r[3] < prev), None)
            for r in group:
                if r[2] == "cwnd":
                    self._last_cwnd[flow] = r[3]
                elif r[2] == "ssthresh":
                    self._last_ssthresh[flow] = r[3]
            if cut is not None and prev_ssthresh is not None and prev_ssthresh != 2.0 \
                    and not any(r[2] == "ssthresh" for r in group):
                # A cut that left ssthresh_ above 2 where it was: no halving slowdown() but
                # an idle timeout's slowdown(CLOSE_CWND_ONE | NO_OUTSTANDING_DATA)
                # (TcpAgent::timeout with nothing outstanding), which sets cwnd_ only.
                out.extend(group)
                continue
            agent = by_flow.get(flow)
            if cut is None and prev is not None and agent is not None \
                    and "ssthresh_" in agent.traced \
                    and agent.base_cls != "Agent/TCP/Vegas":
                out.extend(self._timeout_at_one(group, prev, agent))
                continue
            if cut is None or prev is None or agent is None or "ssthresh_" not in agent.traced:
                out.extend(group)
                continue
            if not agent.var_is_default("QOption_") \
                    and not any(r[2] == "ssthresh" for r in group):
                # QOption_'s cuts after an idle or application-limited time
                # (process_qoption_after_send) leave ssthresh_ unless it is below 3/4 cwnd_.
                out.extend(group)
                continue
            window = to_int(agent.vars["window_"])
            half = int(min(prev, float(window)) / 2)
            # Not a cut: cwnd_ falling to more than half the window (NewReno's
            # exit_recovery_fix_ setting it to ssthresh_ at the end of recovery).
            if half >= 2 or cut[3] > max(min(prev, float(window)) / 2, 1.0):
                out.extend(group)
                continue
            rest = [r for r in group if r[2] != "ssthresh"]
            at = rest.index(cut)
            out.extend(rest[:at])
            out.append((t, flow, "ssthresh", float(half)))
            out.append(cut)
            out.append((t, flow, "ssthresh", 2.0))
            out.extend(rest[at + 1:])
        return out

    @staticmethod
    def _timeout_at_one(group: list[tuple[float, str, str, float]], prev: float,
                        agent: TcpAgent) -> list[tuple[float, str, str, float]]:
        """A cut that leaves cwnd_ where it was (a timeout at one segment): ns-2's slowdown
        still sets ssthresh_ to half the window, below 2, before raising it to 2; the engine
        has only the 2."""
        half = int(min(prev, float(to_int(agent.vars["window_"]))) / 2)
        at = next((k for k, r in enumerate(group) if r[2] == "ssthresh" and r[3] == 2.0), None)
        if at is None or half >= 2:
            return group
        t, flow = group[at][0], group[at][1]
        return [*group[:at], (t, flow, "ssthresh", float(half)), *group[at:]]

    def _write_queue_vars(self) -> None:
        """Queue variable traces (RED's curq_, ave_: Queue.cmd_trace) up to the engine's
        present, written to their channels."""
        for link in self._traced_links:
            q = link.queue
            text = q.write_vars(self.engine.take_queue_vars(link.index))
            if text and q.trace_channel is not None:
                try:
                    self.ctx.write_channel(q.trace_channel, text)
                except Exception:
                    raise Ns2Error(f"cannot write {q.cls}'s variable trace to channel"
                                   f" {q.trace_channel!r} (closed?)") from None

    def _copy_packet_trace(self) -> None:
        """The engine writes each packet trace to a file of its own; the lines are copied to
        the script's channel as simulated time reaches them."""
        if not self.packet_traces:
            return
        try:
            self.engine.flush_traces()
        except OSError as e:
            raise Ns2Error(f"cannot write the packet trace: {e}") from None
        for t in self.packet_traces:
            if t.file is None:
                continue
            part = Path(str(t.file) + ".part")
            src = part if part.exists() else t.file
            with open(src, "rb") as f:
                f.seek(t.offset)
                while chunk := f.read(1 << 20):
                    t.offset += len(chunk)
                    text = chunk.decode("ascii")
                    if t.convert is not None:
                        text = t.convert(text)
                    try:
                        self.ctx.write_channel(t.channel, text)
                    except Exception:
                        raise Ns2Error(f"cannot write the packet trace to channel"
                                       f" {t.channel!r} (closed?)") from None

    def seed(self) -> int:
        return self.ctx.default_rng().seed_value

    def _before_run(self, what: str) -> None:
        if self.started:
            raise Ns2Error(unsupported(f"{what} after $ns run has started"))


class _PacketTrace:
    """One ns-2 packet trace: its channel, links and the engine's file."""

    def __init__(self, channel: str, links: list[str] | None,
                 events: list[str] | None = None,
                 convert: Callable[[str], str] | None = None, tcp_header: bool = False,
                 event_only: bool = False) -> None:
        self.channel = channel
        self.event_only = event_only  # eventtrace-all's own file: E lines, no packets
        self.tcp_header = tcp_header
        self.convert = convert  # nam: rewrites the lines into nam's form
        self.links = links
        self.events = events
        self.lost_untraced: list[str] = []
        self.ahead_of_loss: list[str] = []  # trace-queue after the link's errormodule
        self.file: Path | None = None
        self.offset = 0

    def takes_events(self) -> bool:
        """Whether the agents' E lines may go here: trace-all's trace or an event-only one."""
        return self.event_only or (self.links is None and self.convert is None)


def _vegas_order(records: list[tuple[float, str, str, float]],
                 by_flow: dict[str, TcpAgent]) -> list[tuple[float, str, str, float]]:
    """The order of one instant's traced changes of an `Agent/TCP/Vegas` where cwnd_ took two
    values (tcp/tcp-vegas.cc): `VegasTcpAgent::recv` sets cwnd_ (windowInit_ at the second
    new ACK, or the window before inflation with ssthresh_ 2 after a recovery) before
    `newack`'s RTT sample and its own growth; `VegasTcpAgent::timeout` backs the timer off
    (`reset_rtx_timer`) before `slowdown` sets ssthresh_ and cwnd_ (wnd_restart_, then
    v_slowstart_)."""
    out: list[tuple[float, str, str, float]] = []
    i = 0
    while i < len(records):
        j = i
        while j < len(records) and records[j][:2] == records[i][:2]:
            j += 1
        group = records[i:j]
        i = j
        agent = by_flow.get(group[0][1])
        step = [r for r in group if r[2] == STEP]
        group = [(r[0], r[1], "cwnd", r[3]) if r[2] == STEP else r for r in group]
        if agent is None or agent.base_cls != "Agent/TCP/Vegas" \
                or not step:
            out.extend(group)
            continue
        if any(r[2] == "backoff" and r[3] > 1 for r in group):
            first = [r for r in group if r[2] in ("backoff", "rttvar", "srtt")]
        else:
            first = [(step[0][0], step[0][1], "cwnd", step[0][3])]
        ss = [r for r in group if r[2] == "ssthresh"]
        out.extend(first + [r for r in ss if r not in first]
                   + [r for r in group if r not in first and r not in ss])
    return out


STEP = "cwnd@step"


def _label_steps(rows: list[tuple[float, str, str, float]]
                 ) -> list[tuple[float, str, str, float]]:
    """The engine marks a Vegas agent's intermediate cwnd_ value with a `cwnd_step` row
    before the snapshot that holds it: that cwnd change becomes `STEP` (`_vegas_order`
    places it), the marker goes."""
    if not any(r[2] == "cwnd_step" for r in rows):
        return rows
    out: list[tuple[float, str, str, float]] = []
    pending: tuple[float, str, float] | None = None
    for t, flow, var, value in rows:
        if var == "cwnd_step":
            pending = (t, flow, value)
            continue
        if var == "cwnd" and pending is not None and pending[:2] == (t, flow):
            if value == pending[2]:
                var = STEP
            pending = None
        out.append((t, flow, var, value))
    return out

