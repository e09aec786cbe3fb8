"""Queue monitors and their integrators, and traced TCP variables written as ns-2 does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import Location, Ns2Error, unsupported
from .objects import TclError, TclObject
from .values import fmt_double, int_arg, to_bool, to_float, to_int

if TYPE_CHECKING:
    from .agents import TcpAgent
    from .interp import Context
    from .topology import SimplexLink

_COUNTERS = {
    "parrivals_": ("arrived_packets",),
    "barrivals_": ("arrived_bytes",),
    "pdepartures_": ("departed_packets",),
    "bdepartures_": ("departed_bytes",),
    # Packets a loss model discards go to the link's drop target, which the monitor counts.
    "pdrops_": ("dropped_packets", "lost_packets"),
    "bdrops_": ("dropped_bytes", "lost_bytes"),
    # QueueMonitor::out's count of departures carrying CE (queue-monitor.cc): kept by the
    # engine on links with ns-2's clock only (see `marks_kept`).
    "pmarks_": ("departed_ce_packets",),
}


# A flow monitor's early drops (QueueMonitor/ED: EDQueueMonitor::edrop), counted where the
# link's RED queue sends its early drops to their own target (attach-fmon's edrop argument).
_ED_COUNTERS = {
    "epdrops_": ("early_dropped_packets",),
    "ebdrops_": ("early_dropped_bytes",),
}


def monitor_count(c: dict[str, float], unit: str) -> float:
    """A queue monitor's ``pkts_`` (or ``size_``): its arrivals less its departures and drops,
    a loss model's drops included (they reach the link's drop target, which the monitor
    counts: below zero under a loss model after the link, as in ns-2's QueueMonitor)."""
    return (c[f"arrived_{unit}"] - c[f"departed_{unit}"] - c[f"dropped_{unit}"]
            - c[f"lost_{unit}"])


class QueueMonitor(TclObject):
    """``$ns monitor-queue $a $b ...``: counters of the a->b queue since the monitor began."""

    COUNTERS = _COUNTERS

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.link: SimplexLink | None = None
        self.offsets: dict[str, float] = {}
        self.pkts_int: Integrator | None = None
        self.bytes_int: Integrator | None = None

    def counters(self) -> dict[str, float] | None:
        sim = self.ctx.simulator
        if self.link is None or sim is None or not sim.started:
            return None
        counters: dict[str, float] = sim.engine.queue_counters(self.link.index)
        return counters

    def raw(self, var: str) -> int | None:
        c = self.counters()
        if c is None:
            return None
        if var == "pmarks_" and not self.marks_kept():
            raise Ns2Error(unsupported("a queue monitor's pmarks_ in a run with a queue that"
                                       " holds its packets (SFQ, DRR, CoDel, ...): its"
                                       " links do not keep ns-2's clock"))
        if var in self.COUNTERS:
            return int(sum(c[k] for k in self.COUNTERS[var]))
        if var in ("pkts_", "size_"):
            return int(monitor_count(c, "packets" if var == "pkts_" else "bytes"))
        return None

    def marks_kept(self) -> bool:
        """Whether the engine counts the link's departures carrying CE (a link that keeps
        ns-2's clock: every link of an ns-2 script)."""
        sim = self.ctx.simulator
        if self.link is None or sim is None or not sim.started:
            return True
        return "departed_ce_packets" in sim.engine.queue_counters(self.link.index)

    def live_var(self, var: str) -> str | None:
        if var in ("qs_pkts_", "qs_bytes_", "qs_drops_") and var not in self.COUNTERS:
            # Kept per flow only (FlowStats).
            raise Ns2Error(unsupported(f"a queue monitor's {var} (a flow monitor's flow"
                                       " has it)"))
        if var not in self.COUNTERS and var not in ("pkts_", "size_"):
            return None
        value = self.raw(var)
        base = to_int(self.vars.get(var, "0")) if value is None else value
        return str(self.ctx.counter(int(base - self.offsets.get(var, 0))))

    def on_write(self, var: str, value: str) -> None:
        raw = self.raw(var)
        if raw is not None and var in self.COUNTERS:
            self.offsets[var] = raw - to_int(value)
        elif var in self.COUNTERS:
            self.offsets[var] = -to_int(value)

    def cmd_reset(self) -> None:
        for var in self.COUNTERS:
            self.on_write(var, "0")
        for integ in (self.pkts_int, self.bytes_int):
            if integ is not None:
                integ.cmd_reset()

    def integrate(self) -> None:
        """Integrators of the bytes and packets from now on (from the start of the run if
        made before it)."""
        self.cmd_get_bytes_integrator()
        self.cmd_get_pkts_integrator()

    def cmd_get_pkts_integrator(self) -> str:
        if self.pkts_int is None:
            self.pkts_int = self._integrator("packets")
        return self.pkts_int.handle

    def cmd_get_bytes_integrator(self) -> str:
        if self.bytes_int is None:
            self.bytes_int = self._integrator("bytes")
        return self.bytes_int.handle

    def _integrator(self, unit: str) -> Integrator:
        obj = self.ctx.new_object("Integrator", [])
        assert isinstance(obj, Integrator)
        obj.watch(self, unit)
        return obj

    def cmd_trace(self, *args: str) -> None:
        raise Ns2Error(unsupported("queue monitor traces"))


class Integrator(TclObject):
    """A queue monitor's ``Integrator`` of the waiting packets (or bytes): ``sum_`` in packet-
    (or byte-) seconds, with ``lastx_`` and ``lasty_``, as ns-2.35's tools/integrator.cc keeps
    them. On a link that keeps ns-2's clock the engine keeps them the same way, in ns-2's
    doubles (``keep_queue_integrals``); elsewhere ``sum_`` is the engine's exact area up to the
    queue's last change."""

    _VARS = ("sum_", "lastx_", "lasty_")

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.monitor: QueueMonitor | None = None
        self.unit = "packets"
        self.offset = 0.0
        self.kept = False

    def watch(self, monitor: QueueMonitor, unit: str) -> None:
        """Integrates ``monitor``'s queue from now on (from the start of the run if made
        before it)."""
        self.monitor, self.unit = monitor, unit
        sim = self.ctx.simulator
        if sim is None:
            return
        if sim.started:
            self._keep()
        else:
            sim.pending.append(self._keep)

    def _keep(self) -> None:
        sim = self.ctx.simulator
        if sim is None or self.monitor is None or self.monitor.link is None:
            return
        self.kept = bool(sim.engine.keep_queue_integrals(self.monitor.link.index))
        if self.kept:  # what the script set before (the constructor's zeros otherwise)
            self._set([to_float(self.vars.get(v, "0")) for v in self._VARS])

    def _values(self) -> list[float] | None:
        sim = self.ctx.simulator
        if not self.kept or sim is None or self.monitor is None or self.monitor.link is None:
            return None
        both = sim.engine.queue_integrals(self.monitor.link.index)
        if both is None:
            return None
        return list(both[0] if self.unit == "bytes" else both[1])

    def _set(self, values: list[float]) -> None:
        sim = self.ctx.simulator
        assert sim is not None and self.monitor is not None and self.monitor.link is not None
        sim.engine.set_queue_integral(self.monitor.link.index, self.unit == "bytes",
                                      (values[0], values[1], values[2]))

    def area(self) -> float | None:
        """Without ns-2's doubles: the exact integral up to the queue's last change (ns-2's
        QueueMonitor adds to it only at an arrival, a departure or a drop, so a read in
        between does not see the time since)."""
        if self.monitor is None:
            return None
        c = self.monitor.counters()
        sim = self.ctx.simulator
        if c is None or sim is None:
            return None
        u = self.unit
        backlog = c[f"arrived_{u}"] - c[f"departed_{u}"] - c[f"dropped_{u}"]
        since = float(sim.engine.now_ps - c["changed_ps"])
        return (c[f"area_{u}_ps"] - backlog * since) / 1e12


    def live_var(self, var: str) -> str | None:
        if var not in self._VARS:
            return None
        values = self._values()
        if values is not None:
            return fmt_double(values[self._VARS.index(var)])
        if var != "sum_":
            return None
        a = self.area()
        base = to_float(self.vars["sum_"]) if a is None else a
        return fmt_double(base - self.offset)

    def on_write(self, var: str, value: str) -> None:
        values = self._values()
        if values is not None and var in self._VARS:
            values[self._VARS.index(var)] = to_float(value)
            self._set(values)
        elif var == "sum_":
            a = self.area()
            self.offset = (a if a is not None else 0.0) - to_float(value)

    def cmd_newpoint(self, x: str, y: str) -> None:
        """``Integrator::newPoint``: a point the script adds (ns-2's queue-sample-timeout)."""
        values = self._values()
        if values is None:
            raise Ns2Error(unsupported("Integrator newpoint on a link without ns-2's clock"))
        s, lastx, lasty = values
        self._set([s + (to_float(x) - lastx) * lasty, to_float(x), to_float(y)])

    def cmd_reset(self) -> None:
        """``Integrator::set(0, 0)``: all three back to zero."""
        values = self._values()
        if values is not None:
            self._set([0.0, 0.0, 0.0])
        else:
            self.on_write("sum_", "0")


# ns-2's TcpAgent::traceVar: "%-8.5f %-2d %-2d %-2d %-2d %s %-6.3f" (ints: %d); rtt_, srtt_
# and rttvar_ in seconds.
_INT_VARS = {"ssthresh", "backoff"}
# Within one instant ns-2 updates the RTT estimate before it opens the window.
TRACE_ORDER = {"rtt": 0, "srtt": 1, "rttvar": 2, "backoff": 3, "rto": 4, "ssthresh": 5,
               "cwnd": 6, "window": 7}


def trace_rank(agent: TcpAgent | None, var: str, value: float, clobber: bool) -> float:
    """Where a traced change goes among those of its instant, as ns-2.35's TcpAgent makes
    them: `newack` ends the backoff (to 1) before `rtt_update` unless the sample came from
    a timestamp (then after it); a timeout cuts the window (`slowdown`) and then backs off
    (`reset_rtx_timer`); `rtt_backoff` doubles the backoff, then moves srtt into rttvar,
    then clears srtt (`clobber`: this agent's srtt fell to 0 at this instant)."""
    if var == "backoff" and value > 1:
        return 6.5
    if clobber and var in ("rttvar", "srtt"):
        return 6.6 if var == "rttvar" else 6.7
    if var == "backoff" and agent is not None \
            and not to_bool(agent.vars.get("timestamps_", "false")):
        return -1
    return TRACE_ORDER.get(var, 9)


def ns2_rtt_shown(agent: TcpAgent, var: str, value: float) -> float:
    """rtt_, srtt_ or rttvar_ (seconds, from the engine's ns-2 timer) as TcpAgent::traceVar
    prints them: ``t_rtt_ * tcp_tick_``, ``(t_srtt_ >> T_SRTT_BITS) * tcp_tick_`` and
    ``t_rttvar_ * tcp_tick_ / 4.0``, from the fixed-point integers, in ns-2's doubles."""
    tick = to_float(agent.vars["tcpTick_"])
    if var == "rtt":
        return round(value / tick) * tick
    if var == "srtt":
        return (round(value / tick * 8) >> 3) * tick
    return round(value / tick * 4) * tick / 4.0


def trace_line(agent: TcpAgent, t: float, var: str, value: float) -> str:
    """One line of a traced variable, as ``$tcp trace cwnd_`` + ``$tcp attach $f`` write it."""
    if var in ("rtt", "srtt", "rttvar"):
        value = ns2_rtt_shown(agent, var, value)
    shown = f"{int(value)}" if var in _INT_VARS else f"{value:<6.3f}"
    peer = agent.peer
    daddr = peer.cmd_addr() if peer else -1
    dport = peer.port if peer else -1
    return (f"{t:<8.5f} {agent.cmd_addr():<2d} {agent.port:<2d} {daddr:<2d} {dport:<2d}"
            f" {var}_ {shown}\n")


# ns-2's packet types (packet.h) as a flow monitor's dump prints them.
# ns-2.35's packet types (common/packet.h: PT_TCP, PT_ACK, PT_CBR, PT_PARETO, PT_EXP, PT_UDP,
# PT_TFRC and PT_TFRC_ACK), as a flow monitor's dump prints them.
PTYPES = {"tcp": 0, "ack": 5, "cbr": 2, "pareto": 28, "exp": 29, "udp": 1, "tfrc": 42,
          "tfrc_ack": 43}


class FlowMonitor(QueueMonitor):
    """``$ns makeflowmon Fid`` attached with ``$ns attach-fmon $link $fmon``: the queue
    monitor of the link (its own counters are the aggregate's) and a flow object per flow
    id seen there, found through its classifier."""

    COUNTERS = {**_COUNTERS, **_ED_COUNTERS}

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.classifier: FidClassifier | None = None
        self.channel: str | None = None
        self.flows: dict[int, FlowStats] = {}

    def cmd_classifier(self, *args: str) -> str:
        if args:
            raise Ns2Error(unsupported("replacing a flow monitor's classifier"))
        assert self.classifier is not None
        return self.classifier.handle

    def cmd_attach(self, channel: str) -> None:
        self.channel = channel

    def counters(self) -> dict[str, float] | None:
        """The link's queue counters, with the early drops of every flow summed (the
        monitor's early-drop snoop sees them all)."""
        c = super().counters()
        if c is None:
            return None
        flows = [f for _, f in self.per_fid()]
        for k in ("early_dropped_packets", "early_dropped_bytes"):
            c[k] = float(sum(int(str(f[k])) for f in flows))
        return c

    def per_fid(self) -> list[tuple[int, dict[str, object]]]:
        """Each flow id's counters on the link (the engine flows sharing it summed), in the
        order flows first reached the link, as ns-2's classifier fills its slots."""
        sim = self.ctx.simulator
        if self.link is None or sim is None or not sim.started:
            return []
        raw: dict[int, dict[str, object]] = sim.engine.queue_flow_counters(self.link.index)
        groups: dict[int, dict[str, object]] = {}
        for f in sorted(raw, key=lambda f: (raw[f]["first_arrival_ps"], f)):
            agent = sim.agent_of_flow(f)
            fid = _agent_fid(agent)
            c = raw[f]
            g = groups.setdefault(fid, {k: 0 for k in c if k not in ("data", "first_arrival_ps")})
            for k, v in c.items():
                if k not in ("data", "first_arrival_ps"):
                    g[k] = g[k] + v  # type: ignore[operator]
            # ns-2 keeps the type and addresses of the last packet it classified: taken here
            # from the engine flow that most recently joined the group.
            g["ptype"], g["src"], g["dst"] = _describe(agent, c["data"] is not False)
        return list(groups.items())

    def flow_object(self, fid: int) -> FlowStats:
        obj = self.flows.get(fid)
        if obj is None:
            new = self.ctx.new_object("QueueMonitor/ED/Flow", [])
            assert isinstance(new, FlowStats)
            new.monitor, new.fid = self, fid
            new.vars["flowid_"] = str(fid)
            self.flows[fid] = obj = new
        return obj

    def cmd_flows(self) -> str:
        return " ".join(self.flow_object(fid).handle for fid, _ in self.per_fid())

    def cmd_dump(self) -> None:
        if self.channel is None:
            return
        sim = self.ctx.simulator
        now = sim.now_s if sim is not None else 0.0
        total = {v: self.read_var(v) for v in ("parrivals_", "barrivals_", "epdrops_",
                                               "ebdrops_", "pdrops_", "bdrops_")}
        lines = []
        # FlowMon::dumpflow's fields: time, flow id, category, type, flow id, src, dst; the
        # flow's arrivals and early drops (packets, bytes); the monitor's arrivals, early
        # drops and drops; the flow's drops (early ones included); three unused here.
        for fid, c in self.per_fid():
            f = self.flow_object(fid)
            lines.append(
                f"{now:8.3f} {fid} 0 {c['ptype']} {fid} {c['src']} {c['dst']}"
                f" {f.read_var('parrivals_')} {f.read_var('barrivals_')}"
                f" {f.read_var('epdrops_')} {f.read_var('ebdrops_')}"
                f" {total['parrivals_']} {total['barrivals_']}"
                f" {total['epdrops_']} {total['ebdrops_']}"
                f" {total['pdrops_']} {total['bdrops_']}"
                f" {f.read_var('pdrops_')} {f.read_var('bdrops_')} 0 0 0\n")
        self.ctx.write_channel(self.channel, "".join(lines))


class FlowStats(QueueMonitor):
    """One flow id's counters on a flow monitor's link (``QueueMonitor/ED/Flow``): the same
    variables as a queue monitor, writable, plus ``epdrops_``, ``ebdrops_``, ``flowid_``,
    ``src_``, ``dst_``."""

    # QueueMonitor::out's and drop's counts of packets sent at a Quick-Start rate
    # (queue-monitor.cc, hdr_flags::qs_): kept per flow on links with ns-2's clock.
    COUNTERS = {**_COUNTERS, **_ED_COUNTERS, "qs_pkts_": ("departed_qs_packets",),
                "qs_bytes_": ("departed_qs_bytes",), "qs_drops_": ("dropped_qs_packets",)}

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.monitor: FlowMonitor | None = None
        self.fid = 0
        self.samples: DelaySamples | None = None

    def counters(self) -> dict[str, float] | None:
        if self.monitor is None:
            return None
        for fid, c in self.monitor.per_fid():
            if fid == self.fid:
                return c  # type: ignore[return-value]
        return None

    def marks_kept(self) -> bool:
        return self.monitor is None or self.monitor.marks_kept()

    def live_var(self, var: str) -> str | None:
        if var in ("src_", "dst_"):
            c = self.counters()
            return None if c is None else str(c[var.rstrip("_")])
        return super().live_var(var)

    def cmd_get_delay_samples(self) -> str:
        """``$flow get-delay-samples``: the flow's ``Samples`` of the time its packets spent
        on the link from arrival to departure (ns-2.35's makeflowmon gives each flow one,
        tcl/lib/ns-lib.tcl; ``QueueMonitor::out`` adds a point per departure). Kept by the
        engine on links whose discipline holds its packets (CBQ, DRR, SFQ, ...)."""
        from ..queues import holds

        link = self.monitor.link if self.monitor is not None else None
        if link is None or not holds(link.queue.kind):
            raise Ns2Error(unsupported("a flow's delay samples on a link whose queue does not"
                                       " hold its packets (only CBQ, DRR, SFQ and the like)"))
        if self.samples is None:
            obj = self.ctx.new_object("Samples", [])
            assert isinstance(obj, DelaySamples)
            obj.flow = self
            self.samples = obj
        return self.samples.handle


class DelaySamples(TclObject):
    """A flow's delay ``Samples`` (tools/integrator.cc): ``mean`` (C's %g of the sum over
    the count; an error with no point), ``cnt``, ``reset``."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.flow: FlowStats | None = None
        self.offset = (0.0, 0)

    def _now(self) -> tuple[float, int]:
        c = self.flow.counters() if self.flow is not None else None
        if c is None:
            return self.offset
        return (float(c.get("waited_ps", 0.0)) - self.offset[0],
                int(c.get("waited_packets", 0)) - self.offset[1])

    def cmd_mean(self) -> str:
        total, n = self._now()
        if n <= 0:
            raise TclError("tried to take mean with no sample points")
        return f"{total / 1e12 / n:g}"

    def cmd_cnt(self) -> str:
        return str(self._now()[1])

    def cmd_reset(self) -> None:
        total, n = self._now()
        self.offset = (self.offset[0] + total, self.offset[1] + n)


class FidClassifier(TclObject):
    """A flow monitor's ``Classifier/Hash/Fid``: ``lookup auto src dst fid`` gives the flow
    object of that flow id, or nothing before its first packet reaches the link."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.monitor: FlowMonitor | None = None

    def cmd_lookup(self, bucket: str, src: str, dst: str, fid: str) -> str:
        assert self.monitor is not None
        want = int_arg(fid, "a flow id")
        for f, _ in self.monitor.per_fid():
            if f == want:
                return self.monitor.flow_object(f).handle
        return ""


def _agent_fid(agent: object) -> int:
    try:
        return int(float(agent.read_var("fid_")))  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return 0


def _describe(agent: object, data: bool) -> tuple[int, int, int]:
    """(packet type, source address, destination address) of an agent's packets on a link:
    its data, or the ACKs coming back."""
    from .agents import Cbr, OnOff, TcpAgent
    from .tfrc import TfrcAgent

    peer = getattr(agent, "peer", None)
    here = agent.cmd_addr() if agent is not None else -1  # type: ignore[attr-defined]
    there = peer.cmd_addr() if peer is not None else -1
    app = getattr(agent, "app", None)
    if isinstance(app, OnOff) and data and app.params is not None:
        # A TCP or TFRC agent's Exponential or Pareto source has started: EXPOO_Traffic::init
        # and POO_Traffic::init set_pkttype on any agent.
        kind = "pareto" if app.pareto() else "exp"
    elif isinstance(agent, TcpAgent):
        kind = "tcp" if data else "ack"
    elif isinstance(agent, TfrcAgent):
        kind = "tfrc" if data else "tfrc_ack"
    else:
        if isinstance(app, OnOff):
            kind = "pareto" if app.cls.endswith("/Pareto") else "exp"
        else:
            kind = "cbr" if isinstance(app, Cbr) else "udp"
    return (PTYPES.get(kind, 1), here, there) if data else (PTYPES.get(kind, 1), there, here)
