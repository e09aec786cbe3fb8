"""RED and DropTail written in Python, run beside the built-in ones (docs/custom-algorithms.md).

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
"""

from __future__ import annotations

import argparse
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

    def p_b(self, avg: float) -> float:
        if avg >= self.max_th:
            if not self.gentle:
                return 1.0
            p = self.max_p + (1.0 - self.max_p) * (avg - self.max_th) / self.max_th
        else:
            span = self.max_th - self.min_th
            p = self.max_p * (avg - self.min_th) / (span if span != 0.0 else 1.0)
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


RED = {"min_thresh": 5.0, "max_thresh": 15.0, "q_weight": 0.002, "max_p": 0.1}
# The built-in RED with the same parameters, and its other switches as PyRed has them.
RED_BUILTIN = {**RED, "mean_pktsize": 1500, "gentle": True, "wait": True, "bytes": False,
               "queue_in_bytes": False, "use_mark_p": False}

# (case, built-in kind and its parameters, Python twin)
CASES: list[tuple[str, str, dict[str, object], ac.QueueDiscipline | type]] = [
    ("droptail", "droptail", {}, PyDropTail),
    ("red", "red", RED_BUILTIN, PyRed(**RED, mean_pktsize=1500.0)),
]
BOTTLENECK = ("r1", "r2")
LIMIT = 73

# Result tables compared byte for byte.
TABLES = ("flows.csv", "flows_detail.csv", "timeseries.csv", "queues.csv",
          "queue_timeseries.csv", "cc_state.csv", "tcp_trace.csv", "connections.csv",
          "queue_flows.csv")


def run_case(case: str, kind: str, params: dict[str, object], twin: object, out: Path
             ) -> list[tuple[str, bool]]:
    """Runs the case both ways; (table, identical) per result table."""
    dirs = {}
    for how in ("builtin", "python"):
        sc = ac.load_scenario(ROOT / "dumbbell.toml")
        for link in sc.links:
            if (link.from_, link.to) == BOTTLENECK:
                link.queue = (QueueConfig(kind=kind, limit=LIMIT, params=dict(params))
                              if how == "builtin" else QueueConfig(kind=twin, limit=LIMIT))
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
    for case, kind, params, twin in CASES:
        for table, same in run_case(case, kind, params, twin, out):
            failed += not same
            print(f"{case:10s} {table:22s} {'identical' if same else 'DIFFERENT'}")
    print("all identical" if failed == 0 else f"{failed} tables differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
