"""Seed 002's model in ackclock: total throughput of N Reno sources against the loss rate p
and against N (the study's Fig. 2/4 and Fig. 10 axes).

N Reno sources on 2 Mb/s access links, a 10 Mb/s bottleneck (50 ms each way) with Bernoulli
loss p and a buffer of bs packets, delayed-ACK sinks on ideal links, 1460 B segments, window 32,
the `ns2` profile, in both window accountings: packet-counted (ns-2) and byte-counted (growth
per byte acknowledged, as the study's IKRSimLib counts windows in bytes).
`validation/seed002_vs_ns2.py` runs the packet-counted model in ns-2 as well.

    python examples/seed002_model.py [--seconds 1500] [--out results/seed002]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

import ackclock as ac


def model(n: int, p: float, bs: int, seconds: int, unit: str = "packets") -> ac.Results:
    net = ac.Network(f"seed002-n{n}-p{p}-bs{bs}", profile="ns2")
    net.nodes("entry", "exit")
    net.link("entry", "exit", rate="10Mb/s", delay="50ms", queue_limit=bs, duplex=False,
             loss={"kind": "bernoulli", "p": p})
    net.link("exit", "entry", rate="10Mb/s", delay="50ms", duplex=False)
    net.defaults(packet_size=1460, window=32, sink="delack", window_unit=unit)
    for i in range(n):
        net.nodes(f"s{i}", f"d{i}")
        net.link(f"s{i}", "entry", rate="2Mb/s", delay="0ms")
        net.link(f"d{i}", "exit", rate="1e25Mb", delay="0ms")
        net.tcp(f"tcp{i}", f"s{i}", f"d{i}", start={"uniform": ["0s", "1s"]})
    return net.run(duration=f"{seconds}s", progress=False)


def sweep(ns: list[int], ps: list[float], bs: int, seconds: int,
          units: tuple[str, ...] = ("packets",)) -> pd.DataFrame:
    rows = []
    for unit in units:
        for n in ns:
            for p in ps:
                rows.append(_row(model(n, p, bs, seconds, unit), n, p, bs, unit))
    return pd.DataFrame(rows)


def _row(res: ac.Results, n: int, p: float, bs: int, unit: str) -> dict[str, object]:
    f = res.flows
    return {
        "window_unit": unit, "N": n, "p": p, "bs": bs,
        "throughput_mbps": f.throughput_mbps.sum(),
        "goodput_mbps": f.goodput_mbps.sum(),
        "loss_rate": f.packets_dropped.sum() / f.packets_sent.sum(),
        "timeouts": int(f.timeouts.sum()),
        "wall_s": res.summary["wall_s"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=1500)
    ap.add_argument("--out", type=Path, default=Path("results/seed002"))
    args = ap.parse_args()
    table = sweep([1, 2, 5, 10, 50], [0.0001, 0.001, 0.01, 0.05, 0.1], 200, args.seconds,
                  ("packets", "bytes"))
    args.out.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out / "throughput.csv", index=False)
    for unit, g in table.groupby("window_unit", sort=False):
        print(f"{unit}-counted windows: total throughput (Mb/s)")
        print(g.pivot(index="p", columns="N", values="throughput_mbps").round(3).to_string())

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for (unit, n), g in table.groupby(["window_unit", "N"], sort=False):
        style = "-" if unit == "packets" else "--"
        ax.plot(g.p, g.throughput_mbps, style, marker="o", label=f"N = {n}, {unit}")
    ax.set_xscale("log")
    ax.set_xlabel("packet loss probability p")
    ax.set_ylabel("total throughput (Mb/s)")
    ax.set_title("Seed 002's model, bs = 200 packets (ackclock, ns2 profile)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(args.out / "throughput_vs_p.png", dpi=120)
    print(f"results in {args.out}/")


if __name__ == "__main__":
    main()
