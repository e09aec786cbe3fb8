"""ns-2.35's ``Delayer`` (queue/delayer.cc, tcl/lib/ns-queue.tcl): a connector that
``$ns insert-delayer $a $b $delayer`` puts between a link's queue and its line
(``SimpleLink instproc insert-delayer``: the Delayer's target is the queue's, the queue's
target the Delayer), to model delay spikes on a wireless link.

- It holds one packet at a time (``Delayer::recv`` stores it, ``try_send`` passes it on when
  the line is free and no spike holds it, then asks the queue for the next): on a busy line
  one packet more waits than the queue's ``limit_`` lets it hold. ackclock gives the link's
  DropTail queue that one slot more.
- ``$delayer block`` / ``unblock`` (``spike_free``): while blocked the packet on the line
  finishes, the next ones wait (and are dropped when the queue is full); ``unblock`` sends
  the one it holds at once if the line is free (``try_send``), the others one after the
  other. ackclock asks the engine to hold the line (``Simulation.ns2_block_link``).
- ``$delayer spike $int $len``: delay spikes, ``SpikeTimer``: the first spike starts after a
  value of ``int`` (drawn at the command), lasts a value of ``len``, the next starts a value
  of ``int`` after it ends (``SpikeTimer::expire``), each drawn from the RandomVariable
  objects given; ``block`` does nothing once spikes are set (``Delayer::command``).
- Not supported: ``alloc`` (channel allocation delay, drawn at each packet the Delayer
  takes), a Delayer blocked before the run, on a queue other than DropTail.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import Location, Ns2Error, unsupported
from .objects import TclObject
from .rng import RandomVariable

if TYPE_CHECKING:
    from .interp import Context
    from .simulator import Simulator
    from .topology import SimplexLink


class Delayer(TclObject):
    """``new Delayer``."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.link: SimplexLink | None = None
        self.spikes: tuple[RandomVariable, RandomVariable] | None = None
        self.in_spike = False  # SpikeTimer: spike_free is 0
        self.blocked = False  # spike_free 0, by block or a spike

    def _sim(self) -> Simulator:
        sim = self.ctx.simulator
        if sim is None:
            raise Ns2Error("a Delayer needs a Simulator")
        return sim

    def _set(self, blocked: bool) -> None:
        sim = self._sim()
        if not sim.started:
            raise Ns2Error(unsupported("a Delayer blocked before the run"))
        self.blocked = blocked
        if self.link is None:
            return  # inserted on no link: it holds nothing
        try:
            sim.engine.ns2_block_link(self.link.index, blocked)
        except ValueError as e:
            raise Ns2Error(unsupported(f"a Delayer on link {self.link.name}: {e}")) from None

    def cmd_block(self) -> None:
        if self.spikes is None:  # Delayer::command: block only without spikes
            self._set(True)

    def cmd_unblock(self) -> None:
        self._set(False)

    def cmd_alloc(self, *args: str) -> None:
        raise Ns2Error(unsupported("Delayer alloc (channel allocation delay)"))

    def cmd_spike(self, interval: str, length: str) -> None:
        """``$delayer spike $int $len``: ``st_.sched(int->value())`` now."""
        rvs = []
        for h in (interval, length):
            rv = self.ctx.lookup(h, RandomVariable, "a RandomVariable")
            assert isinstance(rv, RandomVariable)
            rvs.append(rv)
        self.spikes = (rvs[0], rvs[1])
        self._sim().call_after(rvs[0].value(), self._spike_timer)

    def _spike_timer(self) -> None:
        """``SpikeTimer::expire``: a spike starts (block) for a value of len, or ends
        (unblock, ``try_send``) and the next comes a value of int later."""
        assert self.spikes is not None
        interval, length = self.spikes
        if not self.in_spike:
            self.in_spike = True
            self._set(True)
            self._sim().call_after(length.value(), self._spike_timer)
            return
        self.in_spike = False
        self._set(False)  # freeSpike, then (after resched) try_send
        self._sim().call_after(interval.value(), self._spike_timer)
