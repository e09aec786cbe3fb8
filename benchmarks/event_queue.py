"""The event-queue candidates of issue 31 side by side: the binary heaps (the default), a 4-ary
heap (cargo feature `eventq-quaternary`), a calendar queue (`eventq-calendar`) and sorted FIFO
lanes in front of a binary heap (`eventq-lanes`), each in place of both of the engine's heaps
(packet events and timers), on cases from 10 flows to a fat-tree.

    python benchmarks/event_queue.py [--only scenario2,fattree_8] [--branches]

Each variant's `run_json` is built into its own target folder (target/eventq-<variant>); every
case is written once by `ackclock run` and replayed by each build under cachegrind, which
prints instructions per packet-hop (and with `--branches` mispredicted branches per hop). The
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from output_hashes import ackclock
from scale import chain, dumbbell, fattree

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "ackclock"
VARIANTS = {"binary": "", "quaternary": "eventq-quaternary", "calendar": "eventq-calendar",
            "lanes": "eventq-lanes"}


def cases() -> dict[str, tuple[str, str]]:
    """Each case's scenario text and simulated duration (short enough for cachegrind)."""
    seed002 = (BENCH / "seed002.toml").read_text()
    return {
        "scenario2": (dumbbell(10), "10s"),
        "dumbbell_100": (dumbbell(100), "5s"),
        "dumbbell_1000": (dumbbell(1000), "1s"),
        "seed002_n50": (seed002.replace("count = 10", "count = 50"), "300s"),
        "fattree_4": (fattree(4), "0.2s"),
        "fattree_8": (fattree(8), "0.05s"),
        "chain_50": (chain(50), "2s"),
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


def measure(exe: Path, summary: Path, branches: bool) -> str:
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

    refs = count(r"I\s+refs")
    cell = f"{refs / hops:7.1f}"
    if branches:
        cell += f" / {count('Mispredicts') / hops:4.2f}"
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
            text, duration = all_cases[name]
            toml = Path(d) / f"{name}.toml"
            toml.write_text(text)
            out = Path(d) / name
            subprocess.run([*ackclock(), "run", str(toml), "--set", f"run.duration={duration}",
                            "--out", str(out), "--quiet"], check=True)
            summary = out / "summary.json"
            with ThreadPoolExecutor(max_workers=2) as pool:
                jobs = [pool.submit(measure, exes[v], summary, args.branches) for v in variants]
                cells = [j.result() for j in jobs]
            print(f"{name:16}" + "".join(f"{c:>16}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
