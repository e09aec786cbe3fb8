"""A drop_list's `counted`: the flow's data numbered as they reach the model (ns-2.35's
ListErrorModel::corrupt counts what it is offered), so a packet lost on an earlier link is not
counted; without it, by the sender's transmission count."""

from __future__ import annotations

import ackclock as ac


def run(counted: bool) -> ac.Results:
    net = ac.Network("counted", profile="ns2")
    net.nodes("a", "r", "b")
    # The first link loses the flow's 3rd transmission.
    net.link("a", "r", rate="10Mb/s", delay="5ms",
             loss={"kind": "drop_list", "flow": "f", "packets": [3]})
    # The second drops its 3rd: counted, the 3rd that reaches it (the sender's 4th); else the
    # sender's 3rd, which never reaches it.
    net.link("r", "b", rate="10Mb/s", delay="5ms",
             loss={"kind": "drop_list", "flow": "f", "packets": [3], "counted": counted})
    net.tcp("f", "a", "b")
    return net.run(duration="4s")


def test_a_counted_list_numbers_what_reaches_it() -> None:
    for counted, lost in ((True, 1), (False, 0)):
        q = run(counted).queues.set_index("link")
        assert q.loc["a->r", "lost_packets"] == 1
        assert q.loc["r->b", "lost_packets"] == lost, counted
