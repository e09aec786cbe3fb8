"""Instructions per packet-hop of the engine on issue 10's cases, under cachegrind: unlike wall
time, which swings by 15-40% within minutes on a shared machine, the count is the same on every
run of the same build, so it shows a change of 1%. It does not see cache misses; add
`--branches` for cachegrind's count of mispredicted branches, and confirm a gain with
alternated wall-time runs.

    python benchmarks/instructions.py [--branches] [--only scenario2,seed002_n50]

Cases: scenario 2 (`dumbbell_bench 10 10`), 100 flows (`dumbbell_bench 100 5`), seed 002's model
with N = 1, 10 and 50 over 1500 s and seed 000's topology 2 over 10 s (`run_json` on a results
folder written by `ackclock run`). Needs valgrind (Debian package `valgrind`).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from output_hashes import ackclock

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "target" / "release" / "examples"
BENCH = ROOT / "benchmarks" / "ackclock"


def scenario_cases(tmp: Path) -> dict[str, list[str]]:
    """Writes the results folders `run_json` replays; returns each case's command."""
    cases: dict[str, list[str]] = {}
    seed002 = (BENCH / "seed002.toml").read_text()
    runs = {f"seed002_n{n}": seed002.replace("count = 10", f"count = {n}") for n in (1, 10, 50)}
    runs["topology2"] = (BENCH / "seed000_topology2.toml").read_text()
    cmd = ackclock()
    for name, text in runs.items():
        toml = tmp / f"{name}.toml"
        toml.write_text(text)
        extra = ["--set", "run.duration=10s"] if name == "topology2" else []
        subprocess.run([*cmd, "run", str(toml), *extra, "--out", str(tmp / name), "--quiet"],
                       check=True)
        cases[name] = [str(EXAMPLES / "run_json"), str(tmp / name / "summary.json")]
    return cases


def measure(cmd: list[str], branches: bool) -> str:
    vg = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    if branches:
        vg.append("--branch-sim=yes")
    done = subprocess.run([*vg, *cmd], capture_output=True, text=True, check=True)
    text = done.stdout + done.stderr
    hops = int(re.search(r"packet-hops\s+(\d+)", text).group(1))  # type: ignore[union-attr]

    def count(label: str) -> int:
        m = re.search(rf"{label}:\s+([\d,]+)", text)
        return int(m.group(1).replace(",", "")) if m else 0

    line = f"{count('I +refs') / hops:8.1f} instructions per packet-hop ({hops} hops)"
    if branches:
        line += f", {count('Mispredicts') / hops:.2f} mispredicted branches per hop"
    return line


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--branches", action="store_true", help="also count mispredicted branches")
    ap.add_argument("--only", help="comma-separated case names")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "ackclock-core",
                    "--examples"], cwd=ROOT, check=True)
    bench = str(EXAMPLES / "dumbbell_bench")
    with tempfile.TemporaryDirectory(prefix="ackclock-instructions-") as d:
        cases = {"scenario2": [bench, "10", "10"], "flows100": [bench, "100", "5"],
                 **scenario_cases(Path(d))}
        if args.only:
            wanted = set(args.only.split(","))
            cases = {k: v for k, v in cases.items() if k in wanted}
        # Counts do not depend on load: run two at a time.
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = pool.map(lambda c: measure(c, args.branches), cases.values())
            for name, line in zip(cases, results, strict=True):
                print(f"{name:16s} {line}", flush=True)


if __name__ == "__main__":
    main()
