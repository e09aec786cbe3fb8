"""Seed 002's open cell (IKRSimLib over ns-2 at p = 0.05: the study +30%, ackclock +14%): each
candidate cause run against the baseline; docs/examples/seed002.md ("What the p = 0.05 gap is
not").

One source, unlimited buffer (the study's Fig. 2), `examples/seed002_figures.py`'s `model`: the
`ns2` profile with the study's 2004 ns-2 timers against the `ikr` profile, p = 0.01, 0.05 and
0.1, seeds 1..S. A candidate changes one side (or both) as the study's text or the two systems'
sources leave possible; it counts as the cause only if it moves p = 0.05 toward +30% while
p = 0.01 (+3%) and p = 0.1 (+49%, one run's spread) stay where they are. Nothing is fitted:
each candidate is the value the reference system had or the text allows.

One more row is not a change of either TCP but of the draw: Appendix A's printed part (from
`$loss_module unit pkt` on; the script's top is not printed) seeds nothing; if the top set no
seed either, the study's ns-2 half was one run on ns-2's start-up seed
(tcl/lib/ns-random.tcl: `$defaultRNG seed 1`; MRG32k3a, tools/rng.cc, the same streams since
ns-2.1b9). That run is
`examples/ns2/seed002.tcl` with the 2004 timers through `ackclock ns2`, which gives ns-2.35's
bytes for it; it stands against the `ikr` profile's single runs over seeds 1-30 (IKRSimLib's
own generator and seed are not public: its half cannot be redrawn as it ran).

    python examples/seed002_candidates.py [--seeds 10] [--seconds 1500] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seed002_figures import model  # noqa: E402

TCL = Path(__file__).resolve().parent / "ns2" / "seed002.tcl"
# The study's ns-2 timers (seed002_figures.NS2_TIMERS["2004"]) as ns-default.tcl had them.
TIMERS_2004 = ("Agent/TCP set minrto_ 1\nAgent/TCP set maxrto_ 100000\n"
               "Agent/TCP set rtxcur_init_ 6\nAgent/TCP set precisionReduce_ false\n")
IKR_SEEDS = 30  # the ikr profile's single runs the default-seed row stands against

PS = (0.01, 0.05, 0.1)
STUDY = {0.01: 3.0, 0.05: 30.0, 0.1: 49.0}


@dataclass(frozen=True)
class Candidate:
    why: str
    ns2: dict[str, object] = field(default_factory=dict)
    ikr: dict[str, object] = field(default_factory=dict)
    ack_loss: tuple[str, ...] = ()  # the profiles whose ACKs cross the lossy link too
    ns2_default_seed: bool = False  # ns-2's half: the unseeded Tcl, one run (ns2_tcl)


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
    # Appendix A has no `ns-random` or `$defaultRNG seed` line: ns-random.tcl's seed 1.
    "ns-2's default seed": Candidate(
        "the printed script seeds nothing: ns-2's one run at its start-up seed against the "
        f"ikr profile's single runs, seeds 1-{IKR_SEEDS}", ns2_default_seed=True),
}


def ns2_tcl(p: float, seconds: int, seed: int | None = None) -> float:
    """Mb/s of examples/ns2/seed002.tcl, one source, the 2004 timers, through `ackclock ns2`:
    the script's own `Throughput` (bytes past the loss module over SIM_TIME). `seed`: a
    `$defaultRNG seed` line first (None: none, as the study's script)."""
    seeding = "" if seed is None else f"$defaultRNG seed {seed}\n"
    with tempfile.TemporaryDirectory() as d:
        run = Path(d) / "run.tcl"
        run.write_text(TIMERS_2004 + seeding + f"source {{{TCL}}}\n", encoding="utf-8")
        out = subprocess.run([sys.executable, "-m", "ackclock", "ns2", str(run),
                              f"{seconds}.0", str(p), "1", "100000"],
                             capture_output=True, text=True, check=True).stdout
    got = re.search(r"Throughput = ([0-9.e+-]+) Byte/ms", out)
    if got is None:
        raise RuntimeError(f"seed002.tcl printed no throughput: {out[-300:]!r}")
    return float(got.group(1)) * 8 / 1000  # byte/ms -> Mb/s


def gaps(c: Candidate, seeds: range, seconds: int) -> dict[float, list[tuple[float, float]]]:
    """(ns2, ikr) throughput in Mb/s of each seed at each p."""
    out: dict[float, list[tuple[float, float]]] = {}
    for p in PS:
        out[p] = []
        if c.ns2_default_seed:
            ns = ns2_tcl(p, seconds)
            out[p] = [(ns, float(model("ikr", 1, p, None, seconds, seed=s,  # type: ignore[arg-type]
                                       tcp=c.ikr)["throughput_mbps"]))
                      for s in range(1, IKR_SEEDS + 1)]
            continue
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
        cell = f"{statistics.mean(g):+.1f}% +- {sd:.1f}"
        if CANDIDATES[name].ns2_default_seed:  # single runs: their range, and how many reach
            reach = sum(x >= STUDY[p] for x in g)
            cell += (f" ({min(g):+.1f} to {max(g):+.1f}; {reach} of {len(g)} at "
                     f"+{STUDY[p]:.0f}% or more; ns-2 {runs[p][0][0]:.4f} Mb/s)")
        cells.append(cell)
    return f"| {name} | " + " | ".join(cells) + f" | {CANDIDATES[name].why} |"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--seconds", type=int, default=1500)
    ap.add_argument("--only", nargs="+", choices=list(CANDIDATES), default=list(CANDIDATES))
    ap.add_argument("--tcl-seeds", type=int, default=0, metavar="N",
                    help="also: the Tcl's ns-2 half over seeds 1..N beside the figures "
                         "script's ns2 model over the same seeds (means, Mb/s)")
    args = ap.parse_args(argv)
    print("| candidate | p = 0.01 | p = 0.05 | p = 0.1 | what |")
    print("|---|---|---|---|---|")
    print("| the study | " + " | ".join(f"+{STUDY[p]:.0f}%" for p in PS) + " | single runs |")
    for name in args.only:
        print(row(name, gaps(CANDIDATES[name], range(1, args.seeds + 1), args.seconds)),
              flush=True)
    if args.tcl_seeds:
        print(f"\nns-2's half over seeds 1-{args.tcl_seeds}, mean Mb/s (+- standard deviation):")
        for p in PS:
            seeds = range(1, args.tcl_seeds + 1)
            tcl = [ns2_tcl(p, args.seconds, s) for s in seeds]
            mod = [float(model("ns2", 1, p, None, args.seconds, seed=s)["throughput_mbps"])  # type: ignore[arg-type]
                   for s in seeds]
            print(f"p = {p}: seed002.tcl {statistics.mean(tcl):.4f} +- {statistics.stdev(tcl):.4f}"
                  f", the ns2 model {statistics.mean(mod):.4f} +- {statistics.stdev(mod):.4f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
