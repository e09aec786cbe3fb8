"""Seed 004's "another queueing scheme" question: TCP Reno and a CBR flow at its fair-share rate
on the 6-node topology, with DropTail, RED, CoDel, FQ-CoDel and PIE at the bottleneck.

Topology (seed 004): n1, n2 -> n3 -> n4 -> n5, n6; every link 10 ms; the bottleneck n3-n4 at
1.5 Mb/s, the others 10 Mb/s; 100-packet buffers. Flow 1: TCP (FTP, Reno) n1 -> n5, flow 2: UDP CBR
n2 -> n6 at 0.725 Mb/s (the study's fair-share rate), 1200-byte packets, the `ns3` profile.
For each discipline, 3 seeds of 60 s (10 s warm-up): throughput of both flows, the TCP's loss
rate and mean RTT, and the bottleneck's median queueing delay. docs/examples/seed004_queues.md
discusses the result.

    python examples/seed004_queues.py [--seconds 60] [--out results/seed004]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

import ackclock as ac

DISCIPLINES = ("droptail", "red", "codel", "fq_codel", "pie")


def run(queue: str, seed: int, seconds: float) -> dict[str, object]:
    net = ac.Network(f"seed004-{queue}", profile="ns3")
    net.nodes("n1", "n2", "n3", "n4", "n5", "n6")
    for a, b in (("n1", "n3"), ("n2", "n3"), ("n4", "n5"), ("n4", "n6")):
        net.link(a, b, rate="10Mb/s", delay="10ms", queue_limit=100)
    net.link("n3", "n4", rate="1.5Mb/s", delay="10ms", queue=queue, queue_limit=100)
    net.tcp("tcp", "n1", "n5", cc="reno", packet_size=1200)
    net.udp("cbr", "n2", "n6", packet_size=1200, rate="0.725Mb/s")
    res = net.run(duration=f"{seconds}s", warmup=f"{seconds / 6}s", seed=seed)
    f = res.flows.set_index("flow")
    q = res.queues.set_index("link").loc["n3->n4"]
    return {"queue": queue, "seed": seed, "tcp_mbps": f.loc["tcp", "throughput_mbps"],
            "udp_mbps": f.loc["cbr", "throughput_mbps"], "tcp_loss": f.loc["tcp", "loss_rate"],
            "udp_loss": f.loc["cbr", "loss_rate"], "tcp_rtt_ms": f.loc["tcp", "mean_rtt_s"] * 1e3,
            "p50_sojourn_ms": q.p50_sojourn_s * 1e3, "utilization": q.utilization}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--out", type=Path, default=Path("results/seed004"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    runs = pd.DataFrame([run(q, s, args.seconds) for q in DISCIPLINES for s in (1, 2, 3)])
    runs.to_csv(args.out / "seed004_queues_runs.csv", index=False)
    summary = runs.drop(columns="seed").groupby("queue", sort=False).mean()
    summary.to_csv(args.out / "seed004_queues.csv")
    with pd.option_context("display.width", 160, "display.precision", 3):
        print(summary.to_string())
    print(f"wrote {args.out}/")


if __name__ == "__main__":
    main()
