"""Seed 002's open cell (IKRSimLib over ns-2 at p = 0.05: the study +30%, ackclock +14%): each
candidate cause run against the baseline; docs/examples/seed002.md ("What the p = 0.05 gap is
not").

One source, unlimited buffer (the study's Fig. 2), `examples/seed002_figures.py`'s `model`: the
`ns2` profile with the study's 2004 ns-2 timers against the `ikr` profile, p = 0.01, 0.05 and
0.1, seeds 1..S. A candidate changes one side (or both) as the study's text or the two systems'
sources leave possible; it counts as the cause only if it moves p = 0.05 toward +30% while
p = 0.01 (+3%) and p = 0.1 (+49%, one run's spread) stay where they are. Nothing is fitted:
each candidate is the value the reference system had or the text allows.

    python examples/seed002_candidates.py [--seeds 10] [--seconds 1500] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seed002_figures import model  # noqa: E402

PS = (0.01, 0.05, 0.1)
STUDY = {0.01: 3.0, 0.05: 30.0, 0.1: 49.0}


@dataclass(frozen=True)
class Candidate:
    why: str
    ns2: dict[str, object] = field(default_factory=dict)
    ikr: dict[str, object] = field(default_factory=dict)
    ack_loss: tuple[str, ...] = ()  # the profiles whose ACKs cross the lossy link too


CANDIDATES = {
    "baseline": Candidate("the study's 2004 ns-2 timers, the ikr profile as IKR's source"),
    # ns-2.35 tcp/tcp-reno.cc RenoTcpAgent::recv; ns-default.tcl: "Added 2003/7/28 ... False for
    # old buggy behavior": an ns-2.26 (before ns-2.27 of January 2004) would have had it.
    "ns-2.26 exitFastRetrans_": Candidate("ns-2 before 2003/7/28: every later dupack inflates",
                                          ns2={"dupacks_always_inflate": True}),
    # tcp-reno.cc RenoTcpAgent::dupack_action, tcp.cc: "Variable added on 2006/06/13".
    "bugfix_ss_ 0": Candidate("ns-2 before 2006/06/13: no fast retransmit while segment 0 "
                              "alone is acknowledged", ns2={"ns2_first_loss": "plain"}),
    # ns-default.tcl's Agent/TCP defaults, if the script did not set them (Appendix A shows no
    # `window_` or `packetSize_` line).
    "window_ 20": Candidate("ns-2's default window_ (20) instead of 32", ns2={"window": 20}),
    "packetSize_ 1000": Candidate("ns-2's default packetSize_ (1000 B)",
                                  ns2={"packet_size": 1000}),
    # tcp.cc TcpAgent::rtt_timeout: maxrto_ 60 since 2007/03/28 (the baseline: 100000).
    "maxrto_ 60": Candidate("ns-2.35's maxrto_", ns2={"max_rto": "60s"}),
    # tcp.cpp TCP_MAXRTO (no cap) against the parameter file's MaxRTO = 10000 ms.
    "IKR MaxRTO unlimited": Candidate("tcp.cpp's own MaxRTO default", ikr={"max_rto": "100000s"}),
    # Where the loss acts: Appendix A's link-lossmodel is on entry -> exit only (ns-link.tcl
    # SimpleLink::insert-linkloss, after the link); the text: loss "for the DATA path".
    "IKR ACKs lost too": Candidate("IKR's Dropper on both directions", ack_loss=("ikr",)),
    "both ACKs lost too": Candidate("the loss on both directions in both",
                                    ack_loss=("ns2", "ikr")),
}


def gaps(c: Candidate, seeds: range, seconds: int) -> dict[float, list[tuple[float, float]]]:
    """(ns2, ikr) throughput in Mb/s of each seed at each p."""
    out: dict[float, list[tuple[float, float]]] = {}
    for p in PS:
        out[p] = []
        for s in seeds:
            got = [float(model(prof, 1, p, None, seconds, seed=s, tcp=extra,
                               ack_loss=prof in c.ack_loss)["throughput_mbps"])  # type: ignore[arg-type]
                   for prof, extra in (("ns2", c.ns2), ("ikr", c.ikr))]
            out[p].append((got[0], got[1]))
    return out


def row(name: str, runs: dict[float, list[tuple[float, float]]]) -> str:
    cells = []
    for p in PS:
        g = [100 * (i / n - 1) for n, i in runs[p]]
        sd = statistics.stdev(g) if len(g) > 1 else 0.0
        cells.append(f"{statistics.mean(g):+.1f}% +- {sd:.1f}")
    return f"| {name} | " + " | ".join(cells) + f" | {CANDIDATES[name].why} |"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--seconds", type=int, default=1500)
    ap.add_argument("--only", nargs="+", choices=list(CANDIDATES), default=list(CANDIDATES))
    args = ap.parse_args(argv)
    print("| candidate | p = 0.01 | p = 0.05 | p = 0.1 | what |")
    print("|---|---|---|---|---|")
    print("| the study | " + " | ".join(f"+{STUDY[p]:.0f}%" for p in PS) + " | single runs |")
    for name in args.only:
        print(row(name, gaps(CANDIDATES[name], range(1, args.seeds + 1), args.seconds)),
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
