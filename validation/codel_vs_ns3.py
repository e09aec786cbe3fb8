"""CoDel's median sojourn against the number of flows: ackclock and ns-3's CoDelQueueDisc.

The scenario of `many_flows` in tests/integration/test_aqm_scenarios.py: N Reno bulk flows
(1000 B segments, window 1000, flow i starting at i/10 s, access delay 1+i ms) through a 10 Mb/s
bottleneck with one-way delay D running CoDel (target 5 ms, interval 100 ms, 1000 packets), 60 s
with a 10 s warm-up. ackclock runs it through its Python API; ns-3.44 runs
validation/ns3/codel_many_flows.cc, compiled against the PyPI wheel as benchmarks/sims.py
compiles the benchmark programs, with three TCP settings (the program's TCP argument): "nosack"
(NewReno, classic recovery, no SACK: the closest to ns-2's Reno agent), "guard" (the same, with
benchmarks/ns3/common.h's Ns2Guard hiding the duplicate ACKs that ns-2's NewReno ignores after a
recovery) and "sack" (SACK on, ns-3's default).

    python validation/codel_vs_ns3.py [--cache ~/.cache/ackclock-bench]
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

SOURCE = HERE / "ns3" / "codel_many_flows.cc"
COMMON = ROOT / "benchmarks" / "ns3" / "common.h"
SECONDS = 60
WARMUP = 10
CASES = [(1, 10), (2, 10), (4, 10), (8, 10), (16, 10), (8, 40)]  # (flows, D in ms)
NS3_TCP = ("nosack", "guard", "sack")


@dataclass
class Outcome:
    p50_sojourn_s: float
    utilization: float
    goodput_mbps: float
    samples: int | None = None


def ackclock_run(n: int, delay_ms: int) -> Outcome:
    net = Network("many")
    net.nodes("r1", "r2")
    net.link("r1", "r2", rate="10Mb/s", delay=f"{delay_ms}ms", queue="codel", queue_limit=1000)
    for i in range(n):
        net.nodes(f"s{i}", f"d{i}")
        net.link(f"s{i}", "r1", rate="100Mb/s", delay=f"{1 + i}ms", queue_limit=1000)
        net.link("r2", f"d{i}", rate="100Mb/s", delay="1ms", queue_limit=1000)
        net.tcp(f"t{i}", f"s{i}", f"d{i}", window=1000, packet_size=1000, start=f"{i / 10}s")
    res = net.run(duration=f"{SECONDS}s", warmup=f"{WARMUP}s")
    q = res.queues.set_index("link").loc["r1->r2"]
    return Outcome(float(q.p50_sojourn_s), float(q.utilization),
                   float(res.flows.goodput_mbps.sum()), int(q.departed_packets))


def build(cache: Path) -> Path:
    """Compiles the ns-3 program (once per source version) with benchmarks/sims.py's flags."""
    ns3 = Ns3(cache, install=False)
    prefix = ns3.prefix()
    cxx = shutil.which("g++")
    if prefix is None or cxx is None:
        raise Failed(f"no ns-3 wheel under {ns3.venv} or no g++")
    key = hashlib.sha256(COMMON.read_bytes() + SOURCE.read_bytes()
                         + " ".join(NS3_FLAGS).encode() + str(prefix).encode()).hexdigest()[:12]
    exe = cache / "ns3-bin" / f"codel_many_flows-{key}"
    if not exe.is_file():
        exe.parent.mkdir(parents=True, exist_ok=True)
        cmd = [cxx, *NS3_FLAGS, f"-I{prefix / 'include'}", f"-I{COMMON.parent}", str(SOURCE),
               "-o", str(exe), f"-L{prefix / 'lib64'}", f"-Wl,-rpath,{prefix / 'lib64'}",
               *(f"-lns3.44-{m}" for m in NS3_MODULES)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise Failed(f"compiling {SOURCE.name} failed: {done.stderr[-2000:]}")
    return exe


def ns3_run(exe: Path, n: int, delay_ms: int, tcp: str) -> Outcome:
    with tempfile.TemporaryDirectory() as tmp:
        _, _, out = timed([str(exe), str(n), str(delay_ms), str(SECONDS), str(WARMUP), tcp],
                          Path(tmp), timeout=1800)
    found = dict(re.findall(r"^(\w+) (\S+)\s*$", out, flags=re.M))
    return Outcome(float(found["p50_sojourn_s"]), float(found["utilization"]),
                   float(found["goodput_mbps"]), int(found["sojourn_samples"]))


def rtt_range(n: int, delay_ms: int) -> str:
    """Two-way propagation delay of the shortest and longest path, in ms."""
    return f"{2 * (delay_ms + 2)}-{2 * (delay_ms + 1 + n)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "ackclock-bench")
    args = parser.parse_args()
    exe = build(args.cache)
    tcp = " / ".join(NS3_TCP)
    print(f"| flows | D (ms) | RTT (ms, propagation) | ackclock p50 sojourn (ms) "
          f"| ns-3 p50 sojourn (ms), {tcp} | utilisation: ackclock; ns-3 {tcp} "
          f"| goodput (Mb/s): ackclock; ns-3 {tcp} |")
    print("|---:|---:|---|---:|---|---|---|")
    for n, d in CASES:
        a = ackclock_run(n, d)
        b = [ns3_run(exe, n, d, t) for t in NS3_TCP]
        sojourn = " / ".join(f"{x.p50_sojourn_s * 1e3:.2f}" for x in b)
        util = " / ".join(f"{x.utilization:.3f}" for x in b)
        goodput = " / ".join(f"{x.goodput_mbps:.2f}" for x in b)
        print(f"| {n} | {d} | {rtt_range(n, d)} | {a.p50_sojourn_s * 1e3:.2f} | {sojourn} "
              f"| {a.utilization:.3f}; {util} | {a.goodput_mbps:.2f}; {goodput} |", flush=True)

if __name__ == "__main__":
    main()
