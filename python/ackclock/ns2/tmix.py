"""ns-2's Tmix objects (``new Tmix``, seed 003's ``new Tmix_End``) and its delay boxes
(``$ns Tmix_DelayBox``, seed 003's ``$ns tmix_net``), mapped onto ackclock's Tmix application
(docs/traffic.md#tmix).

A Tmix object replays a file of connection vectors between its initiator and acceptor nodes.
A delay box is a node; given the same vector file for the same pair of nodes
(``set-cvfile FILE init acc``, or ``set-flowfile``), it holds each connection's packets so that
the connection sees its vector's minimum RTT and loses packets at its vector's rates, unless
``set-lossless``. Without a delay box, connections run on the path's own RTT without losses,
as in ns-2.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .agents import Application
from .errors import Location, Ns2Error, unsupported
from .objects import TclError
from .topology import Node
from .values import int_arg

if TYPE_CHECKING:
    from .interp import Context

# set-TCP names -> loss recovery, and the FullTcp class each side of a connection is
# (Tmix instproc alloc-tcp: Agent/TCP/FullTcp for Reno, Agent/TCP/FullTcp/<name> otherwise).
TMIX_TCP = {"Reno": "reno", "Newreno": "newreno", "Tahoe": "tahoe", "Sack": "sack"}
TMIX_AGENTS = {"reno": "Agent/TCP/FullTcp", "newreno": "Agent/TCP/FullTcp/Newreno",
               "tahoe": "Agent/TCP/FullTcp/Tahoe", "sack": "Agent/TCP/FullTcp/Sack"}


class TmixEnd(Application):
    """``new Tmix``: an initiator node, an acceptor node and a vector file."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.init: Node | None = None
        self.acc: Node | None = None
        self.cvfile: Path | None = None
        self.ident = 0
        # Tmix's tcptype_ "Reno" (tmix.cc, Tmix::Tmix): Agent/TCP/FullTcp.
        self.variant = "reno"
        self.packet_size = 1460
        # Tmix's fin_time_ (µs): the closing ADU's wait after the last write (tmix.cc).
        self.fin_time = 1_000_000
        self.flow: int | None = None  # the engine flow, once built
        sim = ctx.simulator
        if sim is None:
            raise Ns2Error("new Tmix before new Simulator")
        sim.tmix.append(self)

    def _node(self, handle: str) -> Node:
        n = self.ctx.lookup(handle, Node, "a node")
        assert isinstance(n, Node)
        return n

    def cmd_set_init(self, node: str) -> None:
        if self.init is not None:
            raise Ns2Error(unsupported("a second initiator node on one Tmix object"))
        self.init = self._node(node)

    def cmd_set_acc(self, node: str) -> None:
        if self.acc is not None:
            raise Ns2Error(unsupported("a second acceptor node on one Tmix object"))
        self.acc = self._node(node)

    def cmd_set_ID(self, ident: str) -> None:
        self.ident = int_arg(ident)

    def cmd_set_cvfile(self, path: str) -> None:
        p = Path(path)
        if not p.is_file():
            raise TclError(f"Tmix: cannot open connection vector file {path!r}")
        self.cvfile = p.resolve()

    def cmd_set_TCP(self, name: str) -> None:
        if name not in TMIX_TCP:
            raise Ns2Error(unsupported(f"Tmix TCP {name!r} (known: {', '.join(TMIX_TCP)})"))
        self.variant = TMIX_TCP[name]

    def cmd_set_pkt_size(self, size: str) -> None:
        self.packet_size = int_arg(size)

    def cmd_set_fin_time(self, us: str) -> None:
        t = int_arg(us)
        if t <= 0:
            raise Ns2Error(unsupported(f"Tmix set-fin-time {t} (a FIN ns-2.35 never sends)"))
        self.fin_time = t

    def cmd_set_run(self, run: str) -> None:
        return None  # ackclock's streams are named per connection; runs differ by seed

    def cmd_set_debug(self, level: str) -> None:
        return None

    def cmd_set_warmup(self, *args: str) -> None:
        raise Ns2Error(unsupported("Tmix set-warmup"))

    def cmd_set_prefill_t(self, *args: str) -> None:
        raise Ns2Error(unsupported("Tmix set-prefill-t"))

    def cmd_set_prefill_si(self, *args: str) -> None:
        raise Ns2Error(unsupported("Tmix set-prefill-si"))

    def cmd_set_agent_type(self, kind: str) -> None:
        if kind != "full":
            raise Ns2Error(unsupported(f"Tmix agent type {kind!r}"))

    def engine_flow(self) -> int | None:
        return self.flow

    def _control(self, start: bool) -> None:
        if start and self.stopped:
            raise Ns2Error(unsupported("restarting Tmix after stop"))
        if start == self.running or (not start and self.stopped):
            return
        self.running = start
        self.stopped = not start
        assert self.ctx.simulator is not None
        self.ctx.simulator.app_control(self, start)


class DelayBox(Node):
    """``$ns Tmix_DelayBox``: a node that also delays and drops Tmix connections' packets."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        # (vector file, initiator id, acceptor id) pairs it applies.
        self.files: list[tuple[Path, int, int]] = []
        self.lossless = False

    def cmd_set_cvfile(self, path: str, init: str, acc: str) -> None:
        p = Path(path)
        if not p.is_file():
            raise TclError(f"Tmix_DelayBox: cannot open connection vector file {path!r}")
        self.files.append((p.resolve(), int_arg(init), int_arg(acc)))

    def cmd_set_flowfile(self, path: str, init: str, acc: str) -> None:
        self.cmd_set_cvfile(path, init, acc)

    def cmd_set_lossless(self) -> None:
        self.lossless = True

    def cmd_set_debug(self, level: str) -> None:
        return None
