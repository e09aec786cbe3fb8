"""Seed 002's model in ns-2.35 and in ackclock's `ns2` profile, side by side.

N Reno sources on 2 Mb/s access links, a 10 Mb/s bottleneck (50 ms each way) with Bernoulli
loss p on the data direction and a DropTail buffer of bs packets, delayed-ACK sinks on ideal
(1e25 b/s, 0 ms) links, 1460 B segments, window 32. Both simulators count the in-order bytes
delivered to the sinks, headers included (ns-2's TCPSink `bytes_`), over the whole run.

    python validation/seed002_vs_ns2.py [--quick] [--out validation/seed002_results.md]

Needs `ns` (Debian package ns2) on PATH. The Tcl script is generated here; it is ours, written
for this comparison from the seed's description and its appendix. ackclock runs the model twice:
built with the Python API (its own random streams: the agreement is statistical) and from the
same Tcl through `ackclock ns2` (ns-2's random streams and order of events: the same bytes).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import ackclock as ac

SEGMENT = 1460
HEADER = 40
WINDOW = 32
BOTTLENECK_DELAY_MS = 50


@dataclass(frozen=True)
class Case:
    n: int
    p: float
    bs: int
    seconds: int


TCL = """
set ns [new Simulator]
Agent/TCP set packetSize_ {segment}
Agent/TCP set window_ {window}
set entry [$ns node]
set exit [$ns node]
$ns simplex-link $entry $exit 10Mb {delay}ms DropTail
$ns simplex-link $exit $entry 10Mb {delay}ms DropTail
$ns queue-limit $entry $exit {bs}
set em [new ErrorModel]
$em set rate_ {p}
$em unit pkt
$em ranvar [new RandomVariable/Uniform]
$em drop-target [new Agent/Null]
$ns link-lossmodel $em $entry $exit
set start [new RandomVariable/Uniform]
$start set min_ 0
$start set max_ 1
for {{set i 0}} {{$i < {n}}} {{incr i}} {{
    set tcp($i) [new Agent/TCP/Reno]
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    set src($i) [$ns node]
    $ns attach-agent $src($i) $tcp($i)
    $ns duplex-link $entry $src($i) 2Mb 0ms DropTail
    set sink($i) [new Agent/TCPSink/DelAck]
    set dst($i) [$ns node]
    $ns attach-agent $dst($i) $sink($i)
    $ns duplex-link $dst($i) $exit 1e25Mb 0ms DropTail
    $ns connect $tcp($i) $sink($i)
    $ns at [$start value] "$ftp($i) start"
}}
proc finish {{}} {{
    global sink
    set total 0
    foreach i [array names sink] {{ set total [expr $total + [$sink($i) set bytes_]] }}
    puts "bytes $total"
    exit 0
}}
$ns at {seconds} finish
$ns run
"""


def run_ns2(c: Case) -> tuple[float, float]:
    """Throughput in Mb/s (in-order wire bytes at the sinks) and wall seconds."""
    script = TCL.format(segment=SEGMENT, window=WINDOW, delay=BOTTLENECK_DELAY_MS, bs=c.bs,
                        p=c.p, n=c.n, seconds=c.seconds)
    with tempfile.NamedTemporaryFile("w", suffix=".tcl", delete=False) as f:
        f.write(script)
    t0 = time.perf_counter()
    out = subprocess.run(["ns", f.name], capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - t0
    Path(f.name).unlink()
    m = re.search(r"bytes (\d+)", out)
    if not m:
        raise RuntimeError(f"ns-2 printed no byte count: {out!r}")
    return int(m.group(1)) * 8 / c.seconds / 1e6, wall


def run_ackclock_ns2(c: Case) -> float:
    """Throughput in Mb/s of the same Tcl script through `ackclock ns2`."""
    script = TCL.format(segment=SEGMENT, window=WINDOW, delay=BOTTLENECK_DELAY_MS, bs=c.bs,
                        p=c.p, n=c.n, seconds=c.seconds)
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "model.tcl").write_text(script, encoding="utf-8")
        out = subprocess.run([sys.executable, "-m", "ackclock", "ns2", "model.tcl"], cwd=d,
                             capture_output=True, text=True, check=True).stdout
    m = re.search(r"bytes (\d+)", out)
    if not m:
        raise RuntimeError(f"ackclock ns2 printed no byte count: {out!r}")
    return int(m.group(1)) * 8 / c.seconds / 1e6


def run_ackclock(c: Case) -> tuple[float, float]:
    net = ac.Network(f"seed002-n{c.n}-p{c.p}-bs{c.bs}", profile="ns2")
    net.nodes("entry", "exit")
    net.link("entry", "exit", rate="10Mb/s", delay=f"{BOTTLENECK_DELAY_MS}ms", queue_limit=c.bs,
             duplex=False, loss={"kind": "bernoulli", "p": c.p})
    net.link("exit", "entry", rate="10Mb/s", delay=f"{BOTTLENECK_DELAY_MS}ms", duplex=False)
    net.defaults(packet_size=SEGMENT, window=WINDOW, sink="delack")
    for i in range(c.n):
        net.nodes(f"s{i}", f"d{i}")
        net.link(f"s{i}", "entry", rate="2Mb/s", delay="0ms")
        net.link(f"d{i}", "exit", rate="1e25Mb", delay="0ms")
        net.tcp(f"tcp{i}", f"s{i}", f"d{i}", start={"uniform": ["0s", "1s"]})
    res = net.run(duration=f"{c.seconds}s", progress=False)
    wire = res.flows.bytes_delivered.sum() * (SEGMENT + HEADER) / SEGMENT
    return wire * 8 / c.seconds / 1e6, res.summary["wall_s"]


def cases(quick: bool) -> list[Case]:
    seconds = 300 if quick else 1500
    ps = [0.0001, 0.001, 0.01, 0.05, 0.1]
    out = [Case(1, p, 200, seconds) for p in ps]
    out += [Case(n, p, 200, seconds) for n in (5, 10, 50) for p in (0.0001, 0.01, 0.1)]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="300 s runs instead of 1500 s")
    ap.add_argument("--out", type=Path, help="also write the table (Markdown) here")
    args = ap.parse_args()
    if shutil.which("ns") is None:
        raise SystemExit("ns (ns-2) is not on PATH: apt-get install ns2")
    rows = ["| N | p | bs | ns-2 Mb/s | ackclock Mb/s | diff | ackclock ns2, same Tcl | diff |"
            " ns-2 wall s | ackclock wall s |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    print(rows[0])
    for c in cases(args.quick):
        ns_t, ns_w = run_ns2(c)
        ac_t, ac_w = run_ackclock(c)
        same = run_ackclock_ns2(c)
        diff = (ac_t - ns_t) / ns_t * 100 if ns_t else float("nan")
        diff_same = (same - ns_t) / ns_t * 100 if ns_t else float("nan")
        row = (f"| {c.n} | {c.p} | {c.bs} | {ns_t:.3f} | {ac_t:.3f} | {diff:+.1f}% | {same:.3f} |"
               f" {diff_same:+.4f}% | {ns_w:.2f} | {ac_w:.3f} |")
        rows.append(row)
        print(row, flush=True)
    if args.out:
        args.out.write_text("\n".join(rows) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
