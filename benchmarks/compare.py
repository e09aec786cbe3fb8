"""ackclock against ns-2.35 and ns-3.44 on issue 10's scenarios, whole command against whole
command.

    python benchmarks/compare.py [--quick] [--only 1,2-cubic] [--repeat 3] [--no-install]

Each case runs in each simulator `--repeat` times, the simulators alternating (their order
rotates from one round to the next), each run one child process timed from start to exit: ns-2
(`ns` on benchmarks/ns2/*.tcl), ns-3 (benchmarks/ns3/*.cc compiled against the PyPI wheel
`ns3`, which this script installs into its own virtual environment under --cache) and ackclock
(`ackclock run` on benchmarks/ackclock/*.toml). Reported per case and simulator: the median wall
time, the peak resident memory (the largest of the runs), packet-hops per second (3 x (data
packets sent + ACKs received), the same count from each simulator's own counters: every path
here is three links each way), delivered data packets per second (in-order payload / segment
size), the throughput (in-order payload at its wire size, per simulated second), and ackclock's
speed-up over each. A simulator whose first run of a case takes more than --long seconds
(120) runs that case once (the "runs" column says how many were taken). Writes
benchmarks/results/<date>/ (<date>b/, ... when taken): table.md, table.csv, runs.csv and
seed002_runtime.png (seed 002's Fig. 15: wall time against N, the three simulators).

Case ids for --only: 1 (all of scenario 1) or 1-n1, 1-n2, 1-n5, 1-n10, 1-n50; 2, 2-newreno,
2-cubic; 3, 3-newreno, 3-cubic; 4; 5 (issue 31's scaling: the dumbbell of scenarios 2-3 with
1 000 and 10 000 flows) or 5-n1000, 5-n10000. --quick runs a tenth of the simulated times.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sims import (  # noqa: E402
    NS3_VERSION,
    Ackclock,
    Case,
    Failed,
    Ns2,
    Ns3,
    Run,
    Simulator,
)
from startup import wall  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SIMS = ("ns-2", "ns-3", "ackclock")
Runs = dict[tuple[str, str], list[Run]]


def all_cases(quick: bool) -> list[Case]:
    f = 0.1 if quick else 1.0
    out: list[Case] = []
    t1 = 1500 * f
    for n in (1, 2, 5, 10, 50):
        out.append(Case(f"1-n{n}", "1: seed 002 model", f"N={n} p=0.0001 bs=200 T={t1:g}s",
                        "seed002", n, t1, "reno", p=0.0001, bs=200, payload=1460, wire=1500))
    t2 = 30 * f
    for sid, n in (("2", 10), ("3", 100)):
        for variant in ("newreno", "cubic"):
            out.append(Case(f"{sid}-{variant}", f"{sid}: {n} flows, 1 Gb/s",
                            f"{variant} T={t2:g}s", "dumbbell", n, t2, variant))
    t4 = 100 * f
    out.append(Case("4", "4: seed 000 topology 2", f"50-packet buffers T={t4:g}s",
                    "seed000_topology2", 5, t4, "reno", payload=1000, wire=1040))
    # Issue 31's scaling: scenario 2's dumbbell with many more flows, each with its own access
    # links (2 N + 2 nodes), for a shorter time.
    for n, t5 in ((1000, 2 * f), (10_000, 0.5 * f)):
        out.append(Case(f"5-n{n}", f"5: {n} flows, 1 Gb/s", f"newreno T={t5:g}s", "dumbbell",
                        n, t5, "newreno"))
    return out


def select(cases: list[Case], only: str | None) -> list[Case]:
    if not only:
        return cases
    keys = [k.strip() for k in only.split(",") if k.strip()]
    chosen = [c for c in cases if any(c.id == k or c.id.startswith(f"{k}-") for k in keys)]
    if not chosen:
        raise SystemExit(f"--only {only}: no such case (ids: {', '.join(c.id for c in cases)})")
    return chosen


def measure(cases: list[Case], sims: dict[str, Simulator], repeat: int, timeout: float,
            long: float, work: Path) -> tuple[Runs, dict[tuple[str, str], str]]:
    runs: dict[tuple[str, str], list[Run]] = {}
    errors: dict[tuple[str, str], str] = {}
    names = [s for s in SIMS if s in sims]
    total = len(cases) * repeat * len(names)
    done = 0
    for case in cases:
        for r in range(repeat):
            order = names[r % len(names):] + names[:r % len(names)]  # rotate: no fixed order
            for who in order:
                done += 1
                key = (case.id, who)
                if key in errors:
                    continue
                if r > 0 and runs.get(key) and runs[key][0].wall_s > long:
                    print(f"[{done}/{total}] {case.id} {who}: once is enough (its first run took"
                          f" {runs[key][0].wall_s:.0f} s > --long {long:g} s)", flush=True)
                    continue
                folder = work / f"{case.id}-{who}-{r}"
                folder.mkdir(parents=True)
                try:
                    got = sims[who].run(case, folder, timeout)
                except Failed as e:
                    errors[key] = str(e)
                    print(f"[{done}/{total}] {case.id} {who}: FAILED {e}", flush=True)
                    continue
                runs.setdefault(key, []).append(got)
                mbps = got.counters.delivered_bytes / case.payload * case.wire * 8 / case.seconds
                print(f"[{done}/{total}] {case.id} {case.label} {who} run {r + 1}/{repeat}:"
                      f" {got.wall_s:.2f} s, {got.peak_mb:.0f} MB, {mbps / 1e6:.2f} Mb/s",
                      flush=True)
                shutil.rmtree(folder, ignore_errors=True)
    return runs, errors


def summarize(cases: list[Case], sims: list[str], runs: dict[tuple[str, str], list[Run]],
              errors: dict[tuple[str, str], str], skipped: dict[str, str]
              ) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for case in cases:
        ours = runs.get((case.id, "ackclock"))
        our_wall = statistics.median(r.wall_s for r in ours) if ours else None
        for who in sims:
            row: dict[str, object] = {"case_id": case.id, "scenario": case.scenario,
                                      "case": case.label, "simulator": who}
            got = runs.get((case.id, who))
            if not got:
                row["note"] = skipped.get(who) or errors.get((case.id, who), "not run")
                rows.append(row)
                continue
            wall = statistics.median(r.wall_s for r in got)
            c = got[0].counters  # the simulators are deterministic: every run counts the same
            row.update({
                "runs": len(got),
                "wall_s": wall,
                "wall_s_all": " ".join(f"{r.wall_s:.3f}" for r in got),
                "peak_mb": max(r.peak_mb for r in got),
                "packet_hops": c.hops(case),
                "hops_exact": c.hops_exact if c.hops_exact is not None else "",
                "hops_per_s": c.hops(case) / wall,
                "delivered_packets": c.delivered_bytes // case.payload,
                "delivered_per_s": c.delivered_bytes / case.payload / wall,
                "throughput_mbps": c.delivered_bytes / case.payload * case.wire * 8
                / case.seconds / 1e6,
                "ackclock_speedup": (wall / our_wall) if our_wall and who != "ackclock" else "",
                "note": errors.get((case.id, who), ""),
            })
            rows.append(row)
    return rows


COLUMNS = [("scenario", "scenario"), ("case", "case"), ("simulator", "simulator"),
           ("wall_s", "wall s (median)"), ("runs", "runs"), ("peak_mb", "peak MB"),
           ("hops_per_s", "packet-hops/s"), ("delivered_per_s", "delivered pkts/s"),
           ("throughput_mbps", "throughput Mb/s"), ("ackclock_speedup", "ackclock speed-up"),
           ("note", "note")]


def fmt(key: str, v: object) -> str:
    if v is None or v == "":
        return ""
    if key in ("hops_per_s", "delivered_per_s") and isinstance(v, float):
        return f"{v / 1e6:.2f} M"
    if key == "ackclock_speedup" and isinstance(v, float):
        return f"{v:.1f}x"
    if key == "throughput_mbps" and isinstance(v, float):
        return f"{v:.2f}" if v < 100 else f"{v:.1f}"
    if key == "peak_mb" and isinstance(v, float):
        return f"{v:.0f}"
    if key == "wall_s" and isinstance(v, float):
        return f"{v:.3f}" if v < 10 else f"{v:.2f}"
    return " ".join(str(v).split()).replace("|", "/")


def write(rows: list[dict[str, object]], out: Path, header: list[str]) -> None:
    keys = ["case_id", "scenario", "case", "simulator", "runs", "wall_s", "wall_s_all",
            "peak_mb", "packet_hops", "hops_exact", "hops_per_s", "delivered_packets",
            "delivered_per_s", "throughput_mbps", "ackclock_speedup", "note"]
    with open(out / "table.csv", "w", newline="") as f:
        w = csv.DictWriter(f, keys, lineterminator="\n", extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    lines = [*header, "", "| " + " | ".join(h for _, h in COLUMNS) + " |",
             "|" + "---|" * len(COLUMNS)]
    for r in rows:
        lines.append("| " + " | ".join(fmt(k, r.get(k)) for k, _ in COLUMNS) + " |")
    (out / "table.md").write_text("\n".join(lines) + "\n")
    plot(rows, out)


def plot(rows: list[dict[str, object]], out: Path) -> None:
    seed002 = [r for r in rows if str(r["case_id"]).startswith("1-") and "wall_s" in r]
    if not seed002:
        return
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.5, 3.8))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for who, marker in (("ns-3", "s"), ("ns-2", "^"), ("ackclock", "o")):
        pts = sorted((int(str(r["case_id"])[3:]), float(r["wall_s"]))  # type: ignore[arg-type]
                     for r in seed002 if r["simulator"] == who)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, label=who)
    ax.set_xscale("log")
    ax.set_yscale("log")
    # Plain numbers on the log axes (1, 2, 5 ... rather than 2x10^0).
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    steps = [m * 10.0**e for e in range(-2, 4) for m in (1, 2, 5)]
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(FixedLocator(steps))
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("number of Reno sources N")
    ax.set_ylabel("wall time of the whole command (s)")
    label = str(seed002[0]["case"])
    ax.set_title(f"seed 002's model: p = 0.0001, bs = 200, {label.split('T=')[-1]} simulated",
                 fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "seed002_runtime.png", dpi=120)


def write_runs(cases: list[Case], runs: dict[tuple[str, str], list[Run]], out: Path) -> None:
    with open(out / "runs.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["case_id", "simulator", "run", "wall_s", "peak_mb", "delivered_bytes",
                    "data_sent", "acks_received", "hops_exact"])
        for case in cases:
            for who in SIMS:
                for i, r in enumerate(runs.get((case.id, who), [])):
                    c = r.counters
                    w.writerow([case.id, who, i + 1, f"{r.wall_s:.4f}", f"{r.peak_mb:.1f}",
                                c.delivered_bytes, c.data_sent, c.acks_received,
                                "" if c.hops_exact is None else c.hops_exact])


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a tenth of the simulated times")
    ap.add_argument("--only", help="comma-separated case ids (see above)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per case and simulator")
    ap.add_argument("--simulators", default=",".join(SIMS),
                    help="comma-separated subset of ns-2,ns-3,ackclock")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "ackclock-bench",
                    help="where the ns-3 virtual environment and programs live")
    ap.add_argument("--no-install", action="store_true",
                    help="do not install ns-3: skip it if --cache has none")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per run")
    ap.add_argument("--long", type=float, default=120,
                    help="a simulator whose first run of a case takes longer (s) runs it once")
    ap.add_argument("--out", type=Path,
                    help="default: benchmarks/results/<date>, or <date>b, <date>c, ... if taken")
    args = ap.parse_args()
    cases = select(all_cases(args.quick), args.only)
    wanted = [s.strip() for s in args.simulators.split(",") if s.strip()]
    unknown = set(wanted) - set(SIMS)
    if unknown:
        raise SystemExit(f"--simulators: unknown {', '.join(sorted(unknown))}")
    sims: dict[str, Simulator] = {}
    skipped: dict[str, str] = {}
    for who in wanted:
        sim: Simulator
        if who == "ns-3":
            ns3 = Ns3(args.cache, install=not args.no_install)
            ns3.setup()
            sim = ns3
        elif who == "ns-2":
            sim = Ns2()
        else:
            sim = Ackclock()
        why = sim.available()
        if why:
            skipped[who] = f"skipped: {why}"
            print(f"{who} skipped: {why}", flush=True)
        else:
            sims[who] = sim
    out = args.out or fresh_folder(ROOT / "benchmarks" / "results" / str(datetime.date.today()))
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ackclock-bench-") as d:
        runs, errors = measure(cases, sims, args.repeat, args.timeout, args.long, Path(d))
    rows = summarize(cases, [s for s in SIMS if s in wanted], runs, errors, skipped)
    header = [f"Measured {datetime.datetime.now():%Y-%m-%d %H:%M} on {platform.node() or '?'}"
              f" ({os.cpu_count()} cores, {platform.machine()}), median of {args.repeat}"
              f" alternated runs (one where a first run took over {args.long:g} s)"
              f"{', --quick' if args.quick else ''}; ns-3 {NS3_VERSION} (PyPI"
              " wheel, release build, C++ programs), ns-2.35 (Debian), ackclock"
              f" {ackclock_version()} ({git_commit()}). Python start-up on this machine"
              f" (`python -c pass`, part of every ackclock run): {python_startup_ms():.0f} ms."]
    write(rows, out, header)
    write_runs(cases, runs, out)
    print((out / "table.md").read_text())
    print(f"written to {out}")


def fresh_folder(base: Path) -> Path:
    """`base`, or the first of `base`b, `base`c, ... that does not exist: a second run on the
    same day must not overwrite the first's tables (docs/performance.md cites them)."""
    for suffix in ["", *"bcdefghijklmnopqrstuvwxyz"]:
        folder = base.with_name(base.name + suffix)
        if not folder.exists():
            return folder
    raise SystemExit(f"compare.py: {base} and its 25 successors exist; pass --out")


def python_startup_ms(repeat: int = 10) -> float:
    """Median wall time of the bare interpreter, which every `ackclock run` pays before it
    imports anything: site hooks (a .pth file that imports a package at every start, as this
    sandbox's certifi hook does) show up here."""
    return 1000 * statistics.median(wall([sys.executable, "-c", "pass"], repeat))


def git_commit() -> str:
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)
    return f"commit {done.stdout.strip()}" if done.returncode == 0 else "commit ?"


def ackclock_version() -> str:
    try:
        from ackclock import __version__
    except ImportError:
        return "?"
    return str(__version__)


if __name__ == "__main__":
    main()
