"""How a sweep scales over local cores: the same 100 runs with `--jobs 1` and `--jobs N`.

    python benchmarks/sweep_scaling.py [--jobs 2] [--duration 300s] [--repeat 3]

The sweep is examples/reno_buffers.toml over 10 buffer sizes x 2 TCP variants x 5 replications
(100 runs); each measurement starts from an empty results folder (no cached runs), runs the
real `ackclock sweep` command, and the medians of `--repeat` alternated measurements are
compared. Issue 10's bar: at most 0.55x the serial time on 2 cores.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SWEEP = """
scenario = "{scenario}"
replications = 5
[grid]
"link.r1-r2.queue.limit" = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
"defaults.tcp.variant" = ["reno", "newreno"]
[set]
"run.duration" = "{duration}"
"""


def once(folder: Path, jobs: int) -> float:
    out = folder / f"out-{jobs}"
    shutil.rmtree(out, ignore_errors=True)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ackclock", "sweep", "s.toml", "--out", str(out),
                    "--jobs", str(jobs)], cwd=folder, check=True, capture_output=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--duration", default="300s", help="simulated time of each run")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        scenario = ROOT / "examples" / "reno_buffers.toml"
        (folder / "s.toml").write_text(SWEEP.format(scenario=scenario, duration=args.duration))
        serial, parallel = [], []
        for _ in range(args.repeat):
            serial.append(once(folder, 1))
            parallel.append(once(folder, args.jobs))
        s, p = statistics.median(serial), statistics.median(parallel)
        # Each round's own ratio too: the machine's speed drifts between rounds, and a
        # serial and a parallel measurement taken back to back share most of that drift.
        paired = statistics.median(b / a for a, b in zip(serial, parallel, strict=True))
        print(f"100 runs of {args.duration}: --jobs 1 {s:.2f} s, --jobs {args.jobs} {p:.2f} s,"
              f" ratio {p / s:.3f}, median of each round's ratio {paired:.3f} (serial runs:"
              f" {', '.join(f'{x:.2f}' for x in serial)};"
              f" parallel: {', '.join(f'{x:.2f}' for x in parallel)})")


if __name__ == "__main__":
    main()
