"""Two engine builds timed in alternation on the same case: on a shared machine whose speed
drifts by tens of percent within minutes, only runs taken side by side compare. Each round runs
both binaries, in alternating order, and reads the packet-hops/s they print.

    cp target/release/examples/dumbbell_bench /tmp/old    # before the change
    cargo build --release -p ackclock-core --examples      # after it
    python benchmarks/alternate.py --rounds 20 /tmp/old \
        target/release/examples/dumbbell_bench -- 10 10

Works with `dumbbell_bench` and `run_json` (give it a results folder's summary.json).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess


def hops_per_s(exe: str, args: list[str]) -> float:
    out = subprocess.run([exe, *args], capture_output=True, text=True, check=True).stdout
    # dumbbell_bench: "packet-hops/s  1.9e7"; run_json: "packet-hops  N (1.9e7/s)".
    m = re.search(r"packet-hops/s\s+([\d.e+]+)", out) or re.search(
        r"packet-hops\s+\d+ \(([\d.e+]+)/s\)", out)
    if m is None:
        raise SystemExit(f"{exe}: no packet-hops/s in its output:\n{out}")
    return float(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("a", help="first binary (the baseline)")
    ap.add_argument("b", help="second binary")
    ap.add_argument("args", nargs="*", help="arguments for both, after --")
    args = ap.parse_args()
    rates: dict[str, list[float]] = {args.a: [], args.b: []}
    for i in range(args.rounds):
        for exe in (args.a, args.b) if i % 2 == 0 else (args.b, args.a):
            rates[exe].append(hops_per_s(exe, args.args))
    for exe, v in rates.items():
        print(f"{exe}: median {statistics.median(v) / 1e6:.2f} M packet-hops/s, best "
              f"{max(v) / 1e6:.2f} M ({len(v)} runs)")
    ratio = statistics.median(rates[args.b]) / statistics.median(rates[args.a])
    print(f"second / first, medians: {ratio:.3f}")


if __name__ == "__main__":
    main()
