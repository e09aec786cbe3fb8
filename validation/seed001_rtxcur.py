"""Seed 001's timeout T_0 in ns-2.35 and in ackclock: the time average of ns-2's `t_rtxcur_`.

The study feeds formula (6) (PFTK) the time average of the sender's retransmission value,
ns-2's `t_rtxcur_` = SRTT + 4 RTTVAR (`TcpAgent::rtt_update`, tcp.cc), which it made
traceable; the timer itself waits max(`minrto_`, `t_rtxcur_`) times the backoff
(`TcpAgent::rtt_timeout`). This runs scenario 3 (N Reno sources through the RED bottleneck)
in ns-2.35 (validation/ns2/seed001_population.tcl, tracing srtt_, rttvar_ and backoff_) and in
ackclock (examples/seed001_tables.py), and prints the three averages over 50-250 s, per
sender, averaged over the senders: `t_rtxcur_`, the timer's RTO before backoff, and with it.

    python validation/seed001_rtxcur.py      # a few seconds per case; needs ns-2 (`ns`)
"""

from __future__ import annotations

import runpy
import subprocess
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIN_RTO = 0.2  # ns-2.35's minrto_


def ns2_averages(n: int, seconds: float, seed: int, warmup: float) -> tuple[float, ...]:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["ns", str(ROOT / "validation/ns2/seed001_population.tcl"), str(n),
                        str(seconds), str(seed)], cwd=tmp, check=True, capture_output=True)
        lines = (Path(tmp) / "vars.tr").read_text().splitlines()
    state: dict[str, dict[str, float]] = defaultdict(
        lambda: {"srtt_": 0.0, "rttvar_": 0.0, "backoff_": 1.0})
    since: dict[str, float] = {}
    acc: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])

    def add(f: str, t: float) -> None:
        if f in since:
            a, b = max(since[f], warmup), min(t, seconds)
            if b > a:
                st = state[f]
                rtxcur = st["srtt_"] + 4 * st["rttvar_"]
                for i, v in enumerate((rtxcur, max(rtxcur, MIN_RTO),
                                       max(rtxcur, MIN_RTO) * st["backoff_"])):
                    acc[f][i] += v * (b - a)
        since[f] = t

    for line in lines:
        p = line.split()
        t, flow, var, value = float(p[0]), p[2], p[5], float(p[6])
        add(flow, t)
        state[flow][var] = value
    for flow in list(state):
        add(flow, seconds)
    span = seconds - warmup
    return tuple(sum(a[i] for a in acc.values()) / len(acc) / span for i in range(3))


def main() -> None:
    tables = runpy.run_path(str(ROOT / "examples/seed001_tables.py"))
    print("| N | ns-2.35 t_rtxcur_ | ackclock t_rtxcur_ | ns-2.35 RTO | ns-2.35 RTO x backoff |")
    print("|---|---|---|---|---|")
    for n in (7, 35):
        rtxcur, rto, backed = ns2_averages(n, 250.0, 1, 50.0)
        ours = tables["scenario3"](n, 1, 250.0)["t0_s"]
        print(f"| {n} | {rtxcur:.4f} | {ours:.4f} | {rto:.4f} | {backed:.4f} |", flush=True)


if __name__ == "__main__":
    main()
