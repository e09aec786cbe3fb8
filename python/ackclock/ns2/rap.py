"""ns-2's ``Agent/RAP`` (rap/rap.cc, ``RapAgent``) on the engine's RAP flow
(crates/ackclock-core/src/rap.rs, docs/models/rap.md).

ns-2 makes both ends of a RAP session of the one class: ``$ns create-connection RAP $src RAP
$dst fid`` connects two ``Agent/RAP``, and the one started sends while the other
acknowledges. Here a connected pair is one engine flow from the agent made first to the other;
``start``/``stop`` on it start and stop the source. The source's variables map onto the flow's
parameters and the receiver's ``rap_base_hdr_size_`` sizes the ACKs; what the engine does not
model (an application over RAP, ``advanceby``'s counted packets and their ``done`` callback,
``debugEnable_``'s log file, a start of the receiving agent) is refused in one line.
"""

from __future__ import annotations

import itertools

from .agents import Agent
from .errors import Ns2Error, unsupported
from .values import fmt_traced_double, sim_seconds_to_ps, to_bool, to_float, to_int

# Agent/RAP variable -> (engine parameter, kind), the source's.
PARAMS: dict[str, tuple[str, str]] = {
    "packetSize_": ("packet_size", "int"),
    "ipg_": ("ipg", "float"),
    "alpha_": ("alpha", "float"),
    "beta_": ("beta", "float"),
    "srtt_": ("srtt", "float"),
    "variance_": ("variance", "float"),
    "delta_": ("delta", "float"),
    "mu_": ("mu", "float"),
    "phi_": ("phi", "float"),
    "timeout_": ("timeout", "float"),
    "overhead_": ("overhead", "float"),
    "useFineGrain_": ("fine_grain", "bool"),
    "kfrtt_": ("kfrtt", "float"),
    "kxrtt_": ("kxrtt", "float"),
    "dpthresh_": ("dpthresh", "int"),
}
# The receiving agent's: the ACK's size (RapAgent::SendAck).
SINK_PARAMS: dict[str, tuple[str, str]] = {"rap_base_hdr_size_": ("ack_size", "int")}
# Counters the agent keeps (read back from the engine).
OTHER = {"seqno_", "sessionLossCount_"}
# The source's variables the engine keeps during the run: seqno_, sessionLossCount_, ipg_,
# srtt_, timeout_ (`Simulator::rap_vars`).
LIVE = {"seqno_": 0, "sessionLossCount_": 1, "ipg_": 2, "srtt_": 3, "timeout_": 4}

_made = itertools.count()


def _engine_value(kind: str, text: str) -> object:
    if kind == "int":
        return to_int(text)
    if kind == "float":
        return to_float(text)
    return to_bool(text)


class RapAgent(Agent):
    """``Agent/RAP``: the source of an engine RAP flow, or its receiver."""

    def __init__(self, ctx, cls, handle, where, args):  # type: ignore[no-untyped-def]
        super().__init__(ctx, cls, handle, where, args)
        self.order = next(_made)
        self.started = False
        self.stopped = False

    def is_source(self) -> bool:
        """The agent made first of a connected pair sends (an unconnected one too)."""
        peer = self.peer
        return not isinstance(peer, RapAgent) or self.order < peer.order

    # --- start and stop -------------------------------------------------------------------

    def cmd_start(self) -> None:
        """RapAgent::start: the source starts sending (RttTimeout, then IpgTimeout)."""
        if not self.is_source():
            raise Ns2Error(unsupported(f"start on {self.handle}, the receiving {self.cls} of"
                                       " its pair (the agent made first sends)"))
        if self.stopped:
            raise Ns2Error(unsupported(f"restarting {self.cls} {self.handle} after stop"))
        if self.started:
            return
        self.started = True
        self.sim().when_running(lambda: self._schedule(True))

    def cmd_stop(self) -> None:
        """RapAgent::stop: both timers cancelled."""
        if not self.started or self.stopped or not self.is_source():
            return
        self.stopped = True
        self.sim().when_running(lambda: self._schedule(False))

    def cmd_listen(self) -> None:
        """RapAgent::listen only opens the debugging log (``debugEnable_``)."""

    def cmd_advanceby(self, n: str) -> None:
        raise Ns2Error(unsupported(f"{self.cls} advanceby {n} (a counted number of packets"
                                   " and the agent's done callback)"))

    def _schedule(self, start: bool) -> None:
        if self.flow is None:
            raise Ns2Error(f"{self.cls} {self.handle}: not connected to another Agent/RAP",
                           self.created_at)
        sim = self.sim()
        sim.engine.schedule_app(self.flow, sim_seconds_to_ps(sim.now_s), start)

    # --- variables ------------------------------------------------------------------------

    def live_var(self, var: str) -> str | None:
        sim = self.ctx.simulator
        if var not in LIVE or self.flow is None or sim is None or not sim.started:
            return None
        v = sim.engine.rap_vars(self.flow)
        if v is None:
            return None
        value = v[LIVE[var]]
        # TracedInt and TracedDouble print as %d and %g.
        return str(int(value)) if var in ("seqno_", "sessionLossCount_") \
            else fmt_traced_double(value)

    def write_var(self, var: str, value: str) -> None:
        sim = self.ctx.simulator
        if sim is not None and sim.started and (var in PARAMS or var in SINK_PARAMS):
            raise Ns2Error(unsupported(f"changing {self.cls} {var} during the run"))
        super().write_var(var, value)

    def rap_params(self, sink: RapAgent) -> dict[str, object]:
        """The engine's RAP parameters from this agent's and its receiver's variables."""
        out: dict[str, object] = {}
        for obj, table in ((self, PARAMS), (sink, SINK_PARAMS)):
            for var, (name, kind) in table.items():
                if var in obj.vars:
                    try:
                        out[name] = _engine_value(kind, obj.vars[var])
                    except ValueError:
                        raise Ns2Error(f"{obj.cls} {var}: expected a number, got"
                                       f" {obj.vars[var]!r}", obj.var_where(var)) from None
        # The receiver's own source variables, and the source's ACK size, are unused.
        self.check_vars(set(PARAMS) | OTHER | set(SINK_PARAMS))
        sink.check_vars(set(PARAMS) | OTHER | set(SINK_PARAMS))
        for obj in (self, sink):
            if to_int(obj.vars.get("debugEnable_", "0")) != 0:
                raise Ns2Error(unsupported(f"{obj.cls} debugEnable_ (ns-2's RAP log file)"),
                               obj.var_where("debugEnable_"))
        return out
