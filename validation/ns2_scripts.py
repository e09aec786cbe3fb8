"""The ns-2 scripts of examples/ns2/ in ns-2.35 and under `ackclock ns2`, side by side.

Each script runs unchanged in both (seed 000's scripts with MAX_TIME shortened by a one-line
edit, seed 002's with its duration and parameters as arguments) in its own temporary folder;
the table compares the per-sink throughputs the scripts themselves write (seed 000:
throughputs.csv, averaged over the run; seed 002: the "Throughput = ... Byte/ms" it prints).

    python validation/ns2_scripts.py [--seconds 30] [--out validation/ns2_scripts_results.md]

Needs `ns` (Debian package ns2) on PATH.
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

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "ns2"


@dataclass(frozen=True)
class Case:
    script: str
    label: str
    args: tuple[str, ...] = ()
    max_time: float | None = None  # seed 000: MAX_TIME replaced by this


def cases(seconds: float) -> list[Case]:
    out = [Case(f"seed000_topology{k}.tcl", f"MAX_TIME={seconds:g}", max_time=seconds)
           for k in (1, 2)]
    for p, n in ((0.001, 5), (0.01, 5), (0.01, 10), (0.1, 5)):
        out.append(Case("seed002.tcl", f"p={p} N={n} bs=200 T={50 * seconds:g}",
                        args=(f"{50 * seconds:.1f}", str(p), str(n), "200")))
    return out


def prepare(case: Case, folder: Path) -> Path:
    text = (EXAMPLES / case.script).read_text(encoding="utf-8")
    if case.max_time is not None:
        text, n = re.subn(r"^set MAX_TIME 500\.0;", f"set MAX_TIME {case.max_time:.1f};", text,
                          flags=re.M)
        assert n == 1, "MAX_TIME line not found"
    path = folder / case.script
    path.write_text(text, encoding="utf-8")
    return path


def run(command: list[str], folder: Path) -> tuple[str, float]:
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout, wall


def sink_throughputs(case: Case, folder: Path, stdout: str) -> dict[str, float]:
    """Mb/s per sink, as the script reports it."""
    if case.script.startswith("seed002"):
        m = re.search(r"Throughput = ([0-9.eE+-]+) Byte/ms", stdout)
        if not m:
            raise RuntimeError(f"no throughput line in the output:\n{stdout}")
        return {"all sinks": float(m.group(1)) * 8 / 1000}
    lines = (folder / "throughputs.csv").read_text(encoding="utf-8").splitlines()
    names = lines[1].split(";")[1:]
    rows = [[float(x) for x in line.split(";")] for line in lines[2:] if line.strip()]
    rows = [r for r in rows if r[0] > 0]  # the row at t = 0 has nothing to report
    return {name: sum(r[i + 1] for r in rows) / len(rows) for i, name in enumerate(names)}


def measure(case: Case, ackclock: list[str]) -> tuple[dict[str, float], dict[str, float],
                                                      float, float]:
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        fa, fb = Path(a), Path(b)
        out_ns, wall_ns = run(["ns", str(prepare(case, fa)), *case.args], fa)
        out_ac, wall_ac = run([*ackclock, "ns2", str(prepare(case, fb)), *case.args], fb)
        return (sink_throughputs(case, fa, out_ns), sink_throughputs(case, fb, out_ac),
                wall_ns, wall_ac)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=30.0,
                    help="seed 000's MAX_TIME (seed 002 runs 50 times as long); default 30")
    ap.add_argument("--out", type=Path, help="also write the table (Markdown) here")
    args = ap.parse_args()
    if shutil.which("ns") is None:
        raise SystemExit("ns (ns-2) is not on PATH: apt-get install ns2")
    ackclock = [sys.executable, "-m", "ackclock"]
    rows = ["| script | case | sink | ns-2 Mb/s | ackclock Mb/s | diff | ns-2 wall s |"
            " ackclock wall s |", "|---|---|---|---|---|---|---|---|"]
    print(rows[0], flush=True)
    for case in cases(args.seconds):
        ns, ac, wall_ns, wall_ac = measure(case, ackclock)
        names = list(ns)
        if len(names) > 1:
            names.append("total")
            ns["total"], ac["total"] = sum(ns.values()), sum(ac.values())
        for name in names:
            diff = (ac[name] - ns[name]) / ns[name] * 100 if ns[name] else float("nan")
            row = (f"| {case.script} | {case.label} | {name} | {ns[name]:.3f} | {ac[name]:.3f} |"
                   f" {diff:+.1f}% | {wall_ns:.2f} | {wall_ac:.2f} |")
            rows.append(row)
            print(row, flush=True)
    if args.out:
        args.out.write_text("\n".join(rows) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
