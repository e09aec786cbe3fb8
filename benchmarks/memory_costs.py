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
  four link directions and two nodes per step), to check the two above against their sum;
- `tmix2` and `tmix20`: one Tmix application replaying N connections, each of 2 (20) small
  ADUs, started over 9 s (run them with `--duration 10s`): the cost of a connection (its
  vector in the document, its two half-connection flows' entries, its row of
  connections.csv) with 2 and with 20 ADUs, which give the cost of a connection and of an
  ADU.

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


def flows(n: int, _folder: Path) -> str:
    lines = [*HEAD, "[[node]]", 'name = "s"', "[[node]]", 'name = "a"', "[[node]]",
             'name = "b"', "[[node]]", 'name = "d"']
    for a, b, rate in (("s", "a", "10Gb/s"), ("a", "b", "1Gb/s"), ("b", "d", "10Gb/s")):
        lines += ["[[link]]", f'from = "{a}"', f'to = "{b}"', f'rate = "{rate}"',
                  'delay = "1ms"', 'queue = { kind = "droptail", limit = 1000 }']
    lines += ["[[flow]]", f"count = {n}", 'name = "f{i}"', 'kind = "tcp"', 'from = "s"',
              'to = "d"', 'app = { kind = "ftp", start = { uniform = ["0s", "10ms"] } }']
    return "\n".join(lines) + "\n"


def chain(n: int, _folder: Path) -> str:
    lines = [*HEAD, "[[node]]", f"count = {n}", 'name = "r{i}"']
    for i in range(n - 1):
        lines += ["[[link]]", f'from = "r{i}"', f'to = "r{i + 1}"', 'rate = "1Gb/s"',
                  'delay = "1us"', 'queue = { kind = "droptail", limit = 100 }']
    lines += ["[[flow]]", 'name = "f"', 'kind = "tcp"', 'from = "r0"', f'to = "r{n - 1}"']
    return "\n".join(lines) + "\n"


def tmix(n: int, adus: int, folder: Path) -> str:
    """N SEQ connections of ``adus`` 100-byte ADUs, started evenly over 9 s, between two
    hosts behind a 10 Gb/s link: with a run of 10 s every connection starts and finishes,
    and only those of the last tens of milliseconds are open at once, as in a long replay."""
    vec = folder / f"tmix{adus}_{n}.vec"
    lines = []
    for i in range(n):
        lines += [f"SEQ {i * 9_000_000 // n} {adus} 0 {i + 1}", "w 65535 65535", "r 20000",
                  "l 0.000000 0.000000"]
        lines += [f"{'>' if k % 2 == 0 else '<'} 100" for k in range(adus)]
    vec.write_text("\n".join(lines) + "\n")
    return "\n".join([*HEAD, "[[node]]", 'name = "a"', "[[node]]", 'name = "b"', "[[link]]",
                      'from = "a"', 'to = "b"', 'rate = "10Gb/s"', 'delay = "1ms"',
                      'queue = { kind = "droptail", limit = 10000 }', "[[flow]]",
                      'name = "web"', 'kind = "tcp"', 'from = "a"', 'to = "b"',
                      f'app = {{ kind = "tmix", file = "{vec}" }}']) + "\n"


FAMILIES = {"flows": flows, "chain": chain, "dumbbell": lambda n, _d: scale.dumbbell(n),
            "tmix2": lambda n, d: tmix(n, 2, d), "tmix20": lambda n, d: tmix(n, 20, d)}


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
                toml.write_text(FAMILIES[name](n, Path(d)))
                measured.append((n, peak(toml, args.duration, Path(d) / f"{name}{n}"),
                                 estimated(toml, args.duration)))
            per = (measured[1][1] - measured[0][1]) / (large - small)
            for n, p, e in measured:
                print(f"{name:9} {n:7} {p / 1e6:8.1f} {e / 1e6:11.1f} "
                      f"{per if n == large else float('nan'):11.0f}", flush=True)


if __name__ == "__main__":
    main()
