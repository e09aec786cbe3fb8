"""Seed 001's scenario 2 (TCP against a Poisson UDP source) in ns-2.35 and in ackclock.

The study's Table 1 (scenario 2, small loss) has the TCP at 1.8865 Mb/s at 1.01% loss. This
runs the scenario in ns-2.35 (validation/ns2/seed001_poisson.tcl: Application/Traffic/Exponential
with burst_time_ 0, one packet per burst and exponential gaps) and in ackclock
(examples/seed001_tables.py's scenario 2: the `poisson` application) at the same mean UDP rates,
over the same seeds (each simulator draws its own random numbers), and prints the means and
standard deviations of the TCP's loss rate and goodput (data acknowledged, retransmissions
excluded, as the study measures it) over 50-250 s.

    python validation/seed001_scenario2.py [--rates 6.9 7.0] [--seeds 10]   # needs ns-2 (`ns`)
"""

from __future__ import annotations

import argparse
import runpy
import statistics
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "validation" / "ns2" / "seed001_poisson.tcl"
SECONDS, WARMUP = 250.0, 50.0


def ns2(variant: str, mbps: float, seed: int, seconds: float = SECONDS,
        warmup: float = WARMUP) -> dict[str, float]:
    """One ns-2.35 run: loss_rate, goodput_mbps, mean_rtt_s (and the raw counts)."""
    out = subprocess.run(["ns", str(SCRIPT), variant, str(mbps), str(seconds), str(warmup),
                          str(seed)], capture_output=True, text=True, check=True,
                         timeout=300).stdout
    return {k: float(v) for k, v in (line.split() for line in out.splitlines())}


def ours(variant: str, mbps: float, seed: int, seconds: float = SECONDS) -> dict[str, float]:
    """The same case through examples/seed001_tables.py (its warm-up is a fifth of the run)."""
    tables: dict[str, Any] = runpy.run_path(str(ROOT / "examples" / "seed001_tables.py"))
    r = tables["scenario2"](f"{mbps}Mb/s", seed, seconds, variant.lower())
    return {"loss_rate": r["loss_rate"], "goodput_mbps": r["throughput_mbps"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rates", type=float, nargs="+", default=[6.9, 7.0],
                    help="mean UDP rates (Mb/s)")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--variant", default="Reno", choices=["Reno", "Tahoe"])
    args = ap.parse_args()
    print("| UDP (Mb/s) | simulator | loss rate | std | goodput (Mb/s) | std |")
    print("|---|---|---|---|---|---|")
    for mbps in args.rates:
        for name, run in (("ns-2.35", ns2), ("ackclock", ours)):
            runs = [run(args.variant, mbps, s) for s in range(1, args.seeds + 1)]
            cols = [f"{f(r[k] for r in runs):.4f}" for k in ("loss_rate", "goodput_mbps")
                    for f in (statistics.mean, statistics.stdev)]
            print(f"| {mbps} | {name} | " + " | ".join(cols) + " |")


if __name__ == "__main__":
    main()
