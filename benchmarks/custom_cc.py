"""ACKs per second of a Reno written in Python (issue 35) against the built-in Reno.

    python benchmarks/custom_cc.py [--duration 20] [--repeat 3]

One Reno flow over one 1 Gb/s, 5 ms link (ns-2 profile, window 100 000, a 1000-packet
DropTail): every ACK calls the algorithm's cong_avoid, so the run's ACK count over its time is
the rate at which the engine and the algorithm together handle ACKs. The Python Reno is
examples/custom_cc.py's PyReno (byte-identical to the built-in one). Printed per variant, best
of --repeat: ACKs per second of wall time and of the process's CPU time (on a shared machine
the CPU time is the steadier of the two), and the cost per ACK that Python adds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import ackclock as ac

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))

from custom_cc import PyReno  # noqa: E402


def network(cc: object) -> ac.Network:
    net = ac.Network("ack-rate", profile="ns2")
    net.nodes("s", "d")
    net.link("s", "d", rate="1Gb/s", delay="5ms", queue_limit=1000)
    net.tcp("tcp1", "s", "d", window=100_000, cc=cc)
    return net


def measure(cc: object, duration: float, repeat: int) -> tuple[int, float, float]:
    """(ACKs, best wall seconds, best CPU seconds) of ``repeat`` runs."""
    best_wall = best_cpu = float("inf")
    acks = 0
    for _ in range(repeat):
        scenario = network(cc).scenario(duration=f"{duration}s")
        wall, cpu = time.perf_counter(), time.process_time()
        res = ac.run_scenario(scenario, progress=False)
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        acks = int(res.flows["acks_sent"].sum())
    return acks, best_wall, best_cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--duration", type=float, default=20.0, help="simulated seconds")
    ap.add_argument("--repeat", type=int, default=3, help="runs per variant (best kept)")
    args = ap.parse_args()
    rows = {}
    for label, cc in (("built-in reno", "reno"), ("Python PyReno", PyReno)):
        acks, wall, cpu = measure(cc, args.duration, args.repeat)
        rows[label] = (acks, wall, cpu)
        print(f"{label:14s} {acks} ACKs: {acks / wall / 1e6:5.2f} M ACKs/s (wall),"
              f" {acks / cpu / 1e6:5.2f} M ACKs/s (CPU)", flush=True)
    (a, _, c0), (_, _, c1) = rows["built-in reno"], rows["Python PyReno"]
    print(f"Python adds {(c1 - c0) / a * 1e9:.0f} ns of CPU per ACK")


if __name__ == "__main__":
    main()
