"""Seed 003 (competing high-speed TCPs with background traffic), one command: the 16 pairs of
the study's Table 1 with and without Tmix background, the asymmetry A beside the study's, and the
background's throughput over time (Figs. 8-9), each pair's loss rate beside the study's
Appendix B, and the study's figures: each run's two flows over time (Figs. 11-42), each protocol's
cwnd beside Reno's after a forced drop (Figs. 2-5), the background (Figs. 8-9), as PNGs
(docs/examples/seed003.md). The background is synthetic (the study's Abilene-I vectors
are not public) at the Abilene-I link's load, 200 Mb/s offered each way (`examples/seed003.py
--load`; `--rate 150` the earlier, 9 Mb/s background).

    python examples/seeds/003/run.py [--quick] [--out results/seeds/003]

--quick: the four pairs the study highlights (its sections 4.1-4.4) over 150 s (flow 1 from
50 s) and 100 s without background. The full run goes one run at a time: at the default load
each 910 s run peaks at about 3.2 GB.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _wrap import run_all  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--out" not in argv:
        argv += ["--out", "results/seeds/003"]
    return run_all(__doc__, [("seed003.py", ["--pairs", "all", "--jobs", "1"],
                              ["--seconds", "150", "--start", "50", "--seconds-without", "100"])],
                   argv)


if __name__ == "__main__":
    raise SystemExit(main())
