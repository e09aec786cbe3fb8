"""Seed 004's base scenario in ns-3.44 and in ackclock's `ns3` profile, side by side.

n1 -> n3 -> n4 -> n5, every link 10 ms, 10 Mb/s access, a 1.5 Mb/s n3 -> n4 bottleneck with a
DropTail queue of q packets, one bulk TCP flow with Reno congestion control and 1200-byte
segments (the study's), everything else each simulator's default: ns-3.44's TcpSocket defaults
(`validation/ns3/seed004.cc`; TcpLinuxReno, SACK, PRR, delayed ACKs, 1 s minimum RTO,
131072-byte buffers; the FqCoDel root queue disc removed) against ackclock's `ns3` profile.
Prints goodput over 10-60 s (Mb/s) for queue sizes 10 / 100 / 1000 and, with q = 100, packet
error rates 1e-3 and 1e-2 on the bottleneck (seeds 1-3), and Reno against Westwood+; then the
flow-control question (part 1 Q3): goodput over the whole 50 s run with the receiver's buffer
(ns-3's RcvBufSize, ackclock's `rcv_buffer`) at 1, 10 and 100 segments. These runs remove
ns-3's root queue disc (`--qdisc=none`) and give ackclock's bottleneck an explicit DropTail.

Last, the stack itself: examples/seed004.toml's two flows (the Reno flow and a 0.725 Mb/s CBR
flow n2 -> n6, its gaps jittered by up to half the interval) over the whole 60 s, seeds 1-3,
once with pure DropTail queues (ns-3 `--qdisc=none`, ackclock `kind = "droptail"`) and once with
ns-3.44's default stack, FqCoDel above each 100-packet device queue (ns-3 as
Ipv4AddressHelper::Assign leaves it, ackclock's `ns3` profile on a queue without `kind`):
goodput of each flow and the packets dropped at n3 (by the queue disc, or by the traffic-control
layer when the device queue is stopped).

    python validation/seed004_vs_ns3.py        # about 2 minutes; compiles the ns-3 program once

`--two-flows` runs instead examples/seed004_two_flows.py's "Reno vs Westwood" case (part 2 Q2):
a TcpLinuxReno flow n1 -> n5 and a TcpWestwoodPlus flow n2 -> n6, each fed by the study's MyApp
at 0.5, 1 and 1.5 Mb/s from 1 s (ns-3: `--cc2`, `--appRate` of `validation/ns3/seed004.cc`;
ackclock: the example's own network), 300 s, goodput of each flow after 10 s and the packets
dropped at n3 over the whole run:

    python validation/seed004_vs_ns3.py --two-flows     # about a minute

`--replay ERR [RUNS]` runs seed 004's Q2 (one Reno flow, errors at rate ERR on n3 -> n4, 100 s,
ns-3's default stack) with ns-3's own losses: ns-3 logs which packets its RateErrorModel took
(`--errLog`) and ackclock drops the flow's packets with the same numbers as they reach the link
(docs/validation.md, "Seed 004's error rate with ns-3's own losses"):

    python validation/seed004_vs_ns3.py --replay 0.1 2 3 4 5 6    # a few seconds

`--random ERR [N]` runs the same Q2 with each simulator's own random errors, as the seed 004
runner does (examples/seeds/004/run.py's network, goodput over the whole 100 s): ns-3 runs 1 to
N (`RngRun`) against ackclock seeds 1 to N (default 20), each run's goodput, the means and
their difference with its standard error (docs/examples/differences.md, seed 004's 10% row):

    python validation/seed004_vs_ns3.py --random 0.1 20    # about a minute

`--stack [N]` runs only the last table, the stack comparison, over seeds 1 to N (default 20)
with the means' standard errors (the drops of one seed move by about 9 packets with the CBR's
jitter):

    python validation/seed004_vs_ns3.py --stack 20     # about a minute

`--fq-codel` runs examples/seed004_queues.py's fq_codel row beside ns-3.44: FqCoDel alone at
the bottleneck (ns-3: a 100-packet FqCoDelQueueDisc above a 1-packet device queue, seed004.cc's
`--qdisc=fqcodel --q=1`; ackclock with `device_limit = 1` and without a device queue), the
study's exact CBR (`--cbrJitter=0`), goodput after 10 s, drops, retransmissions and timeouts:

    python validation/seed004_vs_ns3.py --fq-codel    # a few seconds

`--flowmon` runs the seed 004 runner's FlowMonitor counts (examples/seeds/004/run.py: part 1
Q1's three queues over 10 s, Q2 at an error rate of 1e-4 over 100 s, Q3's 100-segment receive
window over 50 s, and part 2 Q1's TCP and 0.725 Mb/s CBR in the printout's shape, 51 s with the
CBR stopping at 50 s, its three variants, ns-3's default stack or `--qdisc=none` for DropTail
alone) in ns-3.44 with its FlowMonitor (`--flowmon`), beside ackclock's: packets sent and
received, and the drops (ns-3: at n3, all flows together; ackclock: the flow's own, anywhere,
errors included):

    python validation/seed004_vs_ns3.py --flowmon    # a few seconds

`--newreno` runs the same single-flow FlowMonitor cases, and part 1 Q1 in the study's printout
shape (1000-byte segments over 10.7 s), with ns-3's `TcpNewReno` in both simulators (ns-3.34's
default class; its `GetSsThresh` halves the bytes in flight, `TcpLinuxReno`'s halves cwnd),
then goodput over 10-60 s with packet errors at 1e-2 on the bottleneck (seeds 1-10, many loss
recoveries; TcpLinuxReno beside it):

    python validation/seed004_vs_ns3.py --newreno    # under a minute

ns-3 comes from the PyPI wheel that benchmarks/compare.py installs into its own virtual
environment (~/.cache/ackclock-bench).
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
from pathlib import Path

import ackclock as ac

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "validation"))
from ns3_examples import ns3_program as compile_program  # noqa: E402


def ns3_program() -> Path:
    """validation/ns3/seed004.cc, compiled (with validation/ns3/common.h) as ns3_examples.py
    compiles the other validation programs."""
    return compile_program("seed004")


def ns3_goodput(exe: Path, q: int, err: float, seed: int, cc: str, rcvbuf: int = 0,
                seconds: float = 60, warmup: float = 10) -> float:
    out = subprocess.run([str(exe), f"--q={q}", f"--err={err}", f"--cc={cc}",
                          f"--RngRun={seed}", f"--rcvbuf={rcvbuf}", f"--time={seconds}",
                          f"--warmup={warmup}"],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"goodput_mbps_window ([\d.]+)", out)
    assert m, out
    return float(m.group(1))


def ackclock_goodput(q: int, err: float, seed: int, cc: str, rcvbuf: int = 0,
                     seconds: float = 60, warmup: float = 10) -> float:
    net = ac.Network("seed004-vs-ns3", profile="ns3")
    net.nodes("n1", "n3", "n4", "n5")
    net.link("n1", "n3", rate="10Mb/s", delay="10ms")
    loss = {"kind": "bernoulli", "p": err} if err > 0 else None
    net.link("n3", "n4", rate="1.5Mb/s", delay="10ms", queue="droptail", queue_limit=q,
             loss=loss)
    net.link("n4", "n5", rate="10Mb/s", delay="10ms")
    net.tcp("tcp", "n1", "n5", cc=cc, packet_size=1200,
            **({"rcv_buffer": rcvbuf} if rcvbuf else {}))
    r = net.run(duration=f"{seconds}s", warmup=f"{warmup}s", seed=seed)
    return float(r.flows.set_index("flow").loc["tcp", "goodput_mbps"])


def ns3_stack(exe: Path, qdisc: str, seed: int) -> tuple[float, float, float]:
    """ns-3: (TCP goodput, CBR goodput over 0-60 s, packets dropped at n3)."""
    out = subprocess.run([str(exe), "--cbr=725000", f"--qdisc={qdisc}", f"--RngRun={seed}",
                          "--warmup=0"], capture_output=True, text=True, check=True).stdout
    v = {k: float(x) for k, x in re.findall(r"(\w+) ([\d.]+)", out)}
    drops = v["bneck_qdisc_drops"] + v["n3_tc_drops"] + v["bneck_dev_drops"]
    return v["goodput_mbps_window"], v["cbr_goodput_mbps_window"], drops


def ackclock_stack(droptail: bool, seed: int) -> tuple[float, float, float]:
    """ackclock: the same three numbers, from examples/seed004.toml's flows."""
    net = ac.Network("seed004-stack", profile="ns3")
    net.nodes(*(f"n{i}" for i in range(1, 7)))
    queue = {"queue": "droptail", "queue_limit": 100} if droptail else {}
    for a, b, rate in (("n1", "n3", "10Mb/s"), ("n2", "n3", "10Mb/s"), ("n3", "n4", "1.5Mb/s"),
                       ("n4", "n5", "10Mb/s"), ("n4", "n6", "10Mb/s")):
        net.link(a, b, rate=rate, delay="10ms", **queue)
    net.tcp("tcp", "n1", "n5", cc="reno", packet_size=1200)
    net.udp("cbr", "n2", "n6", app="cbr", rate="0.725Mb/s", packet_size=1200, random=True)
    r = net.run(duration="60s", seed=seed)
    f = r.flows.set_index("flow")
    drops = float(r.queues.set_index("link").loc[["n3->n4", "n3->n1", "n3->n2"],
                                                 "dropped_packets"].sum())
    return float(f.loc["tcp", "goodput_mbps"]), float(f.loc["cbr", "goodput_mbps"]), drops


def two_flows() -> None:
    """Reno vs Westwood+ (examples/seed004_two_flows.py) in ns-3 and in ackclock."""
    sys.path.insert(0, str(ROOT / "examples"))
    from seed004_two_flows import network

    exe = ns3_program()
    print("| app rate | Reno Mb/s ns-3 / ackclock | Westwood+ Mb/s ns-3 / ackclock |"
          " drops at n3 ns-3 / ackclock |")
    print("|---|---|---|---|")
    for rate in (0.5, 1.0, 1.5):
        out = subprocess.run([str(exe), "--cc=ns3::TcpLinuxReno", "--cc2=ns3::TcpWestwoodPlus",
                              f"--appRate={rate * 1e6:g}", "--time=300", "--warmup=10",
                              "--qdisc=none"], capture_output=True, text=True, check=True).stdout
        v = {k: float(x) for k, x in re.findall(r"(\w+) ([\d.]+)", out)}
        n = (v["goodput_mbps_window"], v["flow2_goodput_mbps_window"],
             v["bneck_qdisc_drops"] + v["n3_tc_drops"] + v["bneck_dev_drops"])
        r = network("Reno vs Westwood", f"{rate:g}Mb/s").run("300s", warmup="10s")
        f = r.flows.set_index("flow")
        # ns-3's drop counters run from 0 s; queues.csv counts from the warm-up, so the drops
        # come from the same run without one (the slow start's losses at about 2.7 s included).
        whole = network("Reno vs Westwood", f"{rate:g}Mb/s").run("300s")
        drops = float(whole.queues.set_index("link").loc[["n3->n4", "n3->n1", "n3->n2"],
                                                         "dropped_packets"].sum())
        a = (float(f.loc["flow1", "goodput_mbps"]), float(f.loc["flow2", "goodput_mbps"]), drops)
        print(f"| {rate:g} Mb/s | {n[0]:.3f} / {a[0]:.3f} | {n[1]:.3f} / {a[1]:.3f} |"
              f" {n[2]:.0f} / {a[2]:.0f} |", flush=True)


def fq_codel_alone() -> None:
    """examples/seed004_queues.py's fq_codel row (Reno n1 -> n5 beside an exact 0.725 Mb/s CBR
    n2 -> n6, FqCoDel alone at the bottleneck, 60 s, goodput after 10 s) in ns-3.44, where a
    100-packet FqCoDelQueueDisc is n3's root queue disc above a 1-packet device queue (the
    smallest ns-3 has), and in ackclock with that device queue (`device_limit = 1`) and
    without one (the page's row). Both simulators are deterministic here (no jitter, no
    errors): one run each. The drops at n3, retransmissions and timeouts count the whole run."""
    exe = ns3_program()
    out = subprocess.run([str(exe), "--cbr=725000", "--cbrJitter=0", "--qdisc=fqcodel", "--q=1",
                          "--warmup=10"], capture_output=True, text=True, check=True).stdout
    v = {k: float(x) for k, x in re.findall(r"(\w+) ([\d.]+)", out)}
    rows = [("ns-3.44, FqCoDel above a 1-packet device queue",
             (v["goodput_mbps_window"], v["cbr_goodput_mbps_window"],
              v["bneck_qdisc_drops"] + v["n3_tc_drops"] + v["bneck_dev_drops"],
              v["retransmissions"], v["timeouts"]))]
    for label, device in (("ackclock, `device_limit = 1`", 1),
                          ("ackclock, no device queue (the page's row)", 0)):
        net = ac.Network("seed004-fq_codel", profile="ns3")
        net.nodes(*(f"n{i}" for i in range(1, 7)))
        for a, b in (("n1", "n3"), ("n2", "n3"), ("n4", "n5"), ("n4", "n6")):
            net.link(a, b, rate="10Mb/s", delay="10ms", queue_limit=100)
        net.link("n3", "n4", rate="1.5Mb/s", delay="10ms", queue="fq_codel", queue_limit=100,
                 **({"device_limit": device} if device else {}))
        net.tcp("tcp", "n1", "n5", cc="reno", packet_size=1200)
        net.udp("cbr", "n2", "n6", packet_size=1200, rate="0.725Mb/s")
        f = net.run(duration="60s", warmup="10s").flows.set_index("flow")
        # The counts from 0 s, as ns-3's counters run (ackclock's from the warm-up).
        whole = net.run(duration="60s")
        drops = float(whole.queues.set_index("link").loc[["n3->n4", "n3->n1", "n3->n2"],
                                                         "dropped_packets"].sum())
        w = whole.flows.set_index("flow")
        rows.append((label, (float(f.loc["tcp", "goodput_mbps"]),
                             float(f.loc["cbr", "goodput_mbps"]), drops,
                             float(w.loc["tcp", "packets_retransmitted"]),
                             float(w.loc["tcp", "timeouts"]))))
    print("| run | TCP Mb/s | CBR Mb/s | drops at n3 | TCP retransmissions | TCP timeouts |")
    print("|---|---|---|---|---|---|")
    for label, (tcp, cbr, drops, retx, rto) in rows:
        print(f"| {label} | {tcp:.4f} | {cbr:.4f} | {drops:.0f} | {retx:.0f} | {rto:.0f} |")


def replay(err: float, runs: list[int], seconds: float = 100) -> None:
    """Seed 004's Q2 (errors on the bottleneck, 100 s) with ns-3.44's own losses: ns-3 logs
    each packet n4's bottleneck device receives and whether its RateErrorModel took it
    (`--errLog`), and ackclock drops the same packets of its flow, counted as they reach the
    link (`drop_list` with `counted`), so that both runs see one loss pattern. Goodput over the
    whole run, timeouts and retransmissions of each."""
    exe = ns3_program()
    print("| run | packets lost | ns-3 goodput Mb/s | ackclock goodput Mb/s | difference |"
          " ns-3 retransmissions | ackclock retransmissions / timeouts |")
    print("|---|---|---|---|---|---|---|")
    for run in runs:
        log = Path(f"/tmp/seed004-errlog-{run}.txt")
        out = subprocess.run([str(exe), "--qdisc=default", f"--err={err}", f"--time={seconds}",
                              "--warmup=0", f"--RngRun={run}", f"--errLog={log}"],
                             capture_output=True, text=True, check=True).stdout
        v = {k: float(x) for k, x in re.findall(r"(\w+) ([\d.]+)", out)}
        # The flow's packets as ackclock's counting drop list numbers them: every segment but
        # the pure ACK that ends the handshake (ns-3's 2nd packet: flags ACK, no payload).
        drops, n = [], 0
        for line in log.read_text().split("\n"):
            if not line:
                continue
            _, _, dropped, flags, _, payload = line.split()
            if int(payload) == 0 and not int(flags) & 0x02:
                continue  # lost or not, the data that follow acknowledge the SYN-ACK too
            n += 1
            if int(dropped):
                drops.append(n)
        net = ac.Network("seed004-replay", profile="ns3")
        net.nodes("n1", "n2", "n3", "n4", "n5", "n6")
        for a, b in (("n1", "n3"), ("n2", "n3"), ("n4", "n5"), ("n4", "n6")):
            net.link(a, b, rate="10Mb/s", delay="10ms", queue_limit=100)
        net.link("n3", "n4", rate="1.5Mb/s", delay="10ms", queue_limit=100,
                 loss={"kind": "drop_list", "flow": "tcp", "packets": drops, "counted": True})
        # PPP's 2 bytes in each packet, as ns-3's point-to-point devices add them.
        net.tcp("tcp", "n1", "n5", cc="reno", packet_size=1200, header_size=54)
        f = net.run(duration=f"{seconds}s", seed=run).flows.set_index("flow").loc["tcp"]
        a, b = v["goodput_mbps_all"], float(f.goodput_mbps)
        print(f"| {run} | {len(drops)} | {a:.4f} | {b:.4f} | {100 * (b - a) / a:+.1f}% |"
              f" {v['retransmissions']:.0f} | {int(f.packets_retransmitted)} / {int(f.timeouts)} |",
              flush=True)


def random_errors(err: float, n: int, seconds: float = 100) -> None:
    """Seed 004's Q2 with each simulator's own random errors: ns-3 runs 1..n, ackclock seeds
    1..n on the seed 004 runner's network; goodput over the whole run (Mb/s)."""
    import runpy

    exe = ns3_program()
    network = runpy.run_path(str(ROOT / "examples" / "seeds" / "004" / "run.py"))["network"]
    ns3, ours = [], []
    print("| run / seed | ns-3 goodput Mb/s | ackclock goodput Mb/s |")
    print("|---|---|---|")
    for run in range(1, n + 1):
        out = subprocess.run([str(exe), "--qdisc=default", f"--err={err}", f"--time={seconds}",
                              "--warmup=0", f"--RngRun={run}"],
                             capture_output=True, text=True, check=True).stdout
        m = re.search(r"goodput_mbps_all ([\d.]+)", out)
        assert m, out
        ns3.append(float(m.group(1)))
        f = network(error=err).run(duration=f"{seconds}s", seed=run,
                                   progress=False).flows.set_index("flow").loc["tcp"]
        ours.append(float(f.goodput_mbps))
        print(f"| {run} | {ns3[-1]:.4f} | {ours[-1]:.4f} |", flush=True)
    a, b = statistics.mean(ns3), statistics.mean(ours)
    se = (statistics.variance(ns3) / n + statistics.variance(ours) / n) ** 0.5
    print(f"| mean (sd) | {a:.4f} ({statistics.stdev(ns3):.4f}) | {b:.4f}"
          f" ({statistics.stdev(ours):.4f}) |")
    print(f"ackclock - ns-3: {b - a:+.4f} Mb/s ({100 * (b - a) / a:+.1f}%), standard error"
          f" {se:.4f} ({(b - a) / se:+.1f} standard errors); ranges {min(ns3):.3f}-{max(ns3):.3f}"
          f" and {min(ours):.3f}-{max(ours):.3f}")


def ns3_flowmon(exe: Path, args: list[str]) -> dict[tuple[str, str], tuple[int, int]]:
    """ns-3's FlowMonitor rows, (source, destination) -> (tx packets, rx packets), and the
    drops at n3 under ("drops", "")."""
    out = subprocess.run([str(exe), "--flowmon=1", "--warmup=0", *args], capture_output=True,
                         text=True, check=True).stdout
    rows = {(a, b): (int(tx), int(rx)) for a, b, tx, rx in
            re.findall(r"^flowmon (\S+) (\S+) \d+ (\d+) (\d+)", out, re.M)}
    drops = sum(int(x) for x in re.findall(r"^(?:bneck_qdisc_drops|n3_tc_drops) (\d+)", out,
                                            re.M))
    rows[("drops", "")] = (drops, 0)
    return rows


def flowmon() -> None:
    """The seed 004 runner's FlowMonitor counts in ns-3.44 and in ackclock (module docstring)."""
    import runpy

    exe = ns3_program()
    run = runpy.run_path(str(ROOT / "examples" / "seeds" / "004" / "run.py"))
    print("| case | ns-3 tx / rx / dropped at n3 (all flows) |"
          " ackclock tx / rx / dropped (the flow's, errors included) |")
    print("|---|---|---|")
    single = [("P1 Q1 queue 10, 10 s", ["--q=10", "--time=10"], {"queue": 10}, 10.0),
              ("P1 Q1 queue 100, 10 s", ["--q=100", "--time=10"], {"queue": 100}, 10.0),
              ("P1 Q1 queue 1000, 10 s", ["--q=1000", "--time=10"], {"queue": 1000}, 10.0),
              ("P1 Q2 error 1e-4, 100 s", ["--err=0.0001", "--time=100"], {"error": 1e-4},
               100.0),
              ("P1 Q3 rwnd 100 segments, 50 s", ["--rcvbuf=120000", "--time=50"],
               {"tcp": {"rcv_buffer": 120000}}, 50.0)]
    for label, args, knobs, seconds in single:
        n = ns3_flowmon(exe, ["--qdisc=default", *args])
        tx, rx = n[("0.1", "3.2")]
        a = run["flowmon"](run["network"](**knobs), seconds)
        print(f"| {label} | {tx} / {rx} / {n[('drops', '')][0]} | {a['tx_packets']} /"
              f" {a['rx_packets']} / {a['dropped']} |", flush=True)
    for sizes, seg, cbr, kind in (("text: 1200-byte packets", 1200, 1200, None),
                                  ("printout: 1000-byte segments, 512-byte CBR", 1000, 512,
                                   None),
                                  ("printout's sizes, DropTail alone", 1000, 512, "droptail")):
        n = ns3_flowmon(exe, ["--qdisc=" + ("none" if kind else "default"), "--cbr=725000",
                              "--cbrJitter=0", "--time=51", "--cbrStop=50", f"--seg={seg}",
                              f"--cbrSize={cbr}"])
        ours = {r["flow"]: r for r in run["tcp_and_cbr"](sizes, seg, cbr, kind)}
        for flow, key in (("tcp", ("0.1", "3.2")), ("cbr", ("1.1", "4.2")),
                          ("ack", ("3.2", "0.1"))):
            tx, rx = n[key]
            o = ours[flow]
            dropped = n[("drops", "")][0] if flow == "tcp" else ""
            print(f"| P2 Q1 {sizes}, {flow} | {tx} / {rx} / {dropped} | {o['tx_packets']} /"
                  f" {o['rx_packets']} / {o['dropped']} |", flush=True)


def newreno() -> None:
    """The single-flow FlowMonitor cases with ns-3's TcpNewReno in both (module docstring)."""
    import runpy

    exe = ns3_program()
    run = runpy.run_path(str(ROOT / "examples" / "seeds" / "004" / "run.py"))
    print("| case (TcpNewReno) | ns-3 tx / rx / dropped at n3 | ackclock tx / rx / dropped |")
    print("|---|---|---|")
    cases = [(f"P1 Q1 queue {q}, 10 s", [f"--q={q}", "--time=10"], {"queue": q}, 10.0)
             for q in (10, 100)]
    cases += [(f"P1 Q1 queue {q}, 1000-byte segments, 10.7 s",
               [f"--q={q}", "--time=10.7", "--seg=1000"],
               {"queue": q, "tcp": {"packet_size": 1000}}, 10.7) for q in (10, 100)]
    cases += [("P1 Q2 error 1e-4, 100 s", ["--err=0.0001", "--time=100"], {"error": 1e-4},
               100.0),
              ("P1 Q3 rwnd 100 segments, 50 s", ["--rcvbuf=120000", "--time=50"],
               {"tcp": {"rcv_buffer": 120000}}, 50.0)]
    for label, args, knobs, seconds in cases:
        n = ns3_flowmon(exe, ["--qdisc=default", "--cc=ns3::TcpNewReno", *args])
        tx, rx = n[("0.1", "3.2")]
        tcp = {"cc": "TcpNewReno", **knobs.pop("tcp", {})}
        a = run["flowmon"](run["network"](tcp=tcp, **knobs), seconds)
        print(f"| {label} | {tx} / {rx} / {n[('drops', '')][0]} | {a['tx_packets']} /"
              f" {a['rx_packets']} / {a['dropped']} |", flush=True)
    print()
    print("Goodput over 10-60 s, q = 100, error rate 0.01, seeds 1-10 (mean +- standard error;"
          " the two simulators draw different errors, TcpLinuxReno for scale)")
    print("| class | ns-3 Mb/s | ackclock Mb/s | difference |")
    print("|---|---|---|---|")
    for cc in ("TcpNewReno", "TcpLinuxReno"):
        pairs = [(ns3_goodput(exe, 100, 1e-2, seed, "ns3::" + cc),
                  ackclock_goodput(100, 1e-2, seed, cc)) for seed in range(1, 11)]
        (n_, en), (a_, ea) = ((statistics.mean(x), statistics.stdev(x) / len(x) ** 0.5)
                              for x in zip(*pairs, strict=True))
        print(f"| {cc} | {n_:.4f} +- {en:.4f} | {a_:.4f} +- {ea:.4f} |"
              f" {100 * (a_ - n_) / n_:+.1f}% +- {100 * (en ** 2 + ea ** 2) ** 0.5 / n_:.1f}% |",
              flush=True)


def stack_seeds(n: int) -> None:
    """The stack comparison's last table over seeds (ns-3's RngRun) 1..n: the drops at n3 of
    one seed move by about 9 packets with the CBR's jitter, so three seeds say little."""
    exe = ns3_program()
    print(f"Seeds 1-{n}, mean +- standard error, ns-3 / ackclock")
    print("| stack | TCP Mb/s | drops at n3 | drops' difference |")
    print("|---|---|---|---|")
    for label, qdisc in (("DropTail", "none"), ("FqCoDel above the device queue", "default")):
        n3 = [ns3_stack(exe, qdisc, s) for s in range(1, n + 1)]
        ac_ = [ackclock_stack(qdisc == "none", s) for s in range(1, n + 1)]
        (dn, en), (da, ea) = ((statistics.mean(d), statistics.stdev(d) / n ** 0.5)
                              for d in ([r[2] for r in n3], [r[2] for r in ac_]))
        gn, ga = (statistics.mean(r[0] for r in x) for x in (n3, ac_))
        print(f"| {label} | {gn:.4f} / {ga:.4f} | {dn:.1f} +- {en:.1f} / {da:.1f} +- {ea:.1f} "
              f"| {da - dn:+.1f} +- {(en ** 2 + ea ** 2) ** 0.5:.1f} "
              f"({100 * (da - dn) / dn:+.1f}%) |", flush=True)


def main() -> None:
    if sys.argv[1:] == ["--flowmon"]:
        flowmon()
        return
    if sys.argv[1:2] == ["--random"]:
        random_errors(float(sys.argv[2]), int(sys.argv[3]) if sys.argv[3:] else 20)
        return
    if sys.argv[1:] == ["--newreno"]:
        newreno()
        return
    if sys.argv[1:] == ["--fq-codel"]:
        fq_codel_alone()
        return
    if sys.argv[1:] == ["--two-flows"]:
        two_flows()
        return
    if sys.argv[1:2] == ["--stack"]:
        stack_seeds(int(sys.argv[2]) if sys.argv[2:] else 20)
        return
    if sys.argv[1:2] == ["--replay"]:
        replay(float(sys.argv[2]), [int(r) for r in sys.argv[3:]] or [2, 3, 4, 5, 6])
        return
    exe = ns3_program()
    cases = [(q, 0.0, "reno") for q in (10, 100, 1000)]
    cases += [(100, e, "reno") for e in (1e-3, 1e-2)]
    cases += [(100, 1e-2, "westwood")]
    ns3_cc = {"reno": "ns3::TcpLinuxReno", "westwood": "ns3::TcpWestwoodPlus"}
    print("| q | error rate | cc | ns-3 Mb/s | ackclock Mb/s | difference |")
    print("|---|---|---|---|---|---|")
    for q, err, cc in cases:
        seeds = (1, 2, 3) if err > 0 else (1,)
        n = statistics.mean(ns3_goodput(exe, q, err, s, ns3_cc[cc]) for s in seeds)
        # The same ns-3 class, by its name.
        a = statistics.mean(ackclock_goodput(q, err, s, ns3_cc[cc].removeprefix("ns3::"))
                            for s in seeds)
        print(f"| {q} | {err:g} | {cc} | {n:.3f} | {a:.3f} | {100 * (a - n) / n:+.1f}% |",
              flush=True)
    print()
    print("| receive buffer (1200-byte segments) | ns-3 Mb/s | ackclock Mb/s | difference |")
    print("|---|---|---|---|")
    for segments in (1, 10, 100):
        buf = 1200 * segments
        n = ns3_goodput(exe, 100, 0.0, 1, ns3_cc["reno"], buf, 50, 0)
        a = ackclock_goodput(100, 0.0, 1, "reno", buf, 50, 0)
        print(f"| {segments} ({buf} B) | {n:.4f} | {a:.4f} | {100 * (a - n) / n:+.1f}% |",
              flush=True)
    print()
    print("| stack | TCP Mb/s ns-3 / ackclock | CBR Mb/s ns-3 / ackclock |"
          " drops at n3 ns-3 / ackclock |")
    print("|---|---|---|---|")
    for label, qdisc in (("DropTail", "none"), ("FqCoDel above the device queue", "default")):
        n = [statistics.mean(x)
             for x in zip(*(ns3_stack(exe, qdisc, s) for s in (1, 2, 3)), strict=True)]
        a = [statistics.mean(x) for x in zip(*(ackclock_stack(qdisc == "none", s)
                                               for s in (1, 2, 3)), strict=True)]
        print(f"| {label} | {n[0]:.4f} / {a[0]:.4f} | {n[1]:.4f} / {a[1]:.4f} |"
              f" {n[2]:.1f} / {a[2]:.1f} |", flush=True)


if __name__ == "__main__":
    main()
