"""Seed 004, part 2: TCP against UDP on the 6-node topology, and the UDP rate at which the two
share the 1.5 Mb/s bottleneck fairly.

Sweeps the CBR rate of examples/seed004.toml from 0.25 to 1.5 Mb/s, 3 replications each, with
`ackclock.run_sweep` on all local cores; plots TCP and UDP throughput (with 95% confidence
intervals) against the UDP sending rate, and reports the rate where the two throughputs cross
(the study found 0.725 Mb/s). Writes runs.csv, summary.csv and seed004_fair_share.png.

    python examples/seed004_fair_share.py [--out results/seed004-fair-share]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import ackclock as ac
from ackclock.plot import _save, sweep_figure
from ackclock.sweep import summarize

HERE = Path(__file__).resolve().parent
RATES = [0.25, 0.5, 0.6, 0.7, 0.725, 0.75, 0.8, 0.9, 1.0, 1.25, 1.5]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("results/seed004-fair-share"))
    ap.add_argument("--replications", type=int, default=3)
    args = ap.parse_args()
    runs = ac.run_sweep(HERE / "seed004.toml",
                        grid={"flow.cbr.app.rate": [f"{r}Mb/s" for r in RATES]},
                        replications=args.replications, out=args.out)
    # The grid column's short name (runs.attrs["grid"] maps it to its key).
    rate = next(c for c, key in runs.attrs["grid"].items() if key == "flow.cbr.app.rate")
    summary = summarize(runs, [rate])
    summary["udp_rate_mbps"] = summary[rate].str.replace("Mb/s", "").astype(float)
    tcp = summary[summary.flow == "tcp"].sort_values("udp_rate_mbps")
    udp = summary[summary.flow == "cbr"].sort_values("udp_rate_mbps")
    gap = tcp.throughput_mbps_mean.to_numpy() - udp.throughput_mbps_mean.to_numpy()
    x = tcp.udp_rate_mbps.to_numpy()
    i = int(np.argmax(gap <= 0))  # first rate where UDP gets at least TCP's share
    fair = x[i - 1] + (x[i] - x[i - 1]) * gap[i - 1] / (gap[i - 1] - gap[i]) if i else x[0]
    print(tcp[["udp_rate_mbps", "throughput_mbps_mean", "throughput_mbps_ci95"]]
          .rename(columns=lambda c: c.replace("throughput_mbps", "tcp")).to_string(index=False))
    print(f"fair share: UDP at {fair:.3f} Mb/s (the study: 0.725 Mb/s)")
    fig = sweep_figure(summary, "udp_rate_mbps", "throughput_mbps",
                       title="Seed 004: TCP and UDP throughput against the UDP rate")
    fig.axes[0].axvline(fair, color="grey", linestyle=":", label=f"fair share {fair:.3f} Mb/s")
    fig.axes[0].set_xlabel("UDP sending rate (Mb/s)")
    fig.axes[0].legend()
    print(args.out / _save(fig, args.out / "seed004_fair_share.png"))


if __name__ == "__main__":
    main()
