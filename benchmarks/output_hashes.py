"""Hashes every output file of a fixed set of reference scenarios, so that an engine change
meant to leave results alone can be checked to do so: run it before and after, and diff.

    python benchmarks/output_hashes.py > before.txt      # on the old build
    python benchmarks/output_hashes.py > after.txt       # on the new one
    diff before.txt after.txt

The set: the built-in demo, every `examples/*.toml`, Tmix with another seed, seed 002's model
(N = 10, 300 s, sampled), the two benchmark dumbbells and seed 000's topology 2 (short runs),
seed 001's scenario 1, and seed 002's ns-2 script through `ackclock ns2` (`--full` adds seed
000's two ns-2 scripts, about 2.5 minutes). Wall times, rates and the version are left out of
summary.json, and date lines out of the ns-2 scripts' printout. PNG plots are not hashed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VOLATILE = ("wall_s", "events_per_s", "packet_hops_per_s", "delivered_per_s", "version",
            "engine_wall_s", "started_at")
DATE_LINE = re.compile(rb"^\w{3} \w{3} +\d+ \d\d:\d\d:\d\d")


def ackclock() -> list[str]:
    exe = shutil.which("ackclock")
    return [exe] if exe else [sys.executable, "-m", "ackclock"]


def runs() -> list[tuple[str, list[str]]]:
    bench = ROOT / "benchmarks" / "ackclock"
    out: list[tuple[str, list[str]]] = [("demo", ["run"])]
    for f in sorted((ROOT / "examples").glob("*.toml")):
        out.append((f"ex_{f.stem}", ["run", str(f)]))
    out += [
        ("tmix_s2", ["run", str(ROOT / "examples" / "tmix.toml"), "--set", "run.seed=2"]),
        ("s002n10", ["run", str(bench / "seed002.toml"), "--set", "run.duration=300s",
                     "--set", "run.sample_interval=1s"]),
        ("dumbbell", ["run", str(bench / "dumbbell.toml"), "--set", "run.duration=3s",
                      "--set", "run.sample_interval=0.1s"]),
        ("topo2", ["run", str(bench / "seed000_topology2.toml"), "--set", "run.duration=3s"]),
        ("s001sc1", ["run", str(ROOT / "examples" / "seed001_scenario1.toml"),
                     "--set", "run.duration=300s"]),
    ]
    return out


def ns2_scripts(full: bool) -> list[tuple[str, list[str]]]:
    """(script name in examples/ns2, its arguments)."""
    scripts = [("seed002", ["200", "0.01"])]
    if full:
        scripts += [("seed000_topology1", []), ("seed000_topology2", [])]
    return scripts


def digest(path: Path) -> str:
    data = path.read_bytes()
    if path.name == "summary.json":
        doc = json.loads(data)
        for key in VOLATILE:
            doc.pop(key, None)
        data = json.dumps(doc, sort_keys=True).encode()
    elif path.name == "stdout.txt":
        data = b"".join(line for line in data.splitlines(True) if not DATE_LINE.match(line))
    return hashlib.sha256(data).hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--full", action="store_true", help="also seed 000's two ns-2 scripts")
    args = ap.parse_args()
    cmd = ackclock()
    failed = []
    with tempfile.TemporaryDirectory(prefix="ackclock-hashes-") as d:
        out = Path(d)
        for name, argv in runs():
            done = subprocess.run([*cmd, *argv, "--out", str(out / name), "--quiet"],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                failed.append(f"{name}: {done.stderr.strip()[-300:]}")
        for name, extra in ns2_scripts(args.full):
            folder = out / f"ns2_{name}"
            folder.mkdir()
            script = ROOT / "examples" / "ns2" / f"{name}.tcl"
            with open(folder / "stdout.txt", "w") as f:
                done = subprocess.run([*cmd, "ns2", str(script), *extra], cwd=folder, stdout=f,
                                      stderr=subprocess.STDOUT)
            if done.returncode != 0:
                failed.append(f"ns2 {name}: exit {done.returncode}")
        for root, dirs, files in sorted(os.walk(out)):
            dirs.sort()
            for f in sorted(files):
                path = Path(root) / f
                if path.suffix != ".png":
                    print(digest(path), path.relative_to(out))
    for line in failed:
        print(f"FAILED {line}", file=sys.stderr)
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
