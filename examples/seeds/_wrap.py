"""Runs a seed study's example scripts as one command (used by examples/seeds/NNN/run.py), and
writes the study's report: its tables and figures on one page (report.md)."""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

EXAMPLES = Path(__file__).resolve().parents[1]


# How `ackclock seed NNN` runs a runner (python/ackclock/cli.py sets these for the call): the
# name its usage and help give, and what a mistake in its flags raises instead of argparse's
# usage and exit (the command line's one-line error). A runner run as a script keeps argparse's.
PROG: str | None = None
ON_ERROR: Callable[[str], Exception] | None = None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        if ON_ERROR is not None:
            raise ON_ERROR(message)
        super().error(message)


def parser(doc: str) -> argparse.ArgumentParser:
    """A seed runner's argument parser, described by the first line of its docstring."""
    return _Parser(prog=PROG, description=doc.splitlines()[0])


def run_all(doc: str, steps: list[tuple[str, list[str], list[str]]],
            argv: list[str] | None) -> int:
    """``steps``: (script in examples/, its arguments, its --quick arguments); each writes
    into its own folder under --out."""
    ap = parser(doc)
    ap.add_argument("--quick", action="store_true", help="short runs of the same experiments")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    for script, full, quick in steps:
        out = args.out / Path(script).stem
        cmd = [sys.executable, str(EXAMPLES / script), *(quick if args.quick else full),
               "--out", str(out)]
        print("$", " ".join(cmd[1:]), flush=True)
        if subprocess.run(cmd).returncode != 0:
            print(f"{script} failed", file=sys.stderr)
            return 1
    write_report(args.out, doc.splitlines()[0] + (QUICK_NOTE if args.quick else ""))
    return 0


# The title's note on a --quick run's report.
QUICK_NOTE = " (--quick: shortened runs, the shapes, not the study's numbers)"
# A CSV table longer than this is linked from the report, not copied into it (time series,
# sweeps of hundreds of runs).
REPORT_ROWS = 60


def _cell(text: str) -> str:
    """A CSV cell for the report: numbers to four significant digits, the rest as written."""
    try:
        value = float(text)
    except ValueError:
        return text
    return text if text.lstrip("-").isdigit() or value != value else f"{value:.4g}"


def _csv_markdown(path: Path) -> list[str]:
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows:
        return []
    width = len(rows[0])
    return ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width,
            *("| " + " | ".join(_cell(c) for c in r + [""] * (width - len(r))) + " |"
              for r in rows[1:])]


def write_report(out: Path, title: str) -> Path:
    """``out``/report.md: every table a run wrote into ``out`` or one folder below it (its
    Markdown tables whole; a CSV without a Markdown twin whole up to REPORT_ROWS rows, linked
    beyond) and every figure (PNG), so that one page shows the study's tables and figures
    beside ackclock's. Deeper folders (a seed 000 section's script outputs) are left out."""
    files = sorted(p for p in [*out.glob("*"), *out.glob("*/*")]
                   if p.is_file() and p.name != "report.md")
    lines = [f"# {title}", ""]
    for p in files:
        rel = p.relative_to(out).as_posix()
        if p.suffix == ".md":
            lines += [f"## {rel}", "", p.read_text(encoding="utf-8").rstrip(), ""]
        elif p.suffix == ".csv" and not p.with_suffix(".md").exists():
            with p.open(encoding="utf-8") as f:
                n = sum(1 for _ in f) - 1
            if n <= REPORT_ROWS:
                lines += [f"## {rel}", "", *_csv_markdown(p), ""]
            else:
                lines += [f"## {rel}", "", f"[{rel}]({rel}): {n} rows.", ""]
    pngs = [p for p in files if p.suffix == ".png"]
    if pngs:
        lines += ["## Figures", ""]
        lines += [f"![{p.relative_to(out).as_posix()}]({p.relative_to(out).as_posix()})\n"
                  for p in pngs]
    report = out / "report.md"
    report.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    print(f"wrote {report}")
    return report
