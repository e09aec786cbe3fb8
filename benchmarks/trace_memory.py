"""Memory of a traced run: 10 Reno flows over a 1 Gb/s, 10 ms bottleneck for 60 s with an
ns-2 trace and a pcap capture of the bottleneck, which stream to disk while the run goes.

    /usr/bin/time -v python benchmarks/trace_memory.py [--seconds 60] [--out DIR]

prints the trace sizes and the peak resident memory (docs/traces.md has the measurement).
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import ackclock as ac


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--out", type=Path, default=Path("results/trace_memory"))
    args = ap.parse_args()
    net = ac.Network.dumbbell(10, rate="1Gb/s", delay="10ms", queue_limit=1000,
                              access_rate="10Gb/s")
    net.defaults(window=10_000)  # windows large enough to fill the gigabit link
    net.trace("ns2", "bottleneck.tr", links=["r1->r2"])
    net.trace("pcap", "bottleneck.pcap", links=["r1->r2"])
    start = time.perf_counter()
    r = net.run(f"{args.seconds}s", out=args.out)
    wall = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    sizes = {p.name: p.stat().st_size / 1e6 for p in sorted(args.out.glob("bottleneck.*"))}
    total = r.flows["throughput_mbps"].sum()
    print(f"{args.seconds:g} s simulated in {wall:.1f} s; bottleneck throughput {total:.0f} Mb/s")
    for name, mb in sizes.items():
        print(f"{name}: {mb:,.0f} MB")
    print(f"peak resident memory: {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
