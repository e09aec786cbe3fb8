"""Seed 001's Figures 8 and 11-14 in ackclock (Figs. 6-7 are examples/seed001_scenario1.py,
Figs. 9-10 and Tables 1-4 examples/seed001_tables.py; docs/examples/seed001.md).

- Fig. 8: Tahoe against CBR (scenario 1) with 512-byte packets, the CBR rate swept as in
  Figs. 6-7 and on to 11 Mb/s.
- Figs. 11 and 12: Tahoe and Reno in scenario 3, a homogeneous population of N sources
  (N = 1 ... 45, started uniformly in [0, 1 s]); per-source throughput is what leaves the
  bottleneck queue divided by N.
- Figs. 13 and 14: scenario 3 with round trips of 0.03 s and 0.09 s. The study's captions say
  Reno, its text Tahoe; Reno is run here (the captions). The round trip is the propagation
  round trip 2 x (1 + d + 1) ms of the path, so the bottleneck's delay d is 13 ms and 43 ms
  (29 ms gives the other figures' 0.062 s).

Each point is one 250 s run (50 s warm-up), seed 1. Formula (5) (Mathis/Floyd) and formula (6)
(PFTK) use the run's loss rate and mean RTT; formula (6) is drawn twice, with T_0 the time
average of ns-2's `t_rtxcur_` (SRTT + 4 RTTVAR, the study's traced variable) and with the
timer's own RTO (at least 200 ms), since no single T_0 fits the study at both small and large
loss (docs/examples/seed001.md).

    python examples/seed001_figures.py [--quick] [--seconds 250] [--out results/seed001_figures]

--quick: 60 s runs (unless --seconds is given), fewer points. The CSV's `seconds` column is each
point's run length.
"""

from __future__ import annotations

import argparse
import runpy
from pathlib import Path
from typing import Any

import pandas as pd

import ackclock as ac
from ackclock.models import predictions as flow_predictions

HERE = Path(__file__).resolve().parent
TABLES = runpy.run_path(str(HERE / "seed001_tables.py"))
# Figs. 6-7's CBR rates, and three more: with 512-byte segments the loss stays below 1% up to
# 9.5 Mb/s, and the study's Fig. 8 speaks of "higher packet losses".
RATES_MBPS = (1, 2, 3, 4, 5, 6, 7, 8, 8.5, 9, 9.5, 10, 10.5, 11)
POPULATION = (1, 2, 3, 5, 7, 10, 15, 20, 25, 30, 35, 40, 45)
# (figure, variant, bottleneck delay, round trip in the caption)
SCENARIO3 = ((11, "tahoe", "29ms", None), (12, "reno", "29ms", None),
             (13, "reno", "13ms", 0.03), (14, "reno", "43ms", 0.09))


def fig8_point(rate: float, seconds: float) -> dict[str, Any]:
    sc = ac.load_scenario(HERE / "seed001_scenario1.toml", overrides=[
        "flow.tcp.variant=tahoe", "flow.tcp.packet_size=512", f"flow.cbr.app.rate={rate}Mb/s",
        f"run.duration={seconds}s", f"run.warmup={seconds / 5}s",
        f"flow.tcp.timer_granularity={TABLES['TICK']}", f"run.sample_interval={TABLES['SAMPLE']}"])
    res = ac.run_scenario(sc, progress=False)
    tcp = res.flows.set_index("flow").loc["tcp"]
    pred = flow_predictions(res).set_index("flow").loc["tcp"]
    t0 = TABLES["mean_rtxcur"](res.timeseries[res.timeseries.flow == "tcp"], seconds / 5)
    f5, f6 = TABLES["predictions"](tcp.loss_rate, tcp.mean_rtt_s, t0, 512)
    return {"figure": 8, "variant": "tahoe", "knob": rate, "loss_rate": tcp.loss_rate,
            "throughput_mbps": tcp.goodput_mbps, "formula5_mbps": f5, "formula6_mbps": f6,
            "t0_s": t0, "formula6_floored_mbps": float(pred.pftk_mbps),
            "mean_rtt_s": tcp.mean_rtt_s}


def run(seconds: float, quick: bool) -> pd.DataFrame:
    rates = RATES_MBPS if not quick else (2, 6, 9)
    pop = POPULATION if not quick else (2, 10, 35)
    rows = [fig8_point(r, seconds) for r in rates]
    for number, variant, delay, _ in SCENARIO3:
        for n in pop:
            r = TABLES["scenario3"](n, 1, seconds, variant, delay)
            rows.append({"figure": number, "variant": variant, "knob": n, **r})
    return pd.DataFrame(rows).assign(seconds=seconds)


def plot(t: pd.DataFrame, out: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    titles = {8: "Fig. 8: Tahoe vs CBR (scenario 1), 512-byte packets",
              11: "Fig. 11: Tahoe, homogeneous population (scenario 3)",
              12: "Fig. 12: Reno, homogeneous population (scenario 3)",
              13: "Fig. 13: Reno, scenario 3, RTT 0.03 s (bottleneck 13 ms)",
              14: "Fig. 14: Reno, scenario 3, RTT 0.09 s (bottleneck 43 ms)"}
    made = []
    for number, part in t.groupby("figure"):
        part = part.sort_values("loss_rate")
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.plot(part.loss_rate, part.throughput_mbps, "o", label="ackclock (simulated)")
        ax.plot(part.loss_rate, part.formula5_mbps, "--", label="formula (5), Mathis/Floyd")
        ax.plot(part.loss_rate, part.formula6_mbps, "-",
                label="formula (6), PFTK, T_0 = mean t_rtxcur_")
        ax.plot(part.loss_rate, part.formula6_floored_mbps, ":",
                label="formula (6), T_0 = the timer's RTO")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("packet loss rate p")
        ax.set_ylabel("TCP throughput per source (Mb/s)")
        ax.set_title(titles[int(number)], fontsize=9)
        ax.grid(True, alpha=0.3, which="both")
        ax.legend(fontsize=7)
        fig.tight_layout()
        name = f"seed001_fig{int(number):02d}.png"
        fig.savefig(out / name, dpi=110)
        plt.close(fig)
        made.append(name)
    return made


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="three points per figure, 60 s runs unless --seconds is given")
    ap.add_argument("--seconds", type=float, default=None,
                    help="each run's length (s; default 250, or 60 with --quick)")
    ap.add_argument("--out", type=Path, default=Path("results/seed001_figures"))
    args = ap.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else 60.0 if args.quick else 250.0
    if not seconds > 0:
        ap.error(f"--seconds: expected a positive number of seconds, got {seconds:g}")
    args.out.mkdir(parents=True, exist_ok=True)
    t = run(seconds, args.quick)
    t.to_csv(args.out / "seed001_figures.csv", index=False)
    cols = ["figure", "variant", "knob", "loss_rate", "throughput_mbps", "formula5_mbps",
            "formula6_mbps", "formula6_floored_mbps", "t0_s"]
    with pd.option_context("display.width", 160, "display.precision", 4):
        print(t[cols].to_string(index=False))
    made = plot(t, args.out)
    print(f"figures {', '.join(made)} in {args.out}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
