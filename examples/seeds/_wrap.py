"""Runs a seed study's example scripts as one command (used by examples/seeds/NNN/run.py)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1]


def run_all(doc: str, steps: list[tuple[str, list[str], list[str]]],
            argv: list[str] | None) -> int:
    """``steps``: (script in examples/, its arguments, its --quick arguments); each writes
    into its own folder under --out."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
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
    return 0
