"""Transport agents (TCP senders and sinks, UDP, Null) and the applications on top of them.

Before ``$ns run`` they only collect configuration; once the engine runs, a connected pair
is one engine flow and their state variables (``cwnd_``, a sink's ``bytes_``) are read from
it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..errors import ScenarioError
from ..profiles import CC_ALIASES, CC_DEFAULTS, TCP_ALIASES
from ..units import parse_time
from .errors import Location, Ns2Error, unsupported
from .objects import TclError, TclObject, is_default
from .rng import draw_boot_time
from .values import (
    BadValue,
    fmt_double,
    fmt_tcl_double,
    fmt_traced_double,
    ns2_bandwidth,
    ns2_time_double,
    rate_text,
    time_text,
    to_bool,
    to_float,
    to_int,
)

if TYPE_CHECKING:
    from .interp import Context
    from .simulator import Simulator
    from .topology import Node

# Agent/TCP subclass -> (loss recovery variant, congestion control).
TCP_CLASSES = {
    "Agent/TCP": ("tahoe", "reno"),
    "Agent/TCP/Reno": ("reno", "reno"),
    "Agent/TCP/Newreno": ("newreno", "reno"),
    "Agent/TCP/Sack1": ("sack", "reno"),
    # ns-2.35's FackTcpAgent (tcp/tcp-fack.cc): the engine's `fack` variant.
    "Agent/TCP/Fack": ("fack", "reno"),
    # ns-2.35's SackRHTcpAgent (tcp/tcp-sack-rh.cc): the engine's `sack_rh` variant.
    "Agent/TCP/SackRH": ("sack_rh", "reno"),
    "Agent/TCP/Vegas": ("reno", "vegas"),
    # ns-2.35's RBP agents (tcp/tcp-rbp.cc): Reno and Vegas pacing after idle (the engine's
    # `ns2_rbp`, tcp/sender/rbp.rs).
    "Agent/TCP/Reno/RBP": ("reno", "reno"),
    "Agent/TCP/Vegas/RBP": ("reno", "vegas"),
    "Agent/TCP/Fast": ("reno", "fast"),
    "Agent/TCP/Linux": ("sack", "reno"),
    # ns-2.35's RFC793eduTcpAgent (tcp/tcp-rfc793edu.cc): Tahoe with RFC 793's rules.
    "Agent/TCP/RFC793edu": ("rfc793", "reno"),
    # Two-way connections (docs/full-tcp.md): ns-2's FullTcp is Reno, its subclasses as named.
    "Agent/TCP/FullTcp": ("reno", "reno"),
    "Agent/TCP/FullTcp/Tahoe": ("tahoe", "reno"),
    "Agent/TCP/FullTcp/Newreno": ("newreno", "reno"),
    "Agent/TCP/FullTcp/Sack": ("sack", "reno"),
}
# Agent/TCP/Linux `select_ca` names (the `.name` of ns-2.35's tcp/linux/src/tcp_*.c modules
# and tcp/linux/tcp_naivereno.c) -> the engine's congestion control of the same algorithm, for
# a name not in LINUX_NS2_AGENT (today none: every module runs under ns-2's LinuxTcpAgent).
# naive_reno is ns-2's example module: Reno's halving and one segment per window of ACKs;
# compound (Compound TCP) has no engine algorithm of its own.
LINUX_CA = {"reno": "reno", "naive_reno": "reno", "cubic": "cubic", "bic": "bic",
            "highspeed": "highspeed", "scalable": "scalable", "htcp": "htcp", "vegas": "vegas",
            "westwood": "westwood", "hybla": "hybla", "lp": "lp", "veno": "veno",
            "yeah": "yeah", "illinois": "illinois", "compound": "reno"}
# Modules ns-2.35's TCP-Linux has and the engine does not (none since compound).
LINUX_CA_MISSING: set[str] = set()
# TCP-Linux's own globals (tcp/linux/ns-linux-param.c, "linux" in set_ca_default_param), in
# the order of their addresses in ns-2.35's binary.
LINUX_GLOBALS = ["debug_level", "tcp_max_burst", "sysctl_tcp_abc"]
# Modules the engine runs under ns-2.35's own LinuxTcpAgent (Reno's `ns2_linux`,
# tcp/sender/ns2_linux.rs: its ACK processing, ScoreBoard1 recovery, timeout and Linux-unit
# window; the module by `ns2_module`, tcp/sender/ns2_linux/modules.rs and a file each beside
# it), with their cc_params; a name not here would keep the engine's SACK sender.
LINUX_NS2_AGENT: dict[str, dict[str, float]] = {
    "reno": {"ns2_linux": 1.0},
    "naive_reno": {"ns2_linux": 1.0, "ns2_module": 1.0},
    "scalable": {"ns2_linux": 1.0, "ns2_module": 2.0},
    "highspeed": {"ns2_linux": 1.0, "ns2_module": 3.0},
    "bic": {"ns2_linux": 1.0, "ns2_module": 4.0},
    "vegas": {"ns2_linux": 1.0, "ns2_module": 5.0},
    "veno": {"ns2_linux": 1.0, "ns2_module": 6.0},
    "yeah": {"ns2_linux": 1.0, "ns2_module": 7.0},
    "cubic": {"ns2_linux": 1.0, "ns2_module": 8.0},
    "htcp": {"ns2_linux": 1.0, "ns2_module": 9.0},
    "hybla": {"ns2_linux": 1.0, "ns2_module": 10.0},
    "westwood": {"ns2_linux": 1.0, "ns2_module": 11.0},
    "illinois": {"ns2_linux": 1.0, "ns2_module": 12.0},
    "lp": {"ns2_linux": 1.0, "ns2_module": 13.0},
    "compound": {"ns2_linux": 1.0, "ns2_module": 14.0},
}
# An Agent/TCP/Linux never given select_ca: ns-2.35's LinuxTcpAgent with no module
# (`icsk_ca_ops` NULL), ns-2's own window (tcp/sender/ns2_linux/no_module.rs).
LINUX_NO_MODULE = {"ns2_linux": 1.0, "ns2_module": 15.0}
# windowOption_ (ns-2's TcpAgent::opencwnd) -> congestion control: 1 and 8 as in ns-2.35;
# 9, 12, 13 and -10 as in the patched ns-2 of seed 003's script (stock ns-2.35 exits on them).
WINDOW_OPTIONS = {1: "reno", 8: "highspeed", 9: "scalable", 12: "bic", 13: "cubic",
                  -10: "htcp"}

SINK_CLASSES = {
    "Agent/TCPSink": ("ack-every", False),
    "Agent/TCPSink/DelAck": ("delack", False),
    "Agent/TCPSink/Sack1": ("sack", False),
    "Agent/TCPSink/Sack1/DelAck": ("sack", True),
}

# Variables that do not change what the engine simulates (flow ids, display, ns-2 state
# variables a script may print before the run).
IGNORED = {"fid_", "prio_", "flags_", "ttl_", "class_", "cwnd_", "ssthresh_", "awnd_", "rtt_",
           "srtt_", "rttvar_", "backoff_", "dupacks_", "t_seqno_", "ack_", "maxseq_", "bytes_",
           "npkts_", "nlost_", "ndatapack_", "ndatabytes_", "nrexmitpack_", "nrexmitbytes_",
           "nrexmit_", "nackpack_", "ncwndcuts_", "ncwndcuts1_", "necnresponses_", "seqno_",
           "sport_", "dport_",
           # ns-2.35's C++ reads updated_rttvar_ nowhere (a Tcl default left behind), and
           # debug_ only makes an agent print ns-2's own debugging lines.
           "updated_rttvar_", "debug_"}
# ns-2's TCP sender counters -> the engine's flow counters.
SENDER_COUNTERS = {"ndatapack_": "packets_sent", "nrexmitpack_": "packets_retransmitted",
                   "nrexmit_": "timeouts"}
# ns-2's byte counters of a one-way sender -> the engine's count of their segments.
BYTE_COUNTERS = {"ndatabytes_": "packets_sent", "nrexmitbytes_": "packets_retransmitted"}
# ns-2's sequence variables (tcp.cc binds ack_ to highest_ack_) -> (index in the engine's
# tcp_seqs: first unacknowledged, next to send, one past the highest sent; offset).
SEQ_VARS = {"ack_": (0, -1), "t_seqno_": (1, 0), "maxseq_": (2, -1)}
EXTRA_TCP = {"tcpip_base_hdr_size_": "header_size"}
SINK_VARS = {"interval_": "ack_delay"}
# The agents' variables the engine's TCP parameters take as they are.
_TCP_NAMES = {**TCP_ALIASES, **EXTRA_TCP}


@functools.cache
def _cc_aliases() -> dict[str, Mapping[str, str]]:
    """CC_ALIASES as a plain table: it is made once from the engine's registry, and each
    agent's mapping (10 000 at 10 000 flows) walks it."""
    return dict(CC_ALIASES)


class Agent(TclObject):
    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.node: Node | None = None
        self.port = -1
        self.peer: Agent | None = None
        self.app: Application | None = None
        self.flow: int | None = None  # the engine flow, once built
        self.trace_name: str | None = None  # add-agent-trace's name

    def attach_to(self, node: Node, port: int | None = None) -> None:
        if self.node is not None and self.node is not node:
            raise Ns2Error(f"agent {self.handle} is already attached to node {self.node.id}")
        self.node = node
        self.vars["node_"] = node.handle  # ns-2's Node instproc attach: `$agent set node_`
        if port is not None:
            self.port = port
        else:
            self.port = node.next_port
            node.next_port += 1
        node.agents.append(self)

    def detach(self) -> None:
        sim = self.ctx.simulator
        if sim is not None and sim.started:
            # ns-2's Node instproc detach: the agent's port and its target become the null
            # agent, so what it sends goes nowhere and what reaches it is dropped there,
            # untraced; the agent and its application run on.
            if not self._detach_in_engine(sim):
                if self.app is not None:  # a two-way or TFRC agent: its sending stops
                    self.app.cmd_stop()
            return
        if self.node is not None:
            self.node.agents.remove(self)
        self.node = None

    def _detach_in_engine(self, sim: Simulator) -> bool:
        """Detaches this agent's end of its engine flows; False where the engine cannot."""
        if isinstance(self, NullAgent):  # the receiver of every source sending to it
            ends = [(p.flow, False) for p in self.sources if p.flow is not None]
        elif self.flow is not None:  # a sink shares its sender's flow
            ends = [(self.flow, not isinstance(self, TcpSink))]
        else:
            ends = []
        try:
            for flow, sender in ends:
                sim.engine.detach_endpoint(flow, sender)
        except ValueError:
            return False
        return bool(ends)

    def sim(self) -> Simulator:
        assert self.ctx.simulator is not None
        return self.ctx.simulator

    # ns-2 binds an agent's class_ to the same field as fid_ (the flow id).
    def read_var(self, var: str) -> str:
        return super().read_var("fid_" if var == "class_" else var)

    def write_var(self, var: str, value: str) -> None:
        super().write_var("fid_" if var == "class_" else var, value)

    def cmd_port(self) -> int:
        return self.port

    def cmd_addr(self) -> int:
        return self.node.id if self.node else -1

    def cmd_dst_addr(self) -> int:
        return self.peer.cmd_addr() if self.peer else -1

    def cmd_dst_port(self) -> int:
        return self.peer.port if self.peer else -1

    def cmd_attach_app(self, kind: str) -> str:
        app = self.ctx.new_object(f"Application/{kind}", [])
        assert isinstance(app, Application)
        app.cmd_attach_agent(self.handle)
        return app.handle

    def cmd_attach_source(self, s_type: str) -> str:
        """The obsolete ``attach-source FTP`` (ns-2.35 tcl/lib/ns-agent.tcl ``Agent instproc
        attach-source``): a new ``Source/FTP`` attached to this agent (``type_`` it also sets
        is an instance variable nothing reads)."""
        if s_type != "FTP":
            raise Ns2Error(unsupported(f"attach-source {s_type} (Source/{s_type})"))
        source = self.ctx.new_object("Source/FTP", [])
        assert isinstance(source, SourceFtp)
        source.cmd_attach(self.handle)
        return source.handle

    def cmd_attach_traffic(self, app: str) -> None:
        a = self.ctx.lookup(app, Application, "an application")
        assert isinstance(a, Application)
        a.cmd_attach_agent(self.handle)

    def check_vars(self, mapped: set[str]) -> None:
        """Every variable set away from its ns-2 default must mean something here."""
        for var, value in self.vars.items():
            if var not in mapped and var not in IGNORED and not is_default(self.cls, var, value):
                raise Ns2Error(unsupported(f"{self.cls} variable {var} = {value}"),
                               self.var_where(var))


class TcpAgent(Agent):
    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        # ns-2's curseq_ (tcp.cc): the agent sends the segments below it. FTP produce,
        # producemore and send move it; the engine's sender is told each new value.
        self.curseq = 0
        self.syn_counted = False
        self.variant, self.cc = TCP_CLASSES.get(cls, ("", ""))
        # The agent an RBP agent paces (RBPRenoTcpAgent is a RenoTcpAgent, RBPVegasTcpAgent
        # a VegasTcpAgent): its rules elsewhere are that agent's.
        self.base_cls = cls.removesuffix("/RBP")
        # T_SRTT_BITS and T_RTTVAR_BITS as the run has them (map_rtt_bits).
        self.rtt_bits = (3, 2)
        if not self.variant:
            raise Ns2Error(unsupported(f"TCP agent class {cls}"))
        self.cc_where = where
        # select_ca of a module in LINUX_NS2_AGENT: its cc_params (LINUX_NO_MODULE before).
        self.linux_params: dict[str, float] = (
            dict(LINUX_NO_MODULE) if cls == "Agent/TCP/Linux" else {})
        # What TcpAgent::reset read when ns-2 made the agent: the traced variables hold the
        # state it set until the next reset (`$ns run`'s, or the script's own).
        self.reset_inputs = reset_inputs(self)
        self.traced: list[str] = []
        self.trace_channel: str | None = None
        # Whether the engine's sender makes Quick-Start requests (map_quick_start): only such
        # an agent has print_request_ lines (Simulator._print_quick_start).
        self.quick_start = False
        # Where the script last reset the agent during the run (`cmd_reset`).
        self.reset_where: Location | None = None
        # ns-2.35 tcl/lib/ns-agent.tcl, Agent/TCP instproc init: `create-eventtrace` gives
        # the agent an event trace if eventtrace-all came before (ns-lib.tcl); with nam's
        # trace on as well, the events would go there too (`namattach`), not modelled.
        sim = ctx.simulator
        self.event_channel = sim.event_trace if sim is not None else None
        if self.event_channel is not None and sim is not None and sim.nam_channel is not None:
            raise Ns2Error(unsupported(f"{cls} agents' events in a nam trace (eventtrace-all"
                                       " with namtrace-all)"), where)
        # boot_time_ / tcpTick_: TcpAgent::reset draws it when the agent is made, when the
        # script resets it and when `$ns run` does (rng.py); the last draw is the run's.
        self.boot = draw_boot_time(ctx)
        if self.base_cls in ("Agent/TCP/Vegas", "Agent/TCP/RFC793edu"):
            # VegasTcpAgent::delay_bind_init_all and RFC793eduTcpAgent::delay_bind_init_all
            # call reset() after TcpAgent::delay_bind_init_all has: two draws when the agent
            # is made.
            self.boot = draw_boot_time(ctx)

    # --- finite transfers: ns-2's TcpAgent::command "advance" / "advanceby", sendmsg ------

    def cmd_advance(self, n: str) -> None:
        """TcpAgent's `advance n`: curseq_ to n, or to maxseq_ (the highest segment sent) if
        that is not below n (FTP produce)."""
        newseq = self._count(n, "advance")
        self._transfer("advance", lambda: self._advanceby(
            newseq - self.curseq if newseq > self._maxseq() else self._maxseq() - self.curseq))

    def cmd_advanceby(self, n: str) -> None:
        """TcpAgent::advanceby: curseq_ += n (FTP producemore)."""
        delta = self._count(n, "advanceby")
        self._transfer("advanceby", lambda: self._advanceby(delta))

    def cmd_send(self, nbytes: str) -> None:
        """TcpAgent::sendmsg: curseq_ += nbytes in whole packets of packetSize_ (FTP send)."""
        n = self._count(nbytes, "send")
        if n < 0:
            raise Ns2Error(unsupported(f"{self.cls} send {nbytes} (an endless send: use start)"))
        size = to_int(self.vars["packetSize_"])
        self._transfer("send", lambda: self._advanceby(-(-n // size)))

    def _count(self, n: str, what: str) -> int:
        try:
            return to_int(n)
        except ValueError:
            raise TclError(f"{what}: expected an integer, got {n!r}") from None

    def _transfer(self, what: str, call: Callable[[], None]) -> None:
        if self.app is not None and (self.app.running or self.app.stopped):
            raise Ns2Error(unsupported(f"{what} once the FTP on {self.handle} has been started"
                                       " or stopped"))
        self.sim().when_running(call)

    def _maxseq(self) -> int:
        """ns-2's maxseq_: the highest segment sent, -1 before the first."""
        if self.flow is None:
            return -1
        seqs = self.sim().engine.tcp_seqs(self.flow)
        return int(seqs[2]) - 1 if seqs is not None else -1

    def _advanceby(self, delta: int) -> None:
        if self.flow is None:
            raise Ns2Error(f"{self.cls} {self.handle}: not connected to a receiver")
        self.curseq += delta
        # TcpAgent::output: sending segment 0 as a SYN (syn_, nothing sent before) adds one
        # to curseq_, so the SYN does not take the place of a data segment.
        if not self.syn_counted and self.curseq > 0 and self._maxseq() == -1:
            self.syn_counted = True
            if self.sends_syn() and self.cls != "Agent/TCP/RFC793edu":
                # (RFC793eduTcpAgent::output sends the SYN as segment 0 of the data.)
                self.curseq += 1
        self.sim().engine.advance_app(self.flow, max(self.curseq, 0))

    def cmd_select_ca(self, name: str, *_rest: str) -> None:
        """LinuxTcpAgent::command (tcp/tcp-linux.cc) "select_ca": prints the command and
        installs the named module, before the run or during it (the engine's flow takes it
        until it has sent its first segment)."""
        if self.cls != "Agent/TCP/Linux":
            raise TclError("select_ca is a command of Agent/TCP/Linux")
        if name in LINUX_CA_MISSING:
            raise Ns2Error(unsupported(f"TCP-Linux congestion control {name!r}"))
        if name not in LINUX_CA:
            raise Ns2Error(f"unknown congestion control {name!r} for select_ca"
                           f" (known: {', '.join(LINUX_CA)})")
        self.ctx.write_channel("stdout", f"cmd select_ca {name}\n")
        params = dict(LINUX_NS2_AGENT.get(name, {}))
        # Under ns2_linux the module runs in the sender: the engine's cc is Reno's shell.
        cc = "reno" if params else LINUX_CA[name]
        if params:
            self.check_ns2_linux(f"with select_ca {name}")
            params.update(self.ctx.linux_globals)
        if self.sim_started() and self.flow is not None:
            try:
                self.sim().engine.select_cc(self.flow, cc, params)
            except ValueError as e:
                raise Ns2Error(unsupported(
                    f"select_ca on {self.handle} after it started sending ({e})")) from None
        self.cc = cc
        self.cc_where = self.ctx.where()
        self.linux_params = dict(params)
        if name == "lp" and self not in self.ctx.lp_agents:
            self.ctx.lp_agents.append(self)

    def check_ns2_linux(self, how: str) -> None:
        """What the engine's LinuxTcpAgent (tcp/sender/ns2_linux.rs) does not model: ECN
        (`ecn_`), timestamps (`timestamps_`), `overhead_` and `slow_start_restart_ false`;
        without a module (`how` "without select_ca") also ns-2's window other than
        `TcpAgent::opencwnd`'s and `slowdown`'s defaults (no_module.rs)."""
        for var in ("ecn_", "timestamps_", "overhead_"):
            if var not in self.vars:
                continue
            if self.var_number(var):
                raise Ns2Error(unsupported(f"{self.cls} variable {var} {how}"),
                               self.var_where(var))
        if "slow_start_restart_" in self.vars and not to_bool(self.vars["slow_start_restart_"]):
            raise Ns2Error(unsupported(f"{self.cls} variable slow_start_restart_ false {how}"),
                           self.var_where("slow_start_restart_"))
        if self.linux_params.get("ns2_module") != LINUX_NO_MODULE["ns2_module"]:
            return
        for var, stock in (("windowOption_", 1.0), ("increase_num_", 1.0),
                           ("decrease_num_", 0.5), ("max_ssthresh_", 0.0)):
            if var in self.vars and to_float(self.vars[var]) != stock:
                raise Ns2Error(unsupported(f"{self.cls} variable {var} {how}"),
                               self.var_where(var))

    def cmd_set_ca_default_param(self, proto: str, param: str, value: str,
                                 *_rest: str) -> None:
        """LinuxTcpAgent::command "set_ca_default_param": a module parameter's default for
        every agent. Only TCP-Linux's own globals (proto "linux": debug_level,
        tcp_max_burst, sysctl_tcp_abc) are accepted; the last two, and the bytes a
        debug_level above 255 spills into them, reach the agents running ns-2's
        LinuxTcpAgent (the reno and naive_reno modules, tcp/sender/ns2_linux.rs)."""
        if self.cls != "Agent/TCP/Linux":
            raise TclError("set_ca_default_param is a command of Agent/TCP/Linux")
        if proto != "linux" or param not in LINUX_GLOBALS:
            raise Ns2Error(unsupported(f"set_ca_default_param {proto} {param}"))
        self.ctx.write_channel("stdout", f"cmd set_ca_default_param {proto} {param} {value}\n")
        try:
            number = int(value)
        except ValueError:
            number = 0  # atoi
        # LinuxParamManager::set_default_param writes an int at the parameter's address,
        # and ns-2.35's three unsigned char globals lie in a row (Debian's ns: debug_level,
        # tcp_max_burst, sysctl_tcp_abc): the value's low byte goes to the parameter, its
        # next bytes to the globals after it.
        raw = number & 0xFFFFFFFF
        for i, name in enumerate(LINUX_GLOBALS[LINUX_GLOBALS.index(param):]):
            if name == "debug_level":
                self.ctx.linux_debug_level = (raw >> (8 * i)) & 0xFF
            if name in ("tcp_max_burst", "sysctl_tcp_abc"):
                key = "ns2_max_burst" if name == "tcp_max_burst" else "ns2_abc"
                self.ctx.linux_globals[key] = float((raw >> (8 * i)) & 0xFF)
        self.reselect_linux_agents()

    def sends_lp_debug(self) -> bool:
        """ns-2.35's `lp` module prints a line per ACK (`tcp_lp_pkts_acked`'s `pr_debug`)
        while TCP-Linux's debug_level is at most 1, its default: this agent runs `lp` with
        data to send under such a debug_level."""
        if self.ctx.linux_debug_level > 1 or self.linux_params.get("ns2_module") != 13.0:
            return False
        return self.curseq > 0 or (self.app is not None and self.app.running)

    def reselect_linux_agents(self) -> None:
        """Gives every Agent/TCP/Linux running ns-2's LinuxTcpAgent the globals anew (only
        before it has sent: a later change stays not supported)."""
        if not self.sim_started():
            return
        for obj in list(self.ctx.objects.values()):
            if isinstance(obj, TcpAgent) and obj.linux_params and obj.flow is not None:
                params = dict(obj.linux_params)
                params.update(self.ctx.linux_globals)
                if params == obj.linux_params:
                    continue
                try:
                    obj.sim().engine.select_cc(obj.flow, obj.cc, params)
                except ValueError as e:
                    raise Ns2Error(unsupported(
                        f"set_ca_default_param after {obj.handle} started sending ({e})"
                    )) from None
                obj.linux_params = params

    def cmd_trace(self, var: str, *rest: str) -> None:
        from ..scenario import TRACEABLE

        if self.sim_started():
            raise Ns2Error(unsupported("starting a variable trace during the run"))
        if var.rstrip("_") not in TRACEABLE or var == "window":
            raise Ns2Error(unsupported(f"tracing TCP variable {var}")
                           + f" (traceable: {', '.join(t + '_' for t in TRACEABLE)})")
        if self.cls == "Agent/TCP/Linux" and var in ("rtt_", "srtt_", "rttvar_"):
            # LinuxTcpAgent keeps its RTT estimate in the Linux sender's state and its own tick
            # (select_ca); the engine's traces of it differ from ns-2.35's.
            raise Ns2Error(unsupported(f"tracing {var} of {self.cls}"))
        if var not in self.traced:
            self.traced.append(var)
        if self.trace_channel is not None:
            # ns-2 writes the variable's value at once when the agent has a file already.
            # (TracedVar::tracer: the value the last reset left, not one from later settings.)
            state = self.reset_state()
            self.write_traced(var, state.get(var, 0.0))

    def write_traced(self, var: str, raw: float) -> None:
        """A traced variable's line at time 0, from ns-2's fixed-point value (TcpAgent::traceVar
        shows t_srtt_ and t_rttvar_ in seconds with the tcpTick_ of the moment)."""
        from .monitors import trace_line

        assert self.trace_channel is not None
        tick = to_float(self.vars["tcpTick_"])
        value = raw * tick / 4 if var == "rttvar_" else (
            (int(raw) >> 3) * tick if var == "srtt_" else raw * tick if var == "rtt_" else raw)
        self.ctx.write_channel(self.trace_channel, trace_line(self, 0.0, var.rstrip("_"), value))

    def reset_state(self) -> dict[str, float]:
        """The traced variables as the agent's last reset left them."""
        return {var: steps[-1] for var, steps in self.reset_steps().items()}

    def reset_steps(self) -> dict[str, tuple[float, ...]]:
        """What the agent's last reset assigned to each traced variable (PRE_RUN's order)."""
        given = dict(zip(RESET_INPUTS, self.reset_inputs, strict=True))
        return {var: f(given) for var, f in PRE_RUN.items()}

    def reset_traced(self) -> None:
        """TcpAgent::reset before the run (`$ns run`'s, or `$tcp reset`): it assigns the traced
        variables from the agent's variables now, and each TracedVar whose value changes
        writes a line into an attached trace file (what `trace` wrote came from the reset
        before)."""
        if self.trace_channel is None or not self.traced:
            self.reset_inputs = reset_inputs(self)
            return
        before = self.reset_state()
        self.reset_inputs = reset_inputs(self)
        for var, steps in self.reset_steps().items():
            if var not in self.traced:
                continue
            value = before[var]
            for raw in steps:
                if raw != value:
                    self.write_traced(var, raw)
                value = raw

    def cmd_tracevar(self, var: str, *rest: str) -> None:
        """``$tcp tracevar cwnd_``: ns-2's other name for ``trace``."""
        self.cmd_trace(var, *rest)

    def cmd_attach(self, channel: str) -> None:
        self.trace_channel = channel

    def cmd_reset(self) -> None:
        """TcpAgent::reset (the Tcl `reset`, TcpAgent::command). Before the run only its
        boot_time_ draw matters. During the run ns-2 starts the connection over: sequence
        numbers, curseq_, RTT estimate, window, timers; both ends drop the packets of the
        earlier connection by their timestamps (`lastreset_`); the engine's flow does the same
        (`Simulator::ns2_reset_tcp`, tcp/sender/reset.rs, sim/reset.rs). On an agent that has
        sent nothing and been given no data (adaptive-red's `newtraffic`: `produce 0`, then
        `reset` and `producemore`) only the new boot_time_ draw from the default generator
        matters (RED's early drops draw after it), which the engine's flow takes
        (`set_ns2_boot_time`)."""
        if not self.sim_started():
            self.reset()
            self.reset_traced()
            return
        if isinstance(self, FullTcpAgent) or self.flow is None \
                or not self.var_is_default("QOption_"):
            raise Ns2Error(unsupported("resetting a TCP agent during the run (once it was"
                                       " given data)"))
        if self.curseq == 0 and self._maxseq() == -1:
            self.reset()
            self.sim().engine.set_ns2_boot_time(self.flow, self.boot_ps())
            return
        if self.traced:
            raise Ns2Error(unsupported(f"resetting {self.cls} {self.handle} during the run"
                                       f" with traced variables ({', '.join(self.traced)})"))
        sim = self.sim()
        sim.write_traces()  # what the old connection did up to now comes first
        self.reset()
        try:
            sim.engine.ns2_reset_tcp(self.flow, True, self.boot_ps())
        except ValueError as e:
            raise Ns2Error(unsupported(f"{self.cls} reset: {e}")) from None
        # curseq_ = 0; TcpAgent::output counts a SYN into curseq_ again (maxseq_ is -1).
        self.curseq = 0
        self.syn_counted = False
        if self.app is not None and self.app.running:
            # An endless FTP (`send -1`) gave curseq_ its maximum; reset set it to 0, so the
            # agent sends nothing more until the FTP is given data or started again.
            self.app.running = False
        if self not in self.ctx.lone_resets:
            self.ctx.lone_resets.append(self)
        self.reset_where = self.ctx.where()

    def reset(self) -> None:
        """TcpAgent::reset's draw of boot_time_ (its other variables are set at the run)."""
        self.boot = draw_boot_time(self.ctx)

    def boot_seconds(self) -> float:
        """boot_time_ in seconds (``Random::uniform(tcp_tick_)``)."""
        return self.boot * to_float(self.vars["tcpTick_"])

    def boot_ps(self) -> int:
        """boot_time_ in picoseconds, as the scenario's ``ns2_boot_time`` reads it."""
        return parse_time(self.boot_seconds())

    def sim_started(self) -> bool:
        return self.ctx.simulator is not None and self.ctx.simulator.started

    def write_var(self, var: str, value: str) -> None:
        if self.sim_started() and var == "window_" and self.flow is not None \
                and not isinstance(self, FullTcpAgent):
            self._window_during_run(value)
        elif self.sim_started() and var not in IGNORED:
            raise Ns2Error(unsupported(f"changing {self.cls} {var} during the run"))
        elif self.sim_started() and var == "cwnd_" and self.linux_params == LINUX_NO_MODULE:
            # Without a module cwnd_ is the agent's window (no_module.rs), not just a trace.
            raise Ns2Error(unsupported(f"changing {self.cls} cwnd_ during the run without"
                                       " select_ca"))
        elif self.sim_started() and var == "cwnd_" and self.linux_params:
            self._linux_cwnd_during_run(value)
        super().write_var(var, value)

    def _linux_cwnd_during_run(self, value: str) -> None:
        """`$tcp set cwnd_ N` during the run on ns-2's LinuxTcpAgent with a module: ns-2's
        traced cwnd_ takes N (a trace line), and the agent's own window (Linux's snd_cwnd)
        stays: `save_from_linux` writes cwnd_ anew on the next ACK or timeout, `send_much`
        never reads it (tcp/tcp-linux.cc)."""
        if "cwnd_" not in self.traced or self.trace_channel is None:
            return
        from .monitors import trace_line

        try:
            number = to_float(value)
        except ValueError as e:
            raise Ns2Error(f"cwnd_: {e}") from None
        sim = self.sim()
        sim.write_traces()  # the engine's changes up to now come first
        self.ctx.write_channel(self.trace_channel, trace_line(self, sim.now_s, "cwnd", number))

    def _window_during_run(self, value: str) -> None:
        """`$tcp set window_ N` from a `$ns at` script: ns-2's wnd_, which TcpAgent::window()
        and slowdown read each time, so it holds from the next segment sent on (raised
        above the window the agent had when the run began: not supported)."""
        assert self.flow is not None
        try:
            window = float(to_int(value))
        except ValueError as e:
            raise Ns2Error(f"window_: {e}", self.ctx.where()) from None
        try:
            ok = self.sim().engine.ns2_tcp_window(self.flow, window)
        except ValueError as e:
            raise Ns2Error(unsupported(f"{self.cls} window_ {value} during the run: {e}"))\
                from None
        if not ok:
            raise Ns2Error(unsupported(f"changing {self.cls} window_ during the run"))

    def live_var(self, var: str) -> str | None:
        if not self.sim_started() and var in PRE_RUN:
            value = self.reset_state()[var]
            return fmt_traced_double(value) if var == "cwnd_" else str(int(value))
        if self.flow is None or not self.sim_started():
            return None
        if var in SENDER_COUNTERS:
            return str(self.sim().engine.flow_counters(self.flow)[SENDER_COUNTERS[var]])
        if var in SEQ_VARS and not isinstance(self, FullTcpAgent):  # FullTcp's are bytes
            seqs = self.sim().engine.tcp_seqs(self.flow)
            if seqs is not None:
                return str(int(seqs[SEQ_VARS[var][0]]) + SEQ_VARS[var][1])
        if var in BYTE_COUNTERS:
            # TcpAgent::output (tcp/tcp.cc) adds size_ to ndatabytes_ for every segment sent
            # and to nrexmitbytes_ for every one sent again, but nothing for a SYN (segment 0
            # with syn_: `databytes = 0`), first or resent.
            c = self.sim().engine.flow_counters(self.flow)
            segments = c[BYTE_COUNTERS[var]]
            if not isinstance(self, FullTcpAgent):
                syns = self.sim().engine.tcp_syns_sent(self.flow) or 0
                segments -= syns if var == "ndatabytes_" else max(syns - 1, 0)
            return str(self.ctx.counter(segments * to_int(self.vars["packetSize_"])))
        if var == "nackpack_" and not isinstance(self, FullTcpAgent) \
                and self.cls != "Agent/TCP/Fack":
            # Every one-way agent's recv but FackTcpAgent's counts each ACK that reaches it
            # (TcpAgent::recv in tcp/tcp.cc and its versions in tcp-reno.cc, tcp-newreno.cc,
            # tcp-sack1.cc, tcp-linux.cc, tcp-vegas.cc, ...: `++nackpack_`). FullTcp counts
            # the pure ACKs it sends instead (FullTcpAgent::sendpacket): not kept.
            n = self.sim().engine.tcp_acks_received(self.flow)
            return None if n is None else str(self.ctx.counter(n))
        v = self.sim().engine.tcp_vars(self.flow)
        if v is None:
            return None
        tick = to_float(self.vars["tcpTick_"])
        window = to_int(self.vars["window_"])
        if var == "cwnd_":
            return fmt_traced_double(v["cwnd"])
        if var == "ssthresh_":
            s = v["ssthresh"]
            return str(int(s) if s == s and s < 2**31 else window)
        if var == "rbp_segs_actually_paced_" and "rbp_paced" in v:
            return str(int(v["rbp_paced"]))  # RBP*TcpAgent (tcp/sender/rbp.rs)
        if var == "rbp_inter_pace_delay_" and "rbp_gap" in v:
            return fmt_double(v["rbp_gap"])
        if var == "awnd_":
            # ns-2.35's average window (TcpAgent::newack; TcpSender::ns2_awnd).
            return fmt_double(v["ns2_awnd"])
        if var == "backoff_":
            return str(int(v["backoff"]))
        if var == "rto_" and self.cls == "Agent/TCP/RFC793edu":
            # RFC793eduTcpAgent's rto_: the timeout in ticks before the backoff (t_rtxcur_ /
            # tcp_tick_; the engine's is floored at minrto_ and two ticks).
            return fmt_double(v["rto"] / max(v["backoff"], 1.0) / tick)
        if var == "rttvar_" and v["srtt"] == 0 and v["rttvar"] == 0:
            # Before the first RTT sample ns-2 holds rtxcur_init_ in ticks, scaled by 16.
            return str(round(to_float(self.vars["rtxcur_init_"]) / tick) * 16)
        srtt_bits, rttvar_bits = self.rtt_bits
        scale = {"rtt_": 1, "srtt_": 1 << srtt_bits, "rttvar_": 1 << rttvar_bits}.get(var)
        if scale is not None:
            # ns-2 keeps these in ticks of tcpTick_, srtt_ scaled by 2^T_SRTT_BITS (8) and
            # rttvar_ by 2^T_RTTVAR_BITS (4).
            return str(round(v[var.rstrip("_")] / tick * scale))
        return None

    def tcp_params(self) -> dict[str, object]:
        """The engine's TCP parameters from this agent's and its sink's variables."""
        out: dict[str, object] = {}
        mapped: set[str] = set()
        for var, key in _TCP_NAMES.items():
            if var in SINK_VARS or var not in self.vars or self.var_kind(var) is None:
                continue
            out[key] = _param(self, var)
            mapped.add(var)
        if self.linux_params == LINUX_NO_MODULE:
            self.check_ns2_linux("without select_ca before $ns run")
        elif self.cls == "Agent/TCP/Linux":
            # maxcwnd_ limits TcpAgent::opencwnd, which only LinuxTcpAgent without a module
            # calls; a module's window growth (tcp-linux.cc) never reads it.
            out.pop("max_cwnd", None)
        option = to_int(self.vars["windowOption_"])
        if option not in WINDOW_OPTIONS:
            raise Ns2Error(unsupported(f"windowOption_ {option}"), self.var_where("windowOption_"))
        if option != 1:
            self.cc = WINDOW_OPTIONS[option]
            self.cc_where = self.var_where("windowOption_")
        mapped.add("windowOption_")
        # Congestion-control variables (seed 003 sets them on Agent/TCP for every agent):
        # the chosen algorithm's go into cc_params; another algorithm's mean nothing to this
        # agent, as in ns-2.
        cc_params: dict[str, object] = {}
        cc_aliases = _cc_aliases()
        for cc, aliases in cc_aliases.items():
            for var, param in aliases.items():
                if var not in self.vars or var in mapped:
                    continue
                if cc == self.cc:
                    value = _cc_value(self, var)
                    # A variable at ns-2's default that is the algorithm's own default too
                    # (Reno's increase_num_ 1.0, decrease_num_ 0.5) need not be given.
                    if not (self.var_is_default(var) and value == CC_DEFAULTS[cc][param]):
                        cc_params[param] = value
                    mapped.add(var)
                elif var not in cc_aliases.get(self.cc, {}):
                    mapped.add(var)
        if self.base_cls == "Agent/TCP/Vegas":
            self.map_vegas(cc_params)
        if self.linux_params and self.cc == "reno":
            cc_params.update(self.linux_params)
            cc_params.update(self.ctx.linux_globals)
        if self.cls == "Agent/TCP/RFC793edu":
            self.map_rfc793(out, mapped)
        if self.cls == "Agent/TCP/SackRH" and "ecn_" in self.vars \
                and not self.var_is_default("ecn_") and to_bool(self.vars["ecn_"]):
            # SackRHTcpAgent's ECN entry to rate-halving (7.4) is not modelled.
            raise Ns2Error(unsupported(f"{self.cls} variable ecn_"), self.var_where("ecn_"))
        if self.cls == "Agent/TCP/Fack" and "ecn_" in self.vars \
                and not self.var_is_default("ecn_") and to_bool(self.vars["ecn_"]):
            # FackTcpAgent calls TcpAgent::ecn, whose interplay with its recovery ("FACK has
            # not been updated to make sure the ECN works correctly", tcp-fack.cc) is not
            # modelled.
            raise Ns2Error(unsupported(f"{self.cls} variable ecn_"), self.var_where("ecn_"))
        if cc_params:
            out["cc_params"] = cc_params
        if cc_params.get("decrease", 0.5) != 0.5 or option == 8:
            # TcpAgent::slowdown: the first decrease, and one in slow start, halve whatever
            # decrease_num_ (or HighSpeed's decrease_param(), windowOption_ 8) says.
            out["ns2_first_decrease"] = True
        if "delay_growth_" in self.vars:
            if not self.map_delay_growth():
                out["delay_growth"] = False
            mapped.add("delay_growth_")
        if "rfc2988_" in self.vars and not self.var_is_default("rfc2988_"):
            # TcpAgent::rtt_timeout without rfc2988_: the minrto_ floor after the backoff.
            out["rto_rule"] = "pre_rfc2988"
            mapped.add("rfc2988_")
        if "timerfix_" in self.vars and not self.var_is_default("timerfix_"):
            # TcpAgent::newack without timerfix_: newtimer() before rtt_update(), so the
            # timer restarts with the timeout from before the ACK (FullTcpAgent never reads
            # timerfix_).
            try:
                fixed = to_bool(self.vars["timerfix_"])
            except ValueError as e:
                raise Ns2Error(f"timerfix_: {e}", self.var_where("timerfix_")) from None
            if not isinstance(self, FullTcpAgent):
                out["rtx_timer_before_sample"] = not fixed
            mapped.add("timerfix_")
        if not isinstance(self, FullTcpAgent) and self.cls != "Agent/TCP/Linux":
            # TcpAgent::newtimer restarts the timer on every new ACK and TcpAgent::timeout
            # on an idle connection closes cwnd_ to one segment (restart_bugfix_ and
            # slow_start_restart_ at their defaults; restart_bugfix_ false stays not
            # supported).
            out["idle_rtx_timer"] = True
            self.map_rbp(out, mapped)
            self.map_slow_start_restart(out, mapped)
        elif isinstance(self, FullTcpAgent) and "slow_start_restart_" in self.vars:
            # FullTcpAgent::foutput restarts an idle connection from the initial window only
            # with slow_start_restart_ (FullTcpAgent's timeout never reads it): false is the
            # engine's idle_timeout_keeps_window under ns2_full_tcp.
            try:
                restart = to_bool(self.vars["slow_start_restart_"])
            except ValueError as e:
                raise Ns2Error(f"slow_start_restart_: {e}",
                               self.var_where("slow_start_restart_")) from None
            if not restart:
                out["idle_timeout_keeps_window"] = True
            mapped.add("slow_start_restart_")
        self.map_qoption(out, mapped)
        if "control_increase_" in self.vars and not self.var_is_default("control_increase_"):
            # TcpAgent::recv_newack_helper: opencwnd() only while network_limited().
            if isinstance(self, FullTcpAgent):
                raise Ns2Error(unsupported(f"{self.cls} variable control_increase_"),
                               self.var_where("control_increase_"))
            out["control_increase"] = to_int(self.vars["control_increase_"]) != 0
            mapped.add("control_increase_")
        if "newreno_changes1_" in self.vars and not self.var_is_default("newreno_changes1_"):
            # NewRenoTcpAgent::partialnewack_helper: 0 restarts the timer on every partial ACK.
            out["slow_but_steady"] = to_int(self.vars["newreno_changes1_"]) == 0
            mapped.add("newreno_changes1_")
        self.map_newreno(out, mapped)
        self.map_exit_fast_retrans(out, mapped)
        self.map_aggressive_maxburst(out, mapped)
        self.map_no_fast_retrans(out, mapped)
        self.map_frto(out, mapped)
        self.map_ts_reset_and_connects(out, mapped)
        self.map_rtt_bits(out, mapped)
        self.map_overhead(out, mapped)
        self.map_quick_start(out, mapped)
        self.map_first_window(out, mapped)
        # TcpAgent::rtt_update's tick grid starts at boot_time_ (the run's draw, rng.py).
        out["ns2_boot_time"] = self.boot_seconds()
        if isinstance(self, FullTcpAgent):
            mapped.add("useHeaders_")  # FullTcpAgent's segments always carry headersize()
        elif not self.uses_headers():
            # TcpAgent::output adds headersize() to data segments only with useHeaders_ (the
            # SYN is tcpip_base_hdr_size_ either way): packetSize_ on the wire is the engine's
            # segment, header_size inside it, and no segment is shorter than the others.
            size = to_int(self.vars["packetSize_"])
            header = to_int(self.vars["tcpip_base_hdr_size_"])
            if size <= header:
                raise Ns2Error(unsupported(f"useHeaders_ false with packetSize_ {size} not"
                                           f" above tcpip_base_hdr_size_ {header}"),
                               self.var_where("useHeaders_"))
            out["packet_size"] = size - header
            out["bare_first_segment"] = False
            mapped.add("useHeaders_")
            if not self.sends_syn():
                out["syn"] = False
                mapped.add("syn_")
        if not isinstance(self, FullTcpAgent) and self.uses_headers() \
                and to_bool(self.vars.get("timestamps_", "false")):
            # TcpAgent::headersize: with ts_option_ each data segment carries ts_option_size_
            # more header (the SYN, tcpip_base_hdr_size_ alone, does not).
            out["packet_size"] = int(float(str(out["packet_size"]))) \
                + to_int(self.vars.get("ts_option_size_", "10"))
            mapped.add("ts_option_size_")
        if isinstance(self, FullTcpAgent):
            # FullTcpAgent reacts to ECN-Echo with TcpAgent::ecn (one recover_ for ECN and loss
            # recovery, ecn_backoff_), takes ect_ from the handshake (so no ACK carrying
            # ECN-Echo opens the window), never reads old_ecn_, and has its own ECN branch in
            # dupack_action (the engine's ns2_ecn under ns2_full_tcp); it keeps recover_ when
            # fast recovery ends (only Sack1TcpAgent::recv clears it).
            out["sack_exit_clears_recover"] = False
            mapped.add("old_ecn_")
        elif not to_bool(self.vars["ecn_"]):  # tcp.cc binds ecn_ with delay_bind_bool
            # old_ecn_ only changes how ACKs carrying ECN-Echo open the window in
            # TcpAgent::recv_newack_helper, which a sender without ecn_ never reaches with one.
            mapped.add("old_ecn_")
        elif "old_ecn_" in self.vars and not self.var_is_default("old_ecn_"):
            # TcpAgent::recv_newack_helper with old_ecn_: ACKs within a burst of ECN-Echoes
            # open the window.
            if to_bool(self.vars["old_ecn_"]):
                out["ns2_ecn"] = "old_ecn"
            mapped.add("old_ecn_")
        self.check_vars(mapped)
        return out

    def map_slow_start_restart(self, out: dict[str, object], mapped: set[str]) -> None:
        """`slow_start_restart_ false` (ns-2.35 `TcpAgent::timeout`): the retransmission
        timer's expiry with nothing outstanding leaves cwnd_ and ssthresh_ (the engine's
        `idle_timeout_keeps_window`). Tahoe, Reno, Newreno and Sack1 only (Fack, SackRH, Fast,
        Vegas and Linux have their own timeout); Reno and Newreno with `bugFix_ false`, whose
        RenoTcpAgent::timeout then keeps recover_, stay not supported."""
        var = "slow_start_restart_"
        if var not in self.vars or self.var_is_default(var):
            return
        where = self.var_where(var)
        try:
            restart = to_bool(self.vars[var])
        except ValueError as e:
            raise Ns2Error(f"{var}: {e}", where) from None
        if self.base_cls != self.cls:
            # RBP*TcpAgent::timeout takes the idle expiry itself and never reads it; with
            # data outstanding Reno's and Vegas's timeouts do not either.
            mapped.add(var)
            return
        if not restart:
            # VegasTcpAgent::timeout with nothing outstanding and slow_start_restart_ false
            # does nothing and sets no timer (tcp/sender/ns2_vegas.rs).
            agents = ("Agent/TCP", "Agent/TCP/Reno", "Agent/TCP/Newreno", "Agent/TCP/Sack1",
                      "Agent/TCP/Vegas")
            if self.cls not in agents or (self.cls in agents[1:3]
                                          and not to_bool(self.vars.get("bugFix_", "true"))):
                raise Ns2Error(unsupported(f"{self.cls} variable {var} = false"), where)
            out["idle_timeout_keeps_window"] = True
        mapped.add(var)

    def map_rbp(self, out: dict[str, object], mapped: set[str]) -> None:
        """Agent/TCP/Reno/RBP and Agent/TCP/Vegas/RBP (ns-2.35 tcp/tcp-rbp.cc, the engine's
        `ns2_rbp`, tcp/sender/rbp.rs): after an idle expiry of the retransmission timer the
        next window is paced over one round trip. `rbp_scale_` scales the paced window;
        Vegas's `rbp_rate_algorithm_` 1 paces by its measured rate (`vegas_rate`), 2 by cwnd
        (Reno's only rule); `rbp_segs_actually_paced_` and `rbp_inter_pace_delay_` are the
        agent's outputs."""
        if self.base_cls == self.cls:
            return
        out["ns2_rbp"] = "cwnd"
        if self.base_cls == "Agent/TCP/Vegas":
            var = "rbp_rate_algorithm_"
            try:
                algorithm = to_int(self.vars[var])
            except ValueError as e:
                raise Ns2Error(f"{var}: {e}", self.var_where(var)) from None
            if algorithm not in (1, 2):
                # RBPVegasTcpAgent::send_much abort()s on any other.
                raise Ns2Error(f"{var} {algorithm}: Agent/TCP/Vegas/RBP paces by 1 (Vegas's"
                               " rate) or 2 (cwnd)", self.var_where(var))
            out["ns2_rbp"] = "vegas_rate" if algorithm == 1 else "cwnd"
            mapped.add(var)
        var = "rbp_scale_"
        try:
            scale = to_float(self.vars[var])
        except ValueError as e:
            raise Ns2Error(f"{var}: {e}", self.var_where(var)) from None
        if not math.isfinite(scale) or scale < 0:
            raise Ns2Error(unsupported(f"{self.cls} variable {var} = {self.vars[var]}"),
                           self.var_where(var))
        out["ns2_rbp_scale"] = scale
        mapped.update((var, "rbp_segs_actually_paced_", "rbp_inter_pace_delay_"))

    def map_qoption(self, out: dict[str, object], mapped: set[str]) -> None:
        """`QOption_ 1` (ns-2.35 `TcpAgent::process_qoption_after_send`, the engine's
        `ns2_qoption`: an idle or application-limited sender lowers its window), with
        `EnblRTTCtr_ 1` counting round trips (`rtt_counting`, `process_qoption_after_ack`,
        which only Tahoe's `TcpAgent::recv` calls). On Agent/TCP (Tahoe) at `decrease_num_`
        0.5 and `windowOption_ 1` (slowdown's reductions for other windows are not modelled
        with it); the other agents stay not supported with it. `EnblRTTCtr_` alone does
        nothing, as in ns-2."""
        if self.var_is_default("QOption_"):
            mapped.add("EnblRTTCtr_")
            return
        where = self.var_where("QOption_")
        if to_int(self.vars["QOption_"]) == 0:
            mapped |= {"QOption_", "EnblRTTCtr_"}
            return
        if self.cls != "Agent/TCP" or not self.var_is_default("decrease_num_") \
                or not self.var_is_default("windowOption_"):
            raise Ns2Error(unsupported(f"{self.cls} variable QOption_ = {self.vars['QOption_']}"
                                       " (only on Agent/TCP with decrease_num_ 0.5 and"
                                       " windowOption_ 1)"), where)
        counting = to_int(self.vars.get("EnblRTTCtr_", "0")) != 0
        out["ns2_qoption"] = "rtt_count" if counting else "rto"
        mapped |= {"QOption_", "EnblRTTCtr_"}

    def map_newreno(self, out: dict[str, object], mapped: set[str]) -> None:
        """NewReno's `exit_recovery_fix_`, `lessCareful_`, `bugFix_ack_` and `bugFix_ts_`
        (ns-2.35 tcp/tcp-newreno.cc, only `NewRenoTcpAgent` reads them: elsewhere accepted
        without effect) and `numdupacksFrac_` (`TcpAgent::numdupacks`, read by
        `Sack1TcpAgent`; `FastTcpAgent` stays not supported with it)."""
        newreno = self.cls == "Agent/TCP/Newreno"
        for var in ("exit_recovery_fix_", "lessCareful_", "bugFix_ack_", "bugFix_ts_",
                    "numdupacksFrac_"):
            if var not in self.vars or self.var_is_default(var):
                continue
            where = self.var_where(var)
            try:
                if var == "exit_recovery_fix_":
                    # NewRenoTcpAgent::recv: the full ACK ending fast recovery sets cwnd_ to
                    # min(ssthresh_, maxseq_ - ack + 1).
                    out["exit_recovery_fix"] = to_int(self.vars[var]) != 0
                elif var == "lessCareful_":
                    # NewRenoTcpAgent::dupack_action: with bug_fix_, a fast retransmit also
                    # when highest_ack_ == recover_.
                    if newreno:
                        out["less_careful"] = to_bool(self.vars[var])
                elif var in ("bugFix_ack_", "bugFix_ts_"):
                    # NewRenoTcpAgent::dupack_action: the ACK and timestamp heuristics that
                    # let a fast retransmit through bug_fix_'s check (RFC 6582 4.2).
                    value = to_bool(self.vars[var])
                    if newreno:
                        out["bugfix_ack" if var == "bugFix_ack_" else "bugfix_ts"] = value
                else:
                    fraction = to_int(self.vars[var])
                    if fraction == 0:  # ns-2 divides by it
                        raise Ns2Error("numdupacksFrac_ must not be 0", where)
                    if self.cls == "Agent/TCP/Fast" and fraction > 0:
                        raise Ns2Error(unsupported(f"{self.cls} variable numdupacksFrac_"),
                                       where)
                    if self.cls == "Agent/TCP/Sack1":
                        out["dupack_cwnd_fraction"] = max(fraction, 0)
            except ValueError as e:
                raise Ns2Error(f"{var}: {e}", where) from None
            mapped.add(var)

    def map_exit_fast_retrans(self, out: dict[str, object], mapped: set[str]) -> None:
        """`exitFastRetrans_ false` (ns-2.35 tcp/tcp-reno.cc, tcp/tcp-newreno.cc, the only
        readers): RenoTcpAgent::recv and NewRenoTcpAgent::recv set dupwnd_ = numdupacks_
        after the threshold's dupack_action and inflate by one on each later duplicate, in
        fast recovery or not (the engine's `dupacks_always_inflate`). The other agents'
        receive paths never read it: accepted without effect there."""
        var = "exitFastRetrans_"
        if var not in self.vars or self.var_is_default(var):
            return
        try:
            exit_fast = to_bool(self.vars[var])
        except ValueError as e:
            raise Ns2Error(f"{var}: {e}", self.var_where(var)) from None
        if self.base_cls in ("Agent/TCP/Reno", "Agent/TCP/Newreno"):
            out["dupacks_always_inflate"] = not exit_fast
        mapped.add(var)

    def map_aggressive_maxburst(self, out: dict[str, object], mapped: set[str]) -> None:
        """`aggressive_maxburst_` (ns-2.35 tcp/tcp.cc, tcp-reno.cc, tcp-newreno.cc,
        tcp-sack1.cc: `recv` calls send_much after an ACK below `last_ack_` only with it, `valid_ack
        || aggressive_maxburst_`): the engine's `old_ack_sends`, on by default in the ns2
        profile as in ns-2; only Tahoe, Reno, Newreno and Sack1 read it (FullTcp and the others
        have their own `recv`), so elsewhere it is accepted without effect."""
        var = "aggressive_maxburst_"
        if var not in self.vars or self.var_is_default(var):
            return
        try:
            value = to_bool(self.vars[var])
        except ValueError as e:
            raise Ns2Error(f"{var}: {e}", self.var_where(var)) from None
        if self.cls in self.FRTO_AGENTS:
            out["old_ack_sends"] = value
        mapped.add(var)

    def map_no_fast_retrans(self, out: dict[str, object], mapped: set[str]) -> None:
        """`noFastRetrans_` (ns-2.35 tcp/tcp.cc): only `TcpAgent::recv`, Agent/TCP's (Tahoe),
        reads it (`++dupacks_ == numdupacks_ && !noFastRetrans_`): the engine's
        `no_fast_retransmit`. Reno, Newreno, Sack1, FullTcp and the others have their own
        `recv` and never read it: accepted without effect there, as in ns-2."""
        var = "noFastRetrans_"
        if var not in self.vars or self.var_is_default(var):
            return
        try:
            value = to_bool(self.vars[var])
        except ValueError as e:
            raise Ns2Error(f"{var}: {e}", self.var_where(var)) from None
        if self.cls == "Agent/TCP":
            out["no_fast_retransmit"] = value
        mapped.add(var)

    # The one-way agents whose receive and timeout paths ns-2.35 runs F-RTO in (TcpAgent's,
    # RenoTcpAgent's, NewRenoTcpAgent's, Sack1TcpAgent's).
    FRTO_AGENTS = ("Agent/TCP", "Agent/TCP/Reno", "Agent/TCP/Newreno", "Agent/TCP/Sack1")

    def map_frto(self, out: dict[str, object], mapped: set[str]) -> None:
        """`frto_enabled_`, `sfrto_enabled_` (ns-2.35 tcp/tcp.cc's F-RTO, the engine's
        `ns2_frto`, sender/frto.rs) on Tahoe, Reno, Newreno and Sack1; `sfrto_enabled_` adds
        Sack1TcpAgent::recv's reading of SACK duplicates, and on the other three means what
        `frto_enabled_` does (TcpAgent::timeout reads either). FullTcp agents never read them
        (FullTcpAgent has its own timeout and recv); Vegas, Linux and the others stay not
        supported with them. And `partial_ack_`, which only Sack1TcpAgent (and FastTcpAgent,
        not supported with it) binds: the engine's `sack_partial_ack`; the other agents never
        read it."""
        frto: dict[str, bool] = {}
        for var in ("frto_enabled_", "sfrto_enabled_", "partial_ack_"):
            if var not in self.vars or self.var_is_default(var):
                continue
            try:
                frto[var] = to_bool(self.vars[var])
            except ValueError as e:
                raise Ns2Error(f"{var}: {e}", self.var_where(var)) from None
        full = isinstance(self, FullTcpAgent)
        if frto.get("partial_ack_") is not None and self.cls != "Agent/TCP/Fast":
            if self.cls == "Agent/TCP/Sack1":
                out["sack_partial_ack"] = frto["partial_ack_"]
            mapped.add("partial_ack_")
        on = frto.get("frto_enabled_", False) or frto.get("sfrto_enabled_", False)
        if full or not on:
            mapped |= {"frto_enabled_", "sfrto_enabled_"} & frto.keys()
            return
        if self.cls not in self.FRTO_AGENTS:
            var = "sfrto_enabled_" if frto.get("sfrto_enabled_") else "frto_enabled_"
            raise Ns2Error(unsupported(f"{self.cls} variable {var} = true"), self.var_where(var))
        sack = self.cls == "Agent/TCP/Sack1" and frto.get("sfrto_enabled_", False)
        out["ns2_frto"] = "sfrto" if sack else "frto"
        mapped |= {"frto_enabled_", "sfrto_enabled_"}

    # TcpAgent::rtt_update's fixed-point parameters -> the engine's.
    RTT_BITS = {"T_SRTT_BITS": "ns2_srtt_bits", "T_RTTVAR_BITS": "ns2_rttvar_bits",
                "rttvar_exp_": "ns2_rttvar_exp"}

    def map_rtt_bits(self, out: dict[str, object], mapped: set[str]) -> None:
        """`T_SRTT_BITS`, `T_RTTVAR_BITS` and `rttvar_exp_` (TcpAgent::rtt_update: srtt and
        rttvar scaled by 2^bits, the timeout srtt + 2^rttvar_exp_ rttvar; the engine's
        `ns2_srtt_bits`, `ns2_rttvar_bits`, `ns2_rttvar_exp`) on the agents that keep
        TcpAgent's estimator: Tahoe, Reno, Newreno, Sack1 and Fack (FullTcp, Vegas, Linux
        and RFC793edu stay not supported with them). T_RTTVAR_BITS above T_SRTT_BITS (a
        negative shift in ns-2) is refused too."""
        set_vars = [v for v in self.RTT_BITS if v in self.vars and not self.var_is_default(v)]
        if not set_vars:
            return
        where = self.var_where(set_vars[0])
        if self.cls not in (*self.FRTO_AGENTS, "Agent/TCP/Fack") or self.cc != "reno":
            raise Ns2Error(unsupported(f"{self.cls} variable {set_vars[0]}"), where)
        try:
            values = {v: to_int(self.vars[v]) for v in self.RTT_BITS}
        except ValueError as e:
            raise Ns2Error(f"{set_vars[0]}: {e}", where) from None
        if min(values.values()) < 0 or values["T_RTTVAR_BITS"] > values["T_SRTT_BITS"] \
                or values["T_SRTT_BITS"] > 16:
            raise Ns2Error(unsupported("T_SRTT_BITS " + str(values["T_SRTT_BITS"]) +
                                       " with T_RTTVAR_BITS " +
                                       str(values["T_RTTVAR_BITS"])), where)
        if any(v in self.traced for v in ("srtt_", "rttvar_")):
            # TcpAgent::traceVar writes them from t_srtt_ >> T_SRTT_BITS and t_rttvar_ / 4.
            raise Ns2Error(unsupported(f"tracing srtt_ or rttvar_ with {set_vars[0]}"), where)
        for var, key in self.RTT_BITS.items():
            out[key] = values[var]
            mapped.add(var)
        self.rtt_bits = (values["T_SRTT_BITS"], values["T_RTTVAR_BITS"])

    def map_ts_reset_and_connects(self, out: dict[str, object], mapped: set[str]) -> None:
        """`ts_resetRTO_` (TcpAgent::newack: with timestamps every sample ends the backoff,
        the engine's `ts_reset_rto`) on Tahoe, Reno, Newreno and Sack1; FullTcpAgent::newack
        ends the backoff on every new ACK anyway, under the same ECN-Echo condition, so on
        FullTcp agents it changes nothing. `max_connects_` (TcpAgent::output: the SYN sent at
        most that many times, then the connection abandoned; the engine's `syn_max_sends`) on
        the agents that send a SYN through TcpAgent::output; FullTcp agents (their own
        output) and Vegas (no SYN) never read it."""
        agents = self.FRTO_AGENTS
        full = isinstance(self, FullTcpAgent)
        for var in ("ts_resetRTO_", "max_connects_"):
            if var not in self.vars or self.var_is_default(var):
                continue
            where = self.var_where(var)
            try:
                if var == "ts_resetRTO_":
                    value: object = to_bool(self.vars[var])
                else:
                    value = max(to_int(self.vars[var]), 0)
            except ValueError as e:
                raise Ns2Error(f"{var}: {e}", where) from None
            if full or (var == "max_connects_" and self.base_cls == "Agent/TCP/Vegas"):
                mapped.add(var)
                continue
            if self.cls not in agents:
                raise Ns2Error(unsupported(f"{self.cls} variable {var} = {self.vars[var]}"),
                               where)
            out["ts_reset_rto" if var == "ts_resetRTO_" else "syn_max_sends"] = value
            mapped.add(var)
    QS_VARS = ("qs_enabled_", "rate_request_", "qs_request_mode_", "qs_rtt_", "qs_thresh_",
               "tcp_qs_recovery_", "print_request_")

    def map_quick_start(self, out: dict[str, object], mapped: set[str]) -> None:
        """Quick-Start (RFC 4782) as ns-2.35's one-way agents do it (tcp/tcp.cc
        `TcpAgent::output`'s request on segment 0, `processQuickStart`, `endQuickStart`,
        `lossQuickStart`; the engine's `quick_start` keys, tcp/sender/quick_start.rs): with
        `qs_enabled_`, a request of `rate_request_` KB/s, sized by the data waiting over
        `qs_rtt_` ms with `qs_request_mode_ 1`. FullTcp never makes one (its output is its
        own); other agents' recv never reads the answer: not supported. The sink must echo
        (`Agent/TCPSink qs_enabled_`). `print_request_`'s lines: Simulator._print_quick_start."""
        if not any(v in self.vars for v in self.QS_VARS):
            return
        if isinstance(self, FullTcpAgent):
            mapped.update(self.QS_VARS)
            return
        where = self.var_where("qs_enabled_")
        try:
            enabled = to_bool(self.vars.get("qs_enabled_", "false"))
            rate = to_int(self.vars.get("rate_request_", "0"))
            mode = to_int(self.vars.get("qs_request_mode_", "1"))
            rtt = to_int(self.vars.get("qs_rtt_", "50"))
            thresh = to_int(self.vars.get("qs_thresh_", "4"))
            recovery = to_bool(self.vars.get("tcp_qs_recovery_", "true"))
            to_bool(self.vars.get("print_request_", "false"))
        except ValueError as e:
            raise Ns2Error(f"Quick-Start: {e}", where) from None
        mapped.update(self.QS_VARS)
        if not enabled or rate <= 0:
            return
        if self.cls not in ("Agent/TCP", "Agent/TCP/Reno", "Agent/TCP/Newreno",
                            "Agent/TCP/Sack1") or self.cc != "reno":
            raise Ns2Error(unsupported(f"Quick-Start (qs_enabled_) on {self.cls}"), where)
        sink = self.peer
        if isinstance(sink, TcpSink) and not to_bool(sink.vars.get("qs_enabled_", "false")):
            raise Ns2Error(unsupported("Quick-Start with a sink that does not echo it"
                                       " (Agent/TCPSink qs_enabled_ false)"), where)
        self.quick_start = True
        out["quick_start"] = rate
        out["quick_start_rtt"] = (rtt if mode == 1 and rtt > 0 else 0) / 1000
        out["quick_start_thresh"] = max(thresh, 0)
        out["quick_start_recovery"] = recovery

    def map_overhead(self, out: dict[str, object], mapped: set[str]) -> None:
        """`overhead_` on the one-way agents whose `send_much` the engine models with it
        (tcp/tcp.cc `TcpAgent::send_much`, tcp/tcp-sack1.cc `Sack1TcpAgent::send_much`):
        each burst of new sending waits `Random::uniform(overhead_)`, drawn from the default
        generator (the engine's `send_overhead`, tcp/sender/overhead.rs). FullTcp, Vegas,
        TCP-Linux, RFC793edu and QOption_ with it stay not supported."""
        var = "overhead_"
        if var not in self.vars:
            return
        try:
            seconds = to_float(self.vars[var])
        except ValueError as e:
            raise Ns2Error(f"{var}: {e}", self.var_where(var)) from None
        if seconds == 0:
            mapped.add(var)
            return
        if (self.cls not in ("Agent/TCP", "Agent/TCP/Reno", "Agent/TCP/Newreno",
                             "Agent/TCP/Sack1") or self.cc != "reno"
                or ("QOption_" in self.vars and to_int(self.vars["QOption_"]) != 0)):
            return  # left unmapped: refused by name
        if seconds < 0:
            raise Ns2Error(f"{var} {self.vars[var]}: not a delay", self.var_where(var))
        out["send_overhead"] = seconds
        mapped.add(var)

    def map_vegas(self, cc_params: dict[str, object]) -> None:
        """ns-2.35's VegasTcpAgent (tcp/tcp-vegas.cc) is its own algorithm, recovery and
        timeout included: the engine's Vegas under `ns2_model` (tcp/sender/ns2_vegas.rs),
        starting at one segment with syn_ and delay_growth_ (TcpAgent::set_initial_window).
        Its recv never reads windowOption_; TcpAgent::ecn, which it calls, and maxcwnd_ are
        not modelled."""
        if self.cc != "vegas":
            raise Ns2Error(unsupported(f"{self.cls} with windowOption_ other than 1"),
                           self.cc_where)
        cc_params["ns2_model"] = 1
        try:
            growth = to_bool(self.vars["syn_"]) and to_bool(self.vars["delay_growth_"])
        except ValueError as e:
            raise Ns2Error(f"delay_growth_: {e}", self.var_where("delay_growth_")) from None
        cc_params["ns2_delay_growth"] = int(growth)
        for var in ("ecn_", "maxcwnd_"):
            if var in self.vars and not self.var_is_default(var) and to_float(self.vars[var]):
                raise Ns2Error(unsupported(f"{self.cls} variable {var}"), self.var_where(var))

    def map_rfc793(self, out: dict[str, object], mapped: set[str]) -> None:
        """ns-2.35's RFC793eduTcpAgent (tcp/tcp-rfc793edu.cc): its add793*_ flags are the
        engine's rfc793_* additions (tcp/sender/rfc793.rs). Multiplicative and additive
        increase without slow start (add793exponinc_, add793additiveinc_) are not modelled;
        rto_ is what the agent reports (read from the engine during the run), never what it
        waits."""
        for var, key in (("add793fastrtx_", "rfc793_fast_retransmit"),
                         ("add793slowstart_", "rfc793_slow_start"),
                         ("add793jacobsonrtt_", "rfc793_jacobson_rto"),
                         ("add793karnrtt_", "rfc793_karn"),
                         ("add793expbackoff_", "rfc793_backoff"),
                         ("add793exponinc_", ""), ("add793additiveinc_", "")):
            try:
                on = to_bool(self.vars[var])
            except ValueError as e:
                raise Ns2Error(f"{var}: {e}", self.var_where(var)) from None
            if not key:
                if on:
                    raise Ns2Error(unsupported(f"{self.cls} variable {var} = true"),
                                   self.var_where(var))
            else:
                out[key] = on
            mapped.add(var)
        mapped.add("rto_")

    def sends_syn(self) -> bool:
        """Whether segment 0 goes as a 40-byte SYN that adds one to curseq_ (TcpAgent::output
        with syn_); VegasTcpAgent::output (tcp-vegas.cc) never does: its segment 0 is data."""
        return self.base_cls != "Agent/TCP/Vegas" and to_bool(self.vars["syn_"])

    def uses_headers(self) -> bool:
        """Whether data segments carry tcpip_base_hdr_size_ on top of packetSize_: ns-2's
        useHeaders_, read by TcpAgent::output (FullTcp never reads it; Fast's own output
        stays not supported with it). VegasTcpAgent::output never adds headersize(): its
        segments are packetSize_ on the wire, whatever useHeaders_ says."""
        if self.base_cls in ("Agent/TCP/Vegas", "Agent/TCP/RFC793edu"):
            # RFC793eduTcpAgent::output, like Vegas's, sends packetSize_ bytes (its SYN
            # tcpip_base_hdr_size_).
            return False
        if "useHeaders_" not in self.vars or self.var_is_default("useHeaders_"):
            return True
        if isinstance(self, FullTcpAgent) or self.cls == "Agent/TCP/Fast":
            return True
        try:
            return to_bool(self.vars["useHeaders_"])
        except ValueError as e:
            raise Ns2Error(f"useHeaders_: {e}", self.var_where("useHeaders_")) from None

    def map_first_window(self, out: dict[str, object], mapped: set[str]) -> None:
        """windowInitOption_ and bugfix_ss_ (ns-2.35 tcp/tcp.cc): `TcpAgent::initial_window`
        takes windowInit_ with option 1 and a window from packetSize_ with option 2 (the
        engine's `window_init_by_size`); `TcpAgent::timeout` and the agents' `dupack_action`
        treat a loss among the first segments by bugfix_ss_ (`ns2_first_loss`)."""
        if "windowInitOption_" in self.vars and not self.var_is_default("windowInitOption_"):
            where = self.var_where("windowInitOption_")
            try:
                option = to_int(self.vars["windowInitOption_"])
            except ValueError as e:
                raise Ns2Error(f"windowInitOption_: {e}", where) from None
            if option == 2 and isinstance(self, FullTcpAgent):
                # TcpAgent::initial_window from FullTcp's size_ (segsize_ plus its headers):
                # a fixed window here, as FullTcpAgent's own timeout never falls back to
                # windowInit_ (TcpAgent::timeout does).
                out["window_init"] = _full_initial_window(self)
            elif option == 2:
                if not self.uses_headers():
                    raise Ns2Error(unsupported(f"{self.cls} windowInitOption_ 2"
                                               " with useHeaders_ false"), where)
                out["window_init_by_size"] = True
            elif option != 1:  # ns-2 aborts: "Wrong number of wnd_init_option_"
                raise Ns2Error(f"windowInitOption_ must be 1 or 2, got {option}", where)
            mapped.add("windowInitOption_")
        if "bugfix_ss_" in self.vars:
            if isinstance(self, FullTcpAgent):
                # FullTcpAgent's own timeout and duplicate-ACK rules never read it.
                out["ns2_first_loss"] = "off"
            elif not self.var_is_default("bugfix_ss_"):
                try:
                    on = to_bool(self.vars["bugfix_ss_"])
                except ValueError as e:
                    raise Ns2Error(f"bugfix_ss_: {e}", self.var_where("bugfix_ss_")) from None
                out["ns2_first_loss"] = "bugfix_ss" if on else "plain"
            mapped.add("bugfix_ss_")

    def map_delay_growth(self) -> bool:
        """ns-2.35 tcp/tcp.cc, TcpAgent::set_initial_window: with syn_ and delay_growth_ the
        window is one segment (the SYN) and TcpAgent::recv sets it to windowInit_ on the ACK
        of segment 0 (`last_ack_ == 0 && delay_growth_`); with neither, it starts at
        windowInit_ and every new ACK opens it. The engine's `syn` is the first, `syn` off
        the second; syn_ without delay_growth_ (the window starts at windowInit_, the SYN
        within it, its ACK opening the window as any) is `syn` with `delay_growth` false,
        which this returns false for; delay_growth_ without syn_ is not modelled."""
        try:
            syn = to_bool(self.vars["syn_"])
            growth = to_bool(self.vars["delay_growth_"])
        except ValueError as e:
            raise Ns2Error(f"delay_growth_: {e}", self.var_where("delay_growth_")) from None
        if self.cls == "Agent/TCP/Linux":
            # LinuxTcpAgent (delay_growth_ false by default) starts at windowInit_ with its
            # SYN as segment 0: the engine's ns2_linux sender does (tcp/sender/ns2_linux.rs);
            # the SACK sender the other modules run on starts at one segment.
            return True
        if growth and not syn:
            var = "syn_" if self.var_is_default("delay_growth_") else "delay_growth_"
            raise Ns2Error(unsupported(
                f"{self.cls} with syn_ false and delay_growth_ true (delay_growth_ only with"
                " syn_)"), self.var_where(var))
        return growth or not syn


class FullTcpAgent(TcpAgent):
    """``Agent/TCP/FullTcp`` (and ``/Tahoe``, ``/Newreno``, ``/Sack``): one end of a two-way
    TCP connection. Two of them connected (``$ns connect``), one told to ``listen``, the other
    with an FTP on it, are one engine connection (docs/full-tcp.md): handshake, data from the
    FTP's side, ACKs from the listener, FINs."""

    # ns-2 FullTcp variables that keep their meaning here at their defaults only.
    OWN = {"segsize_", "segsperack_", "interval_", "nodelay_", "data_on_syn_", "iss_",
           "close_on_empty_", "signal_on_empty_", "dupseg_fix_",
           "dupack_reset_", "spa_thresh_", "ts_option_size_", "reno_fastrecov_", "pipectrl_",
           "open_cwnd_on_pack_", "halfclose_", "nopredict_", "ecn_syn_", "ecn_syn_wait_"}

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.listening = False
        self.connected = False  # connect() called (FullTcpAgent::advance_bytes in CLOSED)
        self.closed = False  # close called during the run (FullTcpAgent::usrclosed)
        # Payload bytes given in all (curseq_ less iss_), and whether a part of a segment
        # made them a byte stream (FullTcpAgent::advance_bytes).
        self.given_bytes = 0
        self.stream = False
        # One side of a Tmix connection (build.py `_tmix_flow`): ackclock's Tmix sends an
        # ADU's short last segment at once, as ns-2's with nodelay_ true (docs/traffic.md).
        self.tmix_side = False
        # FullTcpAgent::delay_bind_init_all resets the agent once more (tcp-full.cc).
        self.reset()

    def cmd_listen(self) -> None:
        self.listening = True

    # --- data from the application: ns-2.35 tcp-full.cc FullTcpAgent::advanceby,
    # advance_bytes, sendmsg. curseq_ counts bytes here; the engine is told segments (the SYN
    # is segment 0) while the data are whole segments of segsize_, bytes once a part of one
    # is given.

    def cmd_advance(self, n: str) -> None:
        """TcpAgent's `advance n` (FTP produce): advanceby(n - curseq_) while nothing was
        given, n segments. Later ones mix ns-2's byte curseq_ with a packet count."""
        count = self._count(n, "advance")
        if self.curseq != 0:
            raise Ns2Error(unsupported(f"a second advance (FTP produce) on {self.cls}"
                                       " (ns-2 subtracts its byte count from the packets)"))
        self._give(count, "advance")

    def cmd_advanceby(self, n: str) -> None:
        """FullTcpAgent::advanceby: n segments of segsize_ more (FTP producemore)."""
        self._give(self._count(n, "advanceby"), "advanceby")

    def cmd_advance_bytes(self, nbytes: str) -> None:
        """FullTcpAgent::advance_bytes: nbytes more."""
        self._give_bytes(self._count(nbytes, "advance-bytes"), "advance-bytes")

    def cmd_send(self, nbytes: str) -> None:
        """FullTcpAgent::sendmsg (FTP send): nbytes more; -1: without end (FTP start)."""
        n = self._count(nbytes, "send")
        if n == -1:
            self.send_forever()
            return
        self._give_bytes(n, "send")

    def segsize(self) -> int:
        """FullTcpAgent::foutput's maxseg_: segsize_, or where that is 0, packetSize_ less
        headersize() (tcpip_base_hdr_size_, with timestamps_ ts_option_size_ more)."""
        size = to_int(self.vars["segsize_"])
        if size != 0:
            return size
        header = self.headersize()
        size = to_int(self.vars["packetSize_"]) - header
        if size < 1:
            raise Ns2Error(f"{self.cls} {self.handle}: segsize_ 0 takes the segment from"
                           f" packetSize_ {self.vars['packetSize_']}, which is not above the"
                           f" header's {header} bytes", self.var_where("packetSize_"))
        return size

    def headersize(self) -> int:
        """FullTcpAgent::headersize: tcpip_base_hdr_size_, with timestamps_ ts_option_size_
        more."""
        header = to_int(self.vars["tcpip_base_hdr_size_"])
        if to_bool(self.vars.get("timestamps_", "false")):
            header += to_int(self.vars.get("ts_option_size_", "10"))
        return header

    def _give_bytes(self, n: int, what: str) -> None:
        """nbytes more: whole segments as segments; once a part of a segment is given the
        agent's data are a byte stream (the engine's tcp/sender/stream.rs: foutput's cut of
        curseq_ into segments, Nagle for the short one)."""
        if n < 0:
            raise TclError(f"{what}: expected a count >= 0, got {n}")
        size = self.segsize()
        if n % size == 0 and not self.stream:
            self._give(n // size, what)
            return
        self.stream = True
        self.given_bytes += n
        total = self.given_bytes

        def go() -> None:
            self._full_advance(total, stream=True)

        self.sim().when_running(go)

    def _give(self, segments: int, what: str) -> None:
        if segments < 0:
            raise TclError(f"{what}: expected a count >= 0, got {segments}")
        if self.stream:
            self._give_bytes(segments * self.segsize(), what)
            return
        self.curseq += segments
        self.given_bytes += segments * self.segsize()
        limit = 1 + self.curseq  # the SYN, then the data

        def go() -> None:
            self._full_advance(limit)

        self.sim().when_running(go)

    def send_forever(self) -> None:
        """FTP start on this agent: infinite_send_ (sendmsg(-1))."""
        self.sim().when_running(lambda: self._full_advance(2**64 - 1))

    def connect(self) -> None:
        """FullTcpAgent::advance_bytes in CLOSED (the initiator's first data, once the run
        is on): `reset`, which draws a new boot_time_ from the default generator now (RED's
        early drops draw after it), then `connect`."""
        if self.connected or self.flow is None or not self.initiator():
            return
        self.connected = True
        self.reset()
        self.sim().engine.set_ns2_boot_time(self.flow, self.boot_ps())

    def _full_advance(self, limit: int, stream: bool = False) -> None:
        """The engine's flow given data up to segment `limit`, or with `stream` `limit`
        payload bytes in all."""
        if self.flow is None:
            raise Ns2Error(f"{self.cls} {self.handle}: not connected to a FullTcp agent")
        if self.closed:
            raise Ns2Error(unsupported(f"data for {self.cls} after its close"))
        self.connect()
        try:
            if stream:
                self.sim().engine.advance_app_bytes(self.flow, limit)
            else:
                self.sim().engine.advance_app(self.flow, limit)
        except ValueError as e:
            raise Ns2Error(unsupported(str(e))) from None

    def cmd_close(self) -> None:
        """FullTcpAgent::usrclosed during the run: the FIN follows the data sent so far
        (data given but not sent are dropped, an FTP's endless send stops); the peer, once
        its own data are acknowledged, closes too (`halfclose_` false)."""
        if not self.sim_started():
            return
        if self.flow is None:
            raise Ns2Error(f"{self.cls} {self.handle}: not connected to a FullTcp agent")
        self.closed = True
        try:
            self.sim().engine.close_app(self.flow)
        except ValueError as e:
            raise Ns2Error(unsupported(str(e))) from None

    def initiator(self) -> bool:
        """Whether this end opens the connection (the other listens, or has no application)."""
        peer = self.peer
        if not isinstance(peer, FullTcpAgent):
            return True
        if self.listening != peer.listening:
            return not self.listening
        return self.app is not None or (peer.app is None and self.created_at.line
                                        <= peer.created_at.line)

    def tcp_params(self) -> dict[str, object]:
        out = super().tcp_params()
        out["packet_size"] = self.segsize()
        # syn_ is TcpAgent::output's; FullTcpAgent always opens with the three-way handshake
        # (tcp-full.cc), whatever `Agent/TCP set syn_ false` said for one-way agents.
        out.pop("syn", None)
        # FullTcpAgent's own rules (tcp-full.cc; the engine's ns2_full_tcp): dupack_action,
        # pack_action, foutput's cong_action_; and no limited transmit (FullTcpAgent never
        # reads singledup_).
        out["ns2_full_tcp"] = True
        out["limited_transmit"] = False
        # FullTcpAgent::recv counts duplicates against its own tcprexmtthresh_ (3 by
        # default, tcl/lib/ns-default.tcl) and never reads TcpAgent's numdupacks_.
        try:
            thresh = to_int(self.vars["tcprexmtthresh_"])
        except ValueError as e:
            raise Ns2Error(f"tcprexmtthresh_: {e}", self.var_where("tcprexmtthresh_")) from None
        if thresh < 1:
            raise Ns2Error(unsupported(f"{self.cls} variable tcprexmtthresh_ = {thresh}"
                                       " (no fast retransmit)"),
                           self.var_where("tcprexmtthresh_"))
        out["dupack_threshold"] = thresh
        return out

    def map_delay_growth(self) -> bool:
        """ns-2.35 tcp/tcp-full.cc, FullTcpAgent::recv: delay_growth_ holds the window only
        while `rcv_nxt_` is 0, and the handshake sets rcv_nxt_ to the peer's iss_ + 1
        (rcvseqinit) before any data is acknowledged: it changes nothing here."""
        return True

    def acks(self) -> tuple[int, int]:
        """This agent's receiver rule (FullTcpAgent::need_send): an ACK once segsperack_
        segments of segsize_ are unacknowledged, else at the next tick of its delayed-ACK
        timer, every interval_ (FullTcpAgent::timeout, TCP_TIMER_DELACK). Returns segsperack_
        and interval_ in picoseconds."""
        try:
            per_ack = to_int(self.vars["segsperack_"])
        except ValueError as e:
            raise Ns2Error(f"segsperack_: {e}", self.var_where("segsperack_")) from None
        if per_ack < 1:
            raise Ns2Error(unsupported(f"{self.cls} variable segsperack_ = {per_ack}"),
                           self.var_where("segsperack_"))
        try:
            interval = parse_time(self.vars["interval_"].strip())
        except ScenarioError as e:
            raise Ns2Error(f"interval_: {e.message}", self.var_where("interval_")) from None
        if per_ack > 1 and interval <= 0:
            # need_send alone then: an ACK held below segsperack_ never leaves.
            raise Ns2Error(unsupported(f"{self.cls} segsperack_ {per_ack} without a"
                                       " delayed-ACK timer (interval_ 0)"),
                           self.var_where("interval_"))
        return per_ack, interval

    # FullTcp variables mapped by the connection (build.py `_full_flow`), not refused here.
    CONNECTION = {"segsize_", "segsperack_", "interval_", "iss_", "ecn_syn_", "ecn_syn_wait_"}

    def iss(self) -> int:
        """iss_: the sequence number of this agent's SYN (FullTcpAgent::reset, t_seqno_ =
        iss_); its data follow from iss_ + 1. It changes only the numbers the traces show."""
        try:
            iss = to_int(self.vars["iss_"])
        except ValueError as e:
            raise Ns2Error(f"iss_: {e}", self.var_where("iss_")) from None
        if not 0 <= iss < 2**31:
            raise Ns2Error(unsupported(f"{self.cls} variable iss_ = {iss} (0 to 2^31 - 1)"),
                           self.var_where("iss_"))
        return iss

    def ecn_syn(self) -> tuple[bool, int]:
        """ecn_syn_ (RFC 5562's ECN-capable SYN-ACK as FullTcpAgent has it) and ecn_syn_wait_:
        what an acceptor does when its SYN-ACK comes back marked (FullTcpAgent::recv in
        SYN_RECEIVED: 0 a window of two, halved; 2 the SYN-ACK again), and what an
        initiator does with a marked SYN-ACK (2: drops it, answers with ECE; in SYN_SENT,
        whatever its ecn_syn_). Wait 1 (a window of one and a timer) is refused with
        ecn_syn_, and any value but 0, 1 and 2."""
        try:
            on = to_bool(self.vars["ecn_syn_"])
        except ValueError as e:
            raise Ns2Error(f"ecn_syn_: {e}", self.var_where("ecn_syn_")) from None
        try:
            wait = to_int(self.vars["ecn_syn_wait_"])
        except ValueError as e:
            raise Ns2Error(f"ecn_syn_wait_: {e}", self.var_where("ecn_syn_wait_")) from None
        if wait not in (0, 1, 2) or (on and wait == 1):
            raise Ns2Error(unsupported(f"{self.cls} variable ecn_syn_wait_ = {wait}"
                                       + (" with ecn_syn_" if on else "")),
                           self.var_where("ecn_syn_wait_"))
        return on, 0 if wait == 1 else wait

    def check_vars(self, mapped: set[str]) -> None:
        super().check_vars(mapped | self.OWN | {"packetSize_", "tcprexmtthresh_"})
        taken = self.CONNECTION | ({"nodelay_"} if self.tmix_side else set())
        for var in self.OWN:
            if var in self.vars and var not in taken and not self.var_is_default(var):
                raise Ns2Error(unsupported(f"{self.cls} variable {var} = {self.vars[var]}"),
                               self.var_where(var))


def _initial_window(given: Mapping[str, str | None]) -> int:
    """TcpAgent::initial_window: windowInit_, or with windowInitOption_ 2 RFC 3390's window
    for packetSize_ (the engine's window_init_for_size)."""
    if to_int(given["windowInitOption_"] or "1") == 2:
        size = to_int(given["packetSize_"] or "0")
        return 4 if size <= 1095 else 3 if size < 2190 else 2
    return to_int(given["windowInit_"] or "0")


def _full_initial_window(agent: FullTcpAgent) -> int:
    """TcpAgent::initial_window with windowInitOption_ 2 for a FullTcp agent: RFC 3390's
    window for its size_ as FullTcpAgent::foutput leaves it before the SYN/ACK: maxseg_
    plus headersize(), which is packetSize_ itself where segsize_ 0 takes maxseg_ from it."""
    try:
        size = agent.segsize() + agent.headersize()
    except ValueError as e:
        raise Ns2Error(f"segsize_: {e}", agent.var_where("segsize_")) from None
    return 4 if size <= 1095 else 3 if size < 2190 else 2


# The variables TcpAgent::reset (tcp/tcp.cc) reads: rtt_init's tcpTick_, srtt_init_ and
# rttvar_init_; set_initial_window's syn_, delay_growth_ and initial_window()'s; ssthresh_'s
# window_ and max_ssthresh_.
RESET_INPUTS = ("tcpTick_", "srtt_init_", "rttvar_init_", "syn_", "delay_growth_",
                "windowInit_", "windowInitOption_", "packetSize_", "window_", "max_ssthresh_")


def reset_inputs(agent: TcpAgent) -> tuple[str | None, ...]:
    return tuple(agent.vars.get(var) for var in RESET_INPUTS)


def _ssthresh(given: Mapping[str, str | None]) -> tuple[float, ...]:
    """TcpAgent::reset: ssthresh_ = wnd_, then max_ssthresh_ when that is set and lower (two
    assignments, each traced)."""
    ssthresh = to_int(given["window_"] or "0")
    cap = to_int(given["max_ssthresh_"] or "0")
    return (float(ssthresh), float(cap)) if 0 < cap < ssthresh else (float(ssthresh),)


def _ticks(given: Mapping[str, str | None], var: str) -> int:
    """rtt_init's `int(x / tcp_tick_)` of srtt_init_ or rttvar_init_."""
    return int(to_float(given[var] or "0") / to_float(given["tcpTick_"] or "0.01"))


# What TcpAgent::reset sets the traced state variables to, in the order it assigns them
# (rtt_init: t_rtt_, t_srtt_ << T_SRTT_BITS, t_rttvar_ << T_RTTVAR_BITS, t_backoff_; then
# set_initial_window; maxseq_, highest_ack_; ssthresh_), as ns-2's fixed-point values: each
# variable's assignments, the last the one it keeps.
PRE_RUN: dict[str, Callable[[Mapping[str, str | None]], tuple[float, ...]]] = {
    "rtt_": lambda g: (0.0,),
    "srtt_": lambda g: (float(_ticks(g, "srtt_init_") << 3),),
    "rttvar_": lambda g: (float(_ticks(g, "rttvar_init_") << 2),),
    "backoff_": lambda g: (1.0,),
    # TcpAgent::set_initial_window: one segment with syn_ and delay_growth_, else
    # initial_window() (windowInit_, or with windowInitOption_ 2 the one packetSize_ gives).
    "cwnd_": lambda g: (1.0 if to_bool(g["syn_"] or "0") and to_bool(g["delay_growth_"] or "0")
                        else float(_initial_window(g)),),
    "maxseq_": lambda g: (-1.0,),
    "ack_": lambda g: (-1.0,),
    "ssthresh_": _ssthresh,
}


def _cc_value(obj: TclObject, var: str) -> float:
    try:
        return to_float(obj.vars[var])
    except ValueError as e:
        raise Ns2Error(f"{var}: {e}", obj.var_where(var)) from None


def _param(obj: TclObject, var: str) -> object:
    """A variable as the engine's parameter takes it: a number, or a time as text (a double
    in seconds)."""
    kind = obj.var_kind(var)
    if kind in ("int", "bool"):
        return obj.var_number(var)
    if kind == "double":
        return f"{obj.var_number(var)!r}s"
    return obj.vars[var].strip() if kind == "time" else obj.vars[var]


class TcpSink(Agent):
    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        if cls not in SINK_CLASSES:
            raise Ns2Error(unsupported(f"TCP sink class {cls}"))
        self.kind, self.delayed = SINK_CLASSES[cls]
        self.bytes_offset = 0

    def wire_bytes(self) -> int:
        """In-order bytes delivered, headers included (ns-2 TCPSink bytes_)."""
        if self.flow is None or self.ctx.simulator is None or not self.ctx.simulator.started:
            return 0
        sender = self.peer
        assert isinstance(sender, TcpAgent)
        c = self.sim().engine.flow_counters(self.flow)
        size = to_int(sender.vars["packetSize_"])
        header = to_int(sender.vars["tcpip_base_hdr_size_"])
        headers = sender.uses_headers()
        # The engine's payload per segment (useHeaders_ false: the header is inside packetSize_).
        payload = size if headers else size - header
        total: int = c["bytes_delivered"] // payload * (size + header if headers else size)
        if c["packets_received"] and sender.sends_syn():
            total += header  # ns-2 counts the 40-byte SYN in bytes_ too
        elif total and headers:
            total -= header  # without a SYN, ns-2 sends segment 0 without headers
        return total

    def live_var(self, var: str) -> str | None:
        if var == "bytes_":
            return str(self.ctx.counter(self.wire_bytes() - self.bytes_offset))
        return None

    def cmd_reset(self) -> None:
        """TcpSink::reset (Acker::reset, Sacker::reset, DelAckSink::reset): forgets what it
        received, cancels a delayed ACK, and from now on drops the segments sent before now
        (`lastreset_`); bytes_ goes on counting. Before the run it changes nothing."""
        sim = self.ctx.simulator
        if sim is None or not sim.started or self.flow is None:
            return
        sim.write_traces()
        if self.peer in self.ctx.lone_resets:
            self.ctx.lone_resets.remove(self.peer)
        try:
            self.sim().engine.ns2_reset_tcp(self.flow, False, 0)
        except ValueError as e:
            raise Ns2Error(unsupported(f"{self.cls} reset: {e}")) from None

    def on_write(self, var: str, value: str) -> None:
        if var == "bytes_":
            self.bytes_offset = self.wire_bytes() - to_int(value)

    def write_var(self, var: str, value: str) -> None:
        sim = self.ctx.simulator
        if sim is not None and sim.started and var != "bytes_" and var in SINK_VARS:
            raise Ns2Error(unsupported(f"changing {self.cls} {var} during the run"))
        super().write_var(var, value)

    def sink_params(self) -> dict[str, object]:
        out: dict[str, object] = {"sink": self.kind}
        if self.delayed:
            out["delayed_ack"] = True
        mapped = set()
        for var, key in SINK_VARS.items():
            if var in self.vars and self.var_kind(var) is not None:
                out[key] = _param(self, var)
                mapped.add(var)
        # The timestamp an ACK echoes (TcpSink::ack, Acker::update_ts): with ts_echo_bugfix_
        # (ns-2's default) the latest segment's that arrived at or below the ACK's edge, RFC
        # 7323's TS.Recent (the engine's `ts_echo_rfc7323`; ts_echo_rfc1323_ adds only that the
        # segment at the edge updates it whatever its timestamp, which on one path is never
        # older); without it the timestamp of the segment that triggered the ACK.
        try:
            out["ts_echo_rfc7323"] = to_bool(self.vars.get("ts_echo_bugfix_", "true"))
            to_bool(self.vars.get("ts_echo_rfc1323_", "false"))
        except ValueError as e:
            raise Ns2Error(f"ts_echo_bugfix_: {e}", self.var_where("ts_echo_bugfix_")) from None
        mapped |= {"ts_echo_bugfix_", "ts_echo_rfc1323_"}
        # SYN_immediate_ack_ and RFC2581_immediate_ack_ are read only by ns-2's DelAckSink::recv
        # (DelAck and Sack1/DelAck): segment 0, SYN or not, and (RFC2581_immediate_ack_) a
        # segment filling part of a gap are acknowledged without delay.
        if self.kind == "delack" or self.delayed:
            for var, key in (("SYN_immediate_ack_", "delack_syn"),
                             ("RFC2581_immediate_ack_", "delack_gap_fill")):
                try:
                    out[key] = not to_bool(self.vars[var])
                except ValueError as e:
                    raise Ns2Error(f"{var}: {e}", self.var_where(var)) from None
                mapped.add(var)
        else:
            mapped |= {"SYN_immediate_ack_", "RFC2581_immediate_ack_"}
        # ecn_syn_: the ACK of an ECN-capable sender's segment 0 is ECT (TcpSink::ack); the
        # simulator sets it on the engine's sink (Simulator._full_iss, ns2_sink_ecn_syn).
        # qs_enabled_: the engine's sink echoes a Quick-Start request (TcpSink::ack); a sender
        # requesting one checks that it is set (TcpAgent.map_quick_start).
        self.check_vars(mapped | {"packetSize_", "ecn_syn_", "qs_enabled_"})
        return out

    def ecn_syn(self) -> bool:
        try:
            return to_bool(self.vars["ecn_syn_"])
        except ValueError as e:
            raise Ns2Error(f"ecn_syn_: {e}", self.var_where("ecn_syn_")) from None


class UdpAgent(Agent):
    pass


class NullAgent(Agent):
    """``Agent/Null`` and ``Agent/LossMonitor``: the receiving end of UDP flows, as many as are
    connected to it (ns-2 scripts often point several sources at one sink). A LossMonitor's
    ``bytes_`` and ``npkts_`` count what all of them delivered, and writing them (``$sink set
    bytes_ 0``) restarts the count from that value, as in ns-2."""

    COUNTERS = {"bytes_": "bytes_received", "npkts_": "packets_received"}

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        # In the order they were connected, as a dict for a look-up that does not walk them
        # (many UDP sources into one Null).
        self.sources: dict[Agent, None] = {}
        self.offsets: dict[str, int] = {}

    def received(self, var: str) -> int:
        sim = self.ctx.simulator
        if sim is None or not sim.started:
            return 0
        key = self.COUNTERS[var]
        return sum(int(sim.engine.flow_counters(a.flow)[key]) for a in self.sources
                   if a.flow is not None)

    def live_var(self, var: str) -> str | None:
        if var in self.COUNTERS:
            return str(self.received(var) - self.offsets.get(var, 0))
        return None

    def on_write(self, var: str, value: str) -> None:
        if var in self.COUNTERS:
            self.offsets[var] = self.received(var) - to_int(value)


class LossMonitorAgent(NullAgent):
    """``Agent/LossMonitor`` (ns-2.35 tools/loss-monitor.cc): besides ``bytes_`` and
    ``npkts_``, ``nlost_`` (the gaps in the sequence numbers of what arrives, counted as
    ``LossMonitor::recv`` counts them: by the engine, in arrival order, across all sources),
    ``expected_`` (the last number plus one; 0 before the first, as ns-default.tcl sets it)
    and ``lastPktTime_`` (ns-2's clock at the last arrival). ``$mon set nlost_ 0`` restarts
    that count; ``$mon clear`` makes the next arrival count no loss."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.monitor: int | None = None
        self.lost_offset = 0

    def start_monitor(self) -> None:
        """Called once the engine runs: its loss monitor for this agent's sources."""
        sim = self.ctx.simulator
        flows = [a.flow for a in self.sources if a.flow is not None]
        if sim is not None and flows:
            self.monitor = sim.engine.ns2_loss_monitor(flows, to_int(self.vars["expected_"]))

    def _monitor(self) -> tuple[int, int, float] | None:
        sim = self.ctx.simulator
        if self.monitor is None or sim is None or not sim.started:
            return None
        nlost, expected, last = sim.engine.loss_monitor(self.monitor)
        return int(nlost), int(expected), float(last)

    def live_var(self, var: str) -> str | None:
        if var in ("nlost_", "expected_", "lastPktTime_"):
            m = self._monitor()
            if m is None:
                return None
            nlost, expected, last = m
            if var == "nlost_":
                return str(nlost - self.lost_offset)
            return str(expected) if var == "expected_" else fmt_double(last)
        return super().live_var(var)

    def on_write(self, var: str, value: str) -> None:
        if var == "nlost_":
            m = self._monitor()
            self.lost_offset = (m[0] if m is not None else 0) - to_int(value)
        elif var in ("expected_", "lastPktTime_") and self.ctx.simulator is not None \
                and self.ctx.simulator.started:
            raise Ns2Error(unsupported(f"setting {var} of a loss monitor during the run"))
        else:
            super().on_write(var, value)

    def cmd_clear(self) -> None:
        sim = self.ctx.simulator
        if self.monitor is not None and sim is not None and sim.started:
            sim.engine.loss_monitor_clear(self.monitor)


class Application(TclObject):
    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.agent: Agent | None = None
        self.running = False
        self.stopped = False
        # Another application was attached to this one's agent since (below).
        self.superseded = False

    def cmd_attach_agent(self, agent: str) -> None:
        a = self.ctx.lookup(agent, Agent, "an agent")
        assert isinstance(a, Agent)
        old = a.app
        if old is not None and old is not self:
            # apps/app.cc `Application::command "attach-agent"` -> `Agent::attachApp`: the
            # agent's application is the one attached last. One attached before that has
            # never run sends nothing and is set aside; what it would still do is refused
            # (call, below).
            if old.running or old.stopped:
                raise Ns2Error(unsupported(f"a second application on agent {agent} after the"
                                           f" first ({old.handle}) was started"))
            old.superseded = True
        self.agent = a
        self.superseded = False
        a.app = self

    # What an application set aside by a later one on its agent may still be told: its
    # variables, its agent (again, or another), nothing that makes it send.
    IDLE_COMMANDS = ("set", "info", "agent", "attach-agent", "stop", "destroy")

    def call(self, args: list[str]) -> str:
        if self.superseded and args and args[0] not in self.IDLE_COMMANDS:
            agent = self.agent.handle if self.agent is not None else "?"
            raise Ns2Error(unsupported(f"{args[0]} on {self.handle} after another application"
                                       f" was attached to its agent {agent}"))
        return super().call(args)

    def cmd_agent(self) -> str:
        return self.agent.handle if self.agent else ""

    def engine_flow(self) -> int | None:
        """The engine flow this application drives, once built."""
        return self.agent.flow if self.agent is not None else None

    def cmd_start(self) -> None:
        self._control(True)

    def cmd_stop(self) -> None:
        self._control(False)

    def restartable(self) -> bool:
        """Whether a start after stop is modelled. A CBR starts again as ns-2's
        CBR_Traffic::start does (the engine's UdpSource::restart); the others' restart state
        is not modelled unless their class says so."""
        return isinstance(self, Cbr)

    def _control(self, start: bool) -> None:
        if self.agent is None:
            raise TclError(f"{self.handle}: no agent attached")
        if start and self.stopped and not self.restartable():
            raise Ns2Error(unsupported(f"restarting {self.cls} after stop (a CBR's is,"
                                       " and an FTP's on a one-way TCP agent)"))
        if start == self.running or (not start and self.stopped):
            return  # ns-2: a second start (or stop) changes nothing
        self.running = start
        self.stopped = not start
        assert self.ctx.simulator is not None
        self.ctx.simulator.app_control(self, start)


@runtime_checkable
class _Fed(Protocol):
    """An agent an FTP hands data to (ns-2's advance, advanceby and send commands)."""

    def cmd_advance(self, n: str) -> None: ...
    def cmd_advanceby(self, n: str) -> None: ...
    def cmd_send(self, nbytes: str) -> None: ...


class Ftp(Application):
    """``Application/FTP``: start and stop, and finite transfers as ns-2's FTP instprocs
    make them: ``produce n`` is the agent's ``advance n``, ``producemore n`` its
    ``advanceby n``, ``send nbytes`` its ``send nbytes`` (one-way TCP agents)."""

    def _tcp(self, what: str) -> _Fed:
        # A one-way TCP agent, or an Agent/TFRC (tfrc.py), which take the same commands.
        if not isinstance(self.agent, _Fed):
            raise TclError(f"{self.handle}: FTP {what} needs a TCP or TFRC agent attached")
        return self.agent

    def restartable(self) -> bool:
        """ns-2.35's FTP (tcl/lib/ns-source.tcl) stops with its agent's `advance 0` and
        `close`, and starts with `send -1`. On a one-way TcpAgent `advance 0` sets curseq_
        to maxseq_ (TcpAgent::command), `close` is Agent::close, which does nothing, and
        `send -1` (TcpAgent::sendmsg) makes curseq_ endless again and calls send_much: the
        engine's stop and start (TcpSender::stop, TcpSender::start). A FullTcp agent's close
        sends its FIN (FullTcpAgent::usrclosed): starting it again is not modelled."""
        return isinstance(self.agent, TcpAgent) and not isinstance(self.agent, FullTcpAgent)

    def cmd_produce(self, n: str) -> None:
        self._tcp("produce").cmd_advance(n)

    def cmd_producemore(self, n: str) -> None:
        self._tcp("producemore").cmd_advanceby(n)

    def cmd_send(self, n: str) -> None:
        self._tcp("send").cmd_send(n)


class SourceFtp(Ftp):
    """``Source/FTP``, the obsolete FTP source (ns-2.35 tcl/lib/ns-source.tcl): ``start`` is
    its agent's ``advance maxpkts_`` (268435456 packets unless set), ``stop`` its ``advance
    0``; ``attach agent`` attaches it."""

    def cmd_attach(self, agent: str) -> None:
        self.cmd_attach_agent(agent)

    def cmd_start(self) -> None:
        self._tcp("start").cmd_advance(self.vars["maxpkts_"])

    def cmd_stop(self) -> None:
        self._tcp("stop").cmd_advance("0")


class TrafficApp(Application):
    """An ``Application/Traffic/*`` source; ``own`` are the variables it maps. ns-2's CBR also
    answers to ``packet_size_`` (its Tcl ``set`` reads it as ``packetSize_``)."""

    own: tuple[str, ...] = ()
    ALIASES = {"packet_size_": "packetSize_"}

    def check(self) -> None:
        for var in self.vars:
            if var not in self.own and self.var_kind(var) is not None \
                    and not self.var_is_default(var):
                raise Ns2Error(unsupported(f"{self.cls} variable {var} = {self.vars[var]}"),
                               self.var_where(var))

    def read_var(self, var: str) -> str:
        return super().read_var(self.ALIASES.get(var, var))

    def write_var(self, var: str, value: str) -> None:
        super().write_var(self.ALIASES.get(var, var), value)

    def text(self, var: str) -> str:
        return self.vars[var].strip()

    def rate(self) -> str:
        return rate_text(self.vars["rate_"])


class Generator(TrafficApp):
    """A traffic generator (ns-2's ``TrafficGenerator``, tools/trafgen.cc) whose timer the
    front end runs when its agent is a one-way TCP or a TFRC agent (on a UDP agent the
    engine's own source sends).

    ns-2.35 tools/trafgen.cc: each ``TrafficGenerator::timeout``, while running, hands the
    agent packetSize_ bytes (the agent's ``sendmsg``) and reschedules itself
    ``next_interval()`` later, none when that is not positive; ``stop`` cancels the timer.
    How the first send is timed and what ``next_interval`` returns is each generator's."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        # The packets sent so far (CBR_Traffic::seqno_) and the generation of the timer,
        # moved by each start and stop so that a timer they replaced does nothing.
        self.seqno = 0
        self.timer_gen = 0

    def drives_agent(self) -> bool:
        """Whether the source runs here: its agent is a one-way TCP or a TFRC agent."""
        from .tfrc import TfrcAgent

        agent = self.agent
        return isinstance(agent, TfrcAgent) or (
            isinstance(agent, TcpAgent) and not isinstance(agent, FullTcpAgent))

    def cmd_start(self) -> None:
        if not self.drives_agent():
            super().cmd_start()
            return
        sim = self.ctx.simulator
        if sim is None:
            raise TclError(f"{self.handle}: no simulator")
        self.running, self.stopped = True, False
        self.timer_gen += 1
        gen = self.timer_gen
        sim.when_running(lambda: self._start(gen))

    def cmd_stop(self) -> None:
        if not self.drives_agent():
            super().cmd_stop()
            return
        self.running, self.stopped = False, True
        self.timer_gen += 1

    def _start(self, gen: int) -> None:
        """The generator's ``start``, at the simulated time the script called it."""
        raise NotImplementedError

    def _next_interval(self) -> float:
        raise NotImplementedError

    def _after(self, seconds: float, gen: int) -> None:
        sim = self.ctx.simulator
        assert sim is not None
        sim.call_after(seconds, lambda: self._timeout(gen))

    def _timeout(self, gen: int) -> None:
        if gen != self.timer_gen or not self.running:
            return
        self._sendmsg(to_int(self.vars["packetSize_"]))
        nxt = self._next_interval()
        if nxt > 0:
            self._after(nxt, gen)
        else:
            self.running = False

    def _sendmsg(self, nbytes: int) -> None:
        """The agent's sendmsg: TcpAgent::sendmsg and TfrcAgent::sendmsg both count whole
        packets of the agent's size_ (packetSize_), a part rounded up."""
        from .tfrc import TfrcAgent

        agent = self.agent
        assert agent is not None
        size = to_int(agent.vars["packetSize_"])
        npkts = -(-nbytes // size) if size > 0 else 0
        if isinstance(agent, TfrcAgent):
            if agent.vars["maxqueue_"].strip() != "MAXSEQ":
                raise Ns2Error(unsupported(f"{self.cls} over TFRC with maxqueue_"),
                               agent.var_where("maxqueue_"))
            if agent.app_driven():
                agent._advanceby(npkts)
            elif not agent.started:
                # TfrcAgent::advanceby starts an agent that has sent nothing; with
                # SndrType_ 0 it sends at its own rate from then on, whatever it is given.
                agent._control(True)
            return
        assert isinstance(agent, TcpAgent)
        agent._advanceby(npkts)


class Cbr(Generator):
    """``Application/Traffic/CBR``. As in ns-2, ``rate_`` and ``packetSize_`` are what it keeps:
    setting ``interval_`` sets ``rate_`` to packetSize_ * 8 / interval_, and reading
    ``interval_`` gives packetSize_ * 8 / rate_ (ns-2 recomputes the interval so when the
    source starts)."""

    own = ("rate_", "packetSize_", "interval_", "random_")

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        # The interval the script wrote, while it still decides the rate (a later rate_ or
        # packetSize_ takes over): the engine gets it as written.
        self.interval_text: str | None = None

    # On a one-way TCP or TFRC agent (ns-2.35 tools/cbr_traffic.cc): `CBR_Traffic::start`
    # sends at once (`timeout()`); `next_interval` is (packetSize_ << 3) / rate_ recomputed
    # at each packet (so an `interval_` or `rate_` set during the run holds from the next
    # one), jittered by `Random::uniform(-0.5, 0.5)` of itself with `random_`, and -1 (no
    # more) after maxpkts_ packets. `CBR_Traffic::init` leaves a TCP or TFRC agent's packet
    # type as it is.

    def _start(self, gen: int) -> None:
        self._timeout(gen)

    def _next_interval(self) -> float:
        """CBR_Traffic::next_interval, -1 once maxpkts_ packets are sent."""
        bps = float(ns2_bandwidth(self.vars["rate_"]))
        if bps <= 0:
            raise Ns2Error(f"{self.handle}: rate_ {self.vars['rate_']} is not positive",
                           self.var_where("rate_"))
        interval = self._bits() / bps
        t = interval
        if to_float(self.vars["random_"]) != 0:
            t += interval * (-0.5 + self.ctx.default_rng().uniform())
        self.seqno += 1
        return t if self.seqno < to_int(self.vars["maxpkts_"]) else -1.0

    def _bits(self) -> int:
        return to_int(self.vars["packetSize_"]) * 8

    def read_var(self, var: str) -> str:
        var = self.ALIASES.get(var, var)
        if var == "interval_":
            bps = float(ns2_bandwidth(self.vars["rate_"]))
            # ns-2's CBR computes it in Tcl, so it prints as a Tcl double ("2.0")
            return fmt_tcl_double(self._bits() / bps) if bps else "Inf"
        if var == "rate_":
            return fmt_double(float(ns2_bandwidth(self.vars["rate_"])))
        return super().read_var(var)

    def write_var(self, var: str, value: str) -> None:
        var = self.ALIASES.get(var, var)
        if var == "interval_":
            # ns-source.tcl's `Application/Traffic/CBR instproc set` takes interval_ through
            # delay_parse (`20ms` is 0.02) and sets rate_ to packetSize_ * 8.0 / interval_.
            self.ctx.tcl.setvar("::__ac_spec", value)
            t = to_float(str(self.ctx.tcl.eval("delay_parse $::__ac_spec")),
                         "an interval in seconds")
            if t <= 0:
                raise BadValue(f"expected a positive interval, got {value!r}")
            super().write_var("rate_", fmt_double(self._bits() / t))
            self.vars["interval_"] = value
            self.interval_text = value
            return
        if var in ("rate_", "packetSize_"):
            self.interval_text = None
            self.vars.pop("interval_", None)
        super().write_var(var, value)

    def ns2_interval(self) -> float | None:
        """``interval_`` as ns-2's ``CBR_Traffic::next_interval`` computes it for each send,
        ``(size_ << 3) / rate_`` in doubles (with ``random_`` the engine adds the jitter,
        drawn from ns-2's generator: ``jittered``); None without a rate."""
        bps = float(ns2_bandwidth(self.vars["rate_"]))
        return self._bits() / bps if bps > 0 else None

    def jittered(self) -> bool:
        return to_bool(self.vars["random_"])

    def app_params(self) -> dict[str, object]:
        self.check()
        out: dict[str, object] = {"kind": "cbr", "packet_size": to_int(self.vars["packetSize_"])}
        if self.interval_text is not None:
            out["interval"] = time_text(self.interval_text)
        else:
            out["rate"] = self.rate()
        if not self.var_is_default("random_"):
            out["random"] = to_bool(self.vars["random_"])
        return out


class OnOff(Generator):
    """``Application/Traffic/Exponential`` and ``/Pareto``: bursts at ``rate_`` for
    ``burst_time_`` on average, silences of ``idle_time_``."""

    own = ("rate_", "packetSize_", "burst_time_", "idle_time_", "shape_")

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        # On a one-way TCP or TFRC agent: what `init` fixed when the source last started
        # (interval_, the mean burst in packets or Pareto's scales), and `rem_`, the sends
        # left in the burst in progress.
        self.params: tuple[float, float, float, float] | None = None
        self.rem = 0

    def ns2_draws(self) -> tuple[float, float, float, float] | None:
        """What ns-2's ``init`` derives, in its doubles, for the engine to draw bursts and
        silences as ns-2 does (``traffic::ns2_onoff``): ``interval_ = (packetSize_ << 3) /
        rate_``, then for Exponential (tools/expoo.cc) the mean burst in packets
        ``burst_time_ / interval_`` and the mean idle time, shape 0; for Pareto
        (tools/pareto.cc) the scales ``p1 = burstlen * (shape - 1) / shape`` and ``p2 =
        idle_time_ * (shape - 1) / shape``, and the shape. None without a positive rate."""
        bps = float(ns2_bandwidth(self.vars["rate_"]))
        if bps <= 0:
            return None
        interval = (to_int(self.vars["packetSize_"]) * 8) / bps
        burstlen = ns2_time_double(self.vars["burst_time_"]) / interval
        idle = ns2_time_double(self.vars["idle_time_"])
        if self.cls.endswith("/Pareto"):
            shape = to_float(self.vars["shape_"])
            return (interval, burstlen * (shape - 1.0) / shape, idle * (shape - 1.0) / shape,
                    shape)
        return (interval, burstlen, idle, 0.0)

    # On a one-way TCP or TFRC agent, ns-2.35's EXPOO_Traffic (tools/expoo.cc) and
    # POO_Traffic (tools/pareto.cc) as the front end's timer:
    # - `init`, at each start: interval_ = (packetSize_ << 3) / rate_ and the burst
    #   parameters from it (ns2_draws), rem_ = 0, and `agent_->set_pkttype(PT_EXP)` (or
    #   PT_PARETO) on whatever agent it has, a TCP agent's too: its segments print as `exp`
    #   (`pareto`) from then on;
    # - `TrafficGenerator::start` sends nothing at once: the first send is one
    #   `next_interval` after the start, so the first burst's silence comes first;
    # - `next_interval`: interval_, and when the burst is used up (rem_ 0) the next burst's
    #   length int(draw + .5), at least 1, then the silence before it added to the gap;
    #   Exponential draws both with ExponentialRandomVariable::value (avg * -log(u), the
    #   idle mean read at each draw: idle_time_ is bound to it), Pareto with
    #   Random::pareto(scale, shape) = scale / u^(1/shape), each u the default generator's;
    # - `EXPOO_Traffic::timeout` hands the agent packetSize_ bytes (its "NEW_BURST" flag
    #   means nothing to TcpAgent::sendmsg) and reschedules.

    def restartable(self) -> bool:
        return self.drives_agent()

    def _start(self, gen: int) -> None:
        if gen != self.timer_gen or not self.running:
            return
        self.params = self.ns2_draws()
        if self.params is None:
            raise Ns2Error(f"{self.handle}: rate_ {self.vars['rate_']} is not positive",
                           self.var_where("rate_"))
        self.rem = 0
        agent = self.agent
        sim = self.ctx.simulator
        flow = getattr(agent, "flow", None)
        if sim is not None and sim.engine is not None and flow is not None:
            sim.engine.ns2_data_type(flow, "pareto" if self.pareto() else "exp")
        self._after(self._next_interval(), gen)

    def pareto(self) -> bool:
        return self.cls.endswith("/Pareto")

    def _next_interval(self) -> float:
        assert self.params is not None
        interval, burst, idle, shape = self.params
        t = interval
        if self.rem == 0:
            rng = self.ctx.default_rng()
            if shape > 0:
                length = burst * (1.0 / math.pow(rng.uniform(), 1.0 / shape))
                silence = idle * (1.0 / math.pow(rng.uniform(), 1.0 / shape))
            else:
                length = burst * -math.log(rng.uniform())
                silence = ns2_time_double(self.vars["idle_time_"]) * -math.log(rng.uniform())
            # ns-2 assigns int(x + .5) to an unsigned int; a burst has at least one packet.
            self.rem = max(1, int(length + 0.5))
            t += silence
        self.rem -= 1
        return t

    def app_params(self) -> dict[str, object]:
        self.check()
        on, off = time_text(self.vars["burst_time_"]), time_text(self.vars["idle_time_"])
        if self.pareto():
            shape = to_float(self.vars["shape_"])
            times: tuple[object, object] = ({"pareto": [on, shape]}, {"pareto": [off, shape]})
        else:
            times = ({"exponential": on}, {"exponential": off})
        return {"kind": "onoff", "rate": self.rate(),
                "packet_size": to_int(self.vars["packetSize_"]), "on": times[0],
                "off": times[1]}


def unsupported_app(ctx: Context, cls: str, handle: str, where: Location,
                    args: list[str]) -> TclObject:
    raise Ns2Error(unsupported(cls))
