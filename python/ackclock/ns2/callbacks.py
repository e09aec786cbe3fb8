"""Agents whose arrivals call back into the script (Agent/Ping, Agent/UDP with data,
Agent/MessagePassing): the engine's host flows (crates/ackclock-core/src/sim/host_datagrams.rs).

ns-2 runs such an agent's ``recv`` inside the packet's arrival event (apps/ping.cc,
``PingAgent::recv`` evaluates ``$self recv ...``): the procedure runs at the arrival's time and
what it sends or schedules follows from there. Each such agent sends on an engine flow of its
own (to the agent it is connected to, or with ``anywhere`` to any node); every packet carries a
number (its tag) under which the agent keeps what ns-2's packet headers would carry (a ping's
send time, a UDP payload string). An arrival stops the engine's run; the simulator
(``Simulator.run_arrivals``) hands it to the receiving agent's ``arrived`` and then runs on.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .agents import Agent
from .errors import Location, Ns2Error
from .values import to_int

if TYPE_CHECKING:
    from .interp import Context
    from .simulator import Simulator


class HostAgent(Agent):
    """An agent that sends its packets one at a time from the script and takes each arrival
    (subclasses: ``packet_type``, ``anywhere``, ``arrived``)."""

    packet_type = "udp"  # its packets' type in ns-2 traces
    anywhere = False  # its packets may go to any node (not only its peer's)

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.payloads: dict[int, Any] = {}
        # Whether it sends on a host flow of its own (build.py: an Agent/UDP with an
        # application does not), and that engine flow once built (`flow` may be its peer's).
        self.hosted = False
        self.host_flow: int | None = None

    def packet_size(self) -> int:
        return to_int(self.read_var("packetSize_"))

    def host_send(self, size: int, payload: Any, dst: int | None = None,
                  seq: int = -1) -> None:
        """Sends a packet of ``size`` bytes now (to node ``dst``; None: the peer's), numbered
        ``seq`` in traces (-1: none), carrying ``payload`` to the receiving agent."""
        sim = self.sim()
        if not sim.started:
            # Before `$ns run`: the packet leaves at time 0, once the engine runs.
            sim.when_running(lambda: self.host_send(size, payload, dst, seq))
            return
        if self.host_flow is None:
            raise Ns2Error(f"{self.cls} {self.handle}: not connected to an agent on another"
                           " node", self.created_at)
        sim.host_tag += 1
        self.payloads[sim.host_tag] = payload
        try:
            sim.engine.host_send(self.host_flow, size, dst, seq, sim.host_tag)
        except ValueError as e:
            raise Ns2Error(f"{self.cls} {self.handle}: {e}") from None
        sim.run_arrivals()  # a packet to an agent of its own node arrives at once

    def receiver(self, dst: int, payload: Any) -> HostAgent | None:
        """The agent a packet of this one's reaching node ``dst`` goes to (None: dropped)."""
        return self.peer if isinstance(self.peer, HostAgent) else None

    def arrived(self, sender: HostAgent, src: int, size: int, payload: Any) -> None:
        """A packet ``sender`` sent from node ``src`` reached this agent."""
        raise NotImplementedError


def start_host_flows(sim: Simulator) -> None:
    """Once the engine is built: each host agent's flow becomes a host flow."""
    for a in sim.agents:
        if isinstance(a, HostAgent) and a.host_flow is not None:
            sim.engine.host_flow(a.host_flow, a.packet_type, a.anywhere)
            sim.host_agents[a.host_flow] = a


def c_atof(text: str) -> float:
    """C's ``atof`` on decimal text: leading blanks, then the longest number there (none: 0)."""
    m = re.match(r"[ \t\n\v\f\r]*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)",
                 text)
    return float(m.group(1)) if m else 0.0


def c_atoi(text: str) -> int:
    """C's ``atoi``, as ns-2's commands read numbers: leading blanks, a sign, the digits that
    follow (none: 0)."""
    m = re.match(r"[ \t\n\v\f\r]*([+-]?[0-9]+)", text)
    return int(m.group(1)) if m else 0
