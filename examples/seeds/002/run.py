"""Seed 002 (ns-2 against IKRSimLib on one model), one command: every figure of the study
(Figs. 2-14 with the `ns2` profile for ns-2 and the `ikr` profile for IKRSimLib, Fig. 15's run
times with ns-2.35 itself when `ns` is on PATH), and the throughput table against p and N in
packet- and byte-counted windows (docs/examples/seed002.md).

    python examples/seeds/002/run.py [--quick] [--out results/seeds/002]

--quick: 150 s runs (the study's 1500 s), a coarser grid for the figures.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _wrap import run_all  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--out" not in argv:
        argv += ["--out", "results/seeds/002"]
    return run_all(__doc__, [("seed002_model.py", [], ["--seconds", "150"]),
                             ("seed002_figures.py", [], ["--quick"])], argv)


if __name__ == "__main__":
    raise SystemExit(main())
