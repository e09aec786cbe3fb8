"""Seed 003: competing high-speed TCP flows with and without Tmix background traffic.

Two high-speed flows share a 622 Mb/s, 100 ms RTT bottleneck (R0-R1, 48 ms, a 1555-packet buffer,
20% of the BDP; 1 Gb/s, 1 ms access links), with ns-2 settings of the study's script (SACK,
timestamps, window 67000, 1000-byte packets, max_ssthresh 100, maxburst 2, CUBIC beta 0.8, C 0.4;
its `cubic_max_increment_` 16, the early CUBIC's growth cap, with --cubic-max-increment 16).
Background: two Tmix flows, inbound (n0 -> n1) and outbound (n3 -> n2), replaying synthetic
connection vectors (the study's Abilene-I vectors are not public; see docs/traffic.md) from time 0,
at the Abilene-I link's load (--load, 200 Mb/s offered on each direction of the bottleneck:
docs/examples/seed003.md; --rate N replays N connections a second instead, 150 the earlier
default), as ns-2.35's Tmix runs them (each side the script's FullTcp Reno agent with
1460-byte segments and 50-byte headers, its window from its vector, the delay box's RTT on top
of the path's, FullTcp's delayed ACKs, closing 1 s after the last write: the study's background
script through `ackclock ns2` builds the same);
flow 1 starts at --start (400 s, as in the study), flow 2 50 s later, until --seconds (910 s: the
study's script ends its run at its `length`, 910 s, where it also stops the Tmix traffic; the run
length itself is a command-line argument of the script and not in the text). Without
background, as in the earlier study the seed quotes: flow 1 at 0 s, flow 2 at 50 s, 500 s in all.
For each protocol pair: the asymmetry A = (t1 - t2) / (t1 + t2) of the two flows' mean throughputs
over the second half of the run, as the study's script measures (its Appendix A takes each flow's
statistics at `halftime`, `endtime / 2`, and at `endtime`: 455-910 s with background, 250-500 s
without; never before flow 2's start), without and with background traffic (the study's Table 1),
the background's throughput over time with and without the high-speed flows (its Figs. 8 and 9),
and the loss rate of each run (its Appendix B): the bottleneck queue's drops over its arrivals,
and each high-speed flow's own (its drops over its packets sent), over the same half and over
the whole run (the candidates for Appendix B's count, docs/examples/seed003.md).

    python examples/seed003.py [--pairs all|CUBIC-FAST,...] [--seconds 910] [--start 400]
                               [--load 200 | --rate 150] [--long-share F] [--jobs N]

Figures (PNG, beside the tables in --out): each run's graph of its two flows' throughput and cwnd
over time as the study's Figs. 11-42 (figNN_PAIR_with|without_background.png, their samples in
flow_series.csv); Figs. 2-5, each protocol's cwnd beside TCP Reno's, each run alone for
--seconds-without with its 100th packet dropped (figNN_PROTOCOL_vs_Reno.png,
forced_drop_series.csv); Figs. 8-9, the background with and without the first pair
(background_inbound.png, background_outbound.png, background_series.csv).

--long-share F moves F of the load into long transfers that outlast the run (the test of
Figs. 8-9's mechanism in docs/examples/seed003.md); 0 by default.

At the default load a 910 s run peaks at about 3.2 GB (the vectors of 6.5 million connections;
docs/performance.md, "Tmix at scale"); --jobs runs that many at once.
"""

from __future__ import annotations

import argparse
import itertools
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import ackclock as ac
from ackclock.tmix import read_vectors, synthesize

PROTOCOLS = {"Scalable": "scalable", "HS": "highspeed", "CUBIC": "cubic", "FAST": "fast"}
# Tmix's segment size (ns-2.35 tmix.cc, pkt_size_ 1460), the background's MSS.
TMIX_MSS = 1460
# The background's load, Mb/s offered on each direction of the bottleneck. The study replays the
# Abilene-I link's connection vectors (its Appendix A: Abilene_sorted_crecv.ns and _cinit.ns,
# "tmix-ns-Abilene-lossless") and gives no throughput of its own (its Figs. 8-9 are lost); the
# Tmix authors' replays of that trace carry often more than 400 Mb/s over its two directions
# together (F. Hernandez-Campos, UNC dissertation 2006, chapter 6, "Source-level Replay of
# Abilene-I"): half of it each way.
ABILENE_LOAD_MBPS = 200.0
# The background's Tmix flows: the web-like vectors, and with --long-share the long transfers
# (their rows in background_series.csv; the figures add each direction's two).
BACKGROUND_FLOWS = ["inbound", "outbound", "inbound_long", "outbound_long"]
# The study's highlighted cases (its sections 4.1-4.4).
HIGHLIGHTED = [("Scalable", "HS"), ("Scalable", "Scalable"), ("HS", "CUBIC"), ("CUBIC", "FAST")]
# The study's Table 1: asymmetry without / with background traffic (ns-2.27, Abilene-I vectors).
STUDY = {("Scalable", "HS"): (0.996, 0.762), ("Scalable", "FAST"): (0.488, 0.932),
         ("Scalable", "CUBIC"): (0.987, 0.857), ("Scalable", "Scalable"): (0.975, -0.023),
         ("HS", "Scalable"): (-0.996, -0.803), ("HS", "FAST"): (0.451, 0.891),
         ("HS", "CUBIC"): (0.599, 0.270), ("HS", "HS"): (0.074, -0.123),
         ("FAST", "Scalable"): (-0.489, -0.921), ("FAST", "HS"): (-0.452, -0.891),
         ("FAST", "CUBIC"): (-0.487, -0.890), ("FAST", "FAST"): (-0.233, 0.039),
         ("CUBIC", "Scalable"): (-0.978, -0.877), ("CUBIC", "HS"): (-0.481, -0.358),
         ("CUBIC", "FAST"): (0.489, 0.889), ("CUBIC", "CUBIC"): (0.08, -0.031)}
# The study's run graphs of each pair, without / with background: Figs. 11-18 in its sections
# 4.1-4.4, Figs. 19-42 in its Appendix B (the graphs themselves are lost in the text; the
# script behind them, Appendix A, writes each flow's cwnd every 0.1 s, `print-cwnd`, and its
# throughput every 1 s, `print-th-one`; red flow 1, green flow 2, as the text describes them).
FIGURES = {("Scalable", "HS"): (11, 12), ("Scalable", "Scalable"): (13, 14),
           ("HS", "CUBIC"): (15, 16), ("CUBIC", "FAST"): (17, 18),
           ("Scalable", "FAST"): (19, 20), ("Scalable", "CUBIC"): (21, 22),
           ("HS", "Scalable"): (23, 24), ("HS", "FAST"): (25, 26), ("HS", "HS"): (27, 28),
           ("FAST", "Scalable"): (29, 30), ("FAST", "HS"): (31, 32), ("FAST", "FAST"): (33, 34),
           ("FAST", "CUBIC"): (35, 36), ("CUBIC", "Scalable"): (37, 38),
           ("CUBIC", "HS"): (39, 40), ("CUBIC", "CUBIC"): (41, 42)}
# The study's Figs. 2-5 (its section 2.1): each protocol's cwnd beside TCP Reno's, "run
# separately", "a packet drop is forced initially"; the text gives neither the path, the
# length nor which packet, so: this path without background, --seconds-without long, the
# flow's 100th data packet dropped at the bottleneck (a drop_list loss model).
FORCED_DROP_FIGURES = {"HS": 2, "Scalable": 3, "CUBIC": 4, "FAST": 5}
FORCED_DROP_PACKET = 100
# The study's Appendix B: the loss rate printed over each pair's graphs (without / with
# background, as fractions; the pairs it gives no number for are left out).
STUDY_LOSS = {("Scalable", "FAST"): (0.00043, 0.00153), ("Scalable", "CUBIC"): (0.00133, 0.00118),
              ("HS", "HS"): (0.00015, 0.00024), ("FAST", "Scalable"): (0.00033, 0.00127),
              ("FAST", "HS"): (0.00003, 0.00007), ("FAST", "CUBIC"): (0.00001, 0.00002),
              ("CUBIC", "Scalable"): (0.00073, 0.0009), ("CUBIC", "HS"): (0.00008, 0.00018)}


def network(cc: tuple[str, str] | None, vectors: tuple[Path, Path] | None,
            args: argparse.Namespace, start: float,
            forced_drop: str | None = None) -> ac.Network:
    """The study's network: the high-speed pair `cc` (none: the background alone) from
    `start`, the background from `vectors` (none: without background); with `forced_drop`,
    only that protocol's flow 1 ("Reno": the agent's standard window rule), from 0 s, its
    FORCED_DROP_PACKET-th data packet dropped at the bottleneck (Figs. 2-5)."""
    net = ac.Network("seed003", profile="ns2")
    net.nodes("n0", "n1", "n2", "n3", "R0", "R1", "n6", "n7", "n8", "n9")
    drop = ({"kind": "drop_list", "flow": "flow1", "packets": [FORCED_DROP_PACKET]}
            if forced_drop else None)
    net.link("R0", "R1", rate="622Mb/s", delay="48ms", queue_limit=1555, loss=drop)
    for a, b in (("n0", "R0"), ("n2", "R0"), ("n6", "R0"), ("n8", "R0"),
                 ("R1", "n1"), ("R1", "n3"), ("R1", "n7"), ("R1", "n9")):
        net.link(a, b, rate="1Gb/s", delay="1ms", queue_limit=10_000)
    net.defaults(variant="sack", timestamps=True, window=67000, packet_size=1000,
                 max_ssthresh=100, max_burst=2, sink="sack")
    if vectors:
        # The background as ns-2.35's Tmix runs it (docs/examples/seed003.md): each side a
        # FullTcp agent with Tmix's pkt_size_ 1460 (which overrides the script's segsize_
        # 1000) and its vector's window w over that MSS (ConnVector::set_init_win, Tmix
        # instproc setup-tcp); ACKs every second segment or after the 100 ms interval_
        # (FullTcpAgent::need_send, the script's segsperack_ 2); the delay box holds each
        # packet r / 2 each way on top of the path (Tmix_DelayBoxClassifier::recv).
        # With --long-share, the long transfers' vectors are two more Tmix flows on the same
        # hosts, replayed alike ("inbound_long", "outbound_long").
        files = [("inbound", ("n0", "n1"), vectors[0]), ("outbound", ("n3", "n2"), vectors[1])]
        long_files = long_vector_files(vectors)
        if long_files[0].exists():
            files += [("inbound_long", ("n0", "n1"), long_files[0]),
                      ("outbound_long", ("n3", "n2"), long_files[1])]
        for name, (src, dst), vec in files:
            # The long transfers send without the script's maxburst_ 2: with it and ACKs for
            # every second segment, each ACK of two segments lets two more go and the flight
            # stays where it started (FullTcpAgent::send_much stops at maxburst_ segments an
            # ACK), but for the closing write's two more a second after the last ADU's write
            # (fin_wait; docs/examples/seed003.md), so they would not be network-limited.
            # Connections close as ns-2.35's Tmix closes them (fin_time_ 1 s, TmixApp::timeout).
            # Each side is the script's Agent/TCP/FullTcp (Tmix's default set-TCP Reno, Tmix
            # instproc alloc-tcp; the ns2 profile gives a Tmix flow FullTcpAgent's rules): Reno
            # recovery, no SACK, and with timestamps_ 1 a 50-byte header on every segment, pure
            # ACKs included (FullTcpAgent::headersize, ts_option_size_ 10). The flows are what
            # `ackclock ns2 examples/ns2/seed003_background.tcl` builds (its test checks).
            extra: dict[str, Any] = {"max_burst": 0} if name.endswith("_long") else {}
            net.tcp(name, src, dst, app=ac.Tmix(file=str(vec), rtt_added=True,
                                                windows=True, fin_wait="1s"),
                    variant="reno", sink="delack", header_size=50, ack_size=50,
                    packet_size=TMIX_MSS, segs_per_ack=2, ack_delay="100ms", **extra)
    if forced_drop:
        high_speed(net, 1, forced_drop, args, 0.0)
    if cc:
        for i in (0, 1):
            high_speed(net, i + 1, cc[i], args, start + 50 * i)
    return net


def high_speed(net: ac.Network, i: int, protocol: str, args: argparse.Namespace,
               start: float) -> None:
    """High-speed flow `i` (1: n6 -> n7, 2: n8 -> n9) of `protocol` ("Reno": no cc, the
    agent's standard window rule) from `start`, with the study script's settings."""
    params = {"cubic": {"beta": 0.8, "c": 0.4, "max_increment": args.cubic_max_increment},
              "fast": {"alpha": args.fast_alpha}}
    # The study's script: `Agent/TCP set overhead_ 0.000008` (--overhead: a random wait of up
    # to 8 us before each send, TcpAgent::send_much) and HS-TCP as ns-2's windowOption_ 8,
    # whose first decrease halves the window (--hs-first-decrease: TcpAgent::slowdown's
    # first_decrease_). Both off by default (the page's table).
    extra: dict[str, Any] = {"send_overhead": f"{getattr(args, 'overhead', 0.0)}s"}
    name = PROTOCOLS.get(protocol)
    if name:
        extra |= {"cc": name, "cc_params": params.get(name, {})}
    if name == "highspeed" and getattr(args, "hs_first_decrease", False):
        extra["ns2_first_decrease"] = True
    src, dst = (("n6", "n7"), ("n8", "n9"))[i - 1]
    net.tcp(f"flow{i}", src, dst, start=f"{start}s", **extra)


def offered_mbps(vectors: tuple[Path, Path], seconds: float) -> tuple[float, float]:
    """The Mb/s the two vector files offer on each direction of the bottleneck over `seconds`:
    R0 -> R1 carries the inbound initiators' ADUs (n0 -> n1) and the outbound acceptors'
    (n2 -> n3), R1 -> R0 the other two."""
    sums = []
    for v in vectors:
        c = read_vectors(v, str(v))
        side, size = np.asarray(c["adu_side"]), np.asarray(c["adu_bytes"], dtype=np.float64)
        sums.append((size[side == 0].sum(), size[side == 1].sum()))
    (in_init, in_acc), (out_init, out_acc) = sums
    return ((in_init + out_acc) * 8e-6 / seconds, (in_acc + out_init) * 8e-6 / seconds)


def background(out: Path, seconds: float, load: float | None,
               rate: float | None) -> tuple[tuple[Path, Path], float, tuple[float, float]]:
    """Writes the two vector files for a run of `seconds`: `rate` connections a second each, or,
    without a rate, the rate whose vectors offer `load` Mb/s on R0 -> R1 (found in two passes:
    the synthetic sizes are the same sequence at any rate, only the starts scale). Returns the
    files, the rate and the offered Mb/s on R0 -> R1 and R1 -> R0."""
    vectors = (out / "inbound.vec", out / "outbound.vec")
    for old in long_vector_files(vectors):
        old.unlink(missing_ok=True)

    def write(r: float) -> tuple[float, float]:
        n = max(1, int(r * seconds))
        synthesize(vectors[0], n, seed=1, rate_per_s=r)
        synthesize(vectors[1], n, seed=2, rate_per_s=r)
        return offered_mbps(vectors, seconds)

    if rate is None:
        assert load is not None
        rate = 17.5 * load  # the synthetic mix's ~0.057 Mb/s per connection a second
        rate *= load / write(rate)[0]
    return vectors, rate, write(rate)


def long_vector_files(vectors: tuple[Path, Path]) -> tuple[Path, Path]:
    return (vectors[0].with_name("inbound_long.vec"), vectors[1].with_name("outbound_long.vec"))


def long_transfers(vectors: tuple[Path, Path], seconds: float, mbps: float,
                   window: int) -> int:
    """Writes, beside the two vector files, the vectors of long transfers that carry about
    `mbps` each way when nothing else slows them (--long-share): connections that open in the
    first 10 s and each send one ADU too large to finish within the run (inbound: the
    initiator, n0 -> n1, on R0 -> R1; outbound: n3 -> n2, on R1 -> R0), each side advertising
    `window` bytes and with the synthetic vectors' median minimum RTT, 50 ms, on top of the
    path's 100 ms. Unlike the web-like connections, whose vectors' start times fix what they
    send whatever the network does, these are network-limited: their rate is their window
    over the round trip they see, less what each loss costs them. Returns how many there are
    in each direction (the rate of one at `window` over 150 ms, into `mbps`; none when
    `mbps` is 0)."""
    segment = window // TMIX_MSS * TMIX_MSS  # the window the replay gives each side
    one = segment * 8e-6 / 0.150
    count = round(mbps / one)
    rng = np.random.default_rng(3)
    for path in long_vector_files(vectors):
        lines = [f"# {count} long transfers (examples/seed003.py --long-share)"]
        for k, start in enumerate(np.sort(rng.uniform(0.0, 10.0, count)), 1):
            # twice what one could send over the run at its window: none finishes
            size = int(2 * one / 8e-6 * seconds)
            lines += [f"SEQ {round(start * 1e6)} 1 0 {k}", f"w {window} {window}", "r 50000",
                      "l 0.000000 0.000000", f"> {size}", ""]
        path.write_text("\n".join(lines))
    return count


def measured_from(start: float, seconds: float) -> float:
    """Where the statistics start: the run's half (the study's script: `print-stat-one-pre` at
    `halftime`, `endtime / 2`, `print-stat-one` at `endtime`), or flow 2's start if later."""
    return max(seconds / 2, start + 50)


def run(job: tuple[tuple[str, str] | None, tuple[Path, Path] | None, Any]) -> dict[str, Any]:
    cc, vectors, args = job
    start, seconds = (args.start, args.seconds) if vectors else (0.0, args.seconds_without)
    res = network(cc, vectors, args, start).run(duration=f"{seconds}s",
                                                warmup=f"{measured_from(start, seconds)}s",
                                                sample_interval="1s")
    f = res.flows.set_index("flow")
    out: dict[str, Any] = {"pair": cc, "has_background": vectors is not None}
    if cc:
        t1, t2 = f.loc["flow1", "throughput_mbps"], f.loc["flow2", "throughput_mbps"]
        hs = f.loc[["flow1", "flow2"]]
        q = res.queues.set_index("link").loc["R0->R1"]
        out |= {"t1_mbps": t1, "t2_mbps": t2, "asymmetry": (t1 - t2) / (t1 + t2),
                # the two high-speed flows' packets lost over those sent, and the bottleneck
                # queue's drops over its arrivals, over the measured half
                "flows_loss": hs.packets_dropped.sum() / hs.packets_sent.sum(),
                "bottleneck_loss": q.dropped_packets / q.arrived_packets,
                "queue_packets": q.mean_queue_packets,
                # the queue the high-speed flows' ACKs wait in, and each flow's mean RTT
                # (FAST's signal: its rate is about alpha over its RTT less its base RTT)
                "reverse_queue_packets": res.queues.set_index("link").loc[
                    "R1->R0", "mean_queue_packets"],
                "rtt1_s": f.loc["flow1", "mean_rtt_s"], "rtt2_s": f.loc["flow2", "mean_rtt_s"],
                "timeouts": (int(f.loc["flow1", "timeouts"]), int(f.loc["flow2", "timeouts"])),
                "drops": (int(f.loc["flow1", "packets_dropped"]),
                          int(f.loc["flow2", "packets_dropped"])),
                "bottleneck_drops": int(q.dropped_packets),
                # each flow's own loss rate, its drops over its packets sent (candidates for
                # Appendix B's count, whose utils.tcl is not printed: docs/examples/seed003.md)
                "flow_loss": (float(f.loc["flow1", "loss_rate"]),
                              float(f.loc["flow2", "loss_rate"]))}
        # the same over the whole run, from each flow's start (flows_detail.csv counts the
        # whole run, as ns-2's flow monitor's counters do from their creation)
        d = res.flows_detail
        d = d[d.direction == "data"].set_index("flow").loc[["flow1", "flow2"]]
        out["flow_loss_run"] = tuple(float(x) for x in d.lost_packets / d.tx_packets)
        # the two flows' 1 s samples, for the study's run graphs (Figs. 11-42)
        out["flow_series"] = flow_series(res)
    if vectors:
        # what each direction of the bottleneck carried over the measured half (the background
        # alone: the background's load as it arrives at the bottleneck)
        qs = res.queues.set_index("link")
        span = seconds - measured_from(start, seconds)
        out["link_mbps"] = tuple(qs.loc[k, "departed_bytes"] * 8e-6 / span
                                 for k in ("R0->R1", "R1->R0"))
        # each background flow's throughput over the measured half (Mb/s)
        out["background_mbps"] = {k: float(f.loc[k, "throughput_mbps"])
                                  for k in BACKGROUND_FLOWS if k in f.index}
        ts = res.timeseries
        out["series"] = ts[ts.flow.isin(BACKGROUND_FLOWS)][
            ["time_s", "flow", "throughput_mbps"]]
    return out


def flow_series(res: ac.Results) -> pd.DataFrame:
    """The high-speed flows' samples: time, flow, cwnd (segments), throughput (Mb/s)."""
    ts = res.timeseries
    return ts[ts.flow.isin(["flow1", "flow2"])][
        ["time_s", "flow", "cwnd", "throughput_mbps"]].reset_index(drop=True)


def forced_drop_run(job: tuple[str, Any]) -> dict[str, Any]:
    """Figs. 2-5's run: `protocol`'s flow alone on the path without background for
    --seconds-without, its FORCED_DROP_PACKET-th data packet dropped at the bottleneck."""
    protocol, args = job
    res = network(None, None, args, 0.0, forced_drop=protocol).run(
        duration=f"{args.seconds_without}s", sample_interval="1s")
    f = res.flows.set_index("flow")
    return {"protocol": protocol, "series": flow_series(res),
            "drops": int(f.loc["flow1", "packets_dropped"])}


def _pyplot() -> Any:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


# flow 1 red (darker), flow 2 green (lighter), as the study's graphs
COLOURS = ("#c00000", "#40b040")


def pair_figure(r: dict[str, Any], path: Path) -> Any:
    """The study's run graph of one pair (Figs. 11-42) from run()'s result: each flow's
    throughput (its 1 s samples, the script's `print-th-one`) and cwnd (segments, sampled each
    second where the script's `print-cwnd` wrote every 0.1 s) over time, titled with A and the
    bottleneck's loss over the measured half beside the study's (its Appendix B prints "A =
    ... loss = ...%" over each graph). Writes `path` and returns the figure."""
    plt = _pyplot()
    p, bg = r["pair"], r["has_background"]
    number = FIGURES[p][int(bg)]
    study = STUDY[p][int(bg)]
    loss = STUDY_LOSS.get(p, (float("nan"), float("nan")))[int(bg)]
    s = r["flow_series"]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 5.5), sharex=True)
    for i, flow in enumerate(("flow1", "flow2")):
        part = s[s.flow == flow]
        label = f"flow {i + 1}: {p[i]}"
        top.plot(part.time_s, part.throughput_mbps, color=COLOURS[i], linewidth=0.8,
                 label=label)
        bottom.plot(part.time_s, part.cwnd, color=COLOURS[i], linewidth=0.8, label=label)
    top.set_ylabel("throughput (Mb/s)")
    bottom.set_ylabel("cwnd (segments)")
    bottom.set_xlabel("time (s)")
    top.legend(loc="upper right", fontsize=8)
    study_loss = "" if loss != loss else f", loss {100 * loss:.3f}%"
    top.set_title(f"Fig. {number}: {p[0]} - {p[1]} {'with' if bg else 'without'} background"
                  f"\nA = {r['asymmetry']:.3f}, loss = {100 * r['bottleneck_loss']:.3f}%"
                  f" (the study: A = {study:.3f}{study_loss})", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return fig


def forced_drop_figure(protocol: dict[str, Any], reno: dict[str, Any], path: Path) -> Any:
    """The study's Figs. 2-5 from two forced_drop_run() results: the protocol's cwnd and
    TCP Reno's, each run alone, over time. Writes `path` and returns the figure."""
    plt = _pyplot()
    name = protocol["protocol"]
    fig, ax = plt.subplots(figsize=(8, 4))
    for i, r in enumerate((protocol, reno)):
        s = r["series"]
        ax.plot(s.time_s, s.cwnd, color=COLOURS[i], linewidth=0.8,
                label=f"{r['protocol']} ({r['drops']} drop{'s' * (r['drops'] != 1)})")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("cwnd (segments)")
    ax.set_title(f"Fig. {FORCED_DROP_FIGURES[name]}: cwnd of {name} vs TCP Reno, each alone,"
                 f" packet {FORCED_DROP_PACKET} dropped", fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return fig


def background_figure(direction: str, alone: pd.DataFrame, shared: pd.DataFrame, label: str,
                      start: float, path: Path) -> Any:
    """The study's Fig. 8 (inbound) or 9 (outbound) from two runs' background series: the
    direction's Tmix throughput (its flows added) without the high-speed flows and with them
    (`label`), flow 1's start marked. Writes `path` and returns the figure."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4))
    for name, ts in (("without high-speed flows", alone), (label, shared)):
        part = ts[ts.flow.isin([direction, f"{direction}_long"])].groupby(
            "time_s", as_index=False).throughput_mbps.sum()
        ax.plot(part.time_s, part.throughput_mbps, label=name, linewidth=0.8)
    ax.axvline(start, color="grey", linestyle=":")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("throughput (Mb/s)")
    ax.set_title(f"Tmix {direction} traffic (seed 003, Figs. 8 and 9)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return fig


def figure_name(r: dict[str, Any]) -> str:
    """The file name of a pair run's graph: figNN_FLOW1-FLOW2_with|without_background.png."""
    p, bg = r["pair"], r["has_background"]
    return (f"fig{FIGURES[p][int(bg)]:02d}_{p[0]}-{p[1]}_{'with' if bg else 'without'}"
            "_background.png")


def differences(table: pd.DataFrame) -> pd.DataFrame:
    """Adds to the pairs' table each cell's difference from the study: A's (ackclock minus the
    study) and the loss rate's, relative in % (ackclock over the study's Appendix B, less 1;
    empty where the study gives none)."""
    for col in ("without", "with"):
        table[f"A {col} - study"] = table[f"A {col}"] - table[f"study {col}"]
        table[f"loss {col} - study (%)"] = 100 * (
            table[f"loss {col} (%)"] / table[f"study loss {col} (%)"] - 1)
    return table


def markdown(table: pd.DataFrame) -> str:
    """The study's Table 1 and Appendix B beside ackclock's: asymmetry without and with
    background, the difference (ackclock minus the study), and the bottleneck's loss rate with
    its relative difference from the study's Appendix B (ackclock over the study, less 1)."""
    def num(x: float, fmt: str) -> str:
        return "" if x != x else format(x, fmt)

    def rel(x: float) -> str:
        return "" if x != x else f"{x:+.0f}%"

    lines = ["| flow 1 - flow 2 | A without | study | difference | A with | study | difference"
             " | loss without (%) | study | difference | loss with (%) | study | difference |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for _, r in table.iterrows():
        lines.append(
            f"| {r['flow1-flow2']} | {r['A without']:.3f} | {num(r['study without'], '.3f')} | "
            f"{num(r['A without - study'], '+.3f')} | {r['A with']:.3f} | "
            f"{num(r['study with'], '.3f')} | {num(r['A with - study'], '+.3f')} | "
            f"{r['loss without (%)']:.4f} | {num(r['study loss without (%)'], '.3f')} | "
            f"{rel(r['loss without - study (%)'])} | "
            f"{r['loss with (%)']:.4f} | {num(r['study loss with (%)'], '.3f')} | "
            f"{rel(r['loss with - study (%)'])} |")
    return "\n".join(lines) + "\n"


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", default="highlighted",
                    help="highlighted, all, or pairs such as CUBIC-FAST,HS-HS")
    ap.add_argument("--seconds", type=float, default=910.0,
                    help="length of the runs with background traffic (s; the study's script"
                         " ends at its length, 910 s)")
    ap.add_argument("--start", type=float, default=400.0,
                    help="flow 1's start with background traffic (s)")
    ap.add_argument("--seconds-without", type=float, default=500.0,
                    help="length of the runs without background traffic (s)")
    ap.add_argument("--load", type=float, default=ABILENE_LOAD_MBPS,
                    help="the background's offered load on each direction of the bottleneck,"
                         " Mb/s (default: the Abilene-I link's, 200)")
    ap.add_argument("--rate", type=float, default=None,
                    help="Tmix connections per second instead of --load (150: the earlier"
                         " default background, about 9 Mb/s each way)")
    ap.add_argument("--long-share", type=float, default=0.0,
                    help="the share of --load carried by long, network-limited transfers that"
                         " outlast the run (the rest by the web-like vectors; 0: none)")
    ap.add_argument("--long-window", type=int, default=65535,
                    help="the long transfers' advertised window, bytes (default: the"
                         " synthetic vectors' 65535)")
    ap.add_argument("--fast-alpha", type=float, default=200.0)
    ap.add_argument("--cubic-max-increment", type=float, default=0.0,
                    help="CUBIC's S_max (0: RFC 9438's uncapped growth; the study's script sets"
                         " cubic_max_increment_ 16)")
    ap.add_argument("--overhead", type=float, default=0.0,
                    help="the high-speed agents' overhead_, a random delay of up to this many"
                         " seconds before each send (the study's script: 0.000008)")
    ap.add_argument("--hs-first-decrease", action="store_true",
                    help="HS-TCP's first decrease halves the window, as ns-2's windowOption_ 8"
                         " (TcpAgent::slowdown's first_decrease_)")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--out", type=Path, default=Path("results/seed003"))
    return ap


def main() -> None:
    ap = parser()
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for flag, value in (("--rate", args.rate), ("--load", args.load)):
        if value is not None and not value > 0:
            ap.error(f"{flag}: expected a positive number, got {value:g}")
    if not 0 <= args.long_share < 1:
        ap.error(f"--long-share: expected a share from 0 to below 1, got {args.long_share:g}")
    if not 1460 <= args.long_window <= 4294967295:
        ap.error(f"--long-window: expected 1460 to 4294967295 bytes, got {args.long_window}")
    short = 1 - args.long_share
    vectors, rate, offered = background(
        args.out, args.seconds, None if args.rate is not None else args.load * short,
        None if args.rate is None else args.rate * short)
    print(f"background: {rate:.0f} connections/s each way, offering {offered[0]:.1f} Mb/s on"
          f" R0 -> R1 and {offered[1]:.1f} Mb/s on R1 -> R0")
    if args.long_share:
        count = long_transfers(vectors, args.seconds,
                               args.long_share * (args.load if args.rate is None
                                                  else offered[0] / short),
                               args.long_window)
        print(f"  and {count} long transfers each way (window {args.long_window} bytes)")
    if args.pairs == "highlighted":
        pairs = HIGHLIGHTED
    elif args.pairs == "all":
        pairs = list(itertools.product(PROTOCOLS, PROTOCOLS))
    else:
        pairs = [tuple(p.split("-", 1)) for p in args.pairs.split(",")]
        for p in pairs:
            if len(p) != 2 or not set(p) <= set(PROTOCOLS):
                ap.error(f"--pairs: expected pairs of {', '.join(PROTOCOLS)} such as"
                         f" CUBIC-FAST, got {'-'.join(p)!r}")
    jobs = [(p, v, args) for p in pairs for v in (None, vectors)] + [(None, vectors, args)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(run, jobs))
        dropped = list(pool.map(forced_drop_run, [(p, args) for p in ["Reno", *PROTOCOLS]]))

    rows = []
    for p in pairs:
        without = next(r for r in results if r["pair"] == p and not r["has_background"])
        with_bg = next(r for r in results if r["pair"] == p and r["has_background"])
        study = STUDY.get(p, (float("nan"), float("nan")))
        loss = STUDY_LOSS.get(p, (float("nan"), float("nan")))
        rows.append({"flow1-flow2": f"{p[0]}-{p[1]}", "A without": without["asymmetry"],
                     "A with": with_bg["asymmetry"], "study without": study[0],
                     "study with": study[1], "t1 with (Mb/s)": with_bg["t1_mbps"],
                     "t2 with (Mb/s)": with_bg["t2_mbps"],
                     "loss without (%)": 100 * without["bottleneck_loss"],
                     "loss with (%)": 100 * with_bg["bottleneck_loss"],
                     "study loss without (%)": 100 * loss[0],
                     "study loss with (%)": 100 * loss[1],
                     "flows' loss with (%)": 100 * with_bg["flows_loss"],
                     "flow 1 loss without (%)": 100 * without["flow_loss"][0],
                     "flow 2 loss without (%)": 100 * without["flow_loss"][1],
                     "flow 1 loss with (%)": 100 * with_bg["flow_loss"][0],
                     "flow 2 loss with (%)": 100 * with_bg["flow_loss"][1],
                     "flow 1 loss without, whole run (%)": 100 * without["flow_loss_run"][0],
                     "flow 2 loss without, whole run (%)": 100 * without["flow_loss_run"][1],
                     "flow 1 loss with, whole run (%)": 100 * with_bg["flow_loss_run"][0],
                     "flow 2 loss with, whole run (%)": 100 * with_bg["flow_loss_run"][1],
                     "bottleneck drops without": without["bottleneck_drops"],
                     "drops without (flow 1, flow 2)": without["drops"],
                     "queue without (pkts)": without["queue_packets"],
                     "queue with (pkts)": with_bg["queue_packets"],
                     "reverse queue with (pkts)": with_bg["reverse_queue_packets"],
                     "rtt1 without (s)": without["rtt1_s"], "rtt2 without (s)": without["rtt2_s"],
                     "rtt1 with (s)": with_bg["rtt1_s"], "rtt2 with (s)": with_bg["rtt2_s"],
                     "t1 without (Mb/s)": without["t1_mbps"],
                     "t2 without (Mb/s)": without["t2_mbps"],
                     "timeouts with (flow 1, flow 2)": with_bg["timeouts"],
                     "drops with (flow 1, flow 2)": with_bg["drops"]})
    table = pd.DataFrame(rows)
    differences(table)
    table.to_csv(args.out / "asymmetry.csv", index=False)
    (args.out / "asymmetry.md").write_text(markdown(table))
    with pd.option_context("display.width", 160, "display.precision", 3):
        print(table.to_string(index=False))

    # the study's run graphs (Figs. 11-42) and their series, and Figs. 2-5
    pd.concat([r["flow_series"].assign(pair=f"{r['pair'][0]}-{r['pair'][1]}",
                                       background=r["has_background"])
               for r in results if r["pair"]]).to_csv(args.out / "flow_series.csv", index=False)
    for r in results:
        if r["pair"]:
            pair_figure(r, args.out / figure_name(r))
    reno = dropped[0]
    for r in dropped[1:]:
        forced_drop_figure(r, reno, args.out / (
            f"fig{FORCED_DROP_FIGURES[r['protocol']]:02d}_{r['protocol']}_vs_Reno.png"))
    pd.concat([r["series"].assign(protocol=r["protocol"]) for r in dropped]).to_csv(
        args.out / "forced_drop_series.csv", index=False)

    alone_run = next(r for r in results if r["pair"] is None)
    print("the background alone carried {:.1f} Mb/s on R0 -> R1 and {:.1f} Mb/s on R1 -> R0"
          " from {:g} s".format(*alone_run["link_mbps"],
                                measured_from(args.start, args.seconds)))
    for label, r in [("the background alone", alone_run)] + [
            (f"with {p[0]}-{p[1]}", r) for p in pairs for r in results
            if r["pair"] == p and r["has_background"]]:
        print(f"{label}, each background flow's Mb/s from"
              f" {measured_from(args.start, args.seconds):g} s: "
              + ", ".join(f"{k} {v:.1f}" for k, v in r["background_mbps"].items()))
    alone = alone_run["series"]
    shared = next(r for r in results
                  if r["pair"] == pairs[0] and r["has_background"])["series"]
    pd.concat([alone.assign(run="background alone"),
               shared.assign(run=f"with {pairs[0][0]}-{pairs[0][1]}")]).to_csv(
        args.out / "background_series.csv", index=False)
    for direction in ("inbound", "outbound"):
        background_figure(direction, alone, shared, f"with {pairs[0][0]}-{pairs[0][1]}",
                          args.start, args.out / f"background_{direction}.png")
    print(f"wrote {args.out}/")


if __name__ == "__main__":
    main()
