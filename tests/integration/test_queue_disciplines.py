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
