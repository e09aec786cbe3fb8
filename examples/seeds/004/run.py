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

- Part 1, Q2 i-ii (the study's Figs. 5-7): the Q1 flow (100-packet queue) over 100 s (the
  study's "ran for 100s seconds"), its cwnd, RTT samples, smoothed RTT (ns-3's EstimatedRTT)
  and RTO traced at every change (tcp_trace.csv): cwnd_rtt_rto.png.
- Part 2, Q1 iii: the TCP flow n1 -> n5 and a UDP CBR flow n2 -> n6 at the study's fair-share
  rate of 0.725 Mb/s (exact gaps, as ns-3's OnOffApplication), FlowMonitor's counts for the
  TCP data (the study's flow 1), the CBR (flow 2) and the TCP's ACKs (flow 3). The run's shape
  is what the study's printout implies: its CBR sent 8850 packets, 50.0 s at 0.725 Mb/s, and
  its last reception came 0.37 s later, the TCP's 0.6 s after that; so the CBR runs 0-50 s
  and the run 51 s. Twice: with the text's 1200-byte packets, and with the packet sizes the
  printout's byte counts imply (540-byte CBR packets: ns-3's OnOffApplication default of 512
  bytes of payload; about 1050-byte TCP packets: 1000-byte segments); and with those sizes
  under the text's "drop-tail queue" alone (no FqCoDel above it). Throughput is
  FlowMonitor's: received IP bytes x 8 / (last reception - first transmission) (flows_detail,
  less the 2 bytes of PPP header the `ns3` profile puts on each packet).

- Part 2 Q1 i-ii, iv, Q2 and Q3, which the study answers with figures only: the examples that
  redo them run into folders of --out, as themselves (docs/examples/seed004_queues.md,
  seed004_two_flows.md): fair_share/ (examples/seed004_fair_share.py: TCP and UDP throughput
  against the CBR rate and where they cross, the study's Figs. 16-18 and its 0.725 Mb/s),
  queues/ (examples/seed004_queues.py: the TCP and the CBR under each queue discipline,
  question iv) and two_flows/ (examples/seed004_two_flows.py: windows of 30 and 6 packets,
  packet sizes, Reno against Westwood+, Figs. 20-29).

Every count is beside the study's, with the difference (ours / study's - 1; empty where the
study's value is 0). Writes tables.csv, tables.md, cwnd_rtt_rto.png, reno_vs_westwood.png and
report.md (the tables and figures on one page) into --out.

    python examples/seeds/004/run.py [--quick] [--out results/seeds/004]

--quick shortens the runs (Q1 stays 10 s, Q2 20 s, Q3 10 s, Q4 12 s, Figs. 5-7 20 s; part 2
Q1 keeps its 51 s, which take a fraction of a second; the other part 2 examples 12 s runs, the
fair-share sweep one replication).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import ackclock as ac

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _wrap import EXAMPLES, QUICK_NOTE, parser, write_report  # noqa: E402

SEGMENT = 1200

# The study's printouts: transmitted and received packets, loss rate, throughput (Mb/s).
STUDY_Q1 = {10: (1805, 1786, 0.0105263, 1.39177), 100: (2008, 1934, 0.0368526, 1.43549),
            1000: (2724, 2724, 0.0, 1.44156)}
STUDY_Q2 = {0.1: (254, 230, 0.0944882, 0.0189934), 0.01: (1874, 1851, 0.0122732, 0.154901),
            0.001: (8903, 8892, 0.00123554, 0.696178),
            0.0001: (31920, 31917, 0.00093985, 2.02514)}
STUDY_Q3 = {0.1: (3, 3, 0.0, 2.55844e-05), 1: (190, 190, 0.0, 0.0309089),
            10: (8953, 8953, 0.0, 1.48394), 100: (9097, 9043, 0.00593602, 1.48423)}
# Part 2 Q1 iii's printout ("Results for TCP/UDP CBR"): per flow, transmitted and received
# packets, loss rate, throughput (Mb/s). Flow 3 is the TCP's ACKs (2393 packets of 54 bytes).
STUDY_P2Q1 = {"tcp": (4556, 4522, 0.00746269, 0.743181), "cbr": (8850, 8800, 0.00564972, 0.754782),
              "ack": (2393, 2393, 0.0, 0.0203449)}
# The ns3 profile's PPP header, on every packet's wire size; FlowMonitor counts IP bytes.
PPP_HEADER = 2


def network(queue: int = 100, error: float = 0.0, tcp: dict[str, Any] | None = None,
            name: str = "seed004", kind: str | None = None) -> ac.Network:
    """``kind``: the bottleneck's queue discipline alone (None: ns-3's default stack, FqCoDel
    above the device queue)."""
    net = ac.Network(name, profile="ns3")
    net.nodes("n1", "n2", "n3", "n4", "n5", "n6")
    for a, b in (("n1", "n3"), ("n2", "n3"), ("n4", "n5"), ("n4", "n6")):
        net.link(a, b, rate="10Mb/s", delay="10ms", queue_limit=100)
    loss = {"kind": "bernoulli", "p": error} if error > 0 else None
    net.link("n3", "n4", rate="1.5Mb/s", delay="10ms", queue_limit=queue, loss=loss,
             queue=kind)
    net.tcp("tcp", "n1", "n5", **{"cc": "reno", "packet_size": SEGMENT, **(tcp or {})})
    return net


def flowmon(net: ac.Network, seconds: float, seed: int = 1) -> dict[str, float]:
    """FlowMonitor's view of the one flow over the whole run; `dropped` are the packets the
    network dropped (queue or errors), `in_flight_end` what was sent but neither dropped nor
    received when the run stopped (FlowMonitor counts both as lost)."""
    f = net.run(duration=f"{seconds}s", seed=seed).flows.set_index("flow").loc["tcp"]
    sent, got = int(f.packets_sent), int(f.packets_delivered)
    return {"tx_packets": sent, "rx_packets": got,
            "loss": (sent - got) / sent if sent else 0.0,
            "throughput_mbps": float(f.throughput_mbps), "dropped": int(f.packets_dropped),
            "in_flight_end": sent - got - int(f.packets_dropped)}


def diff(ours: float, study: float) -> float:
    """ours / study's - 1 (nan where the study's value is 0)."""
    return ours / study - 1.0 if study else float("nan")


def with_diffs(row: dict[str, Any], tx: float, rx: float, loss: float,
               thr: float) -> dict[str, Any]:
    """``row`` with the study's four printed values and the difference of each cell."""
    return {**row, "study_tx": tx, "study_rx": rx, "study_loss": loss, "study_mbps": thr,
            "diff_tx": diff(row["tx_packets"], tx), "diff_rx": diff(row["rx_packets"], rx),
            "diff_loss": diff(row["loss"], loss),
            "diff_mbps": diff(row["throughput_mbps"], thr)}


def rows_for(question: str, knob: str, study: Mapping[Any, tuple[float, float, float, float]],
             make: Any, seconds: float) -> list[dict[str, Any]]:
    return [with_diffs({"question": question, knob: value, **flowmon(make(value), seconds)},
                       *printed) for value, printed in study.items()]


def tcp_and_cbr(sizes: str, segment: int, cbr_payload: int,
                kind: str | None = None) -> list[dict[str, Any]]:
    """Part 2 Q1 iii: the Q1 flow and a 0.725 Mb/s CBR flow n2 -> n6 from 0 to 50 s, 51 s in
    all (the shape the study's printout implies; module docstring), FlowMonitor's counts for
    the TCP's data, the CBR and the TCP's ACKs beside the study's flows 1, 2 and 3."""
    net = network(tcp={"packet_size": segment}, name="seed004-tcp-udp", kind=kind)
    net.udp("cbr", "n2", "n6", packet_size=cbr_payload, rate="0.725Mb/s", stop="50s")
    d = net.run(duration="51s").flows_detail
    rows = []
    for name, flow, direction in (("tcp", "tcp", "data"), ("cbr", "cbr", "data"),
                                  ("ack", "tcp", "ack")):
        r = d[(d["flow"] == flow) & (d["direction"] == direction)].iloc[0]
        tx, rx = int(r.tx_packets), int(r.rx_packets)
        ip_bytes = int(r.rx_bytes) - PPP_HEADER * rx
        row = {"question": "P2 Q1", "sizes": sizes, "flow": name, "tx_packets": tx,
               "rx_packets": rx, "loss": (tx - rx) / tx,
               "throughput_mbps": ip_bytes * 8 / (r.last_rx_s - r.first_tx_s) / 1e6,
               "dropped": int(r.lost_packets), "in_flight_end": tx - rx - int(r.lost_packets)}
        rows.append(with_diffs(row, *STUDY_P2Q1[name]))
    return rows


def cwnd_rtt_rto(seconds: float, out: Path) -> None:
    """The study's Figs. 5-7: the Q1 flow's cwnd, RTT samples with the smoothed RTT (ns-3's
    EstimatedRTT: RFC 6298's SRTT) and its RTO, at every change (tcp_trace.csv)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    net = network(tcp={"trace": ["cwnd", "ssthresh", "rtt", "srtt", "rto"]},
                  name="seed004-traces")
    tr = net.run(duration=f"{seconds}s").tcp_trace
    # Each variable holds its last value to the end of the run (a row is a change).
    last = tr.groupby("variable", as_index=False).last().assign(time_s=seconds)
    tr = pd.concat([tr, last], ignore_index=True)
    fig, axes = plt.subplots(3, 1, figsize=(7, 7.5), sharex=True)
    for var, label in (("cwnd", "cwnd"), ("ssthresh", "ssthresh")):
        s = tr[(tr["variable"] == var) & np.isfinite(tr["value"])]
        if s.empty:  # ssthresh before a first loss
            continue
        axes[0].step(s["time_s"], s["value"] / SEGMENT, where="post", lw=0.8, label=label)
    axes[0].set_ylabel("segments")
    axes[0].set_title("Fig. 5: congestion window", fontsize=9)
    for var, label in (("rtt", "SampleRTT"), ("srtt", "EstimatedRTT (SRTT)")):
        s = tr[tr["variable"] == var]
        axes[1].plot(s["time_s"], s["value"], lw=0.6 if var == "rtt" else 1.2, label=label)
    axes[1].set_ylabel("seconds")
    axes[1].set_title("Fig. 6: SampleRTT and EstimatedRTT", fontsize=9)
    s = tr[tr["variable"] == "rto"]
    axes[2].step(s["time_s"], s["value"], where="post", lw=1.0, label="RTO")
    axes[2].set_ylim(0, 1.2 * float(s["value"].max()))
    axes[2].set_ylabel("seconds")
    axes[2].set_title("Fig. 7: RTO (ns-3's 1 s minimum)", fontsize=9)
    axes[2].set_xlabel("time (s)")
    for ax in axes:
        ax.legend(fontsize=7)
    fig.suptitle("Seed 004 Figs. 5-7: one Reno flow, 100-packet queue", fontsize=10)
    fig.tight_layout()
    fig.savefig(out / "cwnd_rtt_rto.png", dpi=90)
    plt.close(fig)


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


def pct(x: float) -> str:
    return "" if x != x else f"{x:+.1%}"


def markdown(df: pd.DataFrame, knob: str, knob2: str | None = None) -> list[str]:
    keys = [knob] + ([knob2] if knob2 else [])
    lines = ["| " + " | ".join(keys) + " | tx packets | rx packets | loss | Mb/s | dropped | "
             "in flight at the end | study tx | study rx | study loss | study Mb/s | "
             "vs study: tx | rx | loss | Mb/s |",
             "|" + "---|" * (len(keys) + 14)]
    for r in df.itertuples():
        key = " | ".join(f"{getattr(r, k):g}" if isinstance(getattr(r, k), float)
                         else str(getattr(r, k)) for k in keys)
        lines.append(f"| {key} | {r.tx_packets} | {r.rx_packets} | "
                     f"{r.loss:.4f} | {r.throughput_mbps:.4g} | {r.dropped} | "
                     f"{r.in_flight_end} | {r.study_tx} | {r.study_rx} | "
                     f"{r.study_loss:.4f} | {r.study_mbps:.4g} | {pct(r.diff_tx)} | "
                     f"{pct(r.diff_rx)} | {pct(r.diff_loss)} | {pct(r.diff_mbps)} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--quick", action="store_true", help="shorter runs")
    ap.add_argument("--out", type=Path, default=Path("results/seeds/004"))
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    # Run lengths (s): the study's, or --quick's.
    t = ({"q1": 10.0, "q2": 20.0, "q3": 10.0, "q4": 12.0, "figs": 20.0} if args.quick else
         {"q1": 10.0, "q2": 100.0, "q3": 50.0, "q4": 60.0, "figs": 100.0})
    q1 = pd.DataFrame(rows_for("P1 Q1", "queue", STUDY_Q1, lambda q: network(queue=q),
                               t["q1"]))
    q2 = pd.DataFrame(rows_for("P1 Q2", "error_rate", STUDY_Q2, lambda p: network(error=p),
                               t["q2"]))
    q3 = pd.DataFrame(rows_for("P1 Q3", "rwnd_segments", STUDY_Q3,
                               lambda w: network(tcp={"rcv_buffer": int(w * SEGMENT)}),
                               t["q3"]))
    cwnd_rtt_rto(t["figs"], args.out)
    p2 = pd.DataFrame(tcp_and_cbr("text: 1200-byte packets", SEGMENT, SEGMENT)
                      + tcp_and_cbr("printout: 1000-byte segments, 512-byte CBR", 1000, 512)
                      + tcp_and_cbr("printout's sizes, DropTail alone", 1000, 512,
                                    kind="droptail"))
    q4 = reno_vs_westwood(t["q4"], args.out)
    pd.concat([q1, q2, q3, p2, q4]).to_csv(args.out / "tables.csv", index=False)
    lines = ["Part 1 Q1 (queue at n3):", "", *markdown(q1, "queue"), "",
             "Part 1 Q2 (packet error rate on n3 -> n4):", "", *markdown(q2, "error_rate"), "",
             "Part 1 Q3 (receive window, segments):", "", *markdown(q3, "rwnd_segments"), "",
             "Part 2 Q1 iii (TCP and a 0.725 Mb/s UDP CBR; flow 3 = the TCP's ACKs):", "",
             *markdown(p2, "sizes", "flow"), "",
             "Part 2 Q4 (Reno against Westwood, throughput after the warm-up):", "",
             "| westwood | app rate | Reno Mb/s | Westwood Mb/s |", "|---|---|---|---|"]
    lines += [f"| {r.westwood} | {r.app_rate} | {r.reno_mbps:.3f} | {r.westwood_mbps:.3f} |"
              for r in q4.itertuples()]
    (args.out / "tables.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    # Part 2's questions answered with figures only: their own examples, into folders of --out.
    parts: list[tuple[str, str, list[str], list[str]]] = [
            ("fair_share", "seed004_fair_share.py", [], ["--replications", "1"]),
            ("queues", "seed004_queues.py", [], ["--seconds", "12"]),
            ("two_flows", "seed004_two_flows.py", [], ["--seconds", "12"])]
    for folder, script, full, quick in parts:
        cmd = [sys.executable, str(EXAMPLES / script), *(quick if args.quick else full),
               "--out", str(args.out / folder)]
        print("$", " ".join(cmd[1:]), flush=True)
        if subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode != 0:
            print(f"{script} failed", file=sys.stderr)
            return 1
    write_report(args.out, __doc__.splitlines()[0] + (QUICK_NOTE if args.quick else ""))
    print(f"wrote {args.out}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
