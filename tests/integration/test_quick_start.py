"""Quick-Start (RFC 4782; docs/quick-start.md) from a scenario file: an approved request
starts the flow at the approved rate, a router that does not take part (or a node without
one) makes the sender ignore the answer, and bad router tables fail in one line."""

from __future__ import annotations

import pytest

import ackclock as ac

BASE = """
name = "qs"
[run]
duration = "3s"
[[node]]
name = "s"
[[node]]
name = "r"
[[node]]
name = "d"
[[link]]
from = "s"
to = "r"
rate = "1Gb/s"
delay = "2ms"
[[link]]
from = "r"
to = "d"
rate = "100Mb/s"
delay = "100ms"
queue = {{ limit = 1000 }}
[[flow]]
name = "f"
kind = "tcp"
from = "s"
to = "d"
window = 1000
quick_start = 200
quick_start_rtt = "0s"
[flow.app]
kind = "ftp"
size = "200KB"
{routers}
"""

ROUTERS = """
[quick_start]
rate_function = "linear"
[[quick_start.router]]
node = "s"
[[quick_start.router]]
node = "r"
{r_extra}
"""


def completion(routers: str) -> float:
    res = ac.run_scenario(ac.loads_scenario(BASE.format(routers=routers)))
    f = res.flows.set_index("flow")
    return float(f.loc["f", "completion_s"])


def test_an_approved_request_saves_the_slow_start() -> None:
    approved = completion(ROUTERS.format(r_extra=""))
    without = completion("")
    # 200 KB at the approved 200 KB/s (rate x RTT = about 40 segments a round trip) take
    # about 5 round trips of 0.2 s; slow start from two segments about 7.
    assert approved < without - 0.3, (approved, without)


@pytest.mark.parametrize("routers", [
    ROUTERS.format(r_extra="enabled = false"),  # a router that does not take part
    '[quick_start]\n[[quick_start.router]]\nnode = "s"\n',  # r has none
    ROUTERS.format(r_extra="algorithm = 0"),  # a router that rejects everything
])
def test_an_incomplete_path_leaves_slow_start(routers: str) -> None:
    assert completion(routers) == completion("")


@pytest.mark.parametrize(("routers", "message"), [
    ('[quick_start]\n[[quick_start.router]]\nnode = "x"\n', "no node named"),
    ('[quick_start]\nrate = 1\n', "unknown key"),
    ('[quick_start]\n[[quick_start.router]]\nnode = "s"\nalloc_rate = -1\n', "alloc_rate"),
])
def test_bad_router_tables_fail_in_one_line(routers: str, message: str) -> None:
    with pytest.raises(ac.ScenarioError, match=message):
        ac.run_scenario(ac.loads_scenario(BASE.format(routers=routers)))
