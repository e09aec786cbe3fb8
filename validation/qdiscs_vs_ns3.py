"""ackclock's queue disciplines against ns-3.44's queue discs on one dumbbell, side by side.

N NewReno bulk flows with SACK (1000 B segments, window 1000, an ACK per segment, flow i
starting at i/10 s, access delay 1+i ms) share a 10 Mb/s bottleneck of one-way delay D whose
sending router runs the discipline as the root queue disc above a device queue of one packet
(ns-3's traffic-control layer; ackclock's `device_limit = 1`), ns-3's defaults otherwise
(MaxSize 1000 packets). ns-3 runs validation/ns3/qdisc_dumbbell.cc, compiled against the PyPI
wheel as benchmarks/sims.py compiles the benchmark programs (it must be installed:
`python benchmarks/compare.py` does it once). Printed per discipline: time-averaged and peak
backlog (packets), drops, marks, median sojourn, utilisation and goodput, after a warm-up.

ackclock runs its `ns3` profile with the program's TCP settings (`TcpNewReno`, an initial
window of 2, an ACK per segment, a 200 ms minimum RTO on a 10 ms clock, no timestamps,
`TcpClassicRecovery`, ns-3's 1 000 000- and 4 000 000-byte buffers; NS3_TCP below) and plain
DropTail access links (the program removes ns-3's default root queue discs); `--profile ns2`
runs ns-2's TCP instead, as this script did until 2026-11-28 (docs/validation.md).

ackclock's backlog and sojourn include the device queue's packet (at most one, 0.83 ms at
10 Mb/s); ns-3's are the queue disc's alone. ARED and NLRED decide at arrival, so ackclock runs
them as a FIFO at the line, without the device queue. Each flow's goodput is printed below the
table (the split between flows decides the standing queue: docs/validation.md). With
QDISC_DUMBBELL_TRACE=FILE in the environment the ns-3 program writes each sender's cwnd,
ssthresh, bytes in flight and congestion state to FILE.

    python validation/qdiscs_vs_ns3.py [--flows 4] [--delay-ms 20] [--seconds 60] [KIND ...]
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import statistics
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
# qdisc_dumbbell.cc's TCP in the ns3 profile's terms: common.h's TcpDefaults(1000, 2, 1000,
# false) (InitialCwnd 2, RcvBufSize 1000 segments, DelAckCount 1, MinRto 200 ms,
# ClockGranularity 10 ms, no timestamps, TcpClassicRecovery), SndBufSize 4000 segments,
# TcpNewReno with SACK; frames without the timestamp option: PPP 2 + IPv4 20 + TCP 20 bytes.
NS3_TCP: dict[str, object] = {
    "cc": "TcpNewReno", "window_init": 2, "segs_per_ack": 1, "min_rto": "200ms",
    "timer_granularity": "10ms", "timestamps": False, "prr": False, "header_size": 42,
    "ack_size": 42, "rcv_buffer": 1000 * 1000, "snd_buffer": 4000 * 1000,
}


@dataclass
class Outcome:
    mean_queue: float
    peak_queue: int
    drops: int
    marks: int
    p50_sojourn_s: float
    utilization: float
    goodput_mbps: float
    flow_goodput_mbps: tuple[float, ...] = ()


def network(kind: str, n: int, delay_ms: float, profile: str = "ns3",
            step: float = 0.1) -> Network:
    """The dumbbell in ackclock, flow i starting at i * step s: ns-3's TCP in the ns3 profile
    (NS3_TCP), or ns-2's."""
    net = Network("qdiscs", profile=profile)
    net.nodes("r1", "r2")
    device = {"device_limit": 1} if kind in HOLDS else {}
    net.link("r1", "r2", rate="10Mb/s", delay=f"{delay_ms}ms", queue=kind, queue_limit=1000,
             **device, **PARAMS.get(kind, {}))  # type: ignore[arg-type]
    tcp = NS3_TCP if profile == "ns3" else {"window": 1000}
    for i in range(n):
        net.nodes(f"s{i}", f"d{i}")
        net.link(f"s{i}", "r1", rate="100Mb/s", delay=f"{1 + i}ms", queue="droptail",
                 queue_limit=1000)
        net.link("r2", f"d{i}", rate="100Mb/s", delay="1ms", queue="droptail",
                 queue_limit=1000)
        net.tcp(f"t{i}", f"s{i}", f"d{i}", variant="sack", sink="sack", packet_size=1000,
                start=f"{i * step:.6f}s", **tcp)
    return net


def ackclock_run(kind: str, n: int, delay_ms: float, seconds: float, warmup: float,
                 profile: str = "ns3", step: float = 0.1) -> Outcome:
    res = network(kind, n, delay_ms, profile, step).run(duration=f"{seconds}s",
                                                        warmup=f"{warmup}s")
    q = res.queues.set_index("link").loc["r1->r2"]
    return Outcome(float(q.mean_queue_packets), int(q.max_queue_packets),
                   int(q.dropped_packets), int(q.marked_packets), float(q.p50_sojourn_s),
                   float(q.utilization), float(res.flows.goodput_mbps.sum()),
                   tuple(float(g) for g in res.flows.goodput_mbps))


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
            warmup: float, step: float = 0.1) -> Outcome:
    with tempfile.TemporaryDirectory() as tmp:
        _, _, out = timed([str(exe), kind, str(n), f"{delay_ms:g}", f"{seconds:g}",
                           f"{warmup:g}", "sack", f"{step:.6f}"], Path(tmp), timeout=1800)
    f = dict(re.findall(r"^(\w+) (\S+)\s*$", out, flags=re.M))
    return Outcome(float(f["mean_queue"]), int(f["peak_queue"]), int(f["drops"]),
                   int(f["marks"]), float(f["p50_sojourn_s"]), float(f["utilization"]),
                   float(f["goodput_mbps"]),
                   tuple(float(f[f"flow{i}_goodput_mbps"]) for i in range(n)))


def diff(a: float, b: float) -> str:
    return "n/a" if b == 0 else f"{(a - b) / b * 100:+.1f}%"


def mean_se(xs: list[float]) -> tuple[float, float]:
    return statistics.mean(xs), statistics.stdev(xs) / len(xs) ** 0.5


def repeated(exe: Path, args: argparse.Namespace) -> None:
    """Each kind over args.runs start patterns in both simulators: the first flows' windows
    after the initial losses decide the standing queue (docs/validation.md), so one run says
    little about a window-limited FIFO."""
    print(f"{args.flows} flows, D = {args.delay_ms:g} ms, {args.seconds:g} s, "
          f"{args.warmup:g} s warm-up, ackclock's {args.profile} profile, {args.runs} runs "
          "(flow i starts at i * (0.1 + k * 0.0037) s in run k); mean +- standard error, "
          "ackclock / ns-3")
    print("| kind | mean queue (pkts) | difference | drops | goodput (Mb/s) |")
    print("|---|---|---|---|---|")
    for kind in args.kinds:
        steps = [0.1 + k * 0.0037 for k in range(args.runs)]
        a = [ackclock_run(kind, args.flows, args.delay_ms, args.seconds, args.warmup,
                          args.profile, st) for st in steps]
        b = [ns3_run(exe, kind, args.flows, args.delay_ms, args.seconds, args.warmup, st)
             for st in steps]
        (qa, ea), (qb, eb) = (mean_se([o.mean_queue for o in x]) for x in (a, b))
        (da, _), (db, _) = (mean_se([float(o.drops) for o in x]) for x in (a, b))
        (ga, _), (gb, _) = (mean_se([o.goodput_mbps for o in x]) for x in (a, b))
        print(f"| {kind} | {qa:.1f} +- {ea:.1f} / {qb:.1f} +- {eb:.1f} "
              f"| {qa - qb:+.1f} +- {(ea ** 2 + eb ** 2) ** 0.5:.1f} ({diff(qa, qb)}) "
              f"| {da:.1f} / {db:.1f} | {ga:.3f} / {gb:.3f} ({diff(ga, gb)}) |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kinds", nargs="*", default=list(KINDS))
    parser.add_argument("--flows", type=int, default=4)
    parser.add_argument("--delay-ms", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "ackclock-bench")
    parser.add_argument("--profile", choices=("ns3", "ns2"), default="ns3",
                        help="ackclock's TCP: ns-3's (the default) or ns-2's")
    parser.add_argument("--runs", type=int, default=1,
                        help="N > 1: N runs in each simulator, flow i starting at "
                             "i * (0.1 + k * 0.0037) s in run k; the means of the mean queue, "
                             "drops and goodput with their standard errors")
    args = parser.parse_args()
    exe = build(args.cache)
    if args.runs > 1:
        repeated(exe, args)
        return
    print(f"{args.flows} flows, D = {args.delay_ms:g} ms, {args.seconds:g} s, "
          f"{args.warmup:g} s warm-up, ackclock's {args.profile} profile; each cell "
          "ackclock / ns-3 (difference)")
    print("| kind | mean queue (pkts) | peak queue | drops | marks | p50 sojourn (ms) "
          "| utilisation | goodput (Mb/s) |")
    print("|---|---|---|---|---|---|---|---|")
    splits = []
    for kind in args.kinds:
        a = ackclock_run(kind, args.flows, args.delay_ms, args.seconds, args.warmup,
                         args.profile)
        b = ns3_run(exe, kind, args.flows, args.delay_ms, args.seconds, args.warmup)
        print(f"| {kind} | {a.mean_queue:.2f} / {b.mean_queue:.2f} "
              f"({diff(a.mean_queue, b.mean_queue)}) | {a.peak_queue} / {b.peak_queue} "
              f"| {a.drops} / {b.drops} ({diff(a.drops, b.drops)}) | {a.marks} / {b.marks} "
              f"| {a.p50_sojourn_s * 1e3:.2f} / {b.p50_sojourn_s * 1e3:.2f} "
              f"| {a.utilization:.3f} / {b.utilization:.3f} "
              f"| {a.goodput_mbps:.3f} / {b.goodput_mbps:.3f} "
              f"({diff(a.goodput_mbps, b.goodput_mbps)}) |", flush=True)
        splits.append((kind, a.flow_goodput_mbps, b.flow_goodput_mbps))
    print("\nEach flow's goodput (Mb/s), ackclock / ns-3:")
    for kind, mine, theirs in splits:
        cells = " ".join(f"{x:.3f}/{y:.3f}" for x, y in zip(mine, theirs, strict=True))
        print(f"  {kind}: {cells}")


if __name__ == "__main__":
    main()
