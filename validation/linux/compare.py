"""ackclock's `linux` profile against real Linux TCP, side by side.

Real Linux runs on the testbed in `../shared/linux-testbed/` (its README): three network
namespaces, a sender and a receiver running unmodified Linux TCP (iperf3) and, between them, a
userspace link emulator (`linkem.c`) giving each direction a rate, a propagation delay, a
DropTail FIFO of N waiting packets and Bernoulli loss on data segments. ackclock runs the same
path: two nodes, one duplex link with that rate, delay and queue limit (the `linux` profile's
plain DropTail accounting: N waiting, one on the line, as linkem) and the Bernoulli loss on the
data direction at the link's entry, before the queue, as linkem's, the flows started and stopped
as iperf3's.

For each case it prints goodput, retransmissions, mean smoothed RTT, mean cwnd, queue drops and
(two flows) Jain's index of the flows' goodputs while both run, Linux beside ackclock, and draws
cwnd and RTT over time for both (`OUT/CASE.png`).

    python validation/linux/compare.py                 # every case (about 25 minutes)
    python validation/linux/compare.py --cases cubic_10M_100ms_p0.01 bbr_10M_100ms_p0.01
    python validation/linux/compare.py --reuse          # ackclock again, Linux runs kept in OUT
    python validation/linux/compare.py --list
    python validation/linux/compare.py --heldout        # the held-back paths instead
    python validation/linux/compare.py --endpoint-priority 40   # iperf3 at real-time priority

Needs root, network namespaces, iperf3, ethtool and gcc for the Linux side (`--reuse` needs none
of them). The emulator is timing-sensitive: `linkem_summary.json` reports how late it woke up,
and the table shows, per case, the share of packets it released over 1 ms late (the worst of
the case's Linux runs and both directions), the latest release and the time the buffer takes to
drain. A case whose emulator was late by more than 1 ms on more than 1% of its packets is
flagged `late` and should be run again on a quieter machine; one where frequent 1-ms stalls are
a large part of that drain time (`emulator_limited`) is flagged `emulator-limited`: there the
emulator's bunched releases, not Linux's TCP, decide Linux's figures.
"""

from __future__ import annotations

import argparse
import csv
import fcntl
import json
import math
import os
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent


def _testbed() -> Path:
    """The testbed: $ACKCLOCK_LINUX_TESTBED, or `shared/linux-testbed` beside the repository
    (or beside the folder holding it, for a git worktree)."""
    if "ACKCLOCK_LINUX_TESTBED" in os.environ:
        return Path(os.environ["ACKCLOCK_LINUX_TESTBED"])
    for up in (ROOT.parent, ROOT.parent.parent):
        if (up / "shared" / "linux-testbed").is_dir():
            return up / "shared" / "linux-testbed"
    return ROOT.parent / "shared" / "linux-testbed"


TESTBED = _testbed()
MSS = 1448
FRAME = 1514  # a 1448-byte segment with timestamps in an Ethernet frame
SAMPLE = 0.1  # the testbed's sampler runs `ss` every 100 ms


@dataclass(frozen=True)
class Case:
    """One path and one congestion control; flow 2 (if any) starts `stagger` s after flow 1."""

    cc: str
    rate_mbps: float
    rtt_ms: float
    qlim: int
    p: float = 0.0
    flows: int = 1
    stagger: float = 10.0
    duration: float = 30.0
    seed: int = 1

    @property
    def name(self) -> str:
        rate = f"{self.rate_mbps:g}M"
        n = f"_{self.flows}f" if self.flows > 1 else ""
        return f"{self.cc}_{rate}_{self.rtt_ms:g}ms_q{self.qlim}_p{self.p:g}{n}"

    @property
    def bdp_packets(self) -> float:
        return self.rate_mbps * 1e6 * self.rtt_ms * 1e-3 / (8 * FRAME)


def cases() -> list[Case]:
    """The paths: several rates, RTTs, buffers (in BDPs) and loss rates, one and two flows."""
    out: list[Case] = []
    for cc in ("reno", "cubic", "bbr"):
        # The path: 10 Mb/s, 100 ms, 200 packets (2.4 BDP), with random loss.
        for p in (0.0, 0.01, 0.05):
            out.append(Case(cc, 10, 100, 200, p))
        # Fast and short with a shallow buffer; slow and long with a deep one.
        out.append(Case(cc, 100, 38, 35, 0.0))
        out.append(Case(cc, 50, 20, 80, 0.001))
        out.append(Case(cc, 4, 200, 140, 0.0))
        # Two flows, the second 10 s later.
        out.append(Case(cc, 20, 40, 66, 0.0, flows=2, duration=40))
    return out


def heldout_cases() -> list[Case]:
    """Paths kept out of the table above, to check that a change made for its cases carries
    over: other rates, RTTs, buffers (0.25 to 4 BDP) and loss rates (`--heldout`)."""
    out: list[Case] = []
    for cc in ("reno", "cubic", "bbr"):
        out.append(Case(cc, 2, 50, 8, 0.02))  # slow, 1 BDP, 2% loss
        out.append(Case(cc, 20, 10, 66, 0.005))  # short RTT, 4 BDP
        out.append(Case(cc, 30, 150, 93, 0.0))  # long RTT, 0.25 BDP
        out.append(Case(cc, 5, 60, 50, 0.1))  # 2 BDP, 10% loss
        out.append(Case(cc, 50, 80, 330, 0.0, flows=2, duration=40))  # two flows, 1 BDP
    return out


def quick_case() -> Case:
    """The live case the test suite runs: a few seconds, no random loss."""
    return Case("cubic", 20, 20, 40, 0.0, duration=4)


# ---------------------------------------------------------------------------------------------
# Linux


def testbed_ready() -> str | None:
    """None if the Linux side can run here, else why not."""
    if os.geteuid() != 0:
        return "needs root"
    for tool in ("iperf3", "ethtool", "gcc", "ip", "chrt"):
        if shutil.which(tool) is None:
            return f"needs {tool}"
    if not (TESTBED / "run_one.sh").is_file():
        return f"no testbed at {TESTBED}"
    return None


# The testbed's namespaces have fixed names (a, m, b): a second run setting them up would delete
# those of a run in progress. Whoever sets them up holds this lock until they are torn down.
LOCK = Path("/tmp/ackclock-linux-testbed.lock")
_lock: Any = None


class TestbedBusy(Exception):
    """Another run holds the testbed."""


def setup_namespaces(wait: bool = True) -> None:
    """Takes the testbed (waiting for another run to finish, or raising TestbedBusy if `wait`
    is false) and builds its namespaces."""
    global _lock
    if _lock is None:
        f = LOCK.open("a")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            f.close()
            raise TestbedBusy(f"another run holds {LOCK}") from None
        _lock = f
    subprocess.run(["bash", str(TESTBED / "setup_ns.sh")], check=True)


def teardown_namespaces() -> None:
    global _lock
    for ns in ("a", "m", "b"):
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    if _lock is not None:
        _lock.close()
        _lock = None


# The namespaces' default congestion control for the Linux runs (`set_default_cc`).
HOST_CC = "reno"


def set_default_cc(cc: str) -> None:
    """Makes `cc` the default congestion control of the sender's and receiver's namespaces
    (iperf3's `-C` then picks each case's own).

    This matters for reno and cubic. Linux paces a socket by itself (no fq qdisc needed) once
    its `sk_pacing_status` is SK_PACING_NEEDED (`tcp_needs_internal_pacing`), which BBR's
    `bbr_init` sets and no other congestion control clears. With this machine's default, bbr,
    in the namespaces, iperf3's `-C reno` and `-C cubic` flows were paced at 2x cwnd/srtt in
    slow start (`tcp_update_pacing_rate`): measured on a 30 Mb/s, 150 ms, 93-packet path (6 s
    of Reno), the second window of 20 segments left one every 3.8 ms (the pacing rate) instead
    of in one burst, and the queue dropped 399 packets; 157 with `tcp_pacing_ss_ratio` = 1000,
    161 with the namespaces' default set to reno. The `linux` profile's reno and cubic do not
    pace (`pacing = false`: a host whose default is not bbr, without fq), so Linux runs the
    same way here. The default is reno because a namespace other than the first may only take
    a congestion control listed in `tcp_allowed_congestion_control` (here reno and bbr); BBR's
    own flows pace whatever the default."""
    for ns in ("a", "b"):
        subprocess.run(["ip", "netns", "exec", ns, "sysctl", "-qw",
                        f"net.ipv4.tcp_congestion_control={cc}"], check=True)


def _priority_path(priority: int) -> str:
    """A folder whose `iperf3` runs the real one at real-time priority `priority`
    (SCHED_FIFO, `chrt -f`), for the front of PATH: the testbed's run_one.sh starts both
    endpoints with `ip netns exec NS iperf3 ...`, which finds it there."""
    real = shutil.which("iperf3")
    if real is None:
        raise SystemExit("needs iperf3")
    d = Path(os.environ.get("TMPDIR", "/tmp")) / f"ackclock-iperf3-rt{priority}"
    d.mkdir(parents=True, exist_ok=True)
    w = d / "iperf3"
    w.write_text(f'#!/bin/sh\nexec chrt -f {priority} {real} "$@"\n')
    w.chmod(0o755)
    return str(d)


# The endpoints' real-time priority the reference tables were taken with (docs/validation.md),
# below the emulator's 50.
REFERENCE_PRIORITY = 40


def realtime_allowed(priority: int = REFERENCE_PRIORITY) -> bool:
    """Whether this machine lets a process run at real-time priority `priority` (`chrt -f`:
    root, and a kernel or container that grants real-time time)."""
    if shutil.which("chrt") is None:
        return False
    return subprocess.run(["chrt", "-f", str(priority), "true"],
                          capture_output=True).returncode == 0


def run_linux(case: Case, out: Path, host_cc: str | None = None, priority: int = 0) -> None:
    """One Linux run of `case` into `out` (iperf3 JSON, ss samples, emulator summary), the
    namespaces' default congestion control `host_cc` (None: HOST_CC, `set_default_cc`), the
    endpoints (iperf3 client and server) at real-time priority `priority` (0: normal).

    Real-time endpoints keep the machine's other work (builds, tests) from stalling them: on
    100 Mb/s, 38 ms, 35 packets (30 s of Reno under load 18) a receiver at normal priority
    sent 882 ACKs covering 8 or more segments after a pause (not after a loss), and the sender
    answered each with a burst longer than the buffer: 23.5 Mb/s; with both endpoints at
    `chrt -f 40`, 97 such ACKs and 47.0 Mb/s."""
    if out.exists():
        shutil.rmtree(out)
    set_default_cc(host_cc or HOST_CC)
    env = dict(os.environ, RATE=str(int(case.rate_mbps * 1e6)), DELAY=str(case.rtt_ms / 2000),
               QLIM=str(case.qlim))
    if priority:
        env["PATH"] = _priority_path(priority) + os.pathsep + env.get("PATH", "")
    # The emulator is built outside the (read-only) testbed folder, once.
    env.setdefault("LINKEM", str(Path(os.environ.get("TMPDIR", "/tmp")) / "ackclock-linkem"))
    subprocess.run(["bash", str(TESTBED / "run_one.sh"), str(out), case.cc, str(case.p),
                    str(case.seed), str(case.duration), str(case.flows), str(case.stagger)],
                   env=env, check=True, capture_output=True)
    for f in ["linkem_summary.json", *(f"{s}{i}.json" for s in ("server", "client")
                                       for i in range(1, case.flows + 1))]:
        try:
            json.loads((out / f).read_text())
        except (OSError, ValueError):
            raise SystemExit(f"{out / f}: the Linux run failed (see that folder)") from None
    (out / "case.json").write_text(json.dumps({**asdict(case), "host_cc": host_cc or HOST_CC,
                                               "endpoint_priority": priority}))


def _num(x: str) -> float:
    return float(x) if x not in ("", None) else math.nan


def linux_metrics(case: Case, out: Path) -> dict[str, Any]:
    """What the Linux run measured: per flow goodput, retransmissions, RTT, cwnd; drops."""
    summary = json.loads((out / "linkem_summary.json").read_text())
    ab = summary["a_to_b"]
    ba = summary["b_to_a"]
    late = max(ab["late_over_1ms"] / max(ab["fwd"], 1), ba["late_over_1ms"] / max(ba["fwd"], 1))
    late_max = max(ab["late_max_us"], ba["late_max_us"]) * 1e-6
    # The data flows by port (the iperf3 control connection is in ss.csv too).
    rows = list(csv.DictReader((out / "ss.csv").open()))
    flows = []
    series: dict[int, list[tuple[float, float, float, float]]] = {}
    for i in range(1, case.flows + 1):
        server = json.loads((out / f"server{i}.json").read_text())
        client = json.loads((out / f"client{i}.json").read_text())
        recv = server["end"]["sum_received"]
        port = str(5200 + i)
        mine = [r for r in rows if r["dport"] == port and r["cc"] == case.cc]
        # The data connection is the one that sent the most.
        by_sport: dict[str, list[dict[str, str]]] = {}
        for r in mine:
            by_sport.setdefault(r["sport"], []).append(r)
        data = (max(by_sport.values(), key=lambda rs: _num(rs[-1]["bytes_acked"]))
                if by_sport else [])
        series[i] = [(_num(r["t"]), _num(r["cwnd"]), _num(r["rtt"]) / 1e3,
                      _num(r["bytes_acked"])) for r in data]
        rtts = [s[2] for s in series[i] if not math.isnan(s[2])]
        cwnds = [s[1] for s in series[i] if not math.isnan(s[1])]
        flows.append({
            "goodput": recv["bits_per_second"] / 1e6,
            "retrans": int(client["end"]["sum_sent"].get("retransmits", 0)),
            "rtt": sum(rtts) / len(rtts) if rtts else math.nan,
            "cwnd": sum(cwnds) / len(cwnds) if cwnds else math.nan,
        })
    # The sampler's clock starts before iperf3 does (its t = 0 is the script's T0; the first
    # client connects about a second later): put flow 1's start at ackclock's 0.001 s, so
    # that both systems' Jain windows cover the same part of the flows' lives. The first
    # sample of a connection comes 0-100 ms after it opens: half a sample earlier.
    if series.get(1):
        shift = series[1][0][0] - SAMPLE / 2 - 0.001
        series = {i: [(t - shift, c, r, b) for (t, c, r, b) in s] for i, s in series.items()}
    jain = math.nan
    if case.flows == 2:
        shares = [_delivered_between(series[i], case.stagger + 1, case.duration) for i in (1, 2)]
        jain = _jain(shares)
    loss = ab["drop_loss"] / max(ab["data_rx"], 1)
    return {"flows": flows, "drops": ab["drop_queue"], "jain": jain, "late": late,
            "late_max": late_max, "series": series, "loss": loss}


def mean_linux(case: Case, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The mean of several Linux runs of one case, with the spread of each flow's goodput
    (half the range over the mean, in %; 0 for one run)."""
    first = runs[0]
    flows = []
    for i in range(case.flows):
        f = {k: sum(r["flows"][i][k] for r in runs) / len(runs) for k in first["flows"][i]}
        g = [r["flows"][i]["goodput"] for r in runs]
        f["spread"] = (max(g) - min(g)) / 2 / f["goodput"] * 100 if f["goodput"] > 0 else 0.0
        flows.append(f)
    return {"flows": flows, "series": first["series"], "runs": len(runs),
            **{k: sum(r[k] for r in runs) / len(runs) for k in ("drops", "jain", "late", "loss")},
            "late": max(r["late"] for r in runs), "late_max": max(r["late_max"] for r in runs)}


# A case is emulator-limited when the emulator's late releases are frequent (over 1 ms late on
# more than 0.1% of a run's packets) and 1 ms is at least an eighth of the time the buffer takes
# to drain (qlim frames at the rate): a bunch of ACKs held that long lets the sender answer with
# that much data at once, which a buffer that small cannot hold. On 100 Mb/s, 38 ms, 35 packets
# (4.2 ms) every Linux run was (0.11-0.66% of packets over 1 ms late, up to 40 ms): each of its
# congestion-avoidance cuts came within 10 ms of a late ACK bunch (docs/validation.md). The
# next smallest buffer of the tables drains in 19.4 ms.
LATE_SHARE_LIMIT = 0.001
LATE_BUFFER_SHARE = 1 / 8


def drain_time(case: Case) -> float:
    """Seconds the full buffer takes to drain: qlim frames at the link's rate."""
    return case.qlim * FRAME * 8 / (case.rate_mbps * 1e6)


def emulator_limited(case: Case, lx: dict[str, Any]) -> bool:
    """Whether the emulator's late releases decide this case (`LATE_SHARE_LIMIT`)."""
    return lx["late"] > LATE_SHARE_LIMIT and 1e-3 >= LATE_BUFFER_SHARE * drain_time(case)


def _delivered_between(s: list[tuple[float, float, float, float]], t0: float,
                       t1: float) -> float:
    """Bytes acknowledged between t0 and t1 from samples (t, cwnd, rtt, bytes_acked)."""
    def at(t: float) -> float:
        before = [b for (ts, _, _, b) in s if ts <= t and not math.isnan(b)]
        return before[-1] if before else 0.0
    return at(t1) - at(t0)


def _jain(x: list[float]) -> float:
    s, q = sum(x), sum(v * v for v in x)
    return s * s / (len(x) * q) if q > 0 else math.nan


# ---------------------------------------------------------------------------------------------
# ackclock


# ackclock runs averaged per case (random loss: seeds 1..N; two flows: N start offsets of the
# second flow, STAGGER_STEP apart). A single run of a lossy case varies by 14% (Reno, 10 Mb/s,
# 100 ms, p = 1%: standard deviation over 30 seeds), two BBR flows' Jain index from 0.85 to 1.00
# with a few ms of start offset: a mean of 5 runs carried a standard error of 6% and 0.03, the
# size of the bars; of 20, half that.
ACKCLOCK_RUNS = 20
STAGGER_STEP = 0.0011


def run_ackclock(case: Case, seeds: int = ACKCLOCK_RUNS,
                 tcp: dict[str, Any] | None = None) -> dict[str, Any]:
    """The case in ackclock's `linux` profile, TCP parameters `tcp` overriding it: with random
    loss the mean of `seeds` runs (the loss one Linux run saw is one draw too; the table shows
    both loss rates), with two flows the mean of `seeds` start offsets, else one run."""
    if case.p > 0:
        runs = [_run_ackclock(case, seed, tcp) for seed in range(1, seeds + 1)]
    elif case.flows > 1:
        # Without random loss a run has little randomness, but how two flows share swings
        # with their start times (a few ms move BBR's split by 20%): as Linux's runs differ
        # by their timing, the mean of runs whose second flow starts a little later.
        # Each with its own seed: Linux's BBR draws its gain-cycle phase at random.
        runs = [_run_ackclock(replace(case, stagger=case.stagger + k * STAGGER_STEP), k + 1, tcp)
                for k in range(seeds)]
    else:
        runs = [_run_ackclock(case, 1, tcp)]
    first = runs[0]
    mean = {
        "flows": [{k: sum(r["flows"][i][k] for r in runs) / len(runs) for k in first["flows"][i]}
                  for i in range(case.flows)],
        "drops": sum(r["drops"] for r in runs) / len(runs),
        "jain": sum(r["jain"] for r in runs) / len(runs),
        "loss": sum(r["loss"] for r in runs) / len(runs),
        "series": first["series"],
        "runs": len(runs),
    }
    return mean


def _run_ackclock(case: Case, seed: int, tcp: dict[str, Any] | None) -> dict[str, Any]:
    import ackclock as ac

    net = ac.Network(f"linux-{case.name}", profile="linux")
    if tcp:
        net.defaults(**tcp)
    net.nodes("a", "b")
    loss = {"kind": "bernoulli", "p": case.p} if case.p > 0 else None
    link = net.link("a", "b", rate=f"{case.rate_mbps:g}Mb/s", delay=f"{case.rtt_ms / 2:g}ms",
                    queue_limit=case.qlim, loss=loss)
    # linkem draws its loss as a frame arrives, before the queue (linkem.c `arrive`): a lost
    # segment never takes the link's time. ackclock's loss model by default takes packets as
    # they leave the link, so at p = 10% a tenth of the link carried segments that were then
    # lost (BBR, which keeps the link busy, lost 4.4% of goodput to it on 5 Mb/s).
    link.loss_at_entry = True
    for i in range(1, case.flows + 1):
        start = 0.001 + (i - 1) * case.stagger
        net.tcp(f"f{i}", "a", "b", cc=case.cc, start=f"{start:g}s",
                stop=f"{start + case.duration:g}s")
    total = case.duration + (case.flows - 1) * case.stagger + 1
    res = net.run(duration=f"{total:g}s", seed=seed, sample_interval="100ms")
    ts = res.timeseries
    queues = res.queues.set_index("link")
    flows = []
    series: dict[int, list[tuple[float, float, float, float]]] = {}
    fl = res.flows.set_index("flow")
    for i in range(1, case.flows + 1):
        start = 0.001 + (i - 1) * case.stagger
        f = ts[ts.flow == f"f{i}"]
        active = f[(f.time_s > start) & (f.time_s <= start + case.duration)]
        series[i] = [(float(r.time_s), float(r.cwnd) / MSS, float(r.srtt_s),
                      float(r.delivered_bytes)) for r in active.itertuples()]
        end = f[f.time_s <= start + case.duration + 1e-9].delivered_bytes.iloc[-1]
        srtt = active.srtt_s[active.srtt_s > 0]
        flows.append({
            "goodput": float(end) * 8 / case.duration / 1e6,
            "retrans": int(fl.loc[f"f{i}", "packets_retransmitted"]),
            "rtt": float(srtt.mean()),
            "cwnd": float(active.cwnd.mean()) / MSS,
        })
    jain = math.nan
    if case.flows == 2:
        shares = [_delivered_between(series[i], case.stagger + 1, case.duration) for i in (1, 2)]
        jain = _jain(shares)
    ab = queues.loc["a->b"]
    # The loss rate over the data direction's arrivals, as linkem's drop_loss / data_rx: the
    # loss model takes them at the entry, the queue drops some of the rest, the others depart.
    arrived = float(ab.lost_packets) + float(ab.dropped_packets) + float(ab.departed_packets)
    loss = float(ab.lost_packets) / max(arrived, 1.0)
    return {"flows": flows, "drops": int(ab.dropped_packets), "jain": jain,
            "series": series, "loss": loss}


# ---------------------------------------------------------------------------------------------
# Side by side


HEADER = ("| case | BDP pkts | flow | goodput Mb/s L / A | diff | retrans L / A "
          "| mean RTT ms L / A | diff | mean cwnd L / A | drops L / A | loss % L / A | Jain L / A "
          "| emulator late >1 ms % / max ms / buffer ms | note |")


def table_rows(case: Case, lx: dict[str, Any], ak: dict[str, Any]) -> list[str]:
    rows = []
    for i, (lf, af) in enumerate(zip(lx["flows"], ak["flows"], strict=True)):
        gd = (af["goodput"] / lf["goodput"] - 1) * 100 if lf["goodput"] > 0 else math.nan
        rd = (af["rtt"] / lf["rtt"] - 1) * 100 if lf["rtt"] > 0 else math.nan
        first = i == 0
        jain = f"{lx['jain']:.3f} / {ak['jain']:.3f}"
        drops = f"{lx['drops']:.0f} / {ak['drops']:.0f}"
        spread = f" ±{lf['spread']:.0f}%" if lf.get("spread") else ""
        loss = f"{lx['loss'] * 100:.2f} / {ak['loss'] * 100:.2f}"
        emu = (f"{lx['late'] * 100:.2f} / {lx['late_max'] * 1e3:.1f} / "
               f"{drain_time(case) * 1e3:.1f}")
        notes = [n for n, on in (("late", lx["late"] > 0.01),
                                 ("emulator-limited", emulator_limited(case, lx))) if on]
        rows.append(
            f"| {case.name if first else ''} | {case.bdp_packets:.0f} | {i + 1} "
            f"| {lf['goodput']:.2f}{spread} / {af['goodput']:.2f} | {gd:+.1f}% "
            f"| {lf['retrans']:.0f} / {af['retrans']:.0f} "
            f"| {lf['rtt'] * 1e3:.1f} / {af['rtt'] * 1e3:.1f} "
            f"| {rd:+.1f}% | {lf['cwnd']:.0f} / {af['cwnd']:.0f} "
            f"| {drops if first else ''} | {loss if first and case.p > 0 else ''} "
            f"| {jain if first and case.flows > 1 else ''} "
            f"| {emu if first else ''} | {', '.join(notes) if first else ''} |")
    return rows


def plot(case: Case, lx: dict[str, Any], ak: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a1, a2) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    for i in lx["series"]:
        for name, src, style in (("Linux", lx, "-"), ("ackclock", ak, "--")):
            s = src["series"][i]
            t = [x[0] for x in s]
            a1.plot(t, [x[1] for x in s], style, label=f"{name} flow {i}", lw=1)
            a2.plot(t, [x[2] * 1e3 for x in s], style, label=f"{name} flow {i}", lw=1)
    a1.set_ylabel("cwnd (segments)")
    a2.set_ylabel("smoothed RTT (ms)")
    a2.set_xlabel("time (s)")
    a1.legend(fontsize=7)
    a1.set_title(case.name)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("out/linux"))
    ap.add_argument("--cases", nargs="*", help="case names (default: all)")
    ap.add_argument("--reuse", action="store_true", help="keep the Linux runs found in OUT")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--heldout", action="store_true",
                    help="the held-back paths (heldout_cases) instead of the table's")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--linux-only", action="store_true", help="only run Linux, into OUT")
    ap.add_argument("--linux-seeds", type=int, default=1, metavar="N",
                    help="Linux runs (loss seeds 1..N) per case; the table shows their mean "
                         "and spread (without random loss the runs differ by the hosts' "
                         "timing alone)")
    ap.add_argument("--host-cc", metavar="CC",
                    help="default congestion control of the Linux namespaces (default: "
                         "reno; bbr, this machine's own, leaves reno and cubic paced)")
    ap.add_argument("--endpoint-priority", type=int, default=0, metavar="P",
                    help="run both iperf3 endpoints at real-time priority P (chrt -f; default "
                         "0: normal), so that other work on the machine does not stall them")
    ap.add_argument("--ackclock-runs", type=int, default=ACKCLOCK_RUNS, metavar="N",
                    help="ackclock runs averaged per case with random loss (seeds 1..N) or two "
                         f"flows (N start offsets); default {ACKCLOCK_RUNS}")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a TCP parameter for ackclock (e.g. rack=false), repeatable")
    args = ap.parse_args()
    overrides: dict[str, Any] = {}
    for kv in args.set:
        key, _, value = kv.partition("=")
        if not value:
            raise SystemExit(f"--set {kv}: expected KEY=VALUE")
        overrides[key] = json.loads(value) if value[0] in "0123456789tf[{-" else value
    todo = cases() + heldout_cases() + [quick_case()]
    if args.list:
        for c in todo:
            print(c.name)
        return
    if args.cases:
        by_name = {c.name: c for c in todo}
        unknown = [n for n in args.cases if n not in by_name]
        if unknown:
            raise SystemExit(f"--cases: unknown case {unknown[0]!r}; see --list")
        todo = [by_name[n] for n in args.cases]
    else:
        todo = heldout_cases() if args.heldout else cases()
    args.out.mkdir(parents=True, exist_ok=True)

    def runs_of(c: Case) -> list[tuple[Case, Path]]:
        # Every case, also without random loss: Linux's runs differ by the hosts' timing
        # (on 100 Mb/s with 35 packets by 10% or more), and "within Linux's own spread" needs
        # that spread.
        n = args.linux_seeds
        return [(replace(c, seed=k), args.out / (c.name if k == 1 else f"{c.name}.s{k}"))
                for k in range(1, n + 1)]

    need_linux = [(rc, d) for c in todo for (rc, d) in runs_of(c)
                  if not (args.reuse and (d / "case.json").exists())]
    if need_linux:
        why = testbed_ready()
        if why:
            raise SystemExit(f"the Linux testbed cannot run here: {why} "
                             "(--reuse to use stored runs)")
        setup_namespaces()
    print(HEADER)
    print("|" + "---|" * 14)
    try:
        for c in todo:
            lxs = []
            for rc, d in runs_of(c):
                if (rc, d) in need_linux:
                    run_linux(rc, d, args.host_cc, args.endpoint_priority)
                lxs.append(linux_metrics(rc, d))
            if args.linux_only:
                for lx in lxs:
                    g = " ".join(f"{f['goodput']:.2f}" for f in lx["flows"])
                    print(f"{c.name}: Linux goodput {g} Mb/s, late {lx['late']:.4f}", flush=True)
                continue
            lx = mean_linux(c, lxs)
            ak = run_ackclock(c, args.ackclock_runs, tcp=overrides)
            for row in table_rows(c, lx, ak):
                print(row, flush=True)
            if not args.no_plots:
                plot(c, lx, ak, args.out / f"{c.name}.png")
    finally:
        if need_linux:
            teardown_namespaces()


if __name__ == "__main__":
    sys.exit(main())
