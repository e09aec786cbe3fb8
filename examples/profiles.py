"""The same network under the three reference profiles: ns-2.35's defaults (`ns2`), Linux's
(`linux`: SACK with PRR, CUBIC with HyStart, Linux's RTO rule) and ns-3.44's (`ns3`).

Three bulk TCP flows, started 2 s apart, share a 100 Mb/s bottleneck with a 40 ms round trip
and a buffer of one bandwidth-delay product (350 packets). Prints, per profile: when the first
flow left slow start and the ssthresh it set then, and what the three flows got
over 30 s (throughput, Jain's fairness index, retransmissions, timeouts, mean RTO).
docs/profiles.md discusses the result.

    python examples/profiles.py [--seconds 30]
"""

from __future__ import annotations

import argparse

import pandas as pd

import ackclock as ac
from ackclock.metrics import jain


def run(profile: str, seconds: float) -> dict[str, object]:
    net = ac.Network(f"profiles-{profile}", profile=profile)
    net.nodes("r1", "r2")
    net.link("r1", "r2", rate="100Mb/s", delay="18ms", queue_limit=350)
    for i in range(3):
        net.nodes(f"s{i}", f"d{i}")
        net.link(f"s{i}", "r1", rate="1Gb/s", delay="1ms", queue_limit=10_000)
        net.link("r2", f"d{i}", rate="1Gb/s", delay="1ms", queue_limit=10_000)
        # ns-2's default window (20 segments) would hide everything else: open it.
        net.tcp(f"f{i}", f"s{i}", f"d{i}", start=f"{2 * i}s", window=10_000,
                trace=["ssthresh"] if i == 0 else [])
    res = net.run(duration=f"{seconds}s")
    flows = res.flows.set_index("flow")
    tcp = flows.loc["f0"]
    segment = 1448 if profile == "linux" else 536 if profile == "ns3" else 1
    trace = res.tcp_trace
    ss = trace[(trace.variable == "ssthresh") & (trace.value < 1e300) & (trace.time_s > 0)]
    first = ss.iloc[0] if len(ss) else None
    return {
        "profile": profile,
        "cc": tcp.cc,
        "variant": tcp.variant,
        "slow start ended (s)": None if first is None else round(float(first.time_s), 3),
        "ssthresh then (segments)": None if first is None else round(float(first.value) / segment),
        "total Mb/s": round(float(flows.throughput_mbps.sum()), 1),
        "Jain": round(float(jain(flows.throughput_mbps)), 3),
        "retransmitted": int(flows.packets_retransmitted.sum()),
        "timeouts": int(flows.timeouts.sum()),
        "mean RTO (ms)": round(float(flows.mean_rto_s.mean()) * 1e3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seconds", type=float, default=30.0)
    args = ap.parse_args()
    rows = [run(p, args.seconds) for p in ("ns2", "linux", "ns3")]
    print(pd.DataFrame(rows).to_string(index=False))


if __name__ == "__main__":
    main()
