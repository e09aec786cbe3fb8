"""ackclock against ns-2.35 on issue 10's scenarios, whole command against whole command.

Each scenario is one ns-2 script, run unchanged by `ns` and by `ackclock ns2` (so both simulate
exactly the same thing, and ackclock's time includes its Tcl front end), alternating the two,
`--repeat` times each. For each: the median wall time, the peak resident memory (from
`/usr/bin/time`), the throughput the script itself prints, and ackclock's speed-up.

    python benchmarks/compare_ns2.py [--quick] [--repeat 3] [--only seed002,dumbbell,seed000]

Writes benchmarks/results/ns2-<date>/table.md, table.csv and seed002_runtime.png (seed 002's
Fig. 15: run time against the number of sources). ns-3 is not part of this script yet.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import re
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NS2 = ROOT / "benchmarks" / "ns2"
EXAMPLES = ROOT / "examples" / "ns2"


@dataclass(frozen=True)
class Case:
    scenario: str
    label: str
    script: Path
    args: tuple[str, ...]
    max_time: float | None = None  # seed 000: the script's MAX_TIME, edited in a copy


def cases(quick: bool, only: set[str]) -> list[Case]:
    t = 0.1 if quick else 1.0
    out: list[Case] = []
    if "seed002" in only:
        for n in (1, 2, 5, 10, 50):
            out.append(Case("1: seed 002 model", f"N={n} p=0.0001 bs=200 T={1500 * t:g}s",
                            EXAMPLES / "seed002.tcl", (f"{1500 * t:g}", "0.0001", str(n), "200")))
    if "dumbbell" in only:
        for n, label in ((10, "2"), (100, "3")):
            for variant in ("newreno", "cubic"):
                out.append(Case(f"{label}: {n} flows, 1 Gb/s", f"{variant} T={30 * t:g}s",
                                NS2 / "dumbbell.tcl", (str(n), f"{30 * t:g}", variant)))
    if "seed000" in only:
        out.append(Case("4: seed 000 topology 2", f"50-packet buffers T={100 * t:g}s",
                        EXAMPLES / "seed000_topology2.tcl", (), max_time=100 * t))
    return out


def throughput(case: Case, stdout: str, folder: Path) -> float | None:
    """Mb/s as the script reports it."""
    if m := re.search(r"total_mbps ([0-9.eE+-]+)", stdout):
        return float(m.group(1))
    if m := re.search(r"Throughput = ([0-9.eE+-]+) Byte/ms", stdout):
        return float(m.group(1)) * 8 / 1000
    rows = (folder / "throughputs.csv")
    if rows.is_file():
        lines = rows.read_text().splitlines()[3:]
        totals = [sum(float(x) for x in r.split(";")[1:]) for r in lines if r.strip()]
        return statistics.mean(totals) if totals else None
    return None


def run_once(case: Case, who: str) -> tuple[float, int, float | None]:
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        script = case.script
        if case.max_time is not None:
            text, n = re.subn(r"^set MAX_TIME 500\.0;", f"set MAX_TIME {case.max_time:.1f};",
                              script.read_text(), flags=re.M)
            assert n == 1
            script = folder / script.name
            script.write_text(text)
        cmd = ["ns"] if who == "ns-2" else [sys.executable, "-m", "ackclock", "ns2"]
        timed = ["/usr/bin/time", "-f", "%e %M", *cmd, str(script), *case.args]
        done = subprocess.run(timed, cwd=folder, capture_output=True, text=True, check=False,
                              timeout=3600)
        last = done.stderr.strip().splitlines()[-1].split()
        if done.returncode != 0:
            raise SystemExit(f"{who} failed on {case.label}: {done.stderr[-2000:]}")
        return float(last[0]), int(last[1]), throughput(case, done.stdout, folder)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a tenth of the simulated times")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="seed002,dumbbell,seed000")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    out = args.out or ROOT / "benchmarks" / "results" / f"ns2-{datetime.date.today()}"
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    todo = cases(args.quick, set(args.only.split(",")))
    for k, case in enumerate(todo, 1):
        measured: dict[str, list[tuple[float, int, float | None]]] = {"ns-2": [], "ackclock": []}
        for _ in range(args.repeat):
            for who in ("ns-2", "ackclock"):  # alternating, so both see the same machine
                measured[who].append(run_once(case, who))
        row: dict[str, object] = {"scenario": case.scenario, "case": case.label}
        for who, runs in measured.items():
            row[f"{who} wall s"] = statistics.median(r[0] for r in runs)
            row[f"{who} peak MB"] = max(r[1] for r in runs) / 1024
            row[f"{who} Mb/s"] = runs[0][2]
        row["speed-up"] = float(row["ns-2 wall s"]) / float(row["ackclock wall s"])  # type: ignore[arg-type]
        rows.append(row)
        print(f"[{k}/{len(todo)}] {case.scenario} {case.label}: ns-2 {row['ns-2 wall s']:.2f} s,"
              f" ackclock {row['ackclock wall s']:.2f} s ({row['speed-up']:.1f}x)", flush=True)
    write(rows, out)


def fmt(v: object) -> str:
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 100 else f"{v:.1f}"
    return "" if v is None else str(v)


def write(rows: list[dict[str, object]], out: Path) -> None:
    cols = list(rows[0])
    with open(out / "table.csv", "w", newline="") as f:
        w = csv.DictWriter(f, cols, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(fmt(r[c]) for c in cols) + " |" for r in rows]
    (out / "table.md").write_text("\n".join(lines) + "\n")
    seed002 = [r for r in rows if str(r["scenario"]).startswith("1:")]
    if seed002:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        fig = Figure(figsize=(5, 3.5))
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        n = [int(re.search(r"N=(\d+)", str(r["case"])).group(1)) for r in seed002]  # type: ignore[union-attr]
        for who in ("ns-2", "ackclock"):
            ax.plot(n, [r[f"{who} wall s"] for r in seed002], marker="o", label=who)
        ax.set_xlabel("number of Reno sources N")
        ax.set_ylabel("wall time of the whole command (s)")
        ax.set_yscale("log")
        ax.set_title("seed 002's model, p = 0.0001, 1500 s simulated")
        ax.legend()
        fig.tight_layout()
        fig.savefig(out / "seed002_runtime.png", dpi=120)
    print(f"written to {out}")


if __name__ == "__main__":
    main()
