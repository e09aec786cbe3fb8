"""Seed 004 (an ns-3 course project on TCP): every experiment the study reports numbers for,
one command, each beside the study's own printout.

The topology is the study's: n1, n2 -> n3 -> n4 -> n5, n6, every link 10 ms, the bottleneck
n3 -> n4 at 1.5 Mb/s, the others 10 Mb/s, device queues of 100 packets under ns-3's default
root queue disc (FqCoDel, which ns-3 installs on every device unless the script removes it: the
`ns3` profile's queue without a `kind`); one bulk TCP flow n1 -> n5 with Reno congestion
control, ns-3's defaults otherwise (the `ns3` profile), 1200-byte segments (as
examples/seed004.toml). The study ran ns-3.34 and printed FlowMonitor's counts
for the flow: packets and bytes transmitted and received, "Packetloss rate" = (transmitted -
received) / transmitted, and throughput = received bytes x 8 / (last reception - first
transmission). The same counts here come from flows.csv: data packets sent and delivered,
their difference over what was sent (FlowMonitor-style loss: what is still in flight at the
end counts as lost, as in FlowMonitor), and wire bytes delivered over the run.

- Part 1, Q1: device queue of 10, 100 (the default) and 1000 packets at n3, 10 s (the study's
  "during the 10 seconds").
- Part 1, Q2 iii: throughput against the packet error rate (0.1, 0.01, 0.001, 0.0001), 100 s
  (the study's runs last 100 s by their byte counts); errors on the bottleneck, per packet.
- Part 1, Q3: receive window of 0.1, 1, 10 and 100 segments (`rcv_buffer`), 50 s.
- Part 2, Q4: Reno against Westwood at 0.5, 1 and 1.5 Mb/s of application rate: the study's
  ns-3.34 `TcpWestwood` defaults to the original Westwood (`westwood_original` here), shown
  beside Westwood+ (`westwood`); 60 s, throughput after 10 s, and the figure of both flows'
  throughput against time.

Writes tables.csv, tables.md, reno_vs_westwood.png and report.md (the tables and the figure on
one page) into --out.

    python examples/seeds/004/run.py [--quick] [--out results/seeds/004]

--quick shortens the runs (Q1 stays 10 s, Q2 20 s, Q3 10 s, Q4 12 s).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pandas as pd

import ackclock as ac

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _wrap import QUICK_NOTE, parser, write_report  # noqa: E402

SEGMENT = 1200

# The study's printouts: transmitted and received packets, loss rate, throughput (Mb/s).
STUDY_Q1 = {10: (1805, 1786, 0.0105263, 1.39177), 100: (2008, 1934, 0.0368526, 1.43549),
            1000: (2724, 2724, 0.0, 1.44156)}
STUDY_Q2 = {0.1: (254, 230, 0.0944882, 0.0189934), 0.01: (1874, 1851, 0.0122732, 0.154901),
            0.001: (8903, 8892, 0.00123554, 0.696178),
            0.0001: (31920, 31917, 0.00093985, 2.02514)}
STUDY_Q3 = {0.1: (3, 3, 0.0, 2.55844e-05), 1: (190, 190, 0.0, 0.0309089),
            10: (8953, 8953, 0.0, 1.48394), 100: (9097, 9043, 0.00593602, 1.48423)}


def network(queue: int = 100, error: float = 0.0, tcp: dict[str, Any] | None = None,
            name: str = "seed004") -> ac.Network:
    net = ac.Network(name, profile="ns3")
    net.nodes("n1", "n2", "n3", "n4", "n5", "n6")
    for a, b in (("n1", "n3"), ("n2", "n3"), ("n4", "n5"), ("n4", "n6")):
        net.link(a, b, rate="10Mb/s", delay="10ms", queue_limit=100)
    loss = {"kind": "bernoulli", "p": error} if error > 0 else None
    net.link("n3", "n4", rate="1.5Mb/s", delay="10ms", queue_limit=queue, loss=loss)
    net.tcp("tcp", "n1", "n5", cc="reno", packet_size=SEGMENT, **(tcp or {}))
    return net


def flowmon(net: ac.Network, seconds: float, seed: int = 1) -> dict[str, float]:
    """FlowMonitor's view of the one flow over the whole run."""
    f = net.run(duration=f"{seconds}s", seed=seed).flows.set_index("flow").loc["tcp"]
    sent, got = int(f.packets_sent), int(f.packets_delivered)
    return {"tx_packets": sent, "rx_packets": got,
            "loss": (sent - got) / sent if sent else 0.0,
            "throughput_mbps": float(f.throughput_mbps)}


def rows_for(question: str, knob: str, study: dict[float, tuple[float, float, float, float]],
             make: Any, seconds: float) -> list[dict[str, Any]]:
    rows = []
    for value, (tx, rx, loss, thr) in study.items():
        ours = flowmon(make(value), seconds)
        rows.append({"question": question, knob: value, **ours, "study_tx": tx,
                     "study_rx": rx, "study_loss": loss, "study_mbps": thr,
                     "diff_mbps": ours["throughput_mbps"] / thr - 1.0})
    return rows


def reno_vs_westwood(seconds: float, out: Path) -> pd.DataFrame:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = []
    fig, axes = plt.subplots(2, 3, figsize=(12, 6), sharex=True, sharey=True)
    for i, cc in enumerate(("westwood_original", "westwood")):
        for j, rate in enumerate(("0.5Mb/s", "1Mb/s", "1.5Mb/s")):
            net = ac.Network("seed004-reno-westwood", profile="ns3")
            net.nodes("n1", "n2", "n3", "n4", "n5", "n6")
            for a, b in (("n1", "n3"), ("n2", "n3"), ("n4", "n5"), ("n4", "n6")):
                net.link(a, b, rate="10Mb/s", delay="10ms", queue_limit=100)
            net.link("n3", "n4", rate="1.5Mb/s", delay="10ms", queue_limit=100)
            for name, src, dst, c in (("reno", "n1", "n5", "reno"), (cc, "n2", "n6", cc)):
                net.tcp(name, src, dst, cc=c, packet_size=SEGMENT, window=1000, start="1s",
                        app="cbr", rate=rate)
            res = net.run(duration=f"{seconds}s", warmup=f"{seconds / 6}s",
                          sample_interval="0.5s")
            f = res.flows.set_index("flow")
            rows.append({"question": "P2 Q4", "westwood": cc, "app_rate": rate,
                         "reno_mbps": float(f.loc["reno", "throughput_mbps"]),
                         "westwood_mbps": float(f.loc[cc, "throughput_mbps"])})
            ts = res.timeseries
            ax = axes[i][j]
            for name in ("reno", cc):
                s = ts[ts["flow"] == name]
                ax.plot(s["time_s"], s["throughput_mbps"], lw=0.8, label=name)
            ax.set_title(f"{rate} each", fontsize=9)
            ax.legend(fontsize=7)
    for ax in axes[-1]:
        ax.set_xlabel("time (s)")
    for ax in axes[:, 0]:
        ax.set_ylabel("throughput (Mb/s)")
    fig.suptitle("Seed 004 Figs. 27-29: Reno against Westwood (top) and Westwood+ (bottom)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(out / "reno_vs_westwood.png", dpi=110)
    plt.close(fig)
    return pd.DataFrame(rows)


def markdown(df: pd.DataFrame, knob: str) -> list[str]:
    lines = [f"| {knob} | tx packets | rx packets | loss | Mb/s | study tx | study rx | "
             "study loss | study Mb/s | vs study |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in df.itertuples():
        lines.append(f"| {getattr(r, knob):g} | {r.tx_packets} | {r.rx_packets} | "
                     f"{r.loss:.4f} | {r.throughput_mbps:.4g} | {r.study_tx} | {r.study_rx} | "
                     f"{r.study_loss:.4f} | {r.study_mbps:.4g} | {r.diff_mbps:+.1%} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--quick", action="store_true", help="shorter runs")
    ap.add_argument("--out", type=Path, default=Path("results/seeds/004"))
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    # Run lengths (s): the study's, or --quick's.
    t = ({"q1": 10.0, "q2": 20.0, "q3": 10.0, "q4": 12.0} if args.quick else
         {"q1": 10.0, "q2": 100.0, "q3": 50.0, "q4": 60.0})
    q1 = pd.DataFrame(rows_for("P1 Q1", "queue", STUDY_Q1, lambda q: network(queue=q),
                               t["q1"]))
    q2 = pd.DataFrame(rows_for("P1 Q2", "error_rate", STUDY_Q2, lambda p: network(error=p),
                               t["q2"]))
    q3 = pd.DataFrame(rows_for("P1 Q3", "rwnd_segments", STUDY_Q3,
                               lambda w: network(tcp={"rcv_buffer": int(w * SEGMENT)}),
                               t["q3"]))
    q4 = reno_vs_westwood(t["q4"], args.out)
    pd.concat([q1, q2, q3, q4]).to_csv(args.out / "tables.csv", index=False)
    lines = ["Part 1 Q1 (queue at n3):", "", *markdown(q1, "queue"), "",
             "Part 1 Q2 (packet error rate on n3 -> n4):", "", *markdown(q2, "error_rate"), "",
             "Part 1 Q3 (receive window, segments):", "", *markdown(q3, "rwnd_segments"), "",
             "Part 2 Q4 (Reno against Westwood, throughput after the warm-up):", "",
             "| westwood | app rate | Reno Mb/s | Westwood Mb/s |", "|---|---|---|---|"]
    lines += [f"| {r.westwood} | {r.app_rate} | {r.reno_mbps:.3f} | {r.westwood_mbps:.3f} |"
              for r in q4.itertuples()]
    (args.out / "tables.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    write_report(args.out, __doc__.splitlines()[0] + (QUICK_NOTE if args.quick else ""))
    print(f"wrote {args.out}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
