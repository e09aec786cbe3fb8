"""Queue monitors and their integrators, and traced TCP variables written as ns-2 does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import Location, Ns2Error, unsupported
from .objects import TclObject
from .values import fmt_double, to_float, to_int

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
}


class QueueMonitor(TclObject):
    """``$ns monitor-queue $a $b ...``: counters of the a->b queue since the monitor began."""

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
        return sim.engine.queue_counters(self.link.index)

    def raw(self, var: str) -> int | None:
        c = self.counters()
        if c is None:
            return None
        if var in _COUNTERS:
            return int(sum(c[k] for k in _COUNTERS[var]))
        if var in ("pkts_", "size_"):
            unit = "packets" if var == "pkts_" else "bytes"
            return int(c[f"arrived_{unit}"] - c[f"departed_{unit}"] - c[f"dropped_{unit}"])
        return None

    def live_var(self, var: str) -> str | None:
        if var not in _COUNTERS and var not in ("pkts_", "size_"):
            return None
        value = self.raw(var)
        base = to_int(self.vars.get(var, "0")) if value is None else value
        return str(int(base - self.offsets.get(var, 0)))

    def on_write(self, var: str, value: str) -> None:
        raw = self.raw(var)
        if raw is not None and var in _COUNTERS:
            self.offsets[var] = raw - to_int(value)
        elif var in _COUNTERS:
            self.offsets[var] = -to_int(value)

    def cmd_reset(self) -> None:
        for var in _COUNTERS:
            self.on_write(var, "0")
        for integ in (self.pkts_int, self.bytes_int):
            if integ is not None:
                integ.cmd_reset()

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
        obj.monitor = self
        obj.unit = unit
        return obj

    def cmd_trace(self, *args: str) -> None:
        raise Ns2Error(unsupported("queue monitor traces"))


class Integrator(TclObject):
    """The time integral of a monitored queue's length: ``sum_`` in packet- (or byte-) seconds."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.monitor: QueueMonitor | None = None
        self.unit = "packets"
        self.offset = 0.0

    def area(self) -> float | None:
        if self.monitor is None:
            return None
        c = self.monitor.counters()
        if c is None:
            return None
        return c[f"area_{self.unit}_ps"] / 1e12

    def live_var(self, var: str) -> str | None:
        if var != "sum_":
            return None
        a = self.area()
        base = to_float(self.vars["sum_"]) if a is None else a
        return fmt_double(base - self.offset)

    def on_write(self, var: str, value: str) -> None:
        if var == "sum_":
            a = self.area()
            self.offset = (a if a is not None else 0.0) - to_float(value)

    def cmd_reset(self) -> None:
        self.on_write("sum_", "0")


# ns-2's TcpAgent::traceVar: "%-8.5f %-2d %-2d %-2d %-2d %s %-6.3f" (ints: %d); rtt_, srtt_
# and rttvar_ in seconds.
_INT_VARS = {"ssthresh", "backoff"}
# Within one instant ns-2 updates the RTT estimate before it opens the window.
TRACE_ORDER = {"rtt": 0, "srtt": 1, "rttvar": 2, "backoff": 3, "rto": 4, "ssthresh": 5,
               "cwnd": 6, "window": 7}


def trace_line(agent: TcpAgent, t: float, var: str, value: float) -> str:
    """One line of a traced variable, as ``$tcp trace cwnd_`` + ``$tcp attach $f`` write it."""
    shown = f"{int(value)}" if var in _INT_VARS else f"{value:<6.3f}"
    peer = agent.peer
    daddr = peer.cmd_addr() if peer else -1
    dport = peer.port if peer else -1
    return (f"{t:<8.5f} {agent.cmd_addr():<2d} {agent.port:<2d} {daddr:<2d} {dport:<2d}"
            f" {var}_ {shown}\n")
