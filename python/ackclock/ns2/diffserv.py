"""ns-2.35's DiffServ queues: ``$ns simplex-link ... dsRED/edge`` (or ``dsRED/core``) and the
commands scripts give them (diffserv/dsred.cc ``dsREDQueue::command``, dsEdge.cc
``edgeQueue::command``, dsPolicy.cc ``PolicyClassifier``).

What the script sets before ``$ns run`` becomes the link's ``dsred`` queue and its
``diffserv`` tables (crates/ackclock-core/src/queue/dsred.rs): physical queues
(``numQueues_``), precedences (``setNumPrec``), ``meanPktSize``, RED per virtual queue
(``configQ``), ``setMREDMode``, the PHB table (``addPHBEntry``), the scheduler
(``setSchedularMode``, ``addQueueWeights``, ``addQueueRate``) and at an edge its policies
(``addPolicyEntry``) and policer entries (``addPolicerEntry``). The tables print as ns-2
prints them, with C's printf (``printPolicyTable``, ``printPolicerTable``, ``printPHBTable``);
the statistics (``printStats``, ``getStat``) and averages (``getAverage``, ``getCurrent``)
are read from the engine during the run.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .callbacks import c_atoi
from .errors import Ns2Error, unsupported
from .objects import TclError
from .topology import Queue
from .values import to_bool, to_int

if TYPE_CHECKING:
    from .errors import Location
    from .interp import Context

# diffserv/dsred.h and dsredq.h: MAX_QUEUES, MAX_PREC, MAX_CP; dsPolicy.h: MAX_POLICIES.
MAX_QUEUES = 8
MAX_PREC = 3
MAX_CP = 40
MAX_POLICIES = 20

# addPolicyEntry's policy names -> (the engine's policer, its arguments after the code point).
_POLICIES = {"Dumb": ("null", ()), "Null": ("null", ()), "TSW2CM": ("tsw2cm", ("cir",)),
             "TSW3CM": ("tsw3cm", ("cir", "pir")), "TokenBucket": ("token_bucket", ("cir", "cbs")),
             "srTCM": ("srtcm", ("cir", "cbs", "ebs")),
             "trTCM": ("trtcm", ("cir", "cbs", "pir", "pbs"))}
# dsPolicy.cc's policers ackclock does not have.
_NOT_MODELLED = ("SFD", "EW", "DEWP")
# printPolicerTable's names (PolicyClassifier::printPolicerTable).
_PRINTED = {"null": "Null", "tsw2cm": "TSW2CM", "tsw3cm": "TSW3CM",
            "token_bucket": "Token Bucket", "srtcm": "srTCM", "trtcm": "trTCM"}
_THREE_COLOR = ("tsw3cm", "srtcm", "trtcm")
_MRED = {"RIO-C": "rio_c", "RIO-D": "rio_d", "WRED": "wred", "DROP": "drop"}
_SCHED = {"RR": "rr", "WRR": "wrr", "WIRR": "wirr", "PRI": "pri"}


def c_atof(text: str) -> float:
    """C's ``atof``: the longest number at the start (after blanks), else 0."""
    m = re.match(r"[ \t\n\v\f\r]*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)", text)
    return float(m.group(1)) if m else 0.0


class DsQueue(Queue):
    """A ``Queue/dsRED/edge`` or ``Queue/dsRED/core``."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.edge = cls.endswith("/edge")
        self.num_prec = MAX_PREC
        self.mean_pktsize = 1000  # ns-2 leaves it unset; the engine needs one
        self.mred = ["rio_c"] * MAX_QUEUES
        self.sched = "rr"
        self.weights = [1] * MAX_QUEUES
        self.rates = [0] * MAX_QUEUES
        self.phb: list[dict[str, int]] = []
        self.red: dict[tuple[int, int], dict[str, Any]] = {}
        self.policies: list[dict[str, Any]] = []
        self.policers: list[dict[str, Any]] = []

    # -- set-up (before `$ns run`) -------------------------------------------------------

    def _before_run(self, what: str) -> None:
        sim = self.ctx.simulator
        if sim is not None and sim.started:
            raise Ns2Error(unsupported(f"{self.cls} {what} once the run has started"))

    def _print(self, text: str) -> None:
        self.ctx.c_print(text)

    def _queue_index(self, text: str, what: str) -> int:
        q = c_atoi(text)
        if not 0 <= q < MAX_QUEUES:
            raise Ns2Error(f"{self.cls} {what}: queue {q} outside 0 to {MAX_QUEUES - 1}"
                           " (ns-2 writes outside its table)")
        return q

    def cmd_meanPktSize(self, n: str) -> None:  # noqa: N802 - ns-2's name
        self._before_run("meanPktSize")
        self.mean_pktsize = c_atoi(n)
        if self.mean_pktsize <= 0:
            raise Ns2Error(f"{self.cls} meanPktSize: expected a positive size, got {n}")

    def cmd_setNumPrec(self, n: str) -> None:  # noqa: N802
        """dsREDQueue::setNumPrec: above MAX_PREC it prints an error and changes nothing."""
        self._before_run("setNumPrec")
        prec = c_atoi(n)
        if prec > MAX_PREC:
            self._print(f"ERROR: Cannot declare more than {MAX_PREC} prcedence levels (as"
                        " defined by MAX_PREC)\n")
            return
        if prec < 1:
            raise Ns2Error(f"{self.cls} setNumPrec: expected 1 to {MAX_PREC}, got {n}")
        self.num_prec = prec

    def cmd_configQ(self, q: str, prec: str, th_min: str, th_max: str,  # noqa: N802
                    max_p: str, q_w: str = "", *_rest: str) -> None:
        """redQueue::config: thresholds read with atoi, max_p and q_w with atof."""
        self._before_run("configQ")
        qi = self._queue_index(q, "configQ")
        p = c_atoi(prec)
        if not 0 <= p < MAX_PREC:
            raise Ns2Error(f"{self.cls} configQ: precedence {p} outside 0 to {MAX_PREC - 1}")
        mp = c_atof(max_p)
        if mp <= 0:
            raise Ns2Error(unsupported(f"{self.cls} configQ with max_p {max_p}"))
        self.red[(qi, p)] = {"queue": qi, "precedence": p, "min_thresh": c_atoi(th_min),
                             "max_thresh": c_atoi(th_max), "max_p": mp,
                             "q_weight": c_atof(q_w) if q_w else 0.002}

    def cmd_addPHBEntry(self, cp: str, q: str, prec: str) -> None:  # noqa: N802
        self._before_run("addPHBEntry")
        if len(self.phb) == MAX_CP:
            self._print("ERROR: PHB Table size limit exceeded.\n")
            return
        c, qi, p = c_atoi(cp), self._queue_index(q, "addPHBEntry"), c_atoi(prec)
        if not 0 <= c < MAX_CP or not 0 <= p < MAX_PREC:
            raise Ns2Error(f"{self.cls} addPHBEntry {cp} {q} {prec}: code points 0 to"
                           f" {MAX_CP - 1}, precedences 0 to {MAX_PREC - 1}")
        self.phb.append({"code_point": c, "queue": qi, "precedence": p})

    def cmd_setMREDMode(self, mode: str, q: str = "") -> None:  # noqa: N802
        self._before_run("setMREDMode")
        m = _MRED.get(mode)
        if m is None:
            self._print(f"Error: MRED mode {mode} does not exist\n")
            return
        if q:
            self.mred[self._queue_index(q, "setMREDMode")] = m
        else:
            self.mred = [m] * MAX_QUEUES

    def cmd_setSchedularMode(self, mode: str) -> None:  # noqa: N802
        self._before_run("setSchedularMode")
        s = _SCHED.get(mode)
        if s is None:
            self._print(f"Error: Scheduler type {mode} does not exist\n")
            return
        self.sched = s

    def cmd_addQueueWeights(self, q: str, w: str) -> None:  # noqa: N802
        self._before_run("addQueueWeights")
        qi = c_atoi(q)
        if qi >= MAX_QUEUES:
            self._print("The queue number is out of range.\n")
            return
        weight = c_atoi(w)
        if qi < 0 or weight < 0:
            raise Ns2Error(f"{self.cls} addQueueWeights {q} {w}: expected a queue and a weight")
        self.weights[qi] = weight

    def cmd_addQueueRate(self, q: str, rate: str) -> None:  # noqa: N802
        self._before_run("addQueueRate")
        qi = c_atoi(q)
        if qi >= MAX_QUEUES:
            self._print("The queue number is out of range.\n")
            return
        r = c_atoi(rate)
        if qi < 0 or r < 0:
            raise Ns2Error(f"{self.cls} addQueueRate {q} {rate}: expected a queue and a rate")
        self.rates[qi] = r

    def cmd_addPolicyEntry(self, *args: str) -> None:  # noqa: N802
        """PolicyClassifier::addPolicyEntry: src dst policy code-point parameters..."""
        self._edge_only("addPolicyEntry")
        self._before_run("addPolicyEntry")
        if len(args) < 4:
            raise TclError(f"{self.cls} addPolicyEntry: expected source, destination, policy"
                           " and code point")
        if len(self.policies) == MAX_POLICIES:
            self._print("ERROR: Policy Table size limit exceeded.\n")
            return
        src, dst, name, cp = c_atoi(args[0]), c_atoi(args[1]), args[2], c_atoi(args[3])
        if name in _NOT_MODELLED:
            raise Ns2Error(unsupported(f"the DiffServ {name} policy"))
        if name not in _POLICIES:
            raise Ns2Error(f"{self.cls} addPolicyEntry: no policy {name} (ns-2 prints \"No"
                           " applicable policy specified, exit!!!\" and exits)")
        kind, keys = _POLICIES[name]
        if not 0 <= cp < MAX_CP:
            raise Ns2Error(f"{self.cls} addPolicyEntry: code point {cp} outside 0 to"
                           f" {MAX_CP - 1}")
        rest = args[4:]
        if len(rest) < len(keys):
            raise Ns2Error(f"{self.cls} addPolicyEntry {name}: expected {' '.join(keys)}"
                           " (ns-2 reads past its arguments)")
        e: dict[str, Any] = {"src": src, "dst": dst, "policer": kind, "code_point": cp,
                             "window_s": 1.0}
        for k, v in zip(keys, rest[:len(keys)], strict=True):
            e[k] = c_atof(v)
        if kind == "tsw2cm" and len(args) == 6:
            e["window_s"] = c_atof(args[5])  # argc == 8: the TSW window
        self.policies.append(e)

    def cmd_addPolicerEntry(self, *args: str) -> None:  # noqa: N802
        """PolicyClassifier::addPolicerEntry: policer initial-code-point downgrade1
        [downgrade2]; a null policer's downgrade is its own code point."""
        self._edge_only("addPolicerEntry")
        self._before_run("addPolicerEntry")
        if len(args) < 2:
            raise TclError(f"{self.cls} addPolicerEntry: expected a policer and a code point")
        if len(self.policers) == MAX_CP:
            self._print("ERROR: Policer Table size limit exceeded.\n")
            return
        name = args[0]
        if name in _NOT_MODELLED:
            raise Ns2Error(unsupported(f"the DiffServ {name} policer"))
        if name not in _POLICIES:
            raise Ns2Error(f"{self.cls} addPolicerEntry: no policer {name} (ns-2 prints \"No"
                           " applicable policer specified, exit!!!\" and exits)")
        kind = _POLICIES[name][0]
        cp = c_atoi(args[1])
        if kind == "null":
            d1 = cp
        elif len(args) >= 3:
            d1 = c_atoi(args[2])
        else:
            raise Ns2Error(f"{self.cls} addPolicerEntry {name}: expected the downgraded code"
                           " point")
        d2 = c_atoi(args[3]) if len(args) == 4 else 0  # argc == 6; else never set (0)
        for c in (cp, d1, d2):
            if not 0 <= c < MAX_CP:
                raise Ns2Error(f"{self.cls} addPolicerEntry: code point {c} outside 0 to"
                               f" {MAX_CP - 1}")
        self.policers.append({"policer": kind, "code_point": cp, "yellow": d1, "red": d2})

    def _edge_only(self, what: str) -> None:
        if not self.edge:
            raise TclError(f"{self.cls}: {what} is a command of Queue/dsRED/edge")

    def cmd_link(self, _link: str) -> None:
        """``$q link $linkdelay`` (ns-lib.tcl's simplex-link gives every queue named *RED*
        its link): the rate comes from the link here."""

    # -- printing --------------------------------------------------------------------------

    def cmd_printPolicyTable(self) -> None:  # noqa: N802
        """PolicyClassifier::printPolicyTable (rates printed as CIR x 8 of CIR / 8)."""
        self._edge_only("printPolicyTable")
        out = [f"Policy Table({len(self.policies)}):\n"]
        for e in self.policies:
            s, d, cp = e["src"], e["dst"], e["code_point"]
            bps = {k: e[k] / 8.0 * 8 for k in ("cir", "pir") if k in e}
            kind = e["policer"]
            if kind == "null":
                out.append(f"Flow ({s} to {d}): Null policer, initial code point {cp}\n")
            elif kind == "tsw2cm":
                out.append(f"Flow ({s} to {d}): TSW2CM policer, initial code point {cp},"
                           f" CIR {bps['cir']:.1f} bps.\n")
            elif kind == "tsw3cm":
                out.append(f"Flow ({s} to {d}): TSW3CM policer, initial code point {cp},"
                           f" CIR {bps['cir']:.1f} bps, PIR {bps['pir']:.1f} bytes.\n")
            elif kind == "token_bucket":
                out.append(f"Flow ({s} to {d}): Token Bucket policer, initial code  point"
                           f" {cp}, CIR {bps['cir']:.1f} bps, CBS {e['cbs']:.1f} bytes.\n")
            elif kind == "srtcm":
                out.append(f"Flow ({s} to {d}): srTCM policer, initial code point {cp},"
                           f" CIR {bps['cir']:.1f} bps, CBS {e['cbs']:.1f} bytes,"
                           f" EBS {e['ebs']:.1f} bytes.\n")
            else:  # trtcm: ns-2 prints the destination first
                out.append(f"Flow ({d} to {s}): trTCM policer, initial code point {cp},"
                           f" CIR {bps['cir']:.1f} bps, CBS {e['cbs']:.1f} bytes,"
                           f" PIR {bps['pir']:.1f} bps, PBS {e['pbs']:.1f} bytes.\n")
        out.append("\n")
        self._print("".join(out))

    def cmd_printPolicerTable(self) -> None:  # noqa: N802
        """PolicyClassifier::printPolicerTable."""
        self._edge_only("printPolicerTable")
        out = ["Policer Table:\n"]
        for e in self.policers:
            name = _PRINTED[e["policer"]]
            if e["policer"] in _THREE_COLOR:
                out.append(f"{name} policer code point {e['code_point']} is policed to yellow"
                           f" code point {e['yellow']} and red code point {e['red']}.\n")
            else:
                out.append(f"{name} policer code point {e['code_point']} is policed to code"
                           f" point {e['yellow']}.\n")
        out.append("\n")
        self._print("".join(out))

    def cmd_printPHBTable(self) -> None:  # noqa: N802
        """dsREDQueue::printPHBTable."""
        out = ["PHB Table:\n"]
        for e in self.phb:
            out.append(f"Code Point {e['code_point']} is associated with Queue {e['queue']},"
                       f" Precedence {e['precedence']}\n")
        out.append("\n")
        self._print("".join(out))

    # -- during the run ----------------------------------------------------------------

    def _query(self, what: str, a: int = -1, b: int = -1) -> float:
        sim = self.ctx.simulator
        if sim is None or not sim.started:
            return 0.0  # nothing has arrived yet
        link = next((lk for lk in sim.links if lk.queue is self), None)
        if link is None:
            raise Ns2Error(unsupported(f"{self.cls} {what} on a queue of no link"))
        try:
            return float(sim.engine.dsred_query(link.index, what, a, b))
        except ValueError as e:
            raise Ns2Error(f"{self.cls}: {e}") from None

    def cmd_printStats(self) -> None:  # noqa: N802
        """dsREDQueue::printStats: all packets, then each code point that had any."""
        q = self._query
        pk, dr, ed = (int(q(w)) for w in ("pkts", "drops", "edrops"))
        out = ["\nPackets Statistics\n", "=======================================\n",
               " CP  TotPkts   TxPkts   ldrops   edrops\n",
               " --  -------   ------   ------   ------\n",
               f"All {pk:8d} {pk - dr - ed:8d} {dr:8d} {ed:8d}\n"]
        if pk:
            for cp in range(MAX_CP):
                p = int(q("pkts", cp))
                if p:
                    d, e = int(q("drops", cp)), int(q("edrops", cp))
                    out.append(f"{cp:3d} {p:8d} {p - d - e:8d} {d:8d} {e:8d}\n")
        self._print("".join(out))

    def cmd_getStat(self, what: str = "", cp: str = "", *rest: str) -> str:  # noqa: N802
        """dsREDQueue::getStat: drops, edrops or pkts, of all or of a code point; -1
        otherwise (printed with %f)."""
        v = -1.0
        if not rest and what in ("drops", "edrops", "pkts"):
            v = self._query(what, c_atoi(cp) if cp else -1)
        return f"{v:f}"

    def cmd_getAverage(self, q: str) -> str:  # noqa: N802
        return f"{self._query('average', self._queue_index(q, 'getAverage')):f}"

    def cmd_getCurrent(self, q: str) -> str:  # noqa: N802
        return f"{self._query('current', self._queue_index(q, 'getCurrent')):f}"

    def cmd_getAverageV(self, q: str, prec: str) -> str:  # noqa: N802
        return f"{self._query('average_v', self._queue_index(q, 'getAverageV'), c_atoi(prec)):f}"

    def cmd_getCurrentV(self, q: str, prec: str) -> str:  # noqa: N802
        return f"{self._query('current_v', self._queue_index(q, 'getCurrentV'), c_atoi(prec)):f}"

    def cmd_getCBucket(self, src: str, dst: str) -> str:  # noqa: N802
        self._edge_only("getCBucket")
        return f"{self._query('cbucket', c_atoi(src), c_atoi(dst)):f}"

    # -- the engine's tables -------------------------------------------------------------

    def params(self) -> dict[str, object]:
        return {}  # everything is in the tables

    def ecn(self) -> bool | None:
        return to_bool(self.vars.get("ecn_", "0"))

    def diffserv(self, node_name: Any) -> dict[str, Any]:
        """The queue's ``diffserv`` table; ``node_name(id)``: a node's scenario name, None
        for no such node."""
        nq = to_int(self.vars.get("numQueues_", "4"))
        if not 1 <= nq <= MAX_QUEUES:
            raise Ns2Error(f"{self.cls} numQueues_ {nq}: expected 1 to {MAX_QUEUES}")
        policies = []
        for e in self.policies:
            p: dict[str, Any] = {"policer": e["policer"], "code_point": e["code_point"],
                                 "window_s": e["window_s"]}
            for end, key in (("src", "source"), ("dst", "destination")):
                if e[end] != -1:  # ns-2's ANY_HOST
                    name = node_name(e[end])
                    if name is None:
                        raise Ns2Error(unsupported(f"a DiffServ policy of node {e[end]}, which"
                                                   " the script does not have"))
                    p[key] = name
            for k, eng in (("cir", "cir_bps"), ("pir", "pir_bps"), ("cbs", "cbs"),
                           ("ebs", "ebs"), ("pbs", "pbs")):
                if k in e:
                    p[eng] = e[k]
            policies.append(p)
        return {"edge": self.edge, "queues": nq, "precedences": self.num_prec,
                "mean_pktsize": self.mean_pktsize, "mred": self.mred[:nq],
                "scheduler": self.sched, "weights": self.weights[:nq],
                "max_rates_bps": [float(r) for r in self.rates[:nq]],
                "phb": list(self.phb), "red": list(self.red.values()),
                "policies": policies, "policers": list(self.policers)}
