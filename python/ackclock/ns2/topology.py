"""Nodes, simplex links (a duplex link is two), their queues and loss models."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .errors import Location, Ns2Error, unsupported
from .objects import TclError, TclObject
from .values import (
    bandwidth_bps,
    delay_double,
    fmt_double,
    time_ps,
    to_bool,
    to_float,
    to_int,
)

if TYPE_CHECKING:
    from .agents import Agent
    from .cbq import CbqClass
    from .delayer import Delayer
    from .interp import Context
    from .simulator import Simulator

# ns-2 queue class -> the scenario's queue kind.
QUEUE_KINDS = {"DropTail": "droptail", "RED": "red", "CoDel": "codel", "PIE": "pie",
               "FQ_CoDel": "fq_codel", "SFQ": "sfq", "DRR": "drr", "PI": "pi", "REM": "rem",
               "Vq": "vq", "CBQ": "cbq", "CBQ/WRR": "cbq", "dsRED/edge": "dsred",
               "dsRED/core": "dsred", "FQ": "ns2_fq"}
# (ns-2.35 has DropTail, RED, SFQ, DRR, PI, REM and Vq; CoDel, PIE and FQ_CoDel follow later ns-2
# versions' names.) ns-2.35's SFQ admits by its own maxqueue_ (queue/sfq.cc: `$sfq limit n`
# sets it, the Queue's limit_ that queue-limit sets is not read), DRR by blimit_ bytes
# (queue/drr.cc). FQ is ns-2.35's FQLink (tcl/lib/ns-queue.tcl): a DropTail of 50 packets per
# flow id behind queue/fq.cc's finish times, the link's limit_ not read.


# ns-2's Queue variables that only a Quick-Start router reads (queue/queue.cc's utilisation,
# QSAgent::process): util_weight_, util_check_intv_, util_records_.
QS_UTIL_VARS = ("util_weight_", "util_check_intv_", "util_records_")
# RED variables ns-2.35 binds but never reads (queue/red.cc): drop_tail_, as
# `REDQueue::pickPacketToDrop` takes the front with drop_front_, a random packet with
# drop_rand_, else the arriving one, whatever drop_tail_ says. Scripts set it (`false`).
RED_UNREAD = ("drop_tail_",)


class QsAgent(TclObject):
    """A node's Quick-Start agent (``Agent/QSAgent``, qs/qsagent.cc), which a node made while
    ``$ns node-config -QS ON`` holds gets (tcl/lib/ns-qsnode.tcl, ``RtModule/QS``): its
    variables become the engine's ``quick_start`` router for the node (build.py)."""

    def cmd_attach(self, *args: str) -> None:
        return None


class Node(TclObject):
    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.id = -1  # set by the simulator
        self.qs_agent: QsAgent | None = None
        self.agents: list[Agent] = []
        self.next_port = 0
        self.nam_color: str | None = None
        self.nam_shape: str | None = None
        # ns-namsupp.tcl's attr_: the label colour (LCOLOR), and the label, its colour and
        # its direction as the last `label` / `label-color` / `label-at` set them (quoted).
        self.nam_lcolor: str | None = None
        self.nam_attrs: dict[str, str] = {}

    @property
    def name(self) -> str:
        return f"n{self.id}"

    def cmd_id(self) -> int:
        return self.id

    def cmd_qs_agent(self) -> str:
        """``[$node qs-agent]`` (tcl/lib/ns-qsnode.tcl): the node's Quick-Start agent."""
        if self.qs_agent is None:
            raise TclError(f"{self.handle}: no Quick-Start agent (node-config -QS ON)")
        return self.qs_agent.handle

    def cmd_node_addr(self) -> int:
        return self.id

    def live_var(self, var: str) -> str | None:
        # ns-2.35's Node instproc init sets address_ to the node's address (its id under
        # flat addressing, as node-addr returns it).
        return str(self.id) if var == "address_" else None

    def cmd_neighbors(self) -> str:
        """The nodes this one has a link to (ns-2's ``add-neighbor`` at each
        ``simplex-link``), sorted: ns-2.35's ``Node instproc neighbors`` returns them
        ``lsort``-ed by handle, as text; ns-2's handles of nodes made one after the other grow
        with their ids, and ackclock's are others, so here by id (the same order unless ns-2's
        handles of these nodes differ in their number of digits)."""
        sim = self.ctx.simulator
        links = sim.links if sim is not None else []
        return " ".join(n.handle for n in sorted((lk.dst for lk in links if lk.src is self),
                                                 key=lambda n: n.id))

    def cmd_attach(self, agent: str, port: str = "") -> None:
        from .agents import Agent

        a = self.ctx.lookup(agent, Agent, "an agent")
        assert isinstance(a, Agent)
        # ns-2.35's Node instproc attach: the agent takes the port given, else the next free.
        a.attach_to(self, to_int(port) if port else None)
        from .callbacks import HostAgent

        sim = self.ctx.simulator
        if isinstance(a, HostAgent) and sim is not None and a not in sim.agents:
            sim.agents.append(a)  # it may send without a connection (messpass.py)

    def cmd_agent(self, port: str) -> str:
        """The agent attached to this node at ``port``, or "" (ns-2.35 tcl/lib/ns-node.tcl,
        ``Node instproc agent``: the first of its ``agents_`` whose ``agent_port_`` it is)."""
        try:
            p = to_int(port)
        except ValueError as e:
            raise TclError(str(e)) from None
        for a in self.agents:
            if a.node is self and a.port == p:
                return a.handle
        return ""

    def cmd_detach(self, agent: str, nullagent: str = "") -> None:
        from .agents import Agent

        a = self.ctx.lookup(agent, Agent, "an agent")
        assert isinstance(a, Agent)
        a.detach()

    # nam's look of the node (see nam.py).
    def cmd_color(self, color: str) -> None:
        """``Node instproc color`` (tcl/lib/ns-namsupp.tcl): before the run, the colour the
        nam header gives the node; during it, an ``n ... -S COLOR`` line (old colours in
        ``-o`` / ``-I``; the time ``%.15g``), its words as ``eval list`` leaves them."""
        sim = self.ctx.simulator
        if sim is not None and sim.started and sim.nam_channel is not None:
            old, old_l = self.nam_color or "black", self.nam_lcolor or self.nam_color or "black"
            now = f"{to_float(fmt_double(sim.now_s)):.15g}"
            line = f"n -t {now} -s {self.id} -S COLOR -c {color} -o {old} -i {color} -I {old_l}"
            sim.write_traces()
            self.ctx.tcl.setvar("::__ac_line", line)
            self.ctx.write_channel(sim.nam_channel,
                                   str(self.ctx.tcl.eval("eval list $::__ac_line")) + "\n")
        self.nam_color = self.nam_lcolor = color

    def cmd_shape(self, shape: str) -> None:
        self.nam_shape = shape

    def cmd_label(self, *text: str) -> None:
        self._nam_attr("DLABEL", "l", "L", " ".join(text))

    def cmd_label_color(self, text: str) -> None:
        self._nam_attr("DCOLOR", "e", "E", text)

    def cmd_label_at(self, text: str) -> None:
        self._nam_attr("DIRECTION", "p", "P", text)

    def _nam_attr(self, attr: str, new: str, old: str, text: str) -> None:
        """``Node instproc label`` / ``label-color`` / ``label-at`` (tcl/lib/ns-namsupp.tcl):
        ``n -t <now> -s <id> -S <attr> -<new> "<text>" -<OLD> <previous>``, the previous value
        quoted as it was set (``""`` before any; the label colour is ``black`` once the nam
        header is written, ``dump-namconfig``)."""
        sim = self.ctx.simulator
        if sim is not None and sim.nam_channel is not None:
            prev = self.nam_attrs.get(attr)
            if prev is None:
                prev = "black" if attr == "DCOLOR" and sim.started else '""'
            now = fmt_double(sim.now_s) if sim.started else "0"
            sim.write_traces()
            self.ctx.write_channel(sim.nam_channel, f'n -t {now} -s {self.id} -S {attr}'
                                                    f' -{new} "{text}" -{old} {prev}\n')
        self.nam_attrs[attr] = f'"{text}"'


class Queue(TclObject):
    """A link's queue (``Queue/DropTail``): ``limit_`` is its buffer, in packets."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.kind = QUEUE_KINDS.get(cls.split("/", 1)[-1], "")
        # `$q trace curq_` / `trace ave_` and `$q attach $chan` (RED): see write_vars.
        self.traced: list[str] = []
        self.trace_channel: str | None = None
        self.last_vars = (0.0, 0.0)  # curq_, ave_ as last written
        # RED's early drops go to their own target (attach-fmon's edrop argument: ns-2's
        # `early-drop-target`), where a flow monitor counts them apart.
        self.early_drop_target = False
        # CBQ's link-sharing algorithm (`$cbq algorithm`; CBQLink's init sets Queue/CBQ's
        # algorithm_, 0: ancestor-only).
        self.cbq_algorithm = 0
        if self.kind == "cbq":
            from .cbq import algorithm

            self.cbq_algorithm = algorithm(self.vars.get("algorithm_", "0"))

    def cmd_algorithm(self, arg: str) -> None:
        """``$cbq algorithm name`` (``CBQueue::algorithm``)."""
        from .cbq import algorithm

        if self.kind != "cbq":
            raise TclError(f"{self.cls}: algorithm is a command of Queue/CBQ")
        sim = self.ctx.simulator
        if sim is not None and sim.started:
            raise Ns2Error(unsupported("changing CBQ's link-sharing algorithm during the run"))
        self.cbq_algorithm = algorithm(arg)

    def live_var(self, var: str) -> str | None:
        return None

    def cmd_trace(self, var: str) -> None:
        """RED's traced variables (ns-2.35 queue/red.cc): `curq_`, the backlog an arrival
        finds, and `ave_`, the average after it, written to the attached channel whenever an
        arrival changes them (REDQueue::enque assigns them, REDQueue::trace writes
        `Q <time> <curq_>` and `a <time> <ave_>`). PI's `curq_` (queue/pi.cc): the backlog an
        arrival finds (PIQueue::enque) and the one a departure leaves (PIQueue::deque),
        written by PIQueue::trace as RED's; REM's `curq_` (queue/rem.cc): the backlog after an
        arrival was queued or dropped (REMQueue::enque) and after a departure."""
        if self.kind not in ("red", "pi", "rem", "vq"):
            raise Ns2Error(unsupported(f"{self.cls} trace {var} (variable traces: Queue/RED's"
                                       " curq_ and ave_, Queue/PI's and Queue/REM's curq_)"))
        if self.kind in ("pi", "rem", "vq") and var != "curq_":
            raise Ns2Error(unsupported(f"{self.cls} trace {var} (only curq_)"))
        if var not in ("curq_", "ave_"):
            raise Ns2Error(unsupported(f"{self.cls} trace {var} (only curq_ and ave_)"))
        if self.ctx.simulator is not None and self.ctx.simulator.started:
            raise Ns2Error(unsupported(f"{self.cls} trace {var} once the run has started"))
        if var not in self.traced:
            self.traced.append(var)

    def cmd_attach(self, channel: str) -> None:
        """REDQueue::command / PIQueue::command "attach": where traced variables are
        written."""
        if self.kind not in ("red", "pi", "rem", "vq"):
            raise Ns2Error(unsupported(f"{self.cls} attach (variable traces: Queue/RED's,"
                                       " Queue/PI's and Queue/REM's)"))
        self.trace_channel = channel

    def write_vars(self, rows: list[tuple[float, float, float]]) -> str:
        """The trace lines of the engine's recorded changes (time s, curq_, ave_), each
        variable's line when it changed, ave_ first as REDQueue::enque assigns it first."""
        out: list[str] = []
        last_q, last_a = self.last_vars
        for t, curq, ave in rows:
            if ave != last_a and "ave_" in self.traced:
                out.append(f"a {t:g} {ave:g}\n")
            if curq != last_q and "curq_" in self.traced:
                out.append(f"Q {t:g} {int(curq)}\n")
            last_q, last_a = curq, ave
        self.last_vars = (last_q, last_a)
        return "".join(out)

    def write_var(self, var: str, value: str) -> None:
        sim = self.ctx.simulator
        if sim is not None and sim.started:
            if var != "limit_" or self.kind != "droptail" or self.in_bytes():
                raise Ns2Error(unsupported(f"changing a queue's {var} during the run"
                                           " (only a DropTail queue's limit_)"))
            # DropTail::enque reads qlim_ at each arrival; the packets waiting stay.
            limit = to_int(value, "a queue limit")
            self._set_live(sim, limit, shrink=False)
        super().write_var(var, value)

    def cmd_shrink_queue(self) -> None:
        """``$queue shrink-queue`` (ns-2.35 ``DropTail::shrink_queue``): the packets waiting
        beyond ``limit_`` are dropped, the last first (with ``drop_front_`` false)."""
        if self.kind != "droptail":
            raise Ns2Error(unsupported(f"{self.cls} shrink-queue (only DropTail's)"))
        if to_bool(self.vars.get("drop_front_", "false")):
            raise Ns2Error(unsupported("shrink-queue with drop_front_ true"))
        sim = self.ctx.simulator
        if sim is None or not sim.started:
            return  # nothing waits before the run
        self._set_live(sim, None, shrink=True)

    def _set_live(self, sim: Simulator, limit: int | None, shrink: bool) -> None:
        link = next((lk for lk in sim.links if lk.queue is self), None)
        if link is None:
            return  # a queue on no link
        if limit is not None and limit < 0:
            raise Ns2Error(f"limit_: expected a queue limit of 0 or more, got {limit}")
        if limit is not None and link.delayer is not None:
            limit += 1  # the Delayer's own slot (delayer.py)
        sim.write_traces()
        try:
            sim.engine.ns2_set_queue_limit(link.index, limit, shrink)
        except ValueError as e:
            raise Ns2Error(unsupported(f"changing a queue during the run: {e}")) from None
        sim.write_traces()

    def limit(self) -> int | None:
        if self.kind == "sfq":
            return to_int(self.vars["maxqueue_"], "a queue limit")
        if self.in_bytes():
            return None
        return to_int(self.vars["limit_"], "a queue limit")

    def in_bytes(self) -> bool:
        """A DropTail queue measured in bytes (`queue_in_bytes_`): DropTail::enque drops an
        arrival when the bytes waiting plus its own reach `limit_ * mean_pktsize_`."""
        return self.kind == "droptail" and to_bool(self.vars.get("queue_in_bytes_", "false"))

    def limit_bytes(self) -> int | None:
        if not self.in_bytes():
            return None
        return (to_int(self.vars["limit_"], "a queue limit")
                * to_int(self.vars["mean_pktsize_"], "a mean packet size"))

    def summarystats(self) -> bool:
        """`summarystats_` (Queue/DropTail, Queue/RED): the true average queue printstats
        prints."""
        return self.kind in ("droptail", "red") and to_bool(self.vars.get("summarystats_",
                                                                          "false"))

    def cmd_printstats(self) -> None:
        """DropTail::print_summarystats / REDQueue::print_summarystats (ns-2.35
        queue/drop-tail.cc, queue/red.cc), with `summarystats_` true: `True average queue:
        %5.3f[ (in bytes)] time: %5.3f`, the time average of the waiting packets (or bytes)
        from 0 to the queue's last enque or deque call and that time (Queue::updateStats,
        called by each; a deque also at the resume that finds the queue empty, when a
        transmission ends). Printed with C's printf (`Context.c_print`)."""
        if self.kind not in ("droptail", "red"):
            raise TclError(f"{self.cls}: printstats is a command of Queue/DropTail and"
                           " Queue/RED")
        ave, when = 0.0, 0.0
        sim = self.ctx.simulator
        if self.summarystats() and sim is not None and sim.started:
            link = next((lk for lk in sim.links if lk.queue is self), None)
            if link is None:
                raise Ns2Error(unsupported(f"{self.cls} printstats on a queue of no link"))
            both = sim.engine.queue_integrals(link.index)
            busy = sim.engine.queue_line_busy(link.index)
            if both is None or busy is None or link.qmon or link.loss is not None:
                raise Ns2Error(unsupported(
                    f"{self.cls} printstats on {link.name} (summary statistics need the"
                    " link to keep ns-2's clock, without a queue monitor or a loss model)"))
            total, lastx, _ = both[0] if self.queue_in_bytes() else both[1]
            # Queue::resume's deque() at the end of a busy period is a call too.
            when = max(lastx, busy) if busy <= sim.now_s else lastx
            ave = total / when if when > 0 else 0.0
        unit = " (in bytes)" if self.queue_in_bytes() else ""
        self.ctx.c_print(f"True average queue: {ave:5.3f}{unit} time: {when:5.3f}\n")

    def queue_in_bytes(self) -> bool:
        return to_bool(self.vars.get("queue_in_bytes_", "false"))

    def cmd_limit(self, n: str) -> None:
        """SFQ::command "limit": sets maxqueue_ (ns-2.35 queue/sfq.cc)."""
        if self.kind != "sfq":
            raise TclError(f"{self.cls}: limit is a command of Queue/SFQ")
        self.write_var("maxqueue_", n)

    def cmd_blimit(self, n: str) -> None:
        """DRR::command "blimit": sets blimit_ (ns-2.35 queue/drr.cc)."""
        self._drr_command("blimit", n)

    def cmd_quantum(self, n: str) -> None:
        self._drr_command("quantum", n)

    def cmd_buckets(self, n: str) -> None:
        self._drr_command("buckets", n)

    def cmd_mask(self, n: str) -> None:
        self._drr_command("mask", n)

    def _drr_command(self, name: str, n: str) -> None:
        """DRR::command's "blimit", "quantum", "buckets" and "mask" set the variable of that
        name and a trailing underscore (ns-2.35 queue/drr.cc)."""
        if self.kind != "drr":
            raise TclError(f"{self.cls}: {name} is a command of Queue/DRR")
        self.write_var(f"{name}_", n)

    def was_set(self, var: str) -> bool:
        return var in self.set_at or self.ctx.classes.where(self.cls, var) is not None

    def params(self) -> dict[str, object]:
        """The discipline's own parameters the script set (ackclock.queues names them)."""
        from ..queues import SPECS

        if self.kind == "cbq":
            from .cbq import queue_params

            return queue_params(self)
        spec = SPECS.get(self.kind, {})
        by_alias = {a: p for name, p in spec.items() for a in (name, *p.aliases)}
        out: dict[str, object] = {}
        for var in self.vars:
            if var in ("limit_", "setbit_", "maxqueue_", "summarystats_") \
                    or not self.was_set(var):
                continue
            if var in QS_UTIL_VARS:
                continue  # read by Quick-Start routers only (Node.quick_start_router)
            if self.kind == "red" and var in RED_UNREAD:
                continue
            if self.kind == "droptail" and var in ("queue_in_bytes_", "mean_pktsize_"):
                continue  # the byte limit (limit_bytes)
            param = by_alias.get(var)
            if (param is not None and param.ns2 and var != param.ns2
                    and var not in (param.convert or {}) and self.var_kind(var) is None):
                # Another name of a parameter ns-2 calls otherwise (`thresh` for `thresh_`):
                # ns-2 binds no such variable, and setting it changes nothing.
                continue
            if param is None:
                if self.var_kind(var) is not None and not self.var_is_default(var):
                    raise Ns2Error(unsupported(f"{self.cls} variable {var} = {self.vars[var]}"),
                                   self.var_where(var))
                continue
            text = self.vars[var]
            try:
                if param.kind == "bool":
                    out[var] = to_bool(text)
                elif param.kind == "int":
                    out[var] = to_int(text)
                elif param.kind == "time":
                    out[var] = text.strip()
                else:
                    out[var] = to_float(text)
            except ValueError as e:
                raise Ns2Error(f"{var}: {e}", self.var_where(var)) from None
        if self.early_drop_target:
            out["early_drop_target"] = True
        if self.kind == "ns2_fq":
            # FQLink's new-flow makes each flow's Queue/DropTail as the run meets the flow,
            # with Queue's limit_ as the script left it (tcl/lib/ns-queue.tcl).
            limit = self.ctx.classes.get("Queue/DropTail", "limit_")
            out["flow_limit"] = to_int(limit) if limit is not None else 50
        return out

    def ecn(self) -> bool | None:
        if self.kind == "vq":
            return None  # queue/vq.cc marks by markpkts_ and binds no setbit_
        if "setbit_" not in self.vars or not self.was_set("setbit_"):
            return None
        return to_bool(self.vars["setbit_"])


class ErrorModel(TclObject):
    """``new ErrorModel``: a Bernoulli per-packet loss of probability ``rate_``."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.unit = "pkt"
        self.ranvar: str | None = None
        self.drop_trace: TraceObject | None = None  # a create-trace object as drop target
        # ns-2's link-lossmodel points the loss model at the link's drop trace (trace-all); a
        # drop-target set afterwards takes its drops elsewhere.
        self.installed = False
        self.retargeted = False
        if cls == "ErrorModel/Uniform" and args:
            # ns-errmodel.tcl, `ErrorModel/Uniform instproc init {rate {unit "pkt"}}`: the
            # loss rate and unit as arguments (ignored before: rate_ stayed 0).
            self.vars["rate_"] = args[0]
            self.cmd_unit(args[1] if len(args) > 1 else "pkt")

    def cmd_unit(self, unit: str = "") -> str:
        if unit:
            if unit not in ("pkt", "packet", "byte"):
                raise Ns2Error(unsupported(f"ErrorModel unit {unit!r} (pkt or byte)"))
            self.unit = "byte" if unit == "byte" else "pkt"
        return self.unit

    def cmd_ranvar(self, rv: str = "") -> str:
        if rv:
            obj = self.ctx.lookup(rv, None, "a RandomVariable")
            if not obj.cls.startswith("RandomVariable/Uniform"):
                raise Ns2Error(unsupported(f"ErrorModel ranvar of class {obj.cls}"
                                           " (only RandomVariable/Uniform)"))
            self.ranvar = rv
        return self.ranvar or ""

    def cmd_drop_target(self, target: str = "") -> str:
        if target:
            obj = self.ctx.objects.get(target)
            self.drop_trace = obj if isinstance(obj, TraceObject) else None
            self.retargeted = self.installed
        return target

    def probability(self) -> float:
        try:
            p = to_float(self.vars["rate_"], "a loss probability")
        except ValueError as e:
            raise TclError(str(e)) from None
        if not 0 <= p <= 1:
            raise Ns2Error(f"ErrorModel rate_ must be in [0, 1], got {p}",
                           self.var_where("rate_"))
        if self.vars["enable_"] in ("0",):
            return 0.0
        return p

    def draws_default_rng(self) -> bool:
        """Whether ns-2 draws this model's numbers from ``$defaultRNG``, one per packet
        (`ErrorModel::CorruptPkt`: ``Random::uniform()`` without a ranvar, or a
        RandomVariable/Uniform on (0, 1) of the default generator; nothing while disabled)."""
        from .rng import RandomVariable

        if self.vars["enable_"] in ("0",):
            return False
        if self.ranvar is None:
            return True
        rv = self.ctx.objects.get(self.ranvar)
        return (isinstance(rv, RandomVariable) and rv.cls == "RandomVariable/Uniform"
                and rv.rng in (None, self.ctx.default_rng())
                and to_float(rv.vars["min_"]) == 0.0 and to_float(rv.vars["max_"]) == 1.0)


@dataclass
class SimplexLink:
    """One direction of a link, as the engine will see it."""

    src: Node
    dst: Node
    rate_bps: float
    delay_ps: int
    queue: Queue
    where: Location
    index: int  # its position in the engine's link list
    loss: ErrorModel | None = None
    loss_where: Location | None = None
    # ns-2.35 ns-link.tcl: `$ns lossmodel` / `$link errormodule` add the module to the link's
    # head (before the queue); `$ns link-lossmodel` inserts it after the delay element.
    loss_at_entry: bool = False
    # The ErrorModules placed on it before `loss`, which packets meet after it, in order.
    loss_behind: list[ErrorModel] = field(default_factory=list)
    monitor_flows: bool = False  # a flow monitor (attach-fmon) watches it
    # `$ns cost` / `$link cost` (ns-link.tcl: the Link's cost_, as the script wrote it).
    cost_text: str | None = None
    # Handed out as an object ([$ns link]), monitored or traced by name: a second link between
    # the same nodes cannot replace it then (Simulator.cmd_simplex_link).
    exposed: bool = False

    def cost(self) -> float:
        """The cost ns-2's route computation reads: ``cost?`` (1 unless set) through
        RouteLogic's ``insert``, which takes it with C's ``atof``."""
        from .callbacks import c_atof

        return 1.0 if self.cost_text is None else c_atof(self.cost_text)
    # ns-2's double for delay_ (tclcl's parser, values.py), which the nam trace prints: 3ns
    # is 3.0000000000000004e-09 there.
    delay2: float = 0.0
    # rtmodel made it dynamic (dynamics.py): its models' traces in the trace-all and the nam
    # trace (one set of link-up/down lines each), and whether it is up.
    dynamic_traces: int = 0
    dynamic_nam_traces: int = 0
    is_up: bool = True
    # `$ns insert-delayer` (delayer.py): the Delayer between its queue and its line.
    delayer: Delayer | None = None
    # `$ns monitor-queue` (SimpleLink instproc init-monitor): its QueueMonitor, the channel
    # and interval queue-sample-timeout writes with, and sample-queue-size's lastSample_.
    qmon: str = ""
    qtrace: str = "0"
    sample_interval: str = "0.1"
    last_sample: str = "0"
    # A CBQ link's classes in the order inserted, and the class of each flow id bound (cbq.py).
    cbq_classes: list[CbqClass] = field(default_factory=list)
    cbq_binds: dict[int, CbqClass] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.src.name}->{self.dst.name}"


_COUNTS = "parrivals_ pdepartures_ pdrops_ barrivals_ bdepartures_ bdrops_"
# sample-queue-size's arithmetic, run by Tcl `apply` with the monitor and lastSample_: returns
# the time of the sample and the sample.
_SAMPLE = """{qm last} {
    set now [[Simulator instance] now]
    set b [$qm get-bytes-integrator]
    set p [$qm get-pkts-integrator]
    $b newpoint $now [$b set lasty_]
    set bsum [$b set sum_]
    $p newpoint $now [$p set lasty_]
    set psum [$p set sum_]
    set dur [expr $now - $last]
    if {$dur != 0} {
        set mb [expr $bsum / $dur]
        set mp [expr $psum / $dur]
    } else {
        set mb 0
        set mp 0
    }
    $b set sum_ 0.0
    $p set sum_ 0.0
    set counts {}
    foreach v {COUNTS} {
        lappend counts [$qm set $v]
    }
    return [list $now "$mb $mp [join $counts]"]
}""".replace("COUNTS", _COUNTS)


class Link(TclObject):
    """``[$ns link $a $b]``: the simplex link object."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.link: SimplexLink | None = None
        self.delay_link: DelayLink | None = None

    def _l(self) -> SimplexLink:
        assert self.link is not None
        return self.link

    def cmd_queue(self) -> str:
        return self._l().queue.handle

    def live_var(self, var: str) -> str | None:
        """The SimpleLink's instance variables ``link_`` (its DelayLink) and ``queue_``
        (ns-link.tcl's ``SimpleLink instproc init``)."""
        if self.link is not None and var == "link_":
            return self.cmd_link()
        if self.link is not None and var == "queue_":
            return self.cmd_queue()
        return super().live_var(var)

    def cmd_bw(self) -> str:
        return fmt_double(self._l().rate_bps)  # ns-2 prints its bound double: 2000000

    def cmd_delay(self) -> str:
        return fmt_double(self._l().delay_ps / 1e12)  # 0.025000000000000001

    def cmd_src(self) -> str:
        return self._l().src.handle

    def cmd_dst(self) -> str:
        return self._l().dst.handle

    def cmd_trace(self, ns: str, channel: str, op: str = "") -> None:
        """``$link trace $ns $file`` (ns-link.tcl, SimpleLink instproc trace): the link's
        enqueue, dequeue, drop and receive traces into the file, what ``$ns trace-queue``
        makes (it calls this)."""
        if op:
            raise Ns2Error(unsupported(f"a link's trace with op {op!r} (a nam trace of one"
                                       " link)"))
        sim = self.ctx.simulator
        assert sim is not None
        lk = self._l()
        sim.cmd_trace_queue(lk.src.handle, lk.dst.handle, channel)

    def cmd_trace_dynamics(self, *args: str) -> None:
        """ns-2 traces the link's up/down changes; ackclock's links never change."""

    def cmd_link(self) -> str:
        """``[$link link]``: the DelayLink, whose ``bandwidth_`` and ``delay_`` are the link's."""
        if self.delay_link is None:
            obj = self.ctx.new_object("DelayLink", [])
            assert isinstance(obj, DelayLink)
            obj.link = self._l()
            self.delay_link = obj
        return self.delay_link.handle

    def cmd_fromNode(self) -> str:  # noqa: N802 - ns-2's name
        return self._l().src.handle

    def cmd_toNode(self) -> str:  # noqa: N802 - ns-2's name
        return self._l().dst.handle

    def cmd_sample_queue_size(self) -> str:
        """``SimpleLink instproc sample-queue-size`` (tcl/lib/ns-link.tcl): the mean queue in
        bytes and packets since the last sample (each integrator closed with a point at now,
        its sum_ then cleared) and the monitor's counters, computed in Tcl as ns-2 does."""
        lk = self._l()
        if not lk.qmon:
            raise TclError(f"{self.handle}: no queue monitor on this link ($ns monitor-queue)")
        sim = self.ctx.simulator
        tcl = self.ctx.tcl
        if sim is None or not sim.started:
            # Before the run the clock, the integrators and the counters are all zero: a
            # sample of no duration.
            lk.last_sample = "0"
            counts = [str(tcl.eval(f"{lk.qmon} set {v}")) for v in _COUNTS.split()]
            return " ".join(["0", "0", *counts])
        now, text = tcl.splitlist(tcl.call("apply", _SAMPLE, lk.qmon, lk.last_sample))
        lk.last_sample = str(now)
        return str(text)

    def cmd_queue_sample_timeout(self) -> None:
        """``SimpleLink instproc queue-sample-timeout``: a sample written to the monitor's
        channel as `now from to sample`, and the next one `sampleInterval_` later."""
        lk = self._l()
        qavg = self.cmd_sample_queue_size()
        tcl = self.ctx.tcl
        if lk.qtrace != "0":
            now = tcl.eval("[Simulator instance] now")
            tcl.call("puts", lk.qtrace, f"{now} {lk.src.id} {lk.dst.id} {qavg}")
        tcl.eval(f"[Simulator instance] at [expr [[Simulator instance] now] +"
                 f" {lk.sample_interval}] {{{self.handle} queue-sample-timeout}}")

    def cmd_cost(self, c: str) -> None:
        """``Link instproc cost`` (ns-link.tcl): the link's cost_, which static routing adds
        up when the run starts (Simulator.link_costs)."""
        self._l().cost_text = c

    def cmd_cost_(self) -> str:
        """``Link instproc cost?``: cost_ as set, 1 unless set."""
        text = self._l().cost_text
        return "1" if text is None else text

    def cmd_up_(self) -> str:
        return "up" if self._l().is_up else "down"

    def cmd_insert(self, cls: str, qmon: str = "") -> None:
        """``$cbqlink insert $class`` (``CBQLink instproc insert``, cbq.py)."""
        from .cbq import link_insert

        link_insert(self._l(), self.ctx, cls, qmon)

    def cmd_bind(self, cls: str, first: str, last: str = "") -> None:
        """``$cbqlink bind $class fid ?fidend?`` (``CBQLink instproc bind``, cbq.py)."""
        from .cbq import link_bind

        link_bind(self._l(), self.ctx, cls, first, last)

    def cmd_errormodule(self, em: str = "") -> str:
        if not em:
            loss = self._l().loss
            return loss.handle if loss is not None else ""
        assert self.ctx.simulator is not None
        self.ctx.simulator.set_loss(self._l(), em, at_entry=True)
        return ""


class DelayLink(TclObject):
    """``[[$ns link $a $b] link]``: the transmission and propagation part of a link, with
    ``bandwidth_`` (bit/s) and ``delay_`` (seconds); set before the run, they change the link."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.link: SimplexLink | None = None

    def read_var(self, var: str) -> str:
        if self.link is not None and var == "bandwidth_":
            return fmt_double(self.link.rate_bps)
        if self.link is not None and var == "delay_":
            return fmt_double(self.link.delay_ps / 1e12)
        return super().read_var(var)

    def write_var(self, var: str, value: str) -> None:
        if var == "avoidReordering_" and value not in ("0", "false"):
            # LinkDelay::recv's reordering guard (link/delay.cc) is not modelled.
            raise Ns2Error(unsupported("DelayLink avoidReordering_ true"))
        if self.link is not None and var in ("bandwidth_", "delay_"):
            link = self.link
            try:
                if var == "bandwidth_":
                    params = (bandwidth_bps(value), link.delay_ps, link.delay2)
                else:
                    params = (link.rate_bps, time_ps(value), delay_double(value))
            except ValueError as e:
                raise TclError(str(e)) from None
            sim = self.ctx.simulator
            if sim is not None:
                sim.change_link(link, *params)  # during the run too (ns-lib.tcl's way)
            else:
                link.rate_bps, link.delay_ps, link.delay2 = params
            return
        super().write_var(var, value)


# Queue disciplines of ns-2.35 that ackclock does not have (yet).
NS2_QUEUES = ("RED/RIO", "RED/PD", "GK", "SRR",
              "dsRED", "XCP", "DropTail/PriQueue", "RedPDQueue", "JoBS", "Marker", "Demarker")


def check_queue_kind(qtype: str) -> str:
    kind = QUEUE_KINDS.get(qtype)
    if kind is None and qtype in NS2_QUEUES:
        raise Ns2Error(unsupported(f"ns-2's queue type {qtype}")
                       + f" (ackclock has: {', '.join(QUEUE_KINDS)})")
    if kind is None:
        raise Ns2Error(f"unknown or unsupported queue type {qtype!r}"
                       f" (ns-2 types ackclock knows: {', '.join(QUEUE_KINDS)})")
    return kind


class TraceObject(TclObject):
    """``$ns create-trace TYPE $file $src $dst``: a trace connector. As in ns-2 it writes
    only where the script places it; ackclock supports it as a loss model's drop target
    (``$em drop-target $tr`` with TYPE Drop), where it writes the loss model's drops."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.kind = cls.split("/", 1)[1] if "/" in cls else ""
        self.channel = ""
        self.src = -1
        self.dst = -1

    def cmd_attach(self, channel: str) -> None:
        self.channel = channel

    def cmd_target(self, *args: str) -> str:
        if args:
            return ""  # where packets go after the trace: they are dropped anyway
        return ""

