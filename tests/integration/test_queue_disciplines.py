"""Queue disciplines and the traffic-control layer through the front end (issue 34, part B):
each discipline selectable by name, doing what its equations say at the scale of a run; loss
on the ACK direction."""

from __future__ import annotations

import ackclock as ac


def test_reverse_loss_loses_acks_not_data() -> None:
    net = ac.Network("ackloss", profile="ns3")
    net.nodes("a", "b")
    net.link("a", "b", rate="10Mb/s", delay="10ms",
             reverse_loss={"kind": "bernoulli", "p": 0.3})
    net.tcp("f", "a", "b")
    res = net.run(duration="5s")
    q = res.queues.set_index("link")
    assert q.loc["a->b", "lost_packets"] == 0
    acks = q.loc["b->a"]
    assert 0.25 < acks.lost_packets / acks.arrived_packets < 0.35
    # Cumulative ACKs cover for the lost ones: the transfer goes on.
    assert res.flows.goodput_mbps.iloc[0] > 1.0


def test_a_drop_list_of_acks_loses_exactly_those_acks() -> None:
    net = ac.Network("acklist", profile="ns2")
    net.nodes("a", "b")
    net.link("a", "b", rate="10Mb/s", delay="10ms",
             reverse_loss={"kind": "drop_list", "flow": "f", "packets": [1, 5, 9],
                           "acks": True})
    net.tcp("f", "a", "b")
    res = net.run(duration="6s")
    q = res.queues.set_index("link")
    assert q.loc["a->b", "lost_packets"] == 0
    assert q.loc["b->a", "lost_packets"] == 3
    f = res.flows.iloc[0]
    assert f.acks_dropped == 3
    # The first ACK lost: the first segment times out (ns-2's 3 s initial RTO) and is sent
    # again; the later two are covered by the next cumulative ACKs.
    assert (f.timeouts, f.packets_retransmitted) == (1, 1)


def dumbbell(queue: str, *, flows: int = 4, delay: str = "20ms", profile: str = "ns2",
             tcp: dict[str, object] | None = None, **link: object) -> ac.Network:
    net = ac.Network(f"q-{queue}", profile=profile)
    net.nodes("r1", "r2")
    net.link("r1", "r2", rate="10Mb/s", delay=delay, queue=queue, **link)  # type: ignore[arg-type]
    for i in range(flows):
        net.nodes(f"s{i}", f"d{i}")
        net.link(f"s{i}", "r1", rate="100Mb/s", delay=f"{1 + i}ms", queue_limit=1000)
        net.link("r2", f"d{i}", rate="100Mb/s", delay="1ms", queue_limit=1000)
        net.tcp(f"t{i}", f"s{i}", f"d{i}", variant="sack", sink="sack", window=1000,
                packet_size=1000, start=f"{i / 10}s", **(tcp or {}))
    return net


def bottleneck(res: ac.Results) -> object:
    return res.queues.set_index("link").loc["r1->r2"]


def test_aqms_hold_the_delay_near_their_targets() -> None:
    # CoBALT's CoDel part: 5 ms target; FQ-PIE: 15 ms reference; ARED: the middle of its
    # automatic thresholds (min_th = max(5, 5 ms x 1250 pkt/s / 2) = 5, max_th = 15: about 10).
    for queue, lo, hi in (("cobalt", 2e-3, 12e-3), ("fq_pie", 10e-3, 25e-3)):
        q = bottleneck(dumbbell(queue, queue_limit=1000).run(duration="30s", warmup="10s"))
        assert lo < q.p50_sojourn_s < hi, (queue, q.p50_sojourn_s)  # type: ignore[attr-defined]
        assert q.utilization > 0.9, (queue, q.utilization)  # type: ignore[attr-defined]
    q = bottleneck(dumbbell("ared", queue_limit=1000, mean_pktsize=1040).run(
        duration="30s", warmup="10s"))
    assert 6 < q.mean_queue_packets < 14, q.mean_queue_packets  # type: ignore[attr-defined]


def test_tbf_shapes_to_its_token_rate() -> None:
    net = ac.Network("tbf")
    net.nodes("s", "d")
    net.link("s", "d", rate="10Mb/s", delay="5ms", queue="tbf", queue_limit=100,
             token_rate=2e6, burst=20000)
    net.udp("cbr", "s", "d", rate="6Mb/s", packet_size=1000)
    res = net.run(duration="20s", warmup="5s")
    q = res.queues.set_index("link").loc["s->d"]
    # The bucket's 20 000 bytes pass at once, then 2 Mb/s: utilisation of the 10 Mb/s line 0.2.
    assert abs(q.utilization - 0.2) < 0.002, q.utilization
    assert q.dropped_packets > 0


def test_priority_bands() -> None:
    def run(queue: str) -> tuple[float, float]:
        net = ac.Network("prio", profile="ns3")
        net.nodes("s", "r", "d")
        net.link("s", "r", rate="100Mb/s", delay="1ms")
        net.link("r", "d", rate="10Mb/s", delay="10ms", queue=queue, queue_limit=100)
        net.udp("low", "s", "d", rate="8Mb/s", packet_size=1000)
        net.udp("high", "s", "d", rate="6Mb/s", packet_size=1000, priority=6)
        g = net.run(duration="10s", warmup="2s").flows.set_index("flow").goodput_mbps
        return float(g["high"]), float(g["low"])

    # prio: a FIFO of 100 per band; priority 6 is band 0 and gets all it sends, the other the
    # rest of the line's 10 Mb/s x 1000 / 1028 (28 bytes of headers) of payload: 3.73.
    high, low = run("prio")
    assert high > 5.99 and abs(low - (10 * 1000 / 1028 - high)) < 0.02, (high, low)
    # pfifo_fast: one limit over the bands, so the best-effort flow keeping the queue full
    # also makes the high band's arrivals drop; band 0 still leaves first, so a smaller share
    # of its packets is lost.
    high, low = run("pfifo_fast")
    assert high / 6 > low / 8 and high < 5.5, (high, low)


def test_ns2_drr_and_sfq_share_between_sources() -> None:
    for queue, extra in (("drr", {}), ("sfq", {"queue_limit": 40})):
        net = ac.Network(f"fair-{queue}")
        net.nodes("a", "b", "r", "d")
        net.link("a", "r", rate="100Mb/s", delay="1ms")
        net.link("b", "r", rate="100Mb/s", delay="1ms")
        net.link("r", "d", rate="2Mb/s", delay="5ms", queue=queue, **extra)  # type: ignore[arg-type]
        net.udp("from_a", "a", "d", rate="3Mb/s", packet_size=500)
        net.udp("from_b", "b", "d", rate="1.5Mb/s", packet_size=1000)
        res = net.run(duration="20s", warmup="5s")
        g = res.flows.set_index("flow").goodput_mbps
        # Two sources, two buckets: each gets about half of 2 Mb/s (DRR by bytes, SFQ by packets
        # of 500 and 1000 bytes: 1/3 and 2/3).
        share = g["from_a"] / (g["from_a"] + g["from_b"])
        expect = 0.5 if queue == "drr" else 1 / 3
        assert abs(share - expect) < 0.03, (queue, share)


def test_bql_keeps_the_backlog_in_the_aqm() -> None:
    # FQ-CoDel above a 100-packet device queue (ns-3's default stack): the device queue holds
    # the standing queue, out of CoDel's sight. With byte queue limits it holds a few packets
    # and CoDel keeps the delay near its 5 ms target.
    plain = bottleneck(dumbbell("fq_codel", device_limit=100).run(duration="30s", warmup="10s"))
    bql = bottleneck(dumbbell("fq_codel", device_limit=100, bql=True).run(
        duration="30s", warmup="10s"))
    assert plain.p50_sojourn_s > 0.05, plain.p50_sojourn_s  # type: ignore[attr-defined]
    assert bql.p50_sojourn_s < 0.012, bql.p50_sojourn_s  # type: ignore[attr-defined]
    assert bql.utilization > 0.9  # type: ignore[attr-defined]


def test_codel_ce_threshold_marks_for_dctcp() -> None:
    # ECN-capable flows: marked as soon as a packet waited more than 1 ms, so the queue stays
    # far below CoDel's own 5 ms target, and nothing is dropped.
    net = dumbbell("codel", flows=2, ecn=True, ce_threshold="1ms", queue_limit=1000,
                   tcp={"ecn": True})
    q = bottleneck(net.run(duration="20s", warmup="5s"))
    assert q.marked_packets > 100  # type: ignore[attr-defined]
    assert q.dropped_packets == 0  # type: ignore[attr-defined]
    assert q.p50_sojourn_s < 2e-3, q.p50_sojourn_s  # type: ignore[attr-defined]


def test_red_above_a_device_queue_sees_only_its_own_packets() -> None:
    # A step marker at K = 5 (min = max = K, w_q 1) above a device queue of 20 packets: RED
    # counts only what waits in it, so the backlog reaches the device queue's 20 and K more
    # before a mark; at the line (no device queue) RED sees the whole backlog. Its marks, made
    # at arrival, are counted either way.
    red = {"min_thresh": 5, "max_thresh": 5, "q_weight": 1.0, "hard_drop": False,
           "gentle": False, "ecn": True, "queue_limit": 200}
    tcp = {"ecn": True}
    line = bottleneck(dumbbell("red", flows=2, tcp=tcp, **red).run(duration="20s",
                                                                   warmup="5s"))
    held = bottleneck(dumbbell("red", flows=2, tcp=tcp, device_limit=20, **red).run(
        duration="20s", warmup="5s"))
    for q in (line, held):
        assert q.marked_packets > 100, q  # type: ignore[attr-defined]
        assert q.dropped_packets == 0  # type: ignore[attr-defined]
    assert line.max_queue_packets < 10  # type: ignore[attr-defined]
    assert 25 <= held.max_queue_packets < 30  # type: ignore[attr-defined]
