"""Seed 001's Tables 1-4 and Figures 9-10 in ackclock.

Scenario 2: one TCP against a UDP source with exponentially distributed inter-arrival times
(a Poisson source) over the RED bottleneck of examples/seed001_scenario1.toml. Scenario 3: a
homogeneous population of N Reno sources with start times uniform in [0 s, 1 s]; throughput is
what leaves the bottleneck queue divided by N, as the study measures it. Each case runs 10
replications of 250 s with a 50 s warm-up; the tables give mean and standard deviation of the
loss rate, the throughput and the predictions of formula (5) (Mathis/Floyd) and formula (6)
(PFTK) computed from each run's measured loss, RTT and time-averaged timeout, beside the
study's numbers. The timeout T_0 is the study's (its section 3.7): the time average of the
sender's current retransmission value, ns-2's `t_rtxcur_` = SRTT + 4 RTTVAR, which the study
made traceable; it is not floored (the timer itself waits at least `minrto_`, 200 ms in
ns-2.35), so it is taken here from the flows' SRTT and RTTVAR sampled every 10 ms after the
warm-up. `formula6_floored_mbps` gives formula (6) with the timer's own RTO instead.
Beside each standard deviation: its ratio to the study's (`std_ratio`) and the two-sided
p-value of the F test of equal variances (`std_f_p`; ours over --replications runs, the study's
over its 10), since a standard deviation from 10 runs is itself uncertain (the 95% range of the
ratio of two such standard deviations drawn from the same spread is 0.50-2.01).
Figures 9 and 10 sweep the UDP rate for Tahoe and Reno in scenario 2.

    python examples/seed001_tables.py [--replications 10] [--seconds 250] [--out results/seed001]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

import ackclock as ac
from ackclock.models import mathis, pftk

HERE = Path(__file__).resolve().parent
PAYLOAD = 1460
WINDOW = 100
# The study sets tcpTick_ 0.001 "to trace the timeout values more accurately" (section 3.7).
TICK = "1ms"

# The study's Tables 1-4 (mean, standard deviation).
STUDY = {
    "scenario 2, small loss": {"loss_rate": (0.0101, 0.0002), "throughput_mbps": (1.8865, 0.0120),
                               "formula5_mbps": (2.1482, 0.0237),
                               "formula6_mbps": (2.0847, 0.0246)},
    "scenario 2, large loss": {"loss_rate": (0.0970, 0.0028), "throughput_mbps": (0.3480, 0.0065),
                               "formula5_mbps": (0.6092, 0.0098),
                               "formula6_mbps": (0.3498, 0.0159)},
    "scenario 3, small loss": {"loss_rate": (0.0153, 0.0001), "throughput_mbps": (1.3132, 0.0036),
                               "formula5_mbps": (1.7011, 0.0043),
                               "formula6_mbps": (1.6238, 0.0046)},
    "scenario 3, large loss": {"loss_rate": (0.1156, 0.0005), "throughput_mbps": (0.2853, 0.0000),
                               "formula5_mbps": (0.5540, 0.0025),
                               "formula6_mbps": (0.2593, 0.0135)},
}
# The knobs that put the loss near the study's: the UDP rate (scenario 2), N (scenario 3).
# The study's replications per case ("10 replications").
STUDY_RUNS = 10
CASES: dict[str, tuple[str, str | int]] = {
    "scenario 2, small loss": ("udp", "6.9Mb/s"), "scenario 2, large loss": ("udp", "9.8Mb/s"),
    "scenario 3, small loss": ("population", 7), "scenario 3, large loss": ("population", 35)}


SAMPLE = "10ms"


def predictions(loss: float, rtt: float, rto: float,
                payload: int = PAYLOAD) -> tuple[float, float]:
    to_mbps = 8 / 1e6
    return (float(mathis(payload, rtt, loss)) * to_mbps,
            float(pftk(payload, rtt, loss, rto, WINDOW, b=1)) * to_mbps)


def mean_rtxcur(ts: pd.DataFrame, warmup: float) -> float:
    """The time average of SRTT + 4 RTTVAR (ns-2's `t_rtxcur_`) after the warm-up, over the
    flows' samples taken at a fixed interval, averaged over the flows."""
    ts = ts[(ts.time_s > warmup) & (ts.srtt_s > 0)]
    per_flow = (ts.srtt_s + 4 * ts.rttvar_s).groupby(ts.flow).mean()
    return float(per_flow.mean())


def scenario2(rate: str, seed: int, seconds: float, variant: str = "reno") -> dict[str, float]:
    sc = ac.load_scenario(HERE / "seed001_scenario1.toml", [
        "flow.cbr.app.kind=poisson", f"flow.cbr.app.rate={rate}", f"flow.tcp.variant={variant}",
        f"run.duration={seconds}s", f"run.warmup={seconds / 5}s", f"run.seed={seed}",
        f"flow.tcp.timer_granularity={TICK}", f"run.sample_interval={SAMPLE}"])
    res = ac.run_scenario(sc, progress=False)
    tcp = res.flows.set_index("flow").loc["tcp"]
    t0 = mean_rtxcur(res.timeseries[res.timeseries.flow == "tcp"], seconds / 5)
    f5, f6 = predictions(tcp.loss_rate, tcp.mean_rtt_s, t0)
    return {"loss_rate": tcp.loss_rate, "throughput_mbps": tcp.goodput_mbps,
            "formula5_mbps": f5, "formula6_mbps": f6, "t0_s": t0,
            "formula6_floored_mbps": predictions(tcp.loss_rate, tcp.mean_rtt_s,
                                                 tcp.mean_rto_s)[1]}


def scenario3(n: int, seed: int, seconds: float, variant: str = "reno",
              delay: str = "29ms") -> dict[str, float]:
    """``delay``: the bottleneck's (29 ms: a 62 ms propagation round trip; seed 001's Figs. 13
    and 14 change the round trip)."""
    net = ac.Network(f"seed001-population-{n}")
    net.nodes("s", "r1", "r2", "d")
    net.link("s", "r1", rate="100Mb/s", delay="1ms", queue_limit=100)
    net.link("r1", "r2", rate="10Mb/s", delay=delay, queue="red", queue_limit=100,
             max_thresh=20)
    net.link("r2", "d", rate="100Mb/s", delay="1ms", queue_limit=100)
    for i in range(n):
        net.tcp(f"tcp{i}", "s", "d", window=WINDOW, packet_size=PAYLOAD, variant=variant,
                timer_granularity=TICK, start={"uniform": ["0s", "1s"]})
    res = net.run(duration=f"{seconds}s", warmup=f"{seconds / 5}s", seed=seed,
                  sample_interval=SAMPLE)
    f = res.flows
    q = res.queues.set_index("link").loc["r1->r2"]
    span = seconds * 4 / 5
    loss = f.packets_dropped.sum() / f.packets_sent.sum()
    # Payload bytes of the segments that left the bottleneck queue, per source.
    wire = PAYLOAD + 40
    throughput = q.departed_bytes * PAYLOAD / wire * 8 / span / 1e6 / n
    rtt = float(np.average(f.mean_rtt_s, weights=f.rtt_samples))
    t0 = mean_rtxcur(res.timeseries, seconds / 5)
    f5, f6 = predictions(loss, rtt, t0)
    return {"loss_rate": loss, "throughput_mbps": throughput, "formula5_mbps": f5,
            "formula6_mbps": f6, "t0_s": t0,
            "formula6_floored_mbps": predictions(loss, rtt, float(f.mean_rto_s.mean()))[1]}


def f_test(std: float, runs: int, study_std: float) -> float:
    """Two-sided p-value of the F test that our ``runs`` runs and the study's 10 come from
    spreads of the same variance (nan where a deviation is missing or zero)."""
    if not (std > 0 and study_std > 0 and runs > 1):
        return float("nan")
    cdf = float(stats.f.cdf((std / study_std) ** 2, runs - 1, STUDY_RUNS - 1))
    return min(1.0, 2 * min(cdf, 1 - cdf))


def tables(replications: int, seconds: float) -> pd.DataFrame:
    rows: list[dict[str, Any]] = []
    for case, (kind, knob) in CASES.items():
        runs = pd.DataFrame([
            scenario2(str(knob), seed, seconds) if kind == "udp"
            else scenario3(int(knob), seed, seconds)
            for seed in range(1, replications + 1)])
        for metric in (*STUDY[case], "t0_s", "formula6_floored_mbps"):
            study = STUDY[case].get(metric, (float("nan"), float("nan")))
            mean = runs[metric].mean()
            std = runs[metric].std(ddof=1)
            rows.append({"case": case, "metric": metric, "mean": mean, "std": std,
                         "study_mean": study[0], "study_std": study[1],
                         "diff_vs_study": mean / study[0] - 1.0,
                         "std_ratio": std / study[1] if study[1] > 0 else float("nan"),
                         "std_f_p": f_test(std, replications, study[1])})
    return pd.DataFrame(rows)


def figures(out: Path, seconds: float) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rates = ("3Mb/s", "5Mb/s", "6Mb/s", "7Mb/s", "8Mb/s", "8.5Mb/s", "9Mb/s", "9.5Mb/s",
             "10Mb/s", "10.5Mb/s")
    for number, variant in ((9, "tahoe"), (10, "reno")):
        part = pd.DataFrame([scenario2(r, 1, seconds, variant) for r in rates])
        part = part.sort_values("loss_rate")
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.plot(part.loss_rate, part.throughput_mbps, "o", label="ackclock (simulated)")
        ax.plot(part.loss_rate, part.formula5_mbps, "--", label="formula (5), Mathis/Floyd")
        ax.plot(part.loss_rate, part.formula6_mbps, "-", label="formula (6), PFTK")
        ax.set_xscale("log")
        ax.set_xlabel("packet loss rate p")
        ax.set_ylabel("TCP throughput (Mb/s)")
        ax.set_title(f"Fig. {number}: {variant.capitalize()} vs exponential UDP (scenario 2)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(out / f"seed001_fig{number}_{variant}.png", dpi=120)
        plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replications", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=250.0)
    ap.add_argument("--out", type=Path, default=Path("results/seed001"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    table = tables(args.replications, args.seconds)
    table.to_csv(args.out / "seed001_tables.csv", index=False)
    with pd.option_context("display.width", 160, "display.precision", 4):
        print(table.to_string(index=False))
    figures(args.out, args.seconds)
    print(f"wrote {args.out}/")


if __name__ == "__main__":
    main()
