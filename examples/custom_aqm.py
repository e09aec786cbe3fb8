"""DropTail, RED, CoDel and PIE written in Python, run beside the built-in ones
(docs/custom-algorithms.md).

    python examples/custom_aqm.py --out DIR

runs the reference scenario (examples/dumbbell.toml: CUBIC against BBR through a 20 Mb/s
bottleneck) with each built-in discipline on the bottleneck and then with its Python twin
below, writes both results folders under DIR/<case>/{builtin,python}, and prints whether
every result table is byte-identical (summary.json records wall times and is left out).

- PyDropTail: admit while the buffer has room, as the engine's `queue/droptail.rs` (with
  ns-2's accounting where the scenario asks for it: a limit of n holds n - 1 packets).
- PyRed: Random Early Detection (Floyd and Jacobson 1993, "Random Early Detection Gateways
  for Congestion Avoidance", sections 4 and 7), as ns-2.35's Queue/RED (red.cc, `enque`,
  `estimator`, `drop_early`) and the engine's `queue/red.rs`: the EWMA of the queue with the
  idle time counted as virtual arrivals, p_b linear between the thresholds (gentle: up to 1
  at twice max_th), p_a spread uniformly over the arrivals since the last drop (with `wait`,
  as ns-2's `wait_`), its coin drawn from the link's own random stream.
- PyCoDel: Controlled Delay, RFC 8289 (section 3's control law, the pseudocode of section 5:
  `dodequeue`, `dequeue`), as Linux's `codel_dequeue` (include/net/codel_impl.h) and the
  engine's `queue/codel.rs`: it decides at dequeue on the packet at the head, from its
  sojourn time; with ECN it marks an ECN-capable packet instead of dropping it.
- PyPie: Proportional Integral controller Enhanced, RFC 8033 (sections 4.1-4.4 and 5.1), as
  the engine's `queue/pie.rs`: an enqueue-time drop with probability drop_prob, which a
  periodic update (`update`, every T_UPDATE) moves by alpha and beta terms of the queueing
  delay, here the bytes waiting over the line rate (Little's law, section 4.1).

With ECN (the codel_ecn and pie_ecn cases), both flows are ECN-capable and the discipline
marks them.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import ackclock as ac
from ackclock.scenario import QueueConfig

ROOT = Path(__file__).resolve().parent


class PyDropTail(ac.QueueDiscipline):
    """Drop an arrival when the waiting packets (or bytes) reach the limit."""

    def admit(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> ac.Verdict:
        ns2 = queue.ns2
        if queue.limit is not None:
            if (queue.packets + 1 >= queue.limit) if ns2 else (queue.packets >= queue.limit):
                return ac.Verdict.DROP
        if queue.limit_bytes is not None:
            after = queue.bytes + pkt.size
            if (after >= queue.limit_bytes) if ns2 else (after > queue.limit_bytes):
                return ac.Verdict.DROP
        return ac.Verdict.ADMIT


class PyRed(ac.QueueDiscipline):
    """RED in packets with explicit thresholds and weight (no automatic configuration, no
    byte mode)."""

    def __init__(self, min_thresh: float, max_thresh: float, q_weight: float, max_p: float,
                 mean_pktsize: float, gentle: float = 1.0, wait: float = 1.0) -> None:
        self.min_th = min_thresh
        self.max_th = max_thresh
        self.q_w = q_weight
        self.max_p = max_p
        self.mean_pktsize = mean_pktsize
        self.gentle = gentle != 0.0
        self.wait = wait != 0.0
        self.avg = 0.0  # the queue time series' avg
        self.prob = 0.0  # and prob (p_b)
        self.count = 0  # arrivals since the last drop
        self.old = False  # the last arrival already found avg above min_th
        # p_b's two lines in ns-2's arithmetic (REDQueue::reset, calculate_p_new), so that
        # every value is the built-in's to the last bit.
        span = max_thresh - min_thresh
        span = span if span != 0.0 else 1.0
        self.v_a, self.v_b = 1.0 / span, -min_thresh / span
        self.v_c, self.v_d = (1.0 - max_p) / max_thresh, 2.0 * max_p - 1.0

    def p_b(self, avg: float) -> float:
        if avg >= self.max_th:
            if not self.gentle:
                return 1.0
            p = self.v_c * avg + self.v_d  # max_p at max_th, 1 at twice max_th
        else:
            p = (self.v_a * avg + self.v_b) * self.max_p
        return min(p, 1.0)

    def p_a(self, pb: float) -> float:
        cp = self.count * pb
        if self.wait:
            pa = 0.0 if cp < 1.0 else pb / (2.0 - cp) if cp < 2.0 else 1.0
        else:
            pa = pb / (1.0 - cp) if cp < 1.0 else 1.0
        return min(pa, 1.0)

    def admit(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> ac.Verdict:
        q = float(queue.packets)
        if queue.idle_since_ps is not None:
            # The idle time as virtual arrivals of mean-size packets, one decay each.
            ptc = queue.rate_bps / (8.0 * self.mean_pktsize)
            decay = int(ptc * float(queue.now_ps - queue.idle_since_ps) / 1e12)
            while decay > 0 and self.avg != 0.0:
                self.avg *= 1.0 - self.q_w
                decay -= 1
        self.avg = (1.0 - self.q_w) * self.avg + self.q_w * q
        self.count += 1
        verdict = ac.Verdict.ADMIT
        above_max = self.avg >= (2.0 * self.max_th if self.gentle else self.max_th)
        if self.avg >= self.min_th and q > 1.0:
            if above_max:
                verdict = ac.Verdict.DROP
            elif not self.old:
                self.count = 1
                self.old = True
            else:
                self.prob = self.p_b(self.avg)
                if queue.random() <= self.p_a(self.prob):
                    self.count = 0
                    if queue.ecn and pkt.ect:
                        return ac.Verdict.MARK
                    return ac.Verdict.DROP
        else:
            self.prob = 0.0
            self.old = False
        if queue.limit is not None and q >= queue.limit:
            verdict = ac.Verdict.DROP
        if verdict == ac.Verdict.DROP:
            self.count = 0
        return verdict


class PyCoDel(ac.QueueDiscipline):
    """RFC 8289: drop (or mark) at dequeue once the sojourn time has stayed at or above
    target for an interval, then at intervals of interval / sqrt(count). Times are kept in
    picoseconds, as integers, as the engine keeps them.

    The engine asks about one head at a time: after a DROP it hands over the next head at
    once, so the pseudocode's loop over heads in one dequeue (section 5.5) becomes two flags,
    ``in_loop`` and ``entered``, saying that this head follows a drop of the same dequeue."""

    def __init__(self, target: float = 0.005, interval: float = 0.1, mtu: float = 1500.0
                 ) -> None:
        self.target = round(target * 1e12)  # ps
        self.interval = round(interval * 1e12)
        self.mtu = mtu
        self.first_above_time: int | None = None
        self.drop_next = 0
        self.count = 0
        self.lastcount = 0
        self.dropping = False  # the queue time series' codel_dropping
        self.in_loop = False  # this head follows a drop in the dropping state
        self.entered = False  # this head follows the drop that entered it

    def control_law(self, t: int) -> int:
        # Section 3.3: the next drop interval / sqrt(count) later.
        return t + int(self.interval / math.sqrt(self.count))

    def ok_to_drop(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> bool:
        """Section 5.4's dodequeue, the head taken: whether it may be dropped."""
        if pkt.sojourn_ps < self.target or queue.bytes <= self.mtu:
            self.first_above_time = None
            return False
        if self.first_above_time is None:
            self.first_above_time = pkt.now_ps + self.interval
            return False
        return pkt.now_ps >= self.first_above_time

    def dropped(self, queue: ac.QueueView) -> None:
        """A head was dropped: with nothing behind it, dodequeue finds the queue empty."""
        if queue.packets == 0:
            self.first_above_time = None
            self.dropping = False

    def drop_again(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> ac.Verdict:
        """In the dropping state: drop (or mark) when the next drop is due."""
        if pkt.now_ps < self.drop_next:
            return ac.Verdict.ADMIT
        self.count += 1
        if queue.ecn and pkt.ect:
            self.drop_next = self.control_law(self.drop_next)
            return ac.Verdict.MARK
        self.dropped(queue)
        self.in_loop = self.dropping
        return ac.Verdict.DROP

    def dequeue(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> ac.Verdict:
        ok = self.ok_to_drop(pkt, queue)
        if self.entered:  # sent whatever its sojourn
            self.entered = False
            return ac.Verdict.ADMIT
        if self.in_loop:
            self.in_loop = False
            if not ok:
                self.dropping = False
                return ac.Verdict.ADMIT
            self.drop_next = self.control_law(self.drop_next)
            return self.drop_again(pkt, queue)
        if self.dropping:
            if not ok:
                self.dropping = False
                return ac.Verdict.ADMIT
            return self.drop_again(pkt, queue)
        if not ok:
            return ac.Verdict.ADMIT
        # Enter the dropping state; resume from the last episode's count if it was recent.
        self.dropping = True
        delta = max(0, self.count - self.lastcount)
        self.count = 1
        if delta > 1 and max(0, pkt.now_ps - self.drop_next) < 16 * self.interval:
            self.count = delta
        self.drop_next = self.control_law(pkt.now_ps)
        self.lastcount = self.count
        if queue.ecn and pkt.ect:
            return ac.Verdict.MARK
        if queue.packets == 0:
            self.first_above_time = None
        else:
            self.entered = True
        return ac.Verdict.DROP


def _pie_step(alpha: float, beta: float, above: float, growth: float, drop_prob: float
              ) -> float:
    """RFC 8033 section 4.2 with its auto-tuning: alpha and beta terms, scaled down while
    drop_prob is small, at most 2% once it is 10% or more (queue/pie.rs probability_step)."""
    p = alpha * above + beta * growth
    for bound, scale in ((1e-6, 2048.0), (1e-5, 512.0), (1e-4, 128.0), (1e-3, 32.0),
                         (1e-2, 8.0), (1e-1, 2.0)):
        if drop_prob < bound:
            p /= scale
            break
    return 0.02 if drop_prob >= 0.1 and p > 0.02 else p


class PyPie(ac.QueueDiscipline):
    """RFC 8033: drop arrivals with probability ``prob`` (the queue time series' drop_prob),
    which ``update`` moves every T_UPDATE from the queueing delay."""

    def __init__(self, target: float = 0.015, t_update: float = 0.015, alpha: float = 0.125,
                 beta: float = 1.25, max_burst: float = 0.15, mean_pktsize: float = 1500.0,
                 mark_ecn_threshold: float = 0.1) -> None:
        self.update_interval = t_update  # update() runs every this long
        self.target = round(target * 1e12) / 1e12
        self.t_update = round(t_update * 1e12)  # ps
        self.alpha, self.beta = alpha, beta
        self.max_burst = round(max_burst * 1e12)
        self.mean_pktsize = mean_pktsize
        self.mark_ecn_threshold = mark_ecn_threshold
        self.prob = 0.0  # drop_prob
        self.qdelay_old = 0.0
        self.burst_allowance = self.max_burst  # ps

    def update(self, queue: ac.QueueView) -> None:
        qdelay = queue.bytes * 8.0 / queue.rate_bps  # section 4.1, Little's law
        p = _pie_step(self.alpha, self.beta, qdelay - self.target, qdelay - self.qdelay_old,
                      self.prob)
        self.prob += p
        if qdelay == 0.0 and self.qdelay_old == 0.0:
            self.prob *= 0.98  # section 4.2: decay while idle
        self.prob = min(max(self.prob, 0.0), 1.0)
        self.burst_allowance = max(0, self.burst_allowance - self.t_update)
        half = self.target / 2.0
        if self.prob == 0.0 and qdelay < half and self.qdelay_old < half:
            self.burst_allowance = self.max_burst  # section 4.4
        self.qdelay_old = qdelay

    def admit(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> ac.Verdict:
        if queue.limit is not None and queue.packets >= queue.limit:
            return ac.Verdict.DROP
        if (self.burst_allowance > 0
                or (self.qdelay_old < self.target / 2.0 and self.prob < 0.2)
                or queue.bytes <= 2 * self.mean_pktsize):
            return ac.Verdict.ADMIT  # section 5.1's safeguards
        if queue.random() < self.prob:
            if queue.ecn and pkt.ect and self.prob <= self.mark_ecn_threshold:
                return ac.Verdict.MARK
            return ac.Verdict.DROP
        return ac.Verdict.ADMIT


RED = {"min_thresh": 5.0, "max_thresh": 15.0, "q_weight": 0.002, "max_p": 0.1}
# The built-in RED with the same parameters, and its other switches as PyRed has them.
RED_BUILTIN: dict[str, object] = {
    **RED, "mean_pktsize": 1500, "gentle": True, "wait": True, "bytes": False,
    "queue_in_bytes": False, "use_mark_p": False}

# (case, built-in kind and its parameters, Python twin, ECN)
CASES: list[tuple[str, str, dict[str, object], ac.QueueDiscipline | type[ac.QueueDiscipline],
                  bool]] = [
    ("droptail", "droptail", {}, PyDropTail, False),
    ("red", "red", RED_BUILTIN, PyRed(**RED, mean_pktsize=1500.0), False),
    ("codel", "codel", {}, PyCoDel, False),
    ("codel_ecn", "codel", {}, PyCoDel, True),
    ("pie", "pie", {}, PyPie, False),
    ("pie_ecn", "pie", {}, PyPie, True),
]
BOTTLENECK = ("r1", "r2")
LIMIT = 73

# Result tables compared byte for byte.
TABLES = ("flows.csv", "flows_detail.csv", "timeseries.csv", "queues.csv",
          "queue_timeseries.csv", "cc_state.csv", "tcp_trace.csv", "connections.csv",
          "queue_flows.csv")


def run_case(case: str, kind: str, params: dict[str, object],
             twin: ac.QueueDiscipline | type[ac.QueueDiscipline], ecn: bool,
             out: Path) -> list[tuple[str, bool]]:
    """Runs the case both ways; (table, identical) per result table."""
    dirs = {}
    for how in ("builtin", "python"):
        sc = ac.load_scenario(ROOT / "dumbbell.toml")
        for link in sc.links:
            if (link.from_, link.to) == BOTTLENECK:
                link.queue = (QueueConfig(kind=kind, limit=LIMIT, params=dict(params))
                              if how == "builtin" else QueueConfig(kind=twin, limit=LIMIT))
                link.queue.ecn = ecn or None
        if ecn:
            for f in sc.flows:
                f.tcp["ecn"] = True
        res = ac.run_scenario(sc, progress=False)
        dirs[how] = out / case / how
        res.save(dirs[how])
    return [(t, (dirs["builtin"] / t).read_bytes() == (dirs["python"] / t).read_bytes())
            for t in TABLES]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", required=True, help="folder for the results folders")
    args = ap.parse_args(argv)
    out = Path(args.out)
    failed = 0
    print(f"{'case':10s} {'table':22s} built-in = Python")
    for case, kind, params, twin, ecn in CASES:
        for table, same in run_case(case, kind, params, twin, ecn, out):
            failed += not same
            print(f"{case:10s} {table:22s} {'identical' if same else 'DIFFERENT'}")
    print("all identical" if failed == 0 else f"{failed} tables differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
