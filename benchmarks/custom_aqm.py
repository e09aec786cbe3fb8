"""Packets per second through a queue discipline written in Python (issue 35) against the
built-in one.

    python benchmarks/custom_aqm.py [--duration 20] [--repeat 3]

Twenty Reno flows over one 100 Mb/s, 10 ms bottleneck (linux profile, a 200-packet buffer):
every packet crossing the bottleneck (data one way, ACKs the other) calls the discipline's hook
once, `admit` at enqueue (examples/custom_aqm.py's PyDropTail and PyRed) or `dequeue` at the
head (PyCoDel), so the hook calls over the run's time give the rate at which the engine and
the discipline together handle packets. Printed per discipline, best of --repeat: packets
through the bottleneck, the run's CPU time, and the CPU time Python adds per packet against
the built-in twin (byte-identical outputs, so the same packets).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import ackclock as ac

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))

from custom_aqm import RED, RED_BUILTIN, PyCoDel, PyDropTail, PyRed  # noqa: E402


def network(queue: object, params: dict[str, object]) -> ac.Network:
    net = ac.Network("aqm-rate", profile="linux")
    net.nodes("s", "r", "d")
    net.link("s", "r", rate="10Gb/s", delay="1ms")
    net.link("r", "d", rate="100Mb/s", delay="10ms", queue=queue, queue_limit=200, **params)
    for i in range(20):
        net.tcp(f"tcp{i}", "s", "d", cc="reno")
    return net


def measure(queue: object, params: dict[str, object], duration: float, repeat: int
            ) -> tuple[int, float]:
    """(packets offered to the bottleneck, both directions; best CPU seconds)."""
    best = float("inf")
    packets = 0
    for _ in range(repeat):
        scenario = network(queue, params).scenario(duration=f"{duration}s")
        cpu = time.process_time()
        res = ac.run_scenario(scenario, progress=False)
        best = min(best, time.process_time() - cpu)
        q = res.queues.set_index("link")
        packets = int(q.loc["r->d", "arrived_packets"] + q.loc["d->r", "arrived_packets"])
    return packets, best


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--duration", type=float, default=20.0, help="simulated seconds")
    ap.add_argument("--repeat", type=int, default=3, help="runs per variant (best kept)")
    args = ap.parse_args()
    red = dict(RED_BUILTIN)
    cases = [("droptail", "droptail", {}, PyDropTail), ("red", "red", red,
             PyRed(**RED, mean_pktsize=1500.0)), ("codel", "codel", {}, PyCoDel)]
    for name, kind, params, twin in cases:
        n, c0 = measure(kind, params, args.duration, args.repeat)
        n1, c1 = measure(twin, {}, args.duration, args.repeat)
        assert n == n1, (name, n, n1)
        print(f"{name:9s} {n} packets: built-in {c0:6.2f} s CPU, Python {c1:6.2f} s CPU;"
              f" Python adds {(c1 - c0) / n * 1e9:5.0f} ns per packet", flush=True)


if __name__ == "__main__":
    main()
