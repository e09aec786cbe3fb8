"""What a flow and a link direction cost in memory, for the up-front estimate of
python/ackclock/limits.py (issue 31).

    python benchmarks/memory_costs.py [--sizes 5000,20000] [--duration 0.05s]

Three families of scenarios, each run at two sizes as a whole `ackclock run ... --quiet`
command, its peak resident memory measured by the kernel (`/usr/bin/time`); the difference
between the two sizes divided by the difference in entries is the marginal cost of one more
entry, the whole command's (engine, resolved document, result tables), with the fixed part
(interpreter, modules) cancelled out:

- `flows`: N Reno flows between one pair of hosts behind a 1 Gb/s bottleneck (three links):
  the cost of a flow alone (its sender, receiver, monitors, counters, its document entry and
  its rows in the result tables);
- `chain`: N routers in a line with one flow along it: the cost of a link direction (two per
  duplex link; its `Link`, rings, counters, document entry and queue table rows) plus a node
  (its routing-table column, 4 bytes per destination tree);
- `dumbbell`: benchmarks/scale.py's dumbbell, N flows each with its own two hosts (one flow,
  four link directions and two nodes per step), to check the two above against their sum.

Prints each family's marginal bytes per entry and what limits.py estimates for the same
scenarios, so that the estimate can be seen to stay above the measure without being far
above it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import scale  # noqa: E402  (benchmarks/scale.py: the dumbbell)

HEAD = ['name = "mem"', 'profile = "ns2"', "[run]", 'duration = "1s"', "[defaults.tcp]",
        "packet_size = 1448", "header_size = 52", "window = 1000", 'variant = "newreno"']


def flows(n: int) -> str:
    lines = [*HEAD, "[[node]]", 'name = "s"', "[[node]]", 'name = "a"', "[[node]]",
             'name = "b"', "[[node]]", 'name = "d"']
    for a, b, rate in (("s", "a", "10Gb/s"), ("a", "b", "1Gb/s"), ("b", "d", "10Gb/s")):
        lines += ["[[link]]", f'from = "{a}"', f'to = "{b}"', f'rate = "{rate}"',
                  'delay = "1ms"', 'queue = { kind = "droptail", limit = 1000 }']
    lines += ["[[flow]]", f"count = {n}", 'name = "f{i}"', 'kind = "tcp"', 'from = "s"',
              'to = "d"', 'app = { kind = "ftp", start = { uniform = ["0s", "10ms"] } }']
    return "\n".join(lines) + "\n"


def chain(n: int) -> str:
    lines = [*HEAD, "[[node]]", f"count = {n}", 'name = "r{i}"']
    for i in range(n - 1):
        lines += ["[[link]]", f'from = "r{i}"', f'to = "r{i + 1}"', 'rate = "1Gb/s"',
                  'delay = "1us"', 'queue = { kind = "droptail", limit = 100 }']
    lines += ["[[flow]]", 'name = "f"', 'kind = "tcp"', 'from = "r0"', f'to = "r{n - 1}"']
    return "\n".join(lines) + "\n"


FAMILIES = {"flows": flows, "chain": chain, "dumbbell": lambda n: scale.dumbbell(n)}


def ackclock() -> list[str]:
    exe = shutil.which("ackclock")
    return [exe] if exe else [sys.executable, "-m", "ackclock"]


def peak(toml: Path, duration: str, out: Path) -> int:
    """Peak resident bytes of the whole command."""
    done = subprocess.run(["/usr/bin/time", "-f", "%M", *ackclock(), "run", str(toml),
                           "--set", f"run.duration={duration}", "--out", str(out), "--quiet"],
                          capture_output=True, text=True, check=True)
    return int(done.stderr.strip().splitlines()[-1]) * 1024


def estimated(toml: Path, duration: str) -> int:
    from ackclock.limits import BASE, estimate
    from ackclock.toml_loader import load_resolved

    _, doc = load_resolved(toml, [f"run.duration={duration}"], share=True)
    return BASE + sum(p[0] for p in estimate(doc))


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--sizes", default="5000,20000", help="the two sizes N")
    ap.add_argument("--duration", default="0.05s", help="simulated time of each run")
    ap.add_argument("--only", help="comma-separated families")
    args = ap.parse_args()
    small, large = (int(x) for x in args.sizes.split(","))
    names = args.only.split(",") if args.only else list(FAMILIES)
    print(f"{'family':9} {'N':>7} {'peak_MB':>8} {'estimate_MB':>11} {'bytes/entry':>11}")
    with tempfile.TemporaryDirectory() as d:
        for name in names:
            measured = []
            for n in (small, large):
                toml = Path(d) / f"{name}{n}.toml"
                toml.write_text(FAMILIES[name](n))
                measured.append((n, peak(toml, args.duration, Path(d) / f"{name}{n}"),
                                 estimated(toml, args.duration)))
            per = (measured[1][1] - measured[0][1]) / (large - small)
            for n, p, e in measured:
                print(f"{name:9} {n:7} {p / 1e6:8.1f} {e / 1e6:11.1f} "
                      f"{per if n == large else float('nan'):11.0f}", flush=True)


if __name__ == "__main__":
    main()
