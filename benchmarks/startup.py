"""How fast the command line starts: `ackclock run` on a trivial scenario (two nodes, one TCP
flow, 1 s simulated; benchmarks/ackclock/trivial.toml), whole command, median of --repeat runs
after one warm-up run (which also fills the bytecode cache). Beside it: the bare interpreter
(`python -c pass`) and `ackclock --version`. The package's bytecode cache is written first, as
`pip install .` writes it (sims.compile_package). With --importtime, the slowest imports of the run
(`python -X importtime`), cumulative.

    python benchmarks/startup.py [--repeat 20] [--importtime]

Issue 10's bar: under 150 ms of wall time.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from sims import compile_package

HERE = Path(__file__).resolve().parent


def wall(cmd: list[str], repeat: int, env: dict[str, str] | None = None) -> list[float]:
    subprocess.run(cmd, check=True, capture_output=True, env=env)  # warm-up
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        out.append(time.perf_counter() - t)
    return out


def importtime(cmd: list[str], top: int) -> list[tuple[int, str]]:
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}
    err = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stderr
    rows = []
    for line in err.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| (.*)$", line)
        if m:
            rows.append((int(m.group(2)), m.group(3)))
    return sorted(rows, reverse=True)[:top]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--importtime", action="store_true", help="list the slowest imports")
    args = ap.parse_args()
    exe = Path(sysconfig.get_path("scripts")) / "ackclock"
    compile_package()
    with tempfile.TemporaryDirectory() as d:
        run = [str(exe), "run", str(HERE / "ackclock" / "trivial.toml"), "--out",
               str(Path(d) / "out"), "--quiet"]
        cases = [("python -c pass", [sys.executable, "-c", "pass"]),
                 ("ackclock --version", [str(exe), "--version"]),
                 ("ackclock run trivial.toml", run)]
        for name, cmd in cases:
            t = wall(cmd, args.repeat)
            print(f"{name:28s} median {statistics.median(t) * 1000:6.1f} ms, min"
                  f" {min(t) * 1000:6.1f} ms, max {max(t) * 1000:6.1f} ms ({args.repeat} runs)",
                  flush=True)
        if args.importtime:
            print("slowest imports of `ackclock run` (cumulative microseconds):")
            for us, name in importtime(run, 15):
                print(f"{us:9d}  {name}")


if __name__ == "__main__":
    main()
