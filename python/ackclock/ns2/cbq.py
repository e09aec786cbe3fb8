"""ns-2.35's class-based queueing links: ``$ns simplex-link ... CBQ`` (or ``CBQ/WRR``),
``CBQClass`` objects and ``$cbqlink insert`` / ``bind`` (tcl/lib/ns-queue.tcl's ``CBQLink`` and
``CBQClass`` procedures, queue/cbq.cc's ``CBQClass::command`` and ``CBQueue::command``).

The tree becomes the link's ``cbq`` queue (crates/ackclock-core/src/queue/cbq.rs): the classes
in the order the script inserted them (the scheduler's round-robin order follows it), each leaf
a DropTail of its queue's ``limit_``, bound to the flows of the flow ids the script bound it to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import Location, Ns2Error, unsupported
from .objects import TclError, TclObject
from .values import fmt_double, to_bool, to_float, to_int

if TYPE_CHECKING:
    from .interp import Context
    from .topology import Queue, SimplexLink

# ns-2.35's MAXPRIO and MAXLEVEL (queue/cbq.cc).
_MAXPRIO = 10
_MAXLEVEL = 32


def _c_g(x: float) -> str:
    """C's ``%g`` (``CBQClass::command`` "allot" prints the allotment with it)."""
    return f"{x:g}"


class CbqClass(TclObject):
    """A ``CBQClass``: its parent, allotment, queue and the variables ``priority_``,
    ``level_``, ``extradelay_``, ``okborrow_`` and ``maxidle_``."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.allotment = 0.0
        self.parent: CbqClass | None = None
        self.queue: Queue | None = None
        self.maxidle: float = -1.0  # ns-2's unset maxidle_ (CBQClass's constructor)
        self.link: SimplexLink | None = None  # once inserted
        self.index = -1  # its place in the link's tree

    def cmd_allot(self, bw: str = "") -> str:
        """``$class allot`` (the allotment, printed with %g) or ``$class allot bw`` (once)."""
        if not bw:
            return _c_g(self.allotment)
        v = to_float(bw)
        if v < 0:
            raise TclError(f"{self.handle} allot: expected 0 or more, got {bw}")
        if self.allotment != 0.0:
            raise TclError(f" class {self.handle} already has allotment of {self.allotment:f}!")
        self.allotment = v
        return ""

    def cmd_parent(self, parent: str) -> None:
        if parent == "none":
            self.parent = None
            return
        p = self.ctx.lookup(parent, CbqClass, "a CBQClass")
        assert isinstance(p, CbqClass)
        self.parent = p

    def cmd_setparams(self, parent: str, okborrow: str, allot: str, maxidle: str, prio: str,
                      level: str, xdelay: str) -> str:
        """``CBQClass instproc setparams`` (ns-queue.tcl)."""
        self.cmd_allot(allot)
        self.cmd_parent(parent)
        self.write_var("okborrow_", okborrow)
        self.write_var("maxidle_", maxidle)
        self.write_var("priority_", prio)
        self.write_var("level_", level)
        self.write_var("extradelay_", xdelay)
        return self.handle

    def cmd_install_queue(self, q: str) -> None:
        """``CBQClass instproc install-queue``: the class's queue (a DropTail here)."""
        from .topology import Queue

        queue = self.ctx.lookup(q, Queue, "a queue")
        assert isinstance(queue, Queue)
        if queue.kind != "droptail":
            raise Ns2Error(unsupported(f"{queue.cls} as a CBQ class's queue (only DropTail)"))
        if to_bool(queue.vars.get("queue_in_bytes_", "false")) or to_bool(
                queue.vars.get("drop_front_", "false")):
            raise Ns2Error(unsupported("a CBQ class's DropTail with queue_in_bytes_ or"
                                       " drop_front_"))
        self.queue = queue

    def cmd_qdisc(self, q: str = "") -> str:
        if not q:
            return self.queue.handle if self.queue is not None else ""
        self.cmd_install_queue(q)
        return ""

    def cmd_maxidle(self, m: str) -> None:
        """``$class maxidle m`` (``CBQClass::command``): must not be negative."""
        v = to_float(m)
        if v < 0:
            raise TclError(f"invalid maxidle value {m} (must be non-negative)")
        self.maxidle = v

    def cmd_automaxidle(self, linkbw: str, maxpkt: str) -> str:
        """``CBQClass instproc automaxidle`` (ns-queue.tcl), in doubles as Tcl's expr."""
        allot = to_float(self.cmd_allot())
        g = to_float(self.vars["automaxidle_gain_"])
        n = 8 * to_int(self.vars["priority_"])
        bw = to_float(linkbw)
        if g == 0 or allot == 0 or bw == 0:
            self.vars["maxidle_"] = "0.0"
            return ""
        g_to_n = g ** n
        first = ((1 / allot) - 1) * (1 - g_to_n) / g_to_n
        second = 1 - g
        t = (to_float(maxpkt) * 8.0) / bw
        value = t * first if first > second else t * second
        self.vars["maxidle_"] = repr(value)
        return repr(value)

    def cmd_newallot(self, bw: str) -> None:
        """``$class newallot bw`` (``CBQClass::newallot``): a new share, at once during the
        run."""
        v = to_float(bw)
        if v < 0:
            raise TclError(f"{self.handle} newallot: expected 0 or more, got {bw}")
        sim = self.ctx.simulator
        if self.link is None:
            raise Ns2Error(unsupported("newallot on a CBQ class not inserted in a link"))
        if sim is not None and sim.started:
            sim.write_traces()
            try:
                sim.engine.cbq_newallot(self.link.index, self.index, v)
            except ValueError as e:
                raise Ns2Error(unsupported(f"newallot: {e}")) from None
        self.allotment = max(v, 0.0)

    def cmd_cbq(self) -> str:
        return self.link.queue.handle if self.link is not None else ""

    def spec(self, link_bw: float, maxpkt: int, flows: list[str]) -> dict[str, object]:
        """The class as the scenario's ``queue.classes`` entry takes it."""
        prio = to_int(self.vars["priority_"], "a CBQ priority")
        level = to_int(self.vars["level_"], "a CBQ level")
        if not 0 <= prio < _MAXPRIO:
            raise Ns2Error(f"CBQ class {self.handle} has invalid pri {prio}")
        if not 0 < level <= _MAXLEVEL:
            raise Ns2Error(f"CBQ class {self.handle} has invalid level {level}")
        if not 0.0 <= self.allotment <= 1.0:
            raise Ns2Error(f"CBQ class {self.handle} has invalid allot {self.allotment:f}")
        out: dict[str, object] = {
            "name": self.handle, "allot": self.allotment,
            "borrow": to_bool(self.vars["okborrow_"]), "priority": prio, "level": level,
            "extradelay": to_float(self.vars["extradelay_"]), "maxidle": self.maxidle,
        }
        if self.parent is not None:
            out["parent"] = self.parent.handle
        if self.queue is not None:
            out["limit"] = to_int(self.queue.vars["limit_"], "a queue limit")
            out["flows"] = flows
        return out


def link_insert(link: SimplexLink, ctx: Context, cls: str, qmon: str = "") -> None:
    """``CBQLink instproc insert $class ?$qmon?``: resolves an automatic maxidle, then the
    queue's ``insert-class``."""
    c = ctx.lookup(cls, CbqClass, "a CBQClass")
    assert isinstance(c, CbqClass)
    if link.queue.kind != "cbq":
        raise TclError(f"{link.name}: insert is a command of a CBQ link")
    sim = ctx.simulator
    if sim is not None and sim.started:
        raise Ns2Error(unsupported("inserting a CBQ class during the run"))
    if c.link is not None:
        raise Ns2Error(unsupported(f"CBQ class {c.handle} inserted twice"))
    maxidle = c.vars.get("maxidle_")
    if maxidle is None:
        raise TclError(f"can't read \"maxidle_\": no such variable ({c.handle})")
    if maxidle == "auto":
        c.cmd_automaxidle(fmt_double(link.rate_bps), link.queue.vars["maxpkt_"])
        maxidle = c.vars["maxidle_"]
    c.cmd_maxidle(maxidle)
    c.link = link
    c.index = len(link.cbq_classes)
    link.cbq_classes.append(c)


def link_bind(link: SimplexLink, ctx: Context, cls: str, first: str, last: str = "") -> None:
    """``CBQLink instproc bind $class id ?idend?``: the class takes flow ids first..last."""
    c = ctx.lookup(cls, CbqClass, "a CBQClass")
    assert isinstance(c, CbqClass)
    if link.queue.kind != "cbq":
        raise TclError(f"{link.name}: bind is a command of a CBQ link")
    a = to_int(first, "a flow id")
    b = to_int(last, "a flow id") if last else a
    for fid in range(a, b + 1):
        link.cbq_binds[fid] = c


def queue_params(queue: Queue) -> dict[str, object]:
    """A CBQ queue's own parameters: its link-sharing algorithm, WRR and maxpkt_."""
    return {"algorithm": queue.cbq_algorithm, "wrr": queue.cls.endswith("/WRR"),
            "maxpkt": to_int(queue.vars["maxpkt_"], "maxpkt_")}


def algorithm(arg: str) -> int:
    """``CBQueue::algorithm``: ancestor-only (0), top-level (1) or formal (2)."""
    for n, name in enumerate(("ancestor-only", "top-level", "formal")):
        if arg.startswith(str(n)) or arg == name:
            return n
    if arg.startswith("3") or arg == "old-formal":
        raise Ns2Error(unsupported("CBQ's old-formal link sharing (ns-2.35 has it neither)"))
    raise TclError(f"CBQ: unknown algorithm {arg!r}")


def classes(link: SimplexLink, flows_of_fid: dict[int, list[str]]) -> list[dict[str, object]]:
    """The link's class tree for the scenario, each leaf with the flows of its flow ids."""
    maxpkt = to_int(link.queue.vars["maxpkt_"], "maxpkt_")
    out = []
    for c in link.cbq_classes:
        if c.parent is not None and c.parent.link is not link:
            raise Ns2Error(unsupported(f"CBQ class {c.handle}'s parent {c.parent.handle} not"
                                       " inserted in the same link"))
        flows: list[str] = []
        for fid, bound in sorted(link.cbq_binds.items()):
            if bound is c:
                flows.extend(flows_of_fid.get(fid, []))
        if flows and c.queue is None:
            raise Ns2Error(unsupported(f"flows bound to CBQ class {c.handle}, which has no"
                                       " queue"))
        out.append(c.spec(link.rate_bps, maxpkt, flows))
    if not out:
        raise Ns2Error(unsupported(f"a CBQ link ({link.name}) without classes"))
    return out
