"""Seed 002 (ns-2 against IKRSimLib on one model), one command: throughput against the loss
rate p and the number of sources N with packet- and byte-counted windows (the study's Figs. 2/4
and 10; docs/examples/seed002.md). The study's IKRSimLib curves need an `ikr` profile, which
ackclock does not have yet, and its buffer sweeps and run-time figure are not run here.

    python examples/seeds/002/run.py [--quick] [--out results/seeds/002]

--quick: 150 s runs (the study's 1500 s).
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
    return run_all(__doc__, [("seed002_model.py", [], ["--seconds", "150"])], argv)


if __name__ == "__main__":
    raise SystemExit(main())
