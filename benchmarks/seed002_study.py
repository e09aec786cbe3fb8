"""Seed 002's whole study as one sweep, against ns-2 running the same grid script by script
(issue 31: "at least 20x").

    python benchmarks/seed002_study.py [--seconds 150] [--jobs 2] [--only ackclock,ns2]
                                       [--ns 1,2,5,10,50] [--ps 0.0001,0.001,0.01,0.1]
                                       [--buffers 3,5,200,10000] [--access 2Mb,5Mb]
                                       [--stages]

The study (seed 002: ns-2 against IKRSimLib, Figs. 2-7 and 10) varies the number of Reno
sources N, the bottleneck's packet loss probability p, its buffer bs (3 and 5 packets, 200, and
"infinite": 10 000 here) and the access rate B_a (2 and 5 Mb/s), in ns-2's packet-counted and
IKRSimLib's byte-counted windows. The model is benchmarks/ns2/seed002.tcl's (and
benchmarks/ackclock/seed002.toml's): a 10 Mb/s bottleneck of two simplex links (50 ms each
way), 1460-byte segments, a 32-segment window, delayed-ACK sinks on ideal links, sources
starting uniformly in [0, 100 ms].

- ackclock: one sweep (`ackclock.run_sweep` over a function of N, p, bs, B_a and the window
  accounting: 5 x 4 x 4 x 2 x 2 = 320 runs by default) on `--jobs` local processes, into a
  fresh results folder (nothing cached);
- ns-2: `ns benchmarks/ns2/seed002.tcl T p N bs B_a` once per point of the packet-counted half
  of the grid (160 runs; ns-2 has no byte-counted window), `--jobs` scripts at a time, so that
  both use the same cores.

It prints both wall times, the ratio (ns-2's 160 runs against ackclock's 320: ackclock does
twice the runs), and the largest difference in delivered payload between ns-2 and ackclock's
packet-counted runs (the same model under the ns2 profile, a sanity check, not a validation).
`--stages` runs only ackclock's sweep, in one process, and prints where its CPU time goes.
The study ran 1500 s per point; `--seconds` shortens every run alike (start-up then weighs
more, which favours neither: each ns-2 run starts a Tcl interpreter, each ackclock run a
resolve and an engine).
"""

from __future__ import annotations

import argparse
import itertools
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import ackclock as ac

ROOT = Path(__file__).resolve().parent.parent
TCL = ROOT / "benchmarks" / "ns2" / "seed002.tcl"
NS = (1, 2, 5, 10, 50)
PS = (0.0001, 0.001, 0.01, 0.1)
BUFFERS = (3, 5, 200, 10_000)
ACCESS = ("2Mb", "5Mb")
UNITS = ("packets", "bytes")


def model(n: int, p: float, bs: int, ba: str, unit: str, seconds: float) -> ac.Scenario:
    """Seed 002's model (benchmarks/ackclock/seed002.toml) with N sources, loss p, buffer bs,
    access rate ba and windows counted in `unit`."""
    net = ac.Network("seed002", profile="ns2")
    net.nodes("entry", "exit")
    net.link("entry", "exit", rate="10Mb/s", delay="50ms", queue_limit=bs, duplex=False,
             loss={"kind": "bernoulli", "p": p})
    net.link("exit", "entry", rate="10Mb/s", delay="50ms", queue_limit=50, duplex=False)
    net.defaults(packet_size=1460, window=32, variant="reno", sink="delack", window_unit=unit)
    for i in range(n):
        net.nodes(f"src{i}", f"dst{i}")
        net.link("entry", f"src{i}", rate=f"{ba}/s", delay="0ms", queue_limit=50)
        net.link(f"dst{i}", "exit", rate="1e25Mb", delay="0ms", queue_limit=50)
        net.tcp(f"tcp{i}", f"src{i}", f"dst{i}", start={"uniform": ["0s", "0.1s"]})
    return net.scenario(duration=f"{seconds}s")


def cpu_seconds() -> float:
    """CPU seconds (user and system) of this process and its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_ackclock(grid: dict[str, list[Any]], seconds: float, jobs: int,
                 out: Path) -> tuple[float, float, dict[tuple[Any, ...], float]]:
    """Wall and CPU seconds of the sweep, its worker processes included, and each
    packet-counted point's delivered payload (bytes). The sweep runs in a child process
    (`--sweep-child`); its workers are forked by a fork server whose CPU time reaches this
    process only if it reaps them, so this process becomes their subreaper (Linux)."""
    import ctypes
    import json
    import os

    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    t, cpu = time.perf_counter(), cpu_seconds()
    subprocess.run([sys.executable, __file__, "--sweep-child", str(out), "--seconds",
                    str(seconds), "--jobs", str(jobs), "--grid", json.dumps(grid)], check=True)
    while True:  # the fork server and its workers, orphaned when the sweep's process ended
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    wall, cpu = time.perf_counter() - t, cpu_seconds() - cpu
    import pandas as pd

    runs = pd.read_csv(out / "runs.csv")
    delivered: dict[tuple[Any, ...], float] = {}
    packets = runs[runs["unit"] == "packets"]
    for key, rows in packets.groupby(["n", "p", "bs", "ba"]):
        delivered[tuple(key)] = float(rows["goodput_mbps"].sum()) * 1e6 / 8 * seconds
    return wall, cpu, delivered


def run_ns2(points: list[tuple[int, float, int, str]], seconds: float,
            jobs: int) -> tuple[float, float, dict[tuple[Any, ...], float]]:
    """Wall and CPU seconds of running every point's script, `jobs` at a time, and each
    point's delivered payload (bytes)."""
    ns = shutil.which("ns")
    if ns is None:
        raise SystemExit("ns-2 (`ns`) is not installed")

    def one(point: tuple[int, float, int, str]) -> float:
        n, p, bs, ba = point
        done = subprocess.run([ns, str(TCL), str(seconds), str(p), str(n), str(bs), ba],
                              capture_output=True, text=True, check=True)
        m = re.search(r"delivered_bytes (\d+)", done.stdout)
        if m is None:
            raise SystemExit(f"ns-2 printed no delivered_bytes for {point}: {done.stdout}")
        return float(m.group(1))

    t, cpu = time.perf_counter(), cpu_seconds()
    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(one, points))
    return (time.perf_counter() - t, cpu_seconds() - cpu,
            dict(zip(points, results, strict=True)))


def stages(grid: dict[str, list[Any]], seconds: float) -> None:
    """Where the sweep's CPU time goes: the whole sweep in this process (`jobs=1`, so that
    every stage is timed in one process), with `time.process_time` around the engine's run
    loop and the sweep's stages. It wraps functions internal to ackclock.sweep and
    ackclock.run (a measuring tool, not an interface: update it with them)."""
    import collections
    import functools

    import ackclock.run as run_module
    import ackclock.sweep as sweep_module

    spent: collections.Counter[str] = collections.Counter()

    def timed(module: Any, name: str, label: str) -> None:
        f = getattr(module, name)

        @functools.wraps(f)
        def wrapper(*a: Any, **k: Any) -> Any:
            t = time.process_time()
            try:
                return f(*a, **k)
            finally:
                spent[label] += time.process_time() - t

        setattr(module, name, wrapper)

    core = run_module.engine()

    class Sim:  # the engine's Simulation, its run loop timed
        def __init__(self, sim: Any) -> None:
            self._sim = sim

        def __getattr__(self, name: str) -> Any:
            return getattr(self._sim, name)

        def run_until(self, t_ps: int) -> None:
            t = time.process_time()
            self._sim.run_until(t_ps)
            spent["engine: run loop"] += time.process_time() - t

    class Core:
        def __getattr__(self, name: str) -> Any:
            return getattr(core, name)

        def Simulation(self, document: Any) -> Sim:  # noqa: N802 - the module's class
            t = time.process_time()
            sim = core.Simulation(document)
            spent["engine: set-up (runs and the points' checks)"] += time.process_time() - t
            return Sim(sim)

    run_module.engine = sweep_module.engine = lambda: Core()  # type: ignore[assignment]
    timed(sweep_module, "_run_one", "a run in the worker (engine included)")
    timed(sweep_module, "_points", "each point before the runs")
    timed(sys.modules[__name__], "model", "  of which the model function")
    timed(sweep_module, "_dump_json", "caching each run")
    timed(sweep_module, "write_tables", "the tables: aggregates, summary, files")
    timed(sweep_module, "_table", "the tables: runs and queues frames")
    t = time.process_time()
    with tempfile.TemporaryDirectory() as d:
        ac.run_sweep(model, grid, fixed={"seconds": seconds}, jobs=1, out=Path(d) / "sweep",
                     progress=False)
    total = time.process_time() - t
    for label, cpu in spent.most_common():
        print(f"{label:48} {cpu:7.2f} s CPU")
    print(f"{'whole sweep (jobs=1, this process)':48} {total:7.2f} s CPU")


def sweep_child(out: str, seconds: float, jobs: int, grid_json: str) -> None:
    import json

    runs = ac.run_sweep(model, json.loads(grid_json), fixed={"seconds": seconds}, jobs=jobs,
                        out=out, progress=False)
    assert runs.attrs["ran"] == runs.attrs["runs"], runs.attrs  # nothing was cached


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--sweep-child", help=argparse.SUPPRESS)
    ap.add_argument("--grid", help=argparse.SUPPRESS)
    ap.add_argument("--seconds", type=float, default=150.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="ackclock,ns2")
    ap.add_argument("--ns", default=",".join(map(str, NS)))
    ap.add_argument("--ps", default=",".join(map(str, PS)))
    ap.add_argument("--buffers", default=",".join(map(str, BUFFERS)))
    ap.add_argument("--access", default=",".join(ACCESS))
    ap.add_argument("--stages", action="store_true",
                    help="only where ackclock's sweep spends its CPU time, stage by stage")
    args = ap.parse_args()
    if args.sweep_child:
        return sweep_child(args.sweep_child, args.seconds, args.jobs, args.grid)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import sims

    sims.compile_package()  # as an installed copy: no compiling in each worker's start
    ns = [int(x) for x in args.ns.split(",")]
    ps = [float(x) for x in args.ps.split(",")]
    buffers = [int(x) for x in args.buffers.split(",")]
    access = args.access.split(",")
    grid: dict[str, list[Any]] = {"n": ns, "p": ps, "bs": buffers, "ba": access,
                                  "unit": list(UNITS)}
    points = list(itertools.product(ns, ps, buffers, access))
    only = set(args.only.split(","))
    if args.stages:
        return stages(grid, args.seconds)
    print(f"grid: N {ns}, p {ps}, bs {buffers}, B_a {access}, {args.seconds:g} s"
          f" simulated per run, {args.jobs} processes each")
    ack_s = ns2_s = ack_cpu = ns2_cpu = 0.0
    ack: dict[tuple[Any, ...], float] = {}
    ns2: dict[tuple[Any, ...], float] = {}
    if "ackclock" in only:
        with tempfile.TemporaryDirectory() as d:
            ack_s, ack_cpu, ack = run_ackclock(grid, args.seconds, args.jobs,
                                               Path(d) / "sweep")
        print(f"ackclock: {2 * len(points)} runs (both window accountings) in one sweep:"
              f" {ack_s:.1f} s wall, {ack_cpu:.1f} s CPU", flush=True)
    if "ns2" in only:
        ns2_s, ns2_cpu, ns2 = run_ns2(points, args.seconds, args.jobs)
        print(f"ns-2: {len(points)} runs (packet-counted), one script each: {ns2_s:.1f} s"
              f" wall, {ns2_cpu:.1f} s CPU", flush=True)
    if ack_s and ns2_s:
        print(f"ns-2 / ackclock: wall {ns2_s / ack_s:.1f}x, CPU {ns2_cpu / ack_cpu:.1f}x"
              f" (ackclock ran twice the runs; per run: wall {2 * ns2_s / ack_s:.1f}x,"
              f" CPU {2 * ns2_cpu / ack_cpu:.1f}x)")
        diffs = [abs(ack[k] - ns2[k]) / max(ns2[k], 1.0) for k in ns2 if k in ack]
        print(f"delivered payload, ackclock's packet-counted runs against ns-2: largest"
              f" difference {100 * max(diffs):.2f}%, median"
              f" {100 * sorted(diffs)[len(diffs) // 2]:.2f}% over {len(diffs)} points")


if __name__ == "__main__":
    sys.exit(main())
