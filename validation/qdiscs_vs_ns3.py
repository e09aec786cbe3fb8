"""ackclock's queue disciplines against ns-3.44's queue discs on one dumbbell, side by side.

N NewReno bulk flows with SACK (1000 B segments, window 1000, an ACK per segment, flow i
starting at i/10 s, access delay 1+i ms) share a 10 Mb/s bottleneck of one-way delay D whose
sending router runs the discipline as the root queue disc above a device queue of one packet
(ns-3's traffic-control layer; ackclock's `device_limit = 1`), ns-3's defaults otherwise
(MaxSize 1000 packets). ns-3 runs validation/ns3/qdisc_dumbbell.cc, compiled against the PyPI
wheel as benchmarks/sims.py compiles the benchmark programs (it must be installed:
`python benchmarks/compare.py` does it once). Printed per discipline: time-averaged and peak
backlog (packets), drops, marks, median sojourn, utilisation and goodput, after a warm-up.

ackclock's backlog and sojourn include the device queue's packet (at most one, 0.83 ms at
10 Mb/s); ns-3's are the queue disc's alone. ARED and NLRED decide at arrival, so ackclock runs
them as a FIFO at the line, without the device queue.

    python validation/qdiscs_vs_ns3.py [--flows 4] [--delay-ms 20] [--seconds 60] [KIND ...]
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ackclock.network import Network

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from benchmarks.sims import NS3_FLAGS, NS3_MODULES, Failed, Ns3, timed  # noqa: E402

SOURCE = HERE / "ns3" / "qdisc_dumbbell.cc"
COMMON = ROOT / "benchmarks" / "ns3" / "common.h"
KINDS = ("cobalt", "fq_pie", "fq_codel", "ared", "nlred", "tbf", "pfifo_fast")
# ackclock's parameters for ns-3's defaults where they are not ackclock's own.
PARAMS: dict[str, dict[str, object]] = {
    "ared": {"mean_pktsize": 1040},
    "nlred": {"mean_pktsize": 1040},
    "tbf": {"token_rate": 5e6, "burst": 10000, "mtu": 1500},
}
HOLDS = ("cobalt", "fq_pie", "fq_codel", "tbf", "pfifo_fast")


@dataclass
class Outcome:
    mean_queue: float
    peak_queue: int
    drops: int
    marks: int
    p50_sojourn_s: float
    utilization: float
    goodput_mbps: float


def ackclock_run(kind: str, n: int, delay_ms: float, seconds: float, warmup: float) -> Outcome:
    net = Network("qdiscs")
    net.nodes("r1", "r2")
    device = {"device_limit": 1} if kind in HOLDS else {}
    net.link("r1", "r2", rate="10Mb/s", delay=f"{delay_ms}ms", queue=kind, queue_limit=1000,
             **device, **PARAMS.get(kind, {}))  # type: ignore[arg-type]
    for i in range(n):
        net.nodes(f"s{i}", f"d{i}")
        net.link(f"s{i}", "r1", rate="100Mb/s", delay=f"{1 + i}ms", queue_limit=1000)
        net.link("r2", f"d{i}", rate="100Mb/s", delay="1ms", queue_limit=1000)
        net.tcp(f"t{i}", f"s{i}", f"d{i}", variant="sack", sink="sack", window=1000,
                packet_size=1000, start=f"{i / 10}s")
    res = net.run(duration=f"{seconds}s", warmup=f"{warmup}s")
    q = res.queues.set_index("link").loc["r1->r2"]
    return Outcome(float(q.mean_queue_packets), int(q.max_queue_packets),
                   int(q.dropped_packets), int(q.marked_packets), float(q.p50_sojourn_s),
                   float(q.utilization), float(res.flows.goodput_mbps.sum()))


def build(cache: Path) -> Path:
    """Compiles the ns-3 program (once per source version) with benchmarks/sims.py's flags."""
    ns3 = Ns3(cache, install=False)
    prefix = ns3.prefix()
    cxx = shutil.which("g++")
    if prefix is None or cxx is None:
        raise Failed(f"no ns-3 wheel under {ns3.venv} or no g++")
    key = hashlib.sha256(COMMON.read_bytes() + SOURCE.read_bytes()
                         + " ".join(NS3_FLAGS).encode() + str(prefix).encode()).hexdigest()[:12]
    exe = cache / "ns3-bin" / f"qdisc_dumbbell-{key}"
    if not exe.is_file():
        exe.parent.mkdir(parents=True, exist_ok=True)
        cmd = [cxx, *NS3_FLAGS, f"-I{prefix / 'include'}", f"-I{COMMON.parent}", str(SOURCE),
               "-o", str(exe), f"-L{prefix / 'lib64'}", f"-Wl,-rpath,{prefix / 'lib64'}",
               *(f"-lns3.44-{m}" for m in NS3_MODULES)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise Failed(f"compiling {SOURCE.name} failed: {done.stderr[-2000:]}")
    return exe


def ns3_run(exe: Path, kind: str, n: int, delay_ms: float, seconds: float,
            warmup: float) -> Outcome:
    with tempfile.TemporaryDirectory() as tmp:
        _, _, out = timed([str(exe), kind, str(n), f"{delay_ms:g}", f"{seconds:g}",
                           f"{warmup:g}"], Path(tmp), timeout=1800)
    f = dict(re.findall(r"^(\w+) (\S+)\s*$", out, flags=re.M))
    return Outcome(float(f["mean_queue"]), int(f["peak_queue"]), int(f["drops"]),
                   int(f["marks"]), float(f["p50_sojourn_s"]), float(f["utilization"]),
                   float(f["goodput_mbps"]))


def diff(a: float, b: float) -> str:
    return "n/a" if b == 0 else f"{(a - b) / b * 100:+.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kinds", nargs="*", default=list(KINDS))
    parser.add_argument("--flows", type=int, default=4)
    parser.add_argument("--delay-ms", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "ackclock-bench")
    args = parser.parse_args()
    exe = build(args.cache)
    print(f"{args.flows} flows, D = {args.delay_ms:g} ms, {args.seconds:g} s, "
          f"{args.warmup:g} s warm-up; each cell ackclock / ns-3 (difference)")
    print("| kind | mean queue (pkts) | peak queue | drops | marks | p50 sojourn (ms) "
          "| utilisation | goodput (Mb/s) |")
    print("|---|---|---|---|---|---|---|---|")
    for kind in args.kinds:
        a = ackclock_run(kind, args.flows, args.delay_ms, args.seconds, args.warmup)
        b = ns3_run(exe, kind, args.flows, args.delay_ms, args.seconds, args.warmup)
        print(f"| {kind} | {a.mean_queue:.2f} / {b.mean_queue:.2f} "
              f"({diff(a.mean_queue, b.mean_queue)}) | {a.peak_queue} / {b.peak_queue} "
              f"| {a.drops} / {b.drops} ({diff(a.drops, b.drops)}) | {a.marks} / {b.marks} "
              f"| {a.p50_sojourn_s * 1e3:.2f} / {b.p50_sojourn_s * 1e3:.2f} "
              f"| {a.utilization:.3f} / {b.utilization:.3f} "
              f"| {a.goodput_mbps:.3f} / {b.goodput_mbps:.3f} "
              f"({diff(a.goodput_mbps, b.goodput_mbps)}) |", flush=True)


if __name__ == "__main__":
    main()
