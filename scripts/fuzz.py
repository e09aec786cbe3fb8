#!/usr/bin/env python3
"""Fuzzes the scenario loader and the engine for a fixed time budget (not part of CI's default
suite; the regression corpus it feeds is: tests/fuzz/test_scenario_inputs.py).

    python scripts/fuzz.py --seconds 300 [--seed N]

Inputs are random text and the example scenarios garbled by line edits, random values and
truncation (tests/fuzz/strategies.py); each goes through tests/fuzz/harness.py:check, which
loads it, and runs what loads in the engine under the invariant checker with a bounded
event budget. An input that raises anything but a one-line ScenarioError or engine
ValueError, panics, breaks an invariant or runs past the time limit per input is a crash:
it is written to tests/fuzz/crashers/ (a regression test from then on) and the fuzzer exits
with status 1. Prints the outcome counts.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import random
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "fuzz"))

from harness import CRASHERS, check  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from strategies import inputs  # noqa: E402

# One input may take at most this long (a hang is a crash).
PER_INPUT_S = 10.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="time budget (default 60)")
    ap.add_argument("--verbose", action="store_true",
                    help="print the inputs the engine rejected after the loader accepted them")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    args = ap.parse_args()
    seed = random.randrange(2**32) if args.seed is None else args.seed
    deadline = time.monotonic() + args.seconds
    counts: collections.Counter[str] = collections.Counter()
    crashes: list[Path] = []
    distinct: set[str] = set()
    engine_rejected: list[str] = []

    def one(case: tuple[str, str]) -> None:
        source, text = case
        distinct.add(hashlib.sha256(text.encode()).hexdigest())
        start = time.monotonic()
        try:
            outcome = check(text, source=source)
            took = time.monotonic() - start
            if took > PER_INPUT_S:
                raise AssertionError(f"took {took:.1f} s (more than {PER_INPUT_S} s)")
        except BaseException as e:  # noqa: BLE001 - a Rust panic is a BaseException
            if isinstance(e, KeyboardInterrupt):
                raise
            name = hashlib.sha256(text.encode()).hexdigest()[:16]
            path = CRASHERS / f"{name}.toml"
            CRASHERS.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
            crashes.append(path)
            print(f"crash ({source}): {type(e).__name__}: {e}\n  saved as {path}",
                  file=sys.stderr)
            traceback.print_exc(limit=3)
            outcome = "crash"
        counts[outcome] += 1
        if outcome == "engine-rejected" and args.verbose:
            engine_rejected.append(text)

    # Batches, so that the time budget is checked between them.
    batch = 0
    while time.monotonic() < deadline:
        run = settings(max_examples=200, deadline=None, database=None,
                       suppress_health_check=list(HealthCheck))(
            given(inputs, st.just(batch))(lambda case, _b: one(case)))
        run._hypothesis_internal_use_seed = seed + batch  # type: ignore[attr-defined]
        run()
        batch += 1
    total = sum(counts.values())
    for text in engine_rejected:
        print(f"--- accepted by the loader, rejected by the engine:\n{text}")
    print(f"fuzz: {total} inputs ({len(distinct)} distinct) in {args.seconds:g} s (seed {seed}): "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"fuzz: {len(crashes)} crashes")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
