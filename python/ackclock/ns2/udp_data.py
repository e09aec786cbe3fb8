"""``Agent/UDP`` sending application data (ns-2.35 apps/udp.cc): ``$udp send NBYTES DATA``
(and ``sendmsg NBYTES DATA FLAGS``) sends the string DATA in a datagram to the agent it is
connected to, whose ``process_data FROM DATA`` the script defines (tcl/lib/ns-default.tcl's is
empty); the procedure runs at the datagram's arrival and may send again (callbacks.py).

Rules, each from apps/udp.cc:
- ``UdpAgent::command`` ``send`` / ``sendmsg``: NBYTES read as C's ``atoi``.
- ``UdpAgent::sendmsg``: NBYTES of -1 prints "Error:  sendmsg() for UDP should not be -1" and
  sends nothing; with data, NBYTES above ``packetSize_`` prints "Error: data greater than
  maximum UDP packet size" and sends nothing; else NBYTES / packetSize_ datagrams of
  packetSize_ bytes and one of the rest, each carrying the data and the agent's next sequence
  number (from 0, as ns-2's trace prints a UDP packet's ``hdr_rtp`` seqno).
- ``UdpAgent::recv``: a datagram with data calls ``NAME process_data FROM {DATA}``, FROM the
  source node's address; one without (a CBR's) calls nothing. An application attached to the
  receiving agent would get ``process_data`` instead: not supported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .agents import UdpAgent
from .callbacks import HostAgent, c_atoi
from .errors import Location, Ns2Error, unsupported

if TYPE_CHECKING:
    from .interp import Context


class UdpDataAgent(HostAgent, UdpAgent):
    packet_type = "udp"

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.seqno = -1

    def cmd_send(self, nbytes: str, data: str) -> None:
        self._sendmsg(c_atoi(nbytes), data)

    def cmd_sendmsg(self, nbytes: str, data: str, flags: str) -> None:
        # flags: NEW_BURST marks hdr_rtp's RTP_M, which no trace prints.
        self._sendmsg(c_atoi(nbytes), data)

    def _sendmsg(self, nbytes: int, data: str) -> None:
        if self.app is not None:
            raise Ns2Error(unsupported(f"{self.cls} send with data on an agent with an"
                                       f" application ({self.app.cls})"))
        size = self.packet_size()
        if size <= 0:
            raise Ns2Error(f"{self.cls} {self.handle}: packetSize_ {size} (ns-2 asserts it is"
                           " above 0)")
        if nbytes == -1:
            self.ctx.c_print("Error:  sendmsg() for UDP should not be -1\n")
            return
        if nbytes > size:
            self.ctx.c_print("Error: data greater than maximum UDP packet size\n")
            return
        # C's division and remainder (toward zero): NBYTES below 0 sends nothing.
        whole, rest = (nbytes // size, nbytes % size) if nbytes >= 0 else (0, 0)
        for n in [size] * whole + ([rest] if rest > 0 else []):
            self.seqno += 1
            self.host_send(n, data, seq=self.seqno)

    def cmd_process_data(self, *args: str) -> None:
        """tcl/lib/ns-default.tcl's ``Agent/UDP instproc process_data {from data} { }``."""

    def receiver(self, dst: int, payload: Any) -> HostAgent | None:
        return self.peer if isinstance(self.peer, UdpDataAgent) else None

    def arrived(self, sender: HostAgent, src: int, size: int, payload: Any) -> None:
        if payload is None:
            return
        if self.app is not None:
            raise Ns2Error(unsupported(f"data sent to an {self.cls} with an application"
                                       f" ({self.app.cls}: its process_data)"),
                           self.app.created_at)
        self.ctx.eval_global(f"{self.handle} process_data {src} {{{payload}}}")
