"""ns-3.44's own TCP examples beside the same scenarios in ackclock's `ns3` profile (issue 34).

So far: ns-3.44's tcp-variants-comparison example, every congestion control both simulators have
(`validation/ns3/tcp_variants.cc` rebuilds its scenario against the ns3 wheel: source --10 Mb/s,
45 ms-- gateway --2 Mb/s, 0.01 ms-- sink, 340-byte segments, 2 MB buffers, SACK with classic
recovery, a 56-packet PfifoFast queue disc above the gateway's 100-packet device queue, 97.1 s).
ackclock runs the same path with the ns-3 class as `cc`, a 156-packet FIFO (device queue and
queue disc together: ns-3's traffic-control layer is not modelled yet), PPP's 2 bytes in the
headers, and `prr = false`. Per class: goodput, time-averaged and peak cwnd (segments), mean
queue (packets), mean srtt and drops, each with ackclock's difference and whether it is within
issue 34's bars (goodput 2%, mean cwnd 5%, peak cwnd 10%, queue 15%, drops 20%).

    python validation/ns3_examples.py                 # every class, about 2 minutes
    python validation/ns3_examples.py TcpNewReno TcpCubic

Then ns-3.44's tcp-bbr-example and tcp-pacing (`validation/ns3/tcp_examples.cc` rebuilds each
scenario; its header says what each example sets), each flow's goodput, time-averaged and peak
cwnd and srtt, the bottleneck's mean queue (queue disc and device queue), drops and ECN marks:

    python validation/ns3_examples.py --example bbr      # 100 s, about 30 s
    python validation/ns3_examples.py --example pacing   # 5 s

tcp-bbr-example in ackclock: a 100-packet FIFO queue disc (`pfifo_fast`: every packet in one
band) with byte queue limits above a one-packet device queue on the edge links and on R1's side
of the bottleneck, TcpBbr, 1448-byte segments, 6 MB receive buffer, the flow from 0.1 s.
tcp-pacing: the `ns3` profile's default stack (FqCoDel above 100-packet device queues) on every
link, as ns-3 has it there, TcpCubic with pacing and ECN, the two flows starting when ns-3's
uniform draw starts them (the program prints those times).

Then ns-3.44's tcp-validation, each of the four cases it validates (`tcp_examples.cc
--example=validation --validation=CASE`):

    python validation/ns3_examples.py --example validation-cubic-50ms-no-ecn   # also
    # validation-cubic-50ms-ecn, validation-dctcp-10ms, validation-dctcp-80ms; about 30 s each

in ackclock: server -1 Gb/s- WR -50 Mb/s- LR -1 Gb/s- client, a 3-packet device queue with BQL
(1 ms hold time, as the example sets DynamicQueueLimits' HoldTime) below CoDel (1500 packets)
on WR's side of the bottleneck and FqCoDel (10240) everywhere else, ECN on the queues per case,
a 1 ms CE threshold with DCTCP, TcpCubic without its Reno-friendly region (`reno_friendly = 0`,
the example's TcpFriendliness false) or TcpDctcp, 1448-byte
segments, 32768000-byte buffers, the flow from 5 s to a second before the end; goodput from 5 s.

Then two of ns-3.44's examples/traffic-control programs (`validation/ns3/tc_examples.cc`, whose
header says what each sets): traffic-control-example (one CUBIC flow through RED's defaults
above a 1-packet device queue, 10 Mb/s, 2 ms) and queue-discs-benchmark (a CUBIC flow each way
through a 10 Mb/s, 5 ms bottleneck, a queue disc above 50-packet device queues, with or without
BQL), each flow's goodput, cwnd and srtt, the watched queue's mean, drops and marks:

    python validation/ns3_examples.py --example tc-red                  # 15 s, seconds
    python validation/ns3_examples.py --example tc-benchmark-CoDel-bql  # 60 s, about 20 s
    # also tc-benchmark-PfifoFast (the example's default), -CoDel, -FqCoDel, each with -bql

in ackclock: RED with ns-3's RedQueueDisc defaults given as keys above a 1-packet device queue
(`device_limit = 1`: RED then holds its own packets as ns-3's root queue disc does, and the
`ns3` profile gives it ns-3's LinkBandwidth of 1.5 Mb/s); the benchmark's queue discs with
`device_limit` 50 (and `bql`), pfifo_fast (1000) above 100-packet device queues on the access
link; ns-3's always-on OnOff applications as `cbr` writers at their rate (a 1000- or 1448-byte
write every 0.4 ms or 0.23 ms, the first one interval after the connection opens:
`after_connect`, as `OnOffApplication::ConnectionSucceeded` starts them, restarting every
second as an `OnTime` of 1 s and an `OffTime` of 0 make them: `restart_every`), whose writes into a
full 131072-byte send buffer fail (`snd_buffer`, as ns-3's `TcpSocketBase::Send`): the sender's
data come at most at the application's rate, not in line-rate bursts as a bulk transfer's
would.

And issue 34's DCTCP bar, examples/dctcp.py's scenario in both (two TcpDctcp flows through a
10 Gb/s, 100 us-RTT path whose bottleneck marks at K = 65 packets on the instantaneous queue:
RedQueueDisc with MinTh = MaxTh = 65 and QW 1 above a 1-packet device queue in ns-3, RED at the
line in ackclock), 0.3 s measured from 0.1 s, about 1.5 minutes:

    python validation/ns3_examples.py --example dctcp

`--runs N` (any example) runs ns-3 with `--RngRun` 1 to N and ackclock with seeds 1 to N and
prints the means: tc-red's RED draws its early drops from each simulator's own random stream,
so its runs part at RED's first early drop (2.47 s in ns-3's run 1) and one run of each is not
a comparison of the two:

    python validation/ns3_examples.py --example tc-red --runs 20   # about a minute

(`--example dctcp-sndbuf`: the same with ns-3's senders' SndBufSize 16 MB instead of its default
131072 bytes, which bounds ns-3's data in flight; ackclock's run is the same.)
ns-3 comes from the PyPI wheel benchmarks/compare.py installs (~/.cache/ackclock-bench).
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

import ackclock as ac

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from sims import NS3_FLAGS, NS3_MODULES, Ns3  # noqa: E402

CACHE = Path.home() / ".cache" / "ackclock-bench"
SEGMENT = 340
STOP = 97.1
CLASSES = ("TcpNewReno", "TcpLinuxReno", "TcpHybla", "TcpHighSpeed", "TcpHtcp", "TcpVegas",
           "TcpScalable", "TcpVeno", "TcpBic", "TcpYeah", "TcpIllinois", "TcpWestwoodPlus",
           "TcpLedbat", "TcpLp", "TcpDctcp", "TcpCubic", "TcpBbr")
# The measure, its bar (relative difference) or None (shown, not judged).
MEASURES = (("goodput_mbps", 0.02), ("mean_cwnd", 0.05), ("peak_cwnd", 0.10),
            ("mean_queue", 0.15), ("mean_srtt_s", None), ("drops", 0.20))


def ns3_program(name: str = "tcp_variants") -> Path:
    ns3 = Ns3(CACHE, install=True)
    ns3.setup()
    if ns3.available():
        raise SystemExit(f"ns-3 unavailable: {ns3.available()}")
    prefix = ns3.prefix()
    assert prefix is not None
    src = ROOT / "validation" / "ns3" / f"{name}.cc"
    common = (ROOT / "validation" / "ns3" / "common.h").read_bytes()
    key = hashlib.sha256(common + src.read_bytes() + " ".join(NS3_FLAGS).encode()
                         ).hexdigest()[:12]
    exe = CACHE / "ns3-bin" / f"validation-{name.replace('_', '-')}-{key}"
    if not exe.is_file():
        cxx = shutil.which("g++") or "g++"
        subprocess.run([cxx, *NS3_FLAGS, f"-I{prefix / 'include'}", str(src), "-o", str(exe),
                        f"-L{prefix / 'lib64'}", f"-Wl,-rpath,{prefix / 'lib64'}",
                        *(f"-lns3.44-{m}" for m in NS3_MODULES)], check=True)
    return exe


def ns3_run(exe: Path, cls: str) -> dict[str, float]:
    out = subprocess.run([str(exe), cls, f"{STOP:g}"], capture_output=True, text=True,
                         check=True).stdout
    return {k: float(v) for k, v in re.findall(r"^(\w+) ([\d.eE+-]+)$", out, re.M)}


def ackclock_run(cls: str) -> dict[str, float]:
    net = ac.Network(f"tcp-variants-{cls}", profile="ns3")
    net.nodes("src", "gw", "dst")
    net.link("src", "gw", rate="10Mb/s", delay="45ms", queue="droptail", queue_limit=156)
    net.link("gw", "dst", rate="2Mb/s", delay="0.01ms", queue="droptail", queue_limit=156)
    net.tcp("f", "src", "dst", cc=cls, packet_size=SEGMENT, header_size=54, ack_size=54,
            rcv_buffer=1 << 21, prr=False, trace=["cwnd"])
    r = net.run(duration=f"{STOP}s", sample_interval="10ms")
    t = r.tcp_trace[r.tcp_trace.variable == "cwnd"]
    times = np.append(t.time_s.to_numpy(), STOP)
    cwnd = t.value.to_numpy() / SEGMENT
    q = r.queues.set_index("link").loc["gw->dst"]
    srtt = r.timeseries.srtt_s.to_numpy()
    return {
        "goodput_mbps": float(r.flows.iloc[0].goodput_mbps),
        "mean_cwnd": float(np.sum(cwnd * np.diff(times)) / STOP),
        "peak_cwnd": float(cwnd.max()),
        "mean_queue": float(q.mean_queue_packets),
        "mean_srtt_s": float(srtt[srtt > 0].mean()),
        "drops": float(q.dropped_packets),
    }


def ns3_example(exe: Path, example: str, *args: str) -> dict[str, float]:
    out = subprocess.run([str(exe), f"--example={example}", *args], capture_output=True,
                         text=True, check=True).stdout
    return {k: float(v) for k, v in re.findall(r"^(\w+) ([\d.eE+-]+)$", out, re.M)}


def time_average(times: np.ndarray, values: np.ndarray, end: float) -> float:
    """The time average of a value given at its changes, from its first change to ``end``."""
    t = np.append(times, end)
    return float(np.sum(values * np.diff(t)) / (end - t[0]))


def ackclock_example(example: str, starts: list[float], seed: int = 1) -> dict[str, float]:
    """The example's scenario in ackclock's ns3 profile, measured as tcp_examples.cc does."""
    net = ac.Network(f"ns3-{example}", profile="ns3")
    warmup = 0.0
    if example == "bbr":
        seg, stop, bottleneck = 1448, 100.0, "r1->r2"
        fifo = {"queue": "pfifo_fast", "queue_limit": 100, "device_limit": 1, "bql": True}
        net.nodes("s", "r1", "r2", "d")
        net.link("s", "r1", rate="1000Mb/s", delay="5ms", **fifo)
        net.link("r1", "r2", rate="10Mb/s", delay="10ms", **fifo)
        net.link("r2", "d", rate="1000Mb/s", delay="5ms", **fifo)
        net.tcp("f0", "s", "d", cc="TcpBbr", packet_size=seg, header_size=54, ack_size=54,
                rcv_buffer=6291456, snd_buffer=4194304, start=f"{starts[0]}s",
                trace=["cwnd", "srtt"])
    elif example.startswith("validation-"):
        # tcp-validation.cc's case: TcpCubic or TcpDctcp through a 50 Mb/s CoDel bottleneck.
        case = example.removeprefix("validation-")
        dctcp = case.startswith("dctcp")
        rtt_ms = {"dctcp-10ms": 10, "dctcp-80ms": 80}.get(case, 50)
        stop = {"dctcp-10ms": 15.0, "dctcp-80ms": 40.0}.get(case, 20.0)
        seg, bottleneck, warmup = 1448, "wr->lr", 5.0
        mark = {"ecn": case != "cubic-50ms-no-ecn"}
        ce = {"ce_threshold": "1ms"} if dctcp else {}
        # ns-3's MaxSize defaults: FqCoDelQueueDisc 10240 packets, CoDelQueueDisc 1500.
        fq = {"queue": "fq_codel", "queue_limit": 10240, "device_limit": 3, "bql": True,
              "bql_hold_time": "1ms", **ce,
              **mark}
        net.nodes("srv", "wr", "lr", "cli")
        net.link("srv", "wr", rate="1000Mb/s", delay="1us", **fq)
        net.link("wr", "lr", rate="50Mb/s", delay=f"{rtt_ms / 2}ms", duplex=False,
                 queue="codel", queue_limit=1500, device_limit=3, bql=True,
                 bql_hold_time="1ms", **ce, **mark)
        net.link("lr", "wr", rate="1000Mb/s", delay=f"{rtt_ms / 2}ms", duplex=False, **fq)
        net.link("lr", "cli", rate="1000Mb/s", delay="1us", **fq)
        cc = "TcpDctcp" if dctcp else "TcpCubic"
        net.tcp("f0", "srv", "cli", cc=cc, packet_size=seg, header_size=54, ack_size=54,
                rcv_buffer=32768000, snd_buffer=32768000, ecn=True, start="5s",
                stop=f"{stop - 1}s",
                cc_params={} if dctcp else {"reno_friendly": 0}, trace=["cwnd", "srtt"])
    elif example == "tc-red":
        # traffic-control-example: RedQueueDisc's defaults are the ns3 profile's red defaults
        # (MinTh 5, MaxTh 15, QW 0.002, LInterm 50, MeanPktSize 500); its MaxSize 25p is given.
        seg, stop, bottleneck, warmup = 1448, 15.0, "n1->n0", 1.0
        net.nodes("n0", "n1")
        net.link("n0", "n1", rate="10Mb/s", delay="2ms", queue="red", queue_limit=25,
                 device_limit=1)
        net.tcp("f0", "n1", "n0", cc="TcpCubic", packet_size=seg, header_size=54, ack_size=54,
                app="cbr", rate="50Mb/s", after_connect=True, restart_every="1s", start="1s",
                stop="10.1s",
                trace=["cwnd", "srtt"])
    elif example.startswith("tc-benchmark-"):
        # queue-discs-benchmark: --queueDiscType (and -bql) on both bottleneck devices.
        kind, _, bql = example.removeprefix("tc-benchmark-").partition("-")
        seg, stop, bottleneck, warmup = 1000, 60.1, "n2->n3", 5.0
        qdisc = {"PfifoFast": "pfifo_fast", "CoDel": "codel", "FqCoDel": "fq_codel"}[kind]
        net.nodes("n1", "n2", "n3")
        net.link("n1", "n2", rate="100Mb/s", delay="0.1ms", queue="pfifo_fast",
                 queue_limit=1000, device_limit=100)
        net.link("n2", "n3", rate="10Mb/s", delay="5ms", queue=qdisc, queue_limit=1000,
                 device_limit=50, bql=bql == "bql")
        for i, (a, b) in enumerate((("n1", "n3"), ("n3", "n1"))):
            net.tcp(f"f{i}", a, b, cc="TcpCubic", packet_size=seg, header_size=54,
                    ack_size=54, app="cbr", rate="20Mb/s", after_connect=True, restart_every="1s",
                    start="0.1s",
                    stop=f"{stop - 0.1:g}s", trace=["cwnd", "srtt"])
    elif example in ("dctcp", "dctcp-sndbuf"):
        # examples/dctcp.py's scenario (the DCTCP paper's result), with the flows traced.
        seg, stop, bottleneck, warmup = 1448, 0.3, "r1->r2", 0.1
        net.nodes("s", "r1", "r2", "d")
        net.link("s", "r1", rate="40Gb/s", delay="10us", queue="droptail", queue_limit=10_000)
        net.link("r1", "r2", rate="10Gb/s", delay="20us", queue="red", queue_limit=1000,
                 min_thresh=65, max_thresh=65, q_weight=1.0, gentle=False, hard_drop=False,
                 ecn=True)
        net.link("r2", "d", rate="40Gb/s", delay="20us", queue="droptail", queue_limit=10_000)
        for i in range(2):
            net.tcp(f"f{i}", "s", "d", cc="TcpDctcp", ecn=True, packet_size=seg,
                    header_size=54, ack_size=54, rcv_buffer="16MB", trace=["cwnd", "srtt"])
    else:
        seg, stop, bottleneck = 536, 5.0, "n2->n3"
        net.nodes(*(f"n{i}" for i in range(6)))
        for a, b in (("n0", "n2"), ("n1", "n2"), ("n3", "n4"), ("n3", "n5")):
            net.link(a, b, rate="40Mb/s", delay="5ms")
        net.link("n2", "n3", rate="10Mb/s", delay="40ms")
        for i, (a, b) in enumerate((("n0", "n4"), ("n1", "n5"))):
            net.tcp(f"f{i}", a, b, cc="TcpCubic", header_size=54, ack_size=54, pacing=True,
                    ecn=True, start=f"{starts[i]}s", trace=["cwnd", "srtt"])
    r = net.run(duration=f"{stop}s", sample_interval="10ms", warmup=f"{warmup}s", seed=seed)
    q = r.queues.set_index("link").loc[bottleneck]
    out = {"mean_queue": float(q.mean_queue_packets), "peak_queue": float(q.max_queue_packets),
           "drops": float(q.dropped_packets), "marks": float(q.marked_packets)}
    flows = r.flows.set_index("flow")
    for i in range(len(starts)):
        t = r.tcp_trace[r.tcp_trace.flow == f"f{i}"]
        cw = t[t.variable == "cwnd"]
        sr = t[(t.variable == "srtt") & (t.value > 0)]
        out[f"flow{i}_goodput_mbps"] = float(flows.loc[f"f{i}", "goodput_mbps"])
        out[f"flow{i}_mean_cwnd"] = time_average(cw.time_s.to_numpy(),
                                                 cw.value.to_numpy() / seg, stop)
        out[f"flow{i}_peak_cwnd"] = float(cw.value.max() / seg)
        out[f"flow{i}_peak_cwnd_time_s"] = float(cw.time_s.loc[cw.value.idxmax()])
        out[f"flow{i}_mean_srtt_s"] = time_average(sr.time_s.to_numpy(), sr.value.to_numpy(),
                                                   stop)
    return out


def ns3_example_run(exe: Path, example: str, run: int) -> dict[str, float]:
    """ns-3's side of `example` with random run `run` (`RngRun`)."""
    rng = [f"--RngRun={run}"] if run != 1 else []
    if example == "tc-red":
        return ns3_example(exe, "red", *rng)
    if example.startswith("tc-benchmark-"):
        kind, _, bql = example.removeprefix("tc-benchmark-").partition("-")
        return ns3_example(exe, "benchmark", f"--queueDiscType={kind}",
                           f"--bql={int(bql == 'bql')}", *rng)
    if example.startswith("validation-"):
        return ns3_example(exe, "validation",
                           f"--validation={example.removeprefix('validation-')}", *rng)
    if example == "dctcp-sndbuf":
        # The dctcp example with the senders' SndBufSize 16 MB instead of ns-3's 131072 bytes,
        # which bounds ns-3's data in flight (docs/validation.md's 'Where it stands').
        return ns3_example(exe, "dctcp", "--sndBuf=16777216", *rng)
    return ns3_example(exe, example, *rng)


def example_main(example: str, runs: int = 1) -> None:
    exe = ns3_program("tc_examples" if example.startswith("tc-") else "tcp_examples")
    n: dict[str, float] = {}
    a: dict[str, float] = {}
    for run in range(1, runs + 1):
        nr = ns3_example_run(exe, example, run)
        flows = 2 if "flow1_goodput_mbps" in nr else 1
        starts = [nr.get(f"flow{i}_start_s", 0.1) for i in range(flows)]
        ar = ackclock_example(example, starts, seed=run)
        for side in (nr, ar):
            side["goodput_total_mbps"] = sum(side[f"flow{i}_goodput_mbps"] for i in range(flows))
        for mean, side in ((n, nr), (a, ar)):
            for key, value in side.items():
                mean[key] = mean.get(key, 0.0) + value / runs
    if runs > 1:
        print(f"means of ns-3's runs 1-{runs} (RngRun) and ackclock's seeds 1-{runs}")
    print(f"| {example} | ns-3 | ackclock | difference |")
    print("|---|---|---|---|")
    for key in a:
        d = (a[key] - n[key]) / n[key] if n[key] else float("inf") if a[key] else 0.0
        print(f"| {key} | {n[key]:.4g} | {a[key]:.4g} | {100 * d:+.1f}% |", flush=True)


def main(classes: list[str]) -> None:
    exe = ns3_program()
    head = " | ".join(f"{m} ns-3 / ackclock" for m, _ in MEASURES)
    print(f"| class | {head} |")
    print("|---" * (len(MEASURES) + 1) + "|")
    for cls in classes:
        n, a = ns3_run(exe, cls), ackclock_run(cls)
        cells = []
        for m, bar in MEASURES:
            d = (a[m] - n[m]) / n[m] if n[m] else float("inf") if a[m] else 0.0
            mark = "" if bar is None else (" ok" if abs(d) <= bar else " **")
            cells.append(f"{n[m]:.4g} / {a[m]:.4g} ({100 * d:+.1f}%{mark})")
        print(f"| {cls} | " + " | ".join(cells) + " |", flush=True)


def cli(argv: list[str] | None = None) -> int:
    """A bad argument or a failed reference run is one line, not a traceback."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("classes", nargs="*", metavar="TcpClass",
                        help="ns-3 congestion-control classes (default: all of "
                        f"{', '.join(CLASSES)})")
    parser.add_argument("--example", help="one of ns-3.44's examples instead (bbr, pacing, dctcp, "
                        "dctcp-sndbuf, tc-red, tc-benchmark-..., validation-CASE)")
    parser.add_argument("--runs", type=int, default=1, help="runs to average (--example only)")
    args = parser.parse_args(argv)
    unknown = [c for c in args.classes if c not in CLASSES]
    if unknown:
        parser.error(f"unknown class {unknown[0]!r}: expected one of {', '.join(CLASSES)}")
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, got {args.runs}")
    try:
        if args.example is not None:
            example_main(args.example, args.runs)
        else:
            main(args.classes or list(CLASSES))
    except subprocess.CalledProcessError as e:
        print(f"ns3_examples.py: the ns-3 program failed ({' '.join(map(str, e.cmd))}, "
              f"exit {e.returncode}): is the example name right?", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(cli())
