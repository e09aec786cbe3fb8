"""``Agent/Ping`` (ns-2.35 apps/ping.cc, M. Greis' example agent): ``$p send`` sends a
request to the agent it is connected to, which echoes it at once; the echo's arrival calls
``$p recv FROM RTT`` in the script (an ``Agent/Ping instproc recv`` the script defines).

Rules, each from apps/ping.cc:
- ``PingAgent::PingAgent``: its packets are of type ``ping`` (PT_PING), ``packetSize_`` bytes
  (tcl/lib/ns-default.tcl: 64); ns-2's trace prints them without a sequence number (-1:
  ``Trace::get_seqno`` numbers only TCP, RTP/UDP-family, RAP and TFRC packets).
- ``PingAgent::command`` ``send``: a request (``ret`` 0) numbered by the agent's own counter
  ``seq`` from 0, stamped with the clock; ``oneway``: the agent reports one-way delays.
- ``PingAgent::recv``: a request is answered by a new packet of the receiving agent's (to its
  own peer), carrying the request's send time and number and the time it arrived; an echo
  calls ``NAME recv FROM RTT`` with FROM the echo's source node address and RTT the clock minus
  the send time in ms, ``%3.1f``; after ``oneway``, ``NAME recv FROM SEQ FORWARD BACK`` (ms,
  ``%3.1f``).
- The broadcast commands (``start-WL-brdcast``) are wireless-only: not supported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .callbacks import HostAgent
from .errors import Location

if TYPE_CHECKING:
    from .interp import Context


@dataclass(frozen=True, slots=True)
class PingHeader:
    """ns-2's hdr_ping: an echo (``ret``), the request's number and its times."""

    ret: bool
    seq: int
    send_time: float
    rcv_time: float = 0.0


class PingAgent(HostAgent):
    packet_type = "ping"

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.seq = 0
        self.oneway = False

    def cmd_send(self) -> None:
        header = PingHeader(ret=False, seq=self.seq, send_time=self.sim().now_s)
        self.seq += 1
        self.host_send(self.packet_size(), header)

    def cmd_oneway(self) -> None:
        self.oneway = True

    def arrived(self, sender: HostAgent, src: int, size: int, payload: Any) -> None:
        if not isinstance(payload, PingHeader):
            return  # not a ping: ns-2 reads a garbage header; nothing of ours sends one
        now = self.sim().now_s
        if not payload.ret:
            self.host_send(self.packet_size(), PingHeader(True, payload.seq, payload.send_time,
                                                          now))
            return
        if self.oneway:
            call = (f"{self.handle} recv {src} {payload.seq}"
                    f" {(payload.rcv_time - payload.send_time) * 1000:3.1f}"
                    f" {(now - payload.rcv_time) * 1000:3.1f}")
        else:
            call = f"{self.handle} recv {src} {(now - payload.send_time) * 1000:3.1f}"
        self.ctx.eval_global(call)
