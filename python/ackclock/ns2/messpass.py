"""``Agent/MessagePassing`` (ns-2.35 common/messpass.cc): a datagram agent for message-passing
exercises. ``send NBYTES DATA`` sends to the agent it is connected to, ``sendto NBYTES ?DATA?
ADDR PORT`` to the agent at port PORT of the node of address ADDR, without a connection; the
arrival calls the script's ``recv SADDR SPORT SIZE DATA`` (usually of a subclass, such as a
flooding agent) at the packet's arrival, which may send again (callbacks.py).

Rules, each from common/messpass.cc:
- ``MessagePassingAgent::command``: NBYTES, ADDR and PORT read as C's ``atoi``; PORT 0 is the
  sending agent's own port. (``sendmsgto`` hands a string where ns-2.35 expects application
  data: not supported.)
- ``sendmsg`` / ``sendto``: NBYTES of -1 and NBYTES above ``packetSize_`` (ns-default.tcl:
  1500) print ns-2's error line and send nothing; else one packet of NBYTES bytes, of type
  ``message`` (PT_MESSAGE; ns-2's trace prints no sequence number for it, -1).
- ``recv``: ``NAME recv SADDR SPORT SIZE {DATA}`` (``{}`` without data). An application
  attached to the receiving agent would get ``process_data`` instead: not supported.
Here every packet of an agent's goes to its own port number (its trace label's): a ``sendto``
to another port is not supported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .callbacks import HostAgent, c_atoi
from .errors import Location, Ns2Error, unsupported

if TYPE_CHECKING:
    from .interp import Context


@dataclass(frozen=True, slots=True)
class Message:
    """What a MessagePassing packet carries: its destination port and its data (None: none)."""

    port: int
    data: str | None


class MessagePassingAgent(HostAgent):
    packet_type = "message"
    anywhere = True

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.seqno = -1

    def cmd_send(self, nbytes: str, data: str) -> None:
        if self.peer is None or self.peer.node is None:
            raise Ns2Error(f"{self.cls} {self.handle}: send without a connection (use sendto)")
        self._send(c_atoi(nbytes), data, self.peer.node.id, self.peer.port)

    def cmd_sendmsg(self, nbytes: str, data: str, flags: str) -> None:
        self.cmd_send(nbytes, data)

    def cmd_sendto(self, nbytes: str, *rest: str) -> None:
        if len(rest) == 2:
            data, (addr, port) = None, rest
        elif len(rest) == 3:
            data, addr, port = rest
        else:
            raise Ns2Error(f"{self.cls} {self.handle}: sendto NBYTES ?DATA? ADDR PORT")
        self._send(c_atoi(nbytes), data, c_atoi(addr), c_atoi(port))

    def cmd_sendmsgto(self, *args: str) -> None:
        raise Ns2Error(unsupported(f"{self.cls} sendmsgto"))

    def _send(self, nbytes: int, data: str | None, addr: int, port: int) -> None:
        if nbytes == -1:
            self.ctx.c_print("Error: packet size for MessagePassingAgent should not be -1\n")
            return
        if nbytes > self.packet_size():
            self.ctx.c_print("Error: packet greater than maximum MessagePassingAgent packet"
                             " size\n")
            return
        if port == 0:
            port = self.port
        if port != self.port:
            raise Ns2Error(unsupported(f"{self.cls} sending to port {port}, another than its"
                                       f" own ({self.port})"))
        nodes = self.sim().nodes
        if not 0 <= addr < len(nodes):
            raise Ns2Error(f"{self.cls} {self.handle}: no node of address {addr}")
        self.seqno += 1
        self.host_send(nbytes, Message(port, data), dst=addr)

    def receiver(self, dst: int, payload: Any) -> HostAgent | None:
        if not isinstance(payload, Message):
            return None
        node = self.sim().nodes[dst]
        for a in node.agents:
            if a.port == payload.port:
                if isinstance(a, MessagePassingAgent):
                    return a
                raise Ns2Error(unsupported(f"a MessagePassing packet to {a.cls}"), a.created_at)
        return None  # no agent there: ns-2's port classifier drops it

    def arrived(self, sender: HostAgent, src: int, size: int, payload: Any) -> None:
        if self.app is not None:
            raise Ns2Error(unsupported(f"data sent to an {self.cls} with an application"
                                       f" ({self.app.cls}: its process_data)"),
                           self.app.created_at)
        data = payload.data if isinstance(payload, Message) and payload.data is not None \
            else ""
        self.ctx.eval_global(f"{self.handle} recv {src} {sender.port} {size} {{{data}}}")
