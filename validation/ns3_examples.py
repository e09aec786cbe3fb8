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

Not yet: tcp-bbr-example, tcp-validation, tcp-pacing and the traffic-control examples.
ns-3 comes from the PyPI wheel benchmarks/compare.py installs (~/.cache/ackclock-bench).
"""

from __future__ import annotations

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


def ns3_program() -> Path:
    ns3 = Ns3(CACHE, install=True)
    ns3.setup()
    if ns3.available():
        raise SystemExit(f"ns-3 unavailable: {ns3.available()}")
    prefix = ns3.prefix()
    assert prefix is not None
    src = ROOT / "validation" / "ns3" / "tcp_variants.cc"
    key = hashlib.sha256(src.read_bytes() + " ".join(NS3_FLAGS).encode()).hexdigest()[:12]
    exe = CACHE / "ns3-bin" / f"validation-tcp-variants-{key}"
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


if __name__ == "__main__":
    main(sys.argv[1:] or list(CLASSES))
