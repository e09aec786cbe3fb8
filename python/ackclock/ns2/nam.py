"""``$ns namtrace-all $file``: the animation trace that nam (the Network AniMator) plays.

Written as ns-2.35 writes it (trace/trace.cc ``Trace::format`` with nam on, and the Tcl that
dumps the layout when ``$ns run`` starts, tcl/lib/ns-namsupp.tcl): first the version and
layout lines (``V``, ``A``, colours ``c``, nodes ``n``, links ``l``, queue positions ``q``),
then one line per packet event in nam's ``-key value`` form, the same events as the packet
trace (``+ - r d``) plus a hop line ``h`` after each ``-``::

    + -t 0.1 -s 1 -d 2 -p cbr -e 1000 -c 2 -i 0 -a 2 -x {1.0 3.1 0 ------- null}
    h -t 0.1 -s 1 -d 2 -p cbr -e 1000 -c 2 -i 0 -a 2 -x {1.0 3.1 -1 ------- null}

ackclock derives the packet lines from an engine packet trace in ns-2's format whose times are
ns-2's double clock printed ``%.15g`` (``Simulation.ns2_nam_times``), as ns-2 prints nam's
(the packet trace rounds them to the microsecond); a link's ``-r`` and ``-D`` are the doubles
ns-2's parsers make of the script's rate and delay (values.py).
``$ns trace-annotate`` lines (``v``) and node and link labels (``DLABEL``) are written when
the script gives them, as in ns-2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .dynamics import hash_order
from .values import fmt_double

if TYPE_CHECKING:
    from .simulator import Simulator
    from .topology import SimplexLink

HEADER = ("V -t * -v 1.0a5 -a 0\n"
          "A -t * -n 1 -p 0 -o 0x7fffffff -c 30 -a 1\n"
          "A -t * -h 1 -m 1073741823 -s 0\n")


@dataclass
class LinkLook:
    """What ``duplex-link-op`` / ``simplex-link-op`` set for nam on one link."""

    orient: str | None = None
    color: str | None = None
    queue_pos: str | None = None


@dataclass
class NamLayout:
    """The layout the script describes for nam, whether or not it writes a nam trace: each
    simplex link's look, and the links nam draws, in ns-2's order (``order``)."""

    colors: dict[str, str] = field(default_factory=dict)  # $ns color: fid -> name
    links: dict[tuple[int, int], LinkLook] = field(default_factory=dict)
    annotations: int = 0
    # The links in nam's order (the values unused): a dict, so that finding and moving one
    # does not walk the others (a 10 000-flow dumbbell registers 40 000).
    order: dict[tuple[int, int], None] = field(default_factory=dict)

    def look(self, a: int, b: int) -> LinkLook:
        return self.links.setdefault((a, b), LinkLook())

    def register(self, a: int, b: int) -> None:
        """``Simulator instproc register-nam-linkconfig`` (tcl/lib/ns-lib.tcl), called for
        each simplex link made and each ``orient``: nam draws one line per node pair, the
        direction registered first, unless the other direction is given an orientation while
        the first has none; a link registered again moves to the end."""
        if (b, a) in self.order:
            mine = self.links.get((a, b), LinkLook()).orient
            theirs = self.links.get((b, a), LinkLook()).orient
            if theirs is None and mine is not None:
                del self.order[(b, a)]
            else:
                return
        self.order.pop((a, b), None)
        self.order[(a, b)] = None


def header(sim: Simulator) -> str:
    """The lines ns-2 writes when the run starts: version, colours, nodes, links, queues."""
    layout = sim.nam_layout
    out = [HEADER]
    # Simulator instproc dump-namcolors (tcl/lib/ns-namsupp.tcl): `foreach id [array names
    # color_]`, Tcl's hash order of the ids.
    out += [f"c -t * -i {fid} -n {layout.colors[fid]}\n"
            for fid in hash_order(sim, list(layout.colors))]
    # Simulator instproc dump-namnodes: `foreach nn [array names Node_]`, Tcl's hash order
    # of the node ids (4 0 1 2 3 for five nodes).
    by_id = {str(node.id): node for node in sim.nodes}
    for key in hash_order(sim, list(by_id)):
        node = by_id[key]
        color = node.nam_color or "black"
        out.append(f"n -t * -a {node.id} -s {node.id} -S UP -v {node.nam_shape or 'circle'}"
                   f" -c {color} -i {color}\n")
    # SimpleLink instproc dump-namconfig (tcl/lib/ns-namsupp.tcl) for each registered link.
    for a, b in layout.order:
        link = sim.by_ends[(a, b)]
        look = layout.links.get((a, b)) or LinkLook()
        orient = f" -o {look.orient}" if look.orient else ""
        out.append(f"l -t * -s {a} -d {b} -S UP -r {fmt_double(link.rate_bps)}"
                   f" -D {fmt_double(link.delay2)} -c {look.color or 'black'}"
                   f"{orient}\n")
    # Simulator instproc dump-namqueues: `foreach qn [array names link_]`.
    queues: list[str] = []
    for key in link_array_names(sim):
        x, y = (int(v) for v in key.split(":"))
        pos = layout.links.get((x, y), LinkLook()).queue_pos
        if pos is not None:
            queues.append(f"q -t * -s {x} -d {y} -a {pos}\n")
    return "".join(out + queues)


def link_array_names(sim: Simulator) -> list[str]:
    """The Simulator's array ``link_`` (one ``sid:did`` element per simplex link) as ns-2.35's
    ``array names link_`` lists it: Tcl's hash order, after what ns-2's Tcl did to the array
    as the links were made (``sim.link_array_ops``). That includes the ``info exists``
    lookups of ``duplex-link`` and ``register-nam-linkconfig`` (tcl/lib/ns-lib.tcl): a
    lookup of a missing element makes its hash entry and drops it again, which can grow the
    table before the element is set and so reorders the listing (40 nodes in a star: the
    48th entry). The same Tcl 8.6 as Debian's ns-2.35 runs here and is asked."""
    tcl = sim.ctx.tcl
    tcl.eval("array unset ::__ac_link_")
    for probe, key in sim.link_array_ops:
        if probe:
            tcl.call("info", "exists", f"::__ac_link_({key})")
        else:
            tcl.call("set", f"::__ac_link_({key})", "1")
    names = [str(k) for k in tcl.splitlist(tcl.eval("array names ::__ac_link_"))]
    tcl.eval("array unset ::__ac_link_")
    return names


def link_label(link: SimplexLink, text: str) -> str:
    return f'l -t 0 -s {link.src.id} -d {link.dst.id} -S DLABEL -l "{text}" -L ""\n'


class Converter:
    """Turns the engine's ns-2 packet-trace lines into nam's packet lines."""

    def __init__(self) -> None:
        self.rest = ""

    def __call__(self, text: str) -> str:
        text = self.rest + text
        cut = text.rfind("\n") + 1
        self.rest = text[cut:]
        out: list[str] = []
        for line in text[:cut].splitlines():
            f = line.split()
            if len(f) < 12:
                continue
            ev, t, src, dst, ptype, size, flags, fid, sa, da, seq, pid = f[:12]
            body = f"-t {t} -s {src} -d {dst} -p {ptype} -e {size} -c {fid} -i {pid} -a {fid}"
            out.append(f"{ev} {body} -x {{{sa} {da} {seq} {flags} null}}\n")
            if ev == "-":
                out.append(f"h {body} -x {{{sa} {da} -1 {flags} null}}\n")
        return "".join(out)
