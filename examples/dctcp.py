"""DCTCP's own result (Alizadeh et al., "Data Center TCP", SIGCOMM 2010, section 3.3): two
DCTCP flows over a 10 Gb/s bottleneck with a 100 us base RTT and a marking threshold of K = 65
packets hold the queue near K at full utilisation. The bottleneck marks with RED at min_th =
max_th = K on the instantaneous queue (q_weight 1) every ECN-capable arrival that finds K
packets or more (`hard_drop = False`, ns-3's RedQueueDisc with UseHardDrop false), the paper's
configuration; beside it, CUBIC with ECN over the same queue (it halves on each mark and leaves
the link idle) and plain CUBIC over a 1000-packet DropTail queue (it fills the buffer).

Run: python examples/dctcp.py
"""

from __future__ import annotations

import ackclock as ac


def run(cc: str, marking: bool = True, seconds: float = 0.3) -> ac.Results:
    net = ac.Network(f"dctcp-{cc}", profile="ns3")
    net.nodes("s", "r1", "r2", "d")
    net.link("s", "r1", rate="40Gb/s", delay="10us", queue="droptail", queue_limit=10_000)
    if marking:
        net.link("r1", "r2", rate="10Gb/s", delay="20us", queue="red", queue_limit=1000,
                 min_thresh=65, max_thresh=65, q_weight=1.0, gentle=False, hard_drop=False,
                 ecn=True)
    else:
        net.link("r1", "r2", rate="10Gb/s", delay="20us", queue="droptail", queue_limit=1000)
    net.link("r2", "d", rate="40Gb/s", delay="20us", queue="droptail", queue_limit=10_000)
    for i in range(2):
        net.tcp(f"f{i}", "s", "d", cc=cc, ecn=marking, packet_size=1448, rcv_buffer="16MB")
    return net.run(duration=f"{seconds}s", warmup=f"{seconds / 3}s", sample_interval="1ms")


def main() -> dict[str, tuple[float, float, float, int]]:
    """Per case: (bottleneck utilisation, mean and largest queue in packets, marks)."""
    out = {}
    for label, cc, marking in (("dctcp, K = 65", "dctcp", True),
                               ("cubic + ECN, K = 65", "cubic", True),
                               ("cubic, DropTail 1000", "cubic", False)):
        q = run(cc, marking).queues.set_index("link").loc["r1->r2"]
        out[label] = (float(q.utilization), float(q.mean_queue_packets),
                      float(q.max_queue_packets), int(q.marked_packets))
    print("| case | utilisation | mean queue (packets) | max queue | marks |")
    print("|---|---|---|---|---|")
    for label, (u, mean, mx, marks) in out.items():
        print(f"| {label} | {u:.3f} | {mean:.1f} | {mx:.0f} | {marks} |")
    return out


if __name__ == "__main__":
    main()
