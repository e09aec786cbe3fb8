"""Seed 001's scenario 1 in ackclock: Tahoe and Reno against CBR over a RED bottleneck.

For each CBR rate (the knob that sets the TCP's loss rate) and each variant, one 250 s run
(50 s warm-up) of examples/seed001_scenario1.toml gives the TCP's throughput (acknowledged
data, as the study measures it), loss rate, mean RTT and mean RTO, with the Mathis/Floyd
bound (formula 5) and the PFTK approximation (formula 6) from those measurements. Writes
seed001_scenario1.csv and a throughput-vs-loss plot per variant (the study's Figs. 6 and 7).

    python examples/seed001_scenario1.py [--seconds 250] [--out results/seed001]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

import ackclock as ac
from ackclock.models import predictions

HERE = Path(__file__).resolve().parent
RATES_MBPS = (1, 2, 3, 4, 5, 6, 7, 8, 8.5, 9, 9.5)


def one(variant: str, rate: float, seconds: float) -> dict[str, float | str]:
    sc = ac.load_scenario(HERE / "seed001_scenario1.toml", overrides=[
        f"flow.tcp.variant={variant}", f"flow.cbr.app.rate={rate}Mb/s",
        f"run.duration={seconds}s", f"run.warmup={seconds / 5}s"])
    res = ac.run_scenario(sc, progress=False)
    tcp = res.flows.set_index("flow").loc["tcp"]
    pred = predictions(res).set_index("flow").loc["tcp"]
    return {"variant": variant, "cbr_mbps": rate, "loss_rate": tcp.loss_rate,
            "throughput_mbps": tcp.goodput_mbps, "mean_rtt_s": tcp.mean_rtt_s,
            "mean_rto_s": pred.rto_s, "timeouts": tcp.timeouts,
            "mathis_mbps": pred.mathis_mbps, "pftk_mbps": pred.pftk_mbps}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=250.0)
    ap.add_argument("--out", type=Path, default=Path("results/seed001"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = [one(v, r, args.seconds) for v in ("tahoe", "reno") for r in RATES_MBPS]
    table = pd.DataFrame(rows)
    table.to_csv(args.out / "seed001_scenario1.csv", index=False)
    with pd.option_context("display.width", 160, "display.precision", 4):
        print(table.to_string(index=False))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for variant, part in table.groupby("variant"):
        part = part.sort_values("loss_rate")
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.plot(part.loss_rate, part.throughput_mbps, "o", label="ackclock (simulated)")
        ax.plot(part.loss_rate, part.mathis_mbps, "--", label="formula (5), Mathis/Floyd")
        ax.plot(part.loss_rate, part.pftk_mbps, "-", label="formula (6), PFTK")
        ax.set_xscale("log")
        ax.set_xlabel("packet loss rate p")
        ax.set_ylabel("TCP throughput (Mb/s)")
        ax.set_title(f"{variant.capitalize()} vs CBR over RED (seed 001, scenario 1)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.out / f"seed001_scenario1_{variant}.png", dpi=120)
        plt.close(fig)
    print(f"wrote {args.out}/")


if __name__ == "__main__":
    main()
