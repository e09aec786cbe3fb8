"""Seed 004, part 2, question 2: two TCP flows through the 1.5 Mb/s bottleneck, each sending at
0.5, 1 or 1.5 Mb/s (ns-3's MyApp: a paced application writing into the connection):

- windows: flow 1 with a maximum window of 30 packets, flow 2 with 6;
- packet sizes: flow 1 with 1000-byte segments, flow 2 with 500-byte ones;
- Reno vs Westwood: flow 1 Reno, flow 2 Westwood+, same window.

The topology is examples/seed004.toml's (n1, n2 -> n3 -> n4 -> n5, n6; 10 Mb/s, 10 ms links, the
n3-n4 bottleneck at 1.5 Mb/s, 100-packet DropTail queues), flow 1 n1 -> n5, flow 2 n2 -> n6,
both from 1 s for 60 s, the `ns3` profile (ns-3's defaults) with Reno congestion control. Prints
each case's mean throughputs (after 10 s) with Jain's index and plots both flows' throughput
against time (the study's Figs. 20-29).

    python examples/seed004_two_flows.py [--out results/seed004-two-flows] [--seconds 60]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pandas as pd

import ackclock as ac
from ackclock.metrics import jain

RATES = ("0.5Mb/s", "1Mb/s", "1.5Mb/s")
# Each case: flow 1's and flow 2's TCP settings.
CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "windows 30 vs 6": ({"window": 30}, {"window": 6}),
    "packets 1000 vs 500 B": ({"packet_size": 1000}, {"packet_size": 500}),
    "Reno vs Westwood": ({"cc": "reno"}, {"cc": "westwood"}),
}


def network(case: str, rate: str) -> ac.Network:
    net = ac.Network("seed004-two-flows", profile="ns3")
    net.nodes("n1", "n2", "n3", "n4", "n5", "n6")
    for a, b in (("n1", "n3"), ("n2", "n3"), ("n4", "n5"), ("n4", "n6")):
        net.link(a, b, rate="10Mb/s", delay="10ms", queue_limit=100)
    # The study's drop-tail queue at the bottleneck, not the ns3 profile's default stack.
    net.link("n3", "n4", rate="1.5Mb/s", delay="10ms", queue="droptail", queue_limit=100)
    # The study's default segment size, and a window large enough to leave flow control out
    # of it except where a case sets one.
    net.defaults(cc="reno", packet_size=1200, window=1000)
    for i, (src, dst) in enumerate((("n1", "n5"), ("n2", "n6"))):
        params = dict(CASES[case][i])
        net.tcp(f"flow{i + 1}", src, dst, app="cbr", rate=rate, start="1s", **params)
    return net


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("results/seed004-two-flows"))
    ap.add_argument("--seconds", type=float, default=60.0)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows, series = [], {}
    for case in CASES:
        for rate in RATES:
            r = network(case, rate).run(f"{args.seconds}s", warmup="10s", sample_interval="1s")
            f = r.flows.set_index("flow")
            t1, t2 = f.loc["flow1", "throughput_mbps"], f.loc["flow2", "throughput_mbps"]
            rows.append({"case": case, "app rate": rate, "flow 1 (Mb/s)": t1,
                         "flow 2 (Mb/s)": t2, "Jain": float(jain([t1, t2])),
                         "drops 1": f.loc["flow1", "packets_dropped"],
                         "drops 2": f.loc["flow2", "packets_dropped"]})
            series[(case, rate)] = r.timeseries
    table = pd.DataFrame(rows)
    table.to_csv(args.out / "two_flows.csv", index=False)
    with pd.option_context("display.width", 160, "display.precision", 3):
        print(table.to_string(index=False))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(CASES), len(RATES), figsize=(13, 9), sharex=True, sharey=True)
    for i, case in enumerate(CASES):
        for j, rate in enumerate(RATES):
            ax = axes[i][j]
            ts = series[(case, rate)]
            for flow in ("flow1", "flow2"):
                part = ts[ts.flow == flow]
                ax.plot(part.time_s, part.throughput_mbps, label=flow, linewidth=0.8)
            ax.set_title(f"{case}, {rate}", fontsize=9)
            if i == len(CASES) - 1:
                ax.set_xlabel("time (s)")
            if j == 0:
                ax.set_ylabel("throughput (Mb/s)")
    axes[0][0].legend()
    fig.tight_layout()
    fig.savefig(args.out / "two_flows.png", dpi=110)
    print(f"wrote {args.out}/")


if __name__ == "__main__":
    main()
