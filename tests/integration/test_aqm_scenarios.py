"""Queue disciplines, ECN and loss models in whole runs, against their known outcomes."""

from __future__ import annotations

from typing import Any

import pytest

from ackclock.network import Network
from ackclock.results import Results


def tcp_vs_cbr(queue: str, cbr_rate: str = "4Mb/s", ecn: bool = False, seconds: int = 60,
               warmup: str = "10s", **queue_params: Any) -> Results:
    """Seed 001's scenario 1 at a smaller scale: TCP and CBR share a 10 Mb/s, 29 ms link."""
    net = Network("tcp-vs-cbr")
    net.nodes("s1", "s2", "r1", "r2", "d")
    for a, b in (("s1", "r1"), ("s2", "r1"), ("r2", "d")):
        net.link(a, b, rate="100Mb/s", delay="1ms", queue_limit=100)
    net.link("r1", "r2", rate="10Mb/s", delay="29ms", queue=queue, queue_limit=100,
             ecn=ecn or None, **queue_params)
    net.tcp("tcp", "s1", "d", window=100, packet_size=1460, ecn=ecn)
    net.udp("cbr", "s2", "d", packet_size=1000, rate=cbr_rate)
    return net.run(duration=f"{seconds}s", warmup=warmup)


def bottleneck(res: Results) -> Any:
    return res.queues.set_index("link").loc["r1->r2"]


def test_red_keeps_the_mean_queue_below_max_thresh_where_droptail_fills_up() -> None:
    red = bottleneck(tcp_vs_cbr("red", max_thresh=20))
    red_packets = bottleneck(tcp_vs_cbr("red", max_thresh=20, queue_in_bytes=False,
                                        bytes=False))
    droptail = bottleneck(tcp_vs_cbr("droptail"))
    assert red.mean_queue_packets < 20 and red_packets.mean_queue_packets < 20
    assert droptail.mean_queue_packets > 40
    assert red.max_queue_packets < droptail.max_queue_packets


def test_ecn_marks_instead_of_dropping_tcp() -> None:
    for queue in ("red", "codel", "pie"):
        res = tcp_vs_cbr(queue, ecn=True)
        tcp = res.flows.set_index("flow").loc["tcp"]
        q = bottleneck(res)
        assert q.marked_packets > 0, queue
        assert tcp.ecn_reductions > 0, queue
        # The ECN-capable TCP loses nothing; CBR (not ECN-capable) is dropped instead.
        assert tcp.packets_retransmitted == 0 and tcp.packets_dropped == 0, queue
        assert q.dropped_packets == res.flows.set_index("flow").loc["cbr"].packets_dropped


def test_held_queue_conserves_packets() -> None:
    for queue in ("codel", "fq_codel"):
        q = bottleneck(tcp_vs_cbr(queue, cbr_rate="9Mb/s", seconds=20, warmup="0s"))
        assert q.dropped_packets > 0
        # Whatever arrived departed, was dropped, or still waits (at most the buffer).
        backlog = q.arrived_packets - q.departed_packets - q.dropped_packets
        assert 0 <= backlog <= 100, queue


def many_flows(queue: str, n: int = 8, delay: str = "40ms") -> Any:
    net = Network("many")
    net.nodes("r1", "r2")
    net.link("r1", "r2", rate="10Mb/s", delay=delay, queue=queue, queue_limit=1000)
    for i in range(n):
        net.nodes(f"s{i}", f"d{i}")
        net.link(f"s{i}", "r1", rate="100Mb/s", delay=f"{1 + i}ms", queue_limit=1000)
        net.link("r2", f"d{i}", rate="100Mb/s", delay="1ms", queue_limit=1000)
        net.tcp(f"t{i}", f"s{i}", f"d{i}", window=1000, packet_size=1000, start=f"{i / 10}s")
    return net.run(duration="60s", warmup="10s")


def test_codel_holds_the_median_sojourn_near_its_target() -> None:
    # Eight long Reno flows, RTTs of 86-100 ms, through a 10 Mb/s link with 1000 buffers.
    codel = bottleneck(many_flows("codel"))
    droptail = bottleneck(many_flows("droptail"))
    assert 0.003 < codel.p50_sojourn_s < 0.010, codel.p50_sojourn_s
    assert droptail.p50_sojourn_s > 0.3
    assert codel.utilization > 0.85


def test_fq_codel_shares_the_link_fairly() -> None:
    res = many_flows("fq_codel", delay="10ms")
    mbps = res.flows.throughput_mbps
    jain = mbps.sum() ** 2 / (len(mbps) * (mbps ** 2).sum())
    assert jain > 0.99, mbps.tolist()
    droptail = many_flows("droptail", delay="10ms").flows.throughput_mbps
    assert jain > droptail.sum() ** 2 / (len(droptail) * (droptail ** 2).sum())


def cbr_over_lossy_link(loss: dict[str, Any], packets: int = 100_000) -> Any:
    net = Network("lossy")
    net.nodes("a", "b")
    net.link("a", "b", rate="100Mb/s", delay="1ms", queue_limit=1000, loss=loss)
    # 1000-byte datagrams every 100 us: 100 000 of them in 10 s.
    net.udp("cbr", "a", "b", packet_size=1000, interval="100us")
    res = net.run(duration=f"{packets * 100e-6}s")
    return res.flows.set_index("flow").loc["cbr"], bottleneck_of(res)


def bottleneck_of(res: Results) -> Any:
    return res.queues.set_index("link").loc["a->b"]


def test_bernoulli_loss_on_100000_cbr_packets_is_one_percent() -> None:
    flow, link = cbr_over_lossy_link({"kind": "bernoulli", "p": 0.01})
    assert flow.packets_sent == pytest.approx(100_000, abs=1)
    assert flow.loss_rate == pytest.approx(0.01, abs=0.001)
    # Counted as the loss model's, not the queue's.
    assert link.lost_packets == flow.packets_dropped and link.dropped_packets == 0


def test_gilbert_elliott_and_periodic_loss_rates() -> None:
    flow, _ = cbr_over_lossy_link({"kind": "gilbert_elliott", "p_good_bad": 0.01,
                                   "p_bad_good": 0.25})
    assert flow.loss_rate == pytest.approx(0.01 / 0.26, rel=0.1)
    flow, _ = cbr_over_lossy_link({"kind": "periodic", "period": 50, "burst": 2})
    assert flow.loss_rate == pytest.approx(0.04, abs=1e-4)
