"""``Application/Telnet`` and ``Source/Telnet``: one packet at a time, at exponentially
distributed intervals.

ns-2.35 apps/telnet.cc: ``TelnetApp::start`` schedules its timer ``next()`` seconds ahead;
each expiry (``TelnetApp::timeout``), while running, hands the agent one packet
(``agent_->sendmsg(agent_->size())``: on a one-way TCP agent ``TcpAgent::sendmsg`` moves
``curseq_`` by one segment) and schedules the next. ``next()`` draws ``Random::exponential() *
interval_`` from ns-2's default generator (``-log(U01)``, tools/rng.h), reading ``interval_``
at each draw, so a script may change it during the run; ``interval_ 0`` draws from tcplib's
empirical telnet distribution (tcp/tcplib-telnet.cc), which ackclock does not have.
``Source/Telnet`` (tcl/lib/ns-source.tcl) is the same application with an ``attach``
instproc. The agent's timer rules on an idle connection are the engine's ``idle_rtx_timer``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .agents import Application, FullTcpAgent, TcpAgent
from .errors import Location, Ns2Error, unsupported
from .objects import TclError
from .values import to_float

if TYPE_CHECKING:
    from .interp import Context


class Telnet(Application):
    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.ticking = False  # TelnetApp::running_
        self.pending = False  # its timer is scheduled

    def cmd_attach(self, agent: str) -> None:
        """Source/Telnet's ``attach``: attach-agent."""
        self.cmd_attach_agent(agent)

    def _next(self) -> float:
        try:
            interval = to_float(self.vars["interval_"], "a time")
        except ValueError as e:
            raise Ns2Error(f"{self.handle} interval_: {e}", self.var_where("interval_")) \
                from None
        if interval == 0:
            raise Ns2Error(unsupported(
                f"{self.cls} with interval_ 0 (tcplib's telnet inter-arrival distribution)"),
                self.var_where("interval_"))
        return -math.log(self.ctx.default_rng().uniform()) * interval

    def _tcp(self) -> TcpAgent:
        agent = self.agent
        if agent is None:
            raise TclError(f"{self.handle}: no agent attached")
        if not isinstance(agent, TcpAgent) or isinstance(agent, FullTcpAgent):
            raise Ns2Error(unsupported(f"{self.cls} on {agent.cls} (only one-way TCP agents)"),
                           self.created_at)
        return agent

    def _schedule(self) -> None:
        sim = self.ctx.simulator
        assert sim is not None
        sim.call_after(self._next(), self._timeout)
        self.pending = True

    def _timeout(self) -> None:
        self.pending = False
        if self.ticking:
            self._tcp()._advanceby(1)
            self._schedule()

    def cmd_start(self) -> None:
        self._tcp()
        if self.ctx.simulator is None:
            raise TclError(f"{self.handle}: no simulator")
        if self.pending:
            # TimerHandler::sched on a timer already scheduled: ns-2 aborts.
            raise Ns2Error(f"{self.handle} start: its timer is already scheduled (ns-2"
                           " aborts: \"Couldn't schedule timer\")")
        self.ticking = True
        self._schedule()

    def cmd_stop(self) -> None:
        self.ticking = False
