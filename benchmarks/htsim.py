"""ackclock beside htsim (https://github.com/Broadcom/csg-htsim) on the dumbbell of issue 31's
scaling cases: N TCP flows, each with its own hosts, over a 1 Gb/s, 10 ms bottleneck.

    python benchmarks/htsim.py [--source DIR] [--flows 10,100,1000] [--rounds 3] [--seconds 10]

htsim is built from source: `--source` names a checkout of csg-htsim, or a copy of its
repository without a work tree (a bare clone or mirror: its HEAD's sim/ is extracted into
~/.cache/ackclock/csg-htsim-COMMIT); by default it is cloned from GitHub into
~/.cache/ackclock/csg-htsim on first use (a machine without network: give `--source`). Its
library (`make libhtsim.a` in
sim/) and benchmarks/htsim/dumbbell.cpp are compiled with the system's g++ (-O2, as htsim's
own test programs). Each round runs, alternated, htsim's program and the whole `ackclock run`
command on benchmarks/scale.py's dumbbell for the same simulated time, under
`/usr/bin/time`; the table gives medians over the rounds of wall seconds, CPU seconds (user
and system: the firmer measure on a shared machine), peak resident memory, goodput and
packet-hops per CPU second. htsim's packet-hops are counted as 3 per data packet sent and
per ACK (each crosses three queue-and-pipe hops); its TCP is its own model, not ns-2's
(benchmarks/htsim/dumbbell.cpp), so compare speed per packet-hop, not throughputs.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import scale  # noqa: E402  (the dumbbell)

REPO = "https://github.com/Broadcom/csg-htsim"
DURATIONS = {10: "10", 100: "5", 1000: "2", 10_000: "0.5"}


def checkout(source: Path | None) -> Path:
    """A csg-htsim source tree: ``source`` if it is one, its HEAD's sim/ extracted if it is a
    repository without a work tree, or (None) a clone from GitHub, made once."""
    if source is None:
        source = Path.home() / ".cache" / "ackclock" / "csg-htsim"
        if not source.exists():
            done = subprocess.run(["git", "clone", "--depth", "1", REPO, str(source)],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                reason = (done.stderr.strip().splitlines() or ["git clone failed"])[-1]
                raise SystemExit(f"htsim.py: could not clone {REPO} ({reason}); give --source"
                                 " a checkout of it or a copy of its repository")
        return source.resolve()
    source = source.resolve()
    if (source / "sim").is_dir():
        return source
    head = subprocess.run(["git", f"--git-dir={source}", "rev-parse", "HEAD"],
                          capture_output=True, text=True)
    if head.returncode != 0:
        raise SystemExit(f"htsim.py: --source {source}: expected a csg-htsim checkout (with"
                         " sim/) or a git repository of it")
    commit = head.stdout.strip()
    tree = Path.home() / ".cache" / "ackclock" / f"csg-htsim-{commit[:12]}"
    if not (tree / "sim").is_dir():
        tree.mkdir(parents=True, exist_ok=True)
        # sim/ only: a mirror may lack the large files of experiments/ (git archive of the
        # whole tree then fails), and the build needs nothing else.
        archive = subprocess.run(["git", f"--git-dir={source}", "archive", "--prefix=sim/",
                                  f"{commit}:sim"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    print(f"htsim: csg-htsim at {commit[:12]}, extracted into {tree}", flush=True)
    return tree


def build(source: Path, out: Path) -> Path:
    """htsim's library and the dumbbell program; returns the program."""
    sim = source / "sim"
    if not (sim / "libhtsim.a").exists():
        subprocess.run(["make", "-C", str(sim), "-j2", "libhtsim.a"], check=True,
                       stdout=subprocess.DEVNULL)
    exe = out / "htsim_dumbbell"
    subprocess.run(["g++", "-O2", "-std=c++11", f"-I{sim}",
                    str(ROOT / "benchmarks" / "htsim" / "dumbbell.cpp"), "-o", str(exe),
                    f"-L{sim}", "-lhtsim"], check=True)
    return exe


def timed(cmd: list[str]) -> tuple[dict[str, float], str]:
    """(wall s, cpu s, peak MB) of ``cmd`` and its standard output."""
    done = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", *cmd], capture_output=True,
                          text=True, check=True)
    wall, user, system, kb = done.stderr.strip().splitlines()[-1].split()
    return ({"wall": float(wall), "cpu": float(user) + float(system),
             "peak": int(kb) / 1024}, done.stdout)


def htsim_run(exe: Path, flows: int, seconds: str) -> dict[str, float]:
    t, text = timed([str(exe), str(flows), seconds])
    # htsim's TCP prints some lines of its own ("Should be _established ...").
    pairs = (line.split() for line in text.splitlines())
    values = {p[0]: p[1] for p in pairs if len(p) == 2}
    return {**t, "hops": float(values["packet_hops"]), "mbps": float(values["goodput_mbps"])}


def ackclock_run(toml: Path, seconds: str, out: Path) -> dict[str, float]:
    import json

    exe = shutil.which("ackclock")
    cmd = [exe] if exe else [sys.executable, "-m", "ackclock"]
    t, _ = timed([*cmd, "run", str(toml), "--set", f"run.duration={seconds}s", "--out",
                  str(out), "--quiet"])
    summary = json.loads((out / "summary.json").read_text())
    import csv

    with open(out / "flows.csv") as f:
        mbps = sum(float(row["throughput_mbps"]) for row in csv.DictReader(f))
    return {**t, "hops": float(summary["packet_hops"]), "mbps": mbps}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--source", type=Path,
                    help="a checkout of csg-htsim, or its repository without a work tree")
    ap.add_argument("--flows", default="10,100,1000")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", help="simulated seconds of every case (default: per case)")
    args = ap.parse_args()
    source = checkout(args.source)
    import sims

    sims.compile_package()  # as an installed copy: no compiling at each command's start
    print(f"{'flows':>6} {'sim':8} {'sim_s':>5} {'wall_s':>7} {'cpu_s':>7} {'peak_MB':>8} "
          f"{'Mb/s':>7} {'Mhops':>7} {'Mhops/cpu_s':>11}")
    with tempfile.TemporaryDirectory() as d:
        exe = build(source, Path(d))
        for flows in (int(x) for x in args.flows.split(",")):
            seconds = args.seconds or DURATIONS.get(flows, "1")
            toml = Path(d) / f"dumbbell{flows}.toml"
            toml.write_text(scale.dumbbell(flows))
            runs: dict[str, list[dict[str, float]]] = {"htsim": [], "ackclock": []}
            for _ in range(args.rounds):
                runs["htsim"].append(htsim_run(exe, flows, seconds))
                runs["ackclock"].append(ackclock_run(toml, seconds, Path(d) / "out"))
            rate = {}
            for name, rs in runs.items():
                m = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
                rate[name] = m["hops"] / m["cpu"] / 1e6
                print(f"{flows:6} {name:8} {seconds:>5} {m['wall']:7.2f} {m['cpu']:7.2f} "
                      f"{m['peak']:8.1f} {m['mbps']:7.1f} {m['hops'] / 1e6:7.2f} "
                      f"{rate[name]:11.2f}", flush=True)
            print(f"{flows:6} ackclock / htsim, packet-hops per CPU second: "
                  f"{rate['ackclock'] / rate['htsim']:.2f}x", flush=True)


if __name__ == "__main__":
    main()
