"""Routing seen through the front end: ns-2's single shortest paths by default, equal-cost
multipath with run.routing = "ecmp" (docs/models/links-and-droptail.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import ackclock as ac
from ackclock.errors import ScenarioError

pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from scale import fattree  # noqa: E402


def _uplink_packets(routing: str) -> dict[str, int]:
    """Packets that left pod 0's first edge switch toward each aggregation switch."""
    text = fattree(4, flows=40).replace('routing = "ecmp"', f'routing = "{routing}"')
    text = text.replace('duration = "1s"', 'duration = "20ms"')
    res = ac.run_scenario(ac.loads_scenario(text), progress=False)
    q = res.queues.set_index("link")
    return {a: int(q.loc[f"e0_0->{a}", "arrived_packets"]) for a in ("a0_0", "a0_1")}


def test_ecmp_spreads_flows_over_both_uplinks_and_shortest_uses_the_first() -> None:
    ecmp = _uplink_packets("ecmp")
    shortest = _uplink_packets("shortest")
    # ns-2's rule: every destination through the first declared uplink; ECMP: both carry data.
    assert shortest["a0_1"] == 0 < shortest["a0_0"]
    assert min(ecmp.values()) > 0.2 * max(ecmp.values())


def test_an_unknown_routing_rule_is_one_line_naming_the_key() -> None:
    text = fattree(4, flows=1).replace('routing = "ecmp"', 'routing = "ospf"')
    with pytest.raises(ScenarioError, match=r'run\.routing.*"shortest", "ecmp" or "ns2"'):
        ac.run_scenario(ac.loads_scenario(text), progress=False)
