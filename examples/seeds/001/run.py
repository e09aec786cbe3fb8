"""Seed 001 (TCP throughput against the Mathis/Floyd and PFTK formulas), one command: scenario 1
(Tahoe and Reno against CBR, the study's Figs. 6-7), Tables 1-4 with Figs. 9-10 (scenarios 2
and 3, 10 replications), each table beside the study's values, and Figs. 8 (512-byte packets)
and 11-14 (Tahoe and Reno populations, round trips 0.03 / 0.09 s); docs/examples/seed001.md.

    python examples/seeds/001/run.py [--quick] [--out results/seeds/001]

--quick: 60 s runs (the study's 250 s), 2 replications.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _wrap import run_all  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--out" not in argv:
        argv += ["--out", "results/seeds/001"]
    return run_all(__doc__, [
        ("seed001_scenario1.py", [], ["--seconds", "60"]),
        ("seed001_tables.py", [], ["--seconds", "60", "--replications", "2"]),
        ("seed001_figures.py", [], ["--quick"]),
    ], argv)


if __name__ == "__main__":
    raise SystemExit(main())
