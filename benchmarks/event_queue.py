"""The event-queue candidates of issue 31 side by side: the binary heaps (the default), a 4-ary
heap (cargo feature `eventq-quaternary`), a calendar queue (`eventq-calendar`), sorted FIFO
lanes in front of a binary heap (`eventq-lanes`) and a radix heap (`eventq-radix`), each in
place of both of the engine's heaps (packet events and timers), on cases from 10 flows to the
k = 16 fat-tree.

    python benchmarks/event_queue.py [--only scenario2,fattree_8] [--branches]

Each variant's `run_json` is built into its own target folder (target/eventq-<variant>); every
case is written once by `ackclock run` and replayed by each build under cachegrind, which
prints instructions per packet-hop (and with `--branches` mispredicted branches per hop). The
large cases are written at two durations and the two runs' counts subtracted, so that set-up
(a third to a half of a short run at 1 000 flows and more) cancels. The
queues give the same (time, sequence) order, so the outputs are identical (the unit tests in
crates/ackclock-core/src/sched/ check each against a sorted model; benchmarks/output_hashes.py
under each feature checks whole runs). Needs valgrind. Results: docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
from pathlib import Path

from output_hashes import ackclock
from scale import chain, dumbbell, fattree

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "ackclock"
VARIANTS = {"binary": "", "quaternary": "eventq-quaternary", "calendar": "eventq-calendar",
            "lanes": "eventq-lanes", "radix": "eventq-radix"}


def cases() -> dict[str, tuple[str, list[str]]]:
    """Each case's scenario text and simulated durations (short enough for cachegrind; with
    two, the difference of the two runs is measured)."""
    seed002 = (BENCH / "seed002.toml").read_text()
    return {
        "scenario2": (dumbbell(10), ["10s"]),
        "dumbbell_100": (dumbbell(100), ["5s"]),
        "dumbbell_1000": (dumbbell(1000), ["1s", "2s"]),
        "dumbbell_10000": (dumbbell(10_000), ["1s", "2s"]),
        "seed002_n50": (seed002.replace("count = 10", "count = 50"), ["300s"]),
        "fattree_4": (fattree(4), ["0.2s"]),
        "fattree_8": (fattree(8), ["0.05s"]),
        "fattree_16": (fattree(16, 10_000), ["0.0015s", "0.002s"]),
        "chain_50": (chain(50), ["2s"]),
    }


def build(variant: str) -> Path:
    feature = VARIANTS[variant]
    target = ROOT / "target" / f"eventq-{variant}"
    cmd = ["cargo", "build", "--release", "--quiet", "-p", "ackclock-core", "--example",
           "run_json"]
    if feature:
        cmd += ["--features", feature]
    subprocess.run(cmd, cwd=ROOT, check=True, env={**os.environ, "CARGO_TARGET_DIR": str(target)})
    return target / "release" / "examples" / "run_json"


def counts(exe: Path, summary: Path, branches: bool) -> tuple[int, int, int]:
    """Packet-hops, instructions and mispredicted branches of one run under cachegrind."""
    vg = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    if branches:
        vg.append("--branch-sim=yes")
    done = subprocess.run([*vg, str(exe), str(summary)], capture_output=True, text=True,
                          check=True)
    text = done.stdout + done.stderr
    hops = int(re.search(r"packet-hops\s+(\d+)", text).group(1))  # type: ignore[union-attr]

    def count(label: str) -> int:
        m = re.search(rf"{label}:\s+([\d,]+)", text)
        return int(m.group(1).replace(",", "")) if m else 0

    return hops, count(r"I\s+refs"), count("Mispredicts")


def measure(exe: Path, summaries: list[Path], branches: bool) -> str:
    runs = [counts(exe, s, branches) for s in summaries]
    hops, refs, miss = runs[0]
    if len(runs) == 2:
        hops, refs, miss = (b - a for a, b in zip(runs[1], runs[0], strict=True))
    cell = f"{refs / hops:7.1f}"
    if branches:
        cell += f" / {miss / hops:4.2f}"
    return cell


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated variants")
    ap.add_argument("--branches", action="store_true", help="also mispredicted branches per hop")
    args = ap.parse_args()
    all_cases = cases()
    names = args.only.split(",") if args.only else list(all_cases)
    variants = args.variants.split(",")
    exes = {v: build(v) for v in variants}
    unit = "instructions / mispredicts per hop" if args.branches else "instructions per hop"
    print(f"{unit}\n{'case':16}" + "".join(f"{v:>16}" for v in variants), flush=True)
    with tempfile.TemporaryDirectory(prefix="ackclock-eventq-") as d:
        for name in names:
            text, durations = all_cases[name]
            toml = Path(d) / f"{name}.toml"
            toml.write_text(text)
            summaries = []
            for duration in durations:
                out = Path(d) / f"{name}_{duration}"
                subprocess.run([*ackclock(), "run", str(toml), "--set",
                                f"run.duration={duration}", "--out", str(out), "--quiet"],
                               check=True)
                summaries.append(out / "summary.json")
            # One at a time: the machine is shared, and cachegrind's counts do not need speed.
            cells = [measure(exes[v], summaries, args.branches) for v in variants]
            print(f"{name:16}" + "".join(f"{c:>16}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
