"""ns-2's ``Agent/TFRC`` and ``Agent/TFRCSink`` (tcp/tfrc.cc, tcp/tfrc-sink.cc) on the
engine's TFRC flow (crates/ackclock-core/src/tfrc/, docs/tfrc.md).

Every variable ns-2.35 binds on the two classes is known here with its default; those the
engine models map onto its parameters, the rest are refused in one line when a script sets
them away from their default (as for TCP). ``$tfrc start``/``stop`` start and stop an endless
sender (``SndrType_`` 0); with ``SndrType_`` 1 an ``Application/FTP`` hands it data
(``produce``, ``producemore``, ``send``, ``start`` for endless data), as in ns-2.
"""

from __future__ import annotations

from .agents import Agent
from .errors import Ns2Error, unsupported
from .objects import TclError
from .values import fmt_double, sim_seconds_to_ps, to_bool, to_float, to_int

# Agent/TFRC variable -> (engine parameter, kind). Kinds: int, float, bool.
SENDER_PARAMS: dict[str, tuple[str, str]] = {
    "packetSize_": ("packet_size", "int"),
    "headersize_": ("header_size", "int"),
    "InitRate_": ("init_rate", "float"),
    "df_": ("df", "float"),
    "ssmult_": ("ssmult", "float"),
    "bval_": ("bval", "int"),
    "ca_": ("ca", "bool"),
    "minrto_": ("min_rto_s", "float"),
    "tcp_tick_": ("tcp_tick_s", "float"),
    "srtt_init_": ("srtt_init", "int"),
    "rttvar_init_": ("rttvar_init", "int"),
    "rtxcur_init_": ("rtxcur_init_s", "float"),
    "rttvar_exp_": ("rttvar_exp", "int"),
    "T_SRTT_BITS": ("srtt_bits", "int"),
    "T_RTTVAR_BITS": ("rttvar_bits", "int"),
    "rate_init_": ("rate_init", "float"),
    "rate_init_option_": ("rate_init_option", "int"),
    "slow_increase_": ("slow_increase", "bool"),
    "maxHeavyRounds_": ("max_heavy_rounds", "int"),
    "conservative_": ("conservative", "bool"),
    "scmult_": ("scmult", "float"),
    "overhead_": ("overhead", "float"),
    "ecn_": ("ecn", "bool"),
    "idleFix_": ("idle_fix", "bool"),
    "oldCode_": ("old_code", "bool"),
    "voip_": ("voip", "bool"),
    "fsize_": ("fsize", "int"),
    "voip_max_pkt_rate_": ("voip_max_pkt_rate", "float"),
}
# Agent/TFRCSink variable -> (engine parameter, kind).
SINK_PARAMS: dict[str, tuple[str, str]] = {
    "packetSize_": ("feedback_size", "int"),
    "NumFeedback_": ("num_feedback", "float"),
    "InitHistorySize_": ("history_size", "int"),
    "algo_": ("algo", "int"),
    "history_": ("history", "float"),
    "AdjustHistoryAfterSS_": ("adjust_history_after_ss", "bool"),
    "PreciseLoss_": ("precise_loss", "bool"),
    "numPkts_": ("num_pkts", "int"),
    "NumSamples_": ("num_samples", "int"),
    "discount_": ("discount", "bool"),
    "minDiscountRatio_": ("min_discount_ratio", "float"),
    "smooth_": ("smooth", "bool"),
    "ShortIntervals_": ("short_intervals", "int"),
    "ShortRtts_": ("short_rtts", "int"),
}
# Variables that change nothing the engine models: counters ns-2 updates (read back from the
# engine), the sender's rate_ (start() overwrites it), SndrType_ (how data arrives: the
# front end's business), maxqueue_ (the application's queue limit, never reached by FTP),
# the sink's maxint_ (bound by no ns-2.35 C++) and printing switches left at 0.
SENDER_OTHER = {"ndatapack_", "ndatabytes_", "true_loss_rate_", "rate_", "SndrType_",
                "maxqueue_", "useHeaders_"}
SINK_OTHER = {"bytes_", "maxint_"}


def _engine_value(kind: str, text: str) -> object:
    if kind == "int":
        return to_int(text)
    if kind == "float":
        return to_float(text)
    return to_bool(text)


class TfrcAgent(Agent):
    """``Agent/TFRC``: the sending end of an engine TFRC flow."""

    def __init__(self, ctx, cls, handle, where, args):  # type: ignore[no-untyped-def]
        super().__init__(ctx, cls, handle, where, args)
        self.maxseq = 0  # packets handed over so far (ns-2 maxseq_), SndrType_ 1
        self.started = False
        self.stopped = False

    def app_driven(self) -> bool:
        return to_int(self.vars["SndrType_"]) == 1

    # --- start, stop and data -----------------------------------------------------------

    def cmd_start(self) -> None:
        if self.app_driven():
            # TfrcAgent::command: "start" only starts an endless sender (SndrType_ 0).
            raise TclError(f"{self.handle}: start needs SndrType_ 0 (with SndrType_ 1 an"
                           " application hands it data)")
        self._control(True)

    def cmd_stop(self) -> None:
        self._control(False)

    def _control(self, start: bool) -> None:
        if start and self.stopped:
            raise Ns2Error(unsupported(f"restarting {self.cls} {self.handle} after stop"))
        if start == self.started or (not start and self.stopped):
            return
        self.started = start
        self.stopped = not start
        sim = self.sim()
        sim.when_running(lambda: self._schedule(start))

    def _schedule(self, start: bool) -> None:
        if self.flow is None:
            raise Ns2Error(f"{self.cls} {self.handle}: not connected to an Agent/TFRCSink",
                           self.created_at)
        sim = self.sim()
        sim.engine.schedule_app(self.flow, sim_seconds_to_ps(sim.now_s), start)

    def _advanceby(self, delta: int) -> None:
        if not self.app_driven():
            raise TclError(f"{self.handle}: advance needs SndrType_ 1")
        self.maxseq += delta

        def go() -> None:
            if self.flow is None:
                raise Ns2Error(f"{self.cls} {self.handle}: not connected to an"
                               " Agent/TFRCSink", self.created_at)
            self.sim().engine.tfrc_advance(self.flow, delta)

        self.sim().when_running(go)

    def _count(self, n: str, what: str) -> int:
        try:
            return to_int(n)
        except ValueError:
            raise TclError(f"{what}: expected an integer, got {n!r}") from None

    def cmd_advance(self, n: str) -> None:
        """TfrcAgent::command "advance": maxseq_ up to n (FTP produce)."""
        newseq = self._count(n, "advance")
        if newseq > self.maxseq:
            self._advanceby(newseq - self.maxseq)

    def cmd_advanceby(self, n: str) -> None:
        """TfrcAgent::advanceby (FTP producemore)."""
        self._advanceby(self._count(n, "advanceby"))

    def cmd_send(self, nbytes: str) -> None:
        """TfrcAgent::sendmsg: whole packets of packetSize_, a part rounded up; -1 endless
        (FTP send, and FTP start)."""
        n = self._count(nbytes, "send")
        if n == -1:
            if self.app_driven():
                self._advanceby(-1)
            else:
                self._control(True)
            return
        size = to_int(self.vars["packetSize_"])
        self._advanceby(-(-n // size))

    # --- variables ------------------------------------------------------------------------

    def live_var(self, var: str) -> str | None:
        sim = self.ctx.simulator
        if self.flow is None or sim is None or not sim.started:
            return None
        if var in ("ndatapack_", "ndatabytes_"):
            c = sim.engine.flow_counters(self.flow)
            n = int(c["packets_sent"])
            if var == "ndatabytes_":
                return str(self.ctx.counter(n * to_int(self.vars["packetSize_"])))
            return str(self.ctx.counter(n))
        v = sim.engine.tfrc_vars(self.flow)
        if v is None:
            return None
        if var == "rate_":
            return fmt_double(v[0])
        if var == "true_loss_rate_":
            return fmt_double(v[3])
        return None

    def write_var(self, var: str, value: str) -> None:
        sim = self.ctx.simulator
        if sim is not None and sim.started and var in SENDER_PARAMS:
            raise Ns2Error(unsupported(f"changing {self.cls} {var} during the run"))
        super().write_var(var, value)

    def tfrc_params(self, sink: TfrcSinkAgent) -> dict[str, object]:
        """The engine's TFRC parameters from this agent's and its sink's variables."""
        out: dict[str, object] = {}
        for obj, table, other in ((self, SENDER_PARAMS, SENDER_OTHER),
                                  (sink, SINK_PARAMS, SINK_OTHER)):
            for var, (name, kind) in table.items():
                if var in obj.vars:
                    try:
                        out[name] = _engine_value(kind, obj.vars[var])
                    except ValueError:
                        raise Ns2Error(f"{obj.cls} {var}: expected a number, got"
                                       f" {obj.vars[var]!r}", obj.var_where(var)) from None
            obj.check_vars(set(table) | other)
        if not to_bool(self.vars.get("useHeaders_", "true")):
            out["header_size"] = 0
        for obj, var in ((self, "printStatus_"), (sink, "printLoss_")):
            if var in obj.vars and to_int(obj.vars[var]) != 0:
                raise Ns2Error(unsupported(f"{obj.cls} {var} (ns-2's status printing)"),
                               obj.var_where(var))
        if out.get("algo", 1) not in (1, 2):
            raise Ns2Error(unsupported(f"Agent/TFRCSink algo_ {out['algo']} (only 1, the"
                                       " average loss interval method, and 2, EWMA)"),
                           sink.var_where("algo_"))
        if int(out.get("short_intervals", 0)) % 10 == 2:  # type: ignore[call-overload]
            raise Ns2Error(unsupported("Agent/TFRCSink ShortIntervals_ 2 or 12 (unfinished in"
                                       " ns-2.35)"), sink.var_where("ShortIntervals_"))
        out["app_limited"] = self.app_driven()
        return out


class TfrcSinkAgent(Agent):
    """``Agent/TFRCSink``: the receiving end; ``bytes_`` counts what arrived."""

    def __init__(self, ctx, cls, handle, where, args):  # type: ignore[no-untyped-def]
        super().__init__(ctx, cls, handle, where, args)
        self.bytes_offset = 0

    def received(self) -> int:
        sim = self.ctx.simulator
        peer = self.peer
        if sim is None or not sim.started or peer is None or peer.flow is None:
            return 0
        return int(sim.engine.flow_counters(peer.flow)["bytes_received"])

    def live_var(self, var: str) -> str | None:
        if var == "bytes_":
            return str(self.ctx.counter(self.received() - self.bytes_offset))
        return None

    def on_write(self, var: str, value: str) -> None:
        if var == "bytes_":
            self.bytes_offset = self.received() - to_int(value)

    def cmd_weights(self, spec: str) -> None:
        raise Ns2Error(unsupported(f"{self.cls} weights {spec} (its own loss-interval"
                                   " weights)"))
