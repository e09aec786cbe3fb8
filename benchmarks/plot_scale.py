"""Plots benchmarks/scale.py's rows (`--csv`) against the number of flows: the engine's
packet-hops per CPU second, instructions per packet-hop, the whole command's peak memory, and
the front end's resolution and the engine's set-up (issue 31, docs/performance.md).

    python benchmarks/plot_scale.py [older.csv ...] scale.csv --out docs/img/scaling.png

Dumbbells are one line (10 to 100 000 flows, each with its own hosts); fat-trees, the
100 Gb/s dumbbells and the chain of routers are single points at their flow counts. With
several files, each case's value of a column is the last file's that has one (a run without
--instructions drawn with the instruction counts of an earlier one). Rows of ns-2, ns-3 and
htsim (scale.py --beside) are drawn as their whole commands' packet-hops per CPU second beside
ackclock's whole command's.
"""

from __future__ import annotations

import argparse
import csv
import re
from pathlib import Path

# Flow counts of the cases whose name does not carry them (benchmarks/scale.py).
FLOWS = {"fattree_4": 4 * 16, "fattree_8": 4 * 128, "fattree_16": 10_000, "chain_50": 10}


def flows_of(case: str) -> int:
    if case in FLOWS:
        return FLOWS[case]
    m = re.search(r"_(\d+)$", case)
    if m is None:
        raise ValueError(f"no flow count in case {case!r}")
    return int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("csv", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    merged: dict[tuple[str, str], dict[str, str]] = {}
    for path in args.csv:
        with path.open() as f:
            for row in csv.DictReader(f):
                key = (row["case"], row.get("sim") or "ackclock")
                into = merged.setdefault(key, {"sim": key[1]})
                into.update({k: v for k, v in row.items() if v not in ("", None)})
    rows = [r for r in merged.values() if r["sim"] == "ackclock"]
    others = [r for r in merged.values() if r["sim"] != "ackclock"]
    fig, axes = plt.subplots(2, 2, figsize=(10, 7.5))
    panels = [
        (axes[0][0], "Mhops_s", "million packet-hops per CPU second: engine (solid),"
         " whole command (dotted)", True),
        (axes[0][1], "instr_per_hop", "instructions per packet-hop (cachegrind)", False),
        (axes[1][0], "peak_MB", "whole command: peak memory (MB)", True),
        (axes[1][1], "setup_s", "CPU seconds: engine set-up; front end (grey)", True),
    ]
    families = [("dumbbell_", "dumbbell, 1 Gb/s", "o-"),
                ("dumbbell100g_", "dumbbell, 100 Gb/s", "s"),
                ("fattree_", "fat-tree k = 4, 8, 16 (ECMP)", "^"),
                ("chain_", "chain of 50 routers", "D")]
    for ax, column, title, log_y in panels:
        for prefix, label, style in families:
            points = sorted((flows_of(r["case"]), float(r[column])) for r in rows
                            if r["case"].startswith(prefix) and r.get(column) not in ("", None)
                            and (prefix != "dumbbell_" or not r["case"].startswith("dumbbell100g")))
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], style, label=label)
        if column == "Mhops_s":
            whole = [("ackclock", rows, "k")] + [
                (sim, [r for r in others if r["sim"] == sim], c)
                for sim, c in (("ns-2", "tab:red"), ("ns-3", "tab:purple"),
                               ("htsim", "tab:green"))]
            for sim, sim_rows, color in whole:
                points = sorted((flows_of(r["case"]), float(r["cmd_Mhops_cpu_s"]))
                                for r in sim_rows if r["case"].startswith("dumbbell_")
                                and r.get("cmd_Mhops_cpu_s") not in ("", None))
                if points:
                    ax.plot([p[0] for p in points], [p[1] for p in points], "x:",
                            color=color, label=f"dumbbell, {sim}: whole command")
        if column == "setup_s":
            for key, label, style in (("resolve_s", "resolving the TOML", "o--"),
                                      ("front_s", "front end: resolving and recording",
                                       "v-.")):
                points = sorted((flows_of(r["case"]), float(r[key])) for r in rows
                                if r["case"].startswith("dumbbell_")
                                and r.get(key) not in ("", None))
                if points:
                    ax.plot([p[0] for p in points], [p[1] for p in points], style,
                            color="grey", label=f"dumbbell: {label}")
            ax.axhline(0.5, color="red", lw=0.8, ls=":", label="issue 31: set-up 0.5 s")
            ax.plot([10_000], [0.3], "r_", ms=14, mew=2,
                    label="issue 31: front end 0.3 s at 10 000 flows")
        if column == "peak_MB":
            ax.plot([10_000, 100_000], [150, 1500], "r_", ms=14, mew=2,
                    label="issue 31: 150 MB, 1.5 GB")
        if column == "instr_per_hop":
            ax.axhline(300, color="red", lw=0.8, ls=":", label="issue 31: 300 (dumbbell)")
        ax.set_xscale("log")
        if log_y:
            ax.set_yscale("log")
        ax.set_xlabel("flows")
        ax.set_title(title, fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
