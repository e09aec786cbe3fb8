"""Two of ns-2.35's everyday behaviours, live against ns-2:

- UDP splitting a message larger than the agent's `packetSize_` (apps/udp.cc
  `UdpAgent::sendmsg`): `nbytes / size_` packets of `size_` bytes, then one of the rest, each
  numbered, all at the send's instant; a CBR's or an Exponential source's message alike;
- `$ns cost` with static routing (ns-lib.tcl `Simulator instproc cost`, ns-route.tcl
  `compute-flat-routes` inserting each link's `cost?`, routing/route.cc
  `RouteLogic::compute_routes` adding them up: the cheapest path, of equal ones the node
  taken first), `$link cost?`."""

from __future__ import annotations

from typing import Any

import pytest

SPLIT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 2Mb 10ms DropTail
$ns queue-limit $n1 $n2 20
set udp [new Agent/UDP]
$udp set packetSize_ {agent_size}
$ns attach-agent $n0 $udp
set mon [new Agent/LossMonitor]
$ns attach-agent $n2 $mon
$ns connect $udp $mon
set app [new Application/Traffic/{kind}]
{app}
$app attach-agent $udp
$ns at 0.1 "$app start"
$ns at 2.0 "$app stop"
proc done {{}} {{
    global ns tr mon
    puts "[$mon set npkts_] [$mon set bytes_] [$mon set nlost_]"
    $ns flush-trace
    close $tr
    exit 0
}}
$ns at 3.0 "done"
$ns run
"""


@pytest.mark.parametrize(("agent_size", "kind", "app"), [
    (1000, "CBR", "$app set packetSize_ 5000\n$app set interval_ 0.05"),
    (1000, "CBR", "$app set packetSize_ 2500\n$app set rate_ 1.5Mb"),
    (576, "Exponential", "$app set packetSize_ 1500\n$app set rate_ 900k"),
    (1500, "CBR", "$app set packetSize_ 1000\n$app set interval_ 0.01"),
])
def test_udp_splits_a_large_message_as_ns2(vs_ns2: Any, agent_size: int, kind: str,
                                           app: str) -> None:
    both = vs_ns2(SPLIT.format(agent_size=agent_size, kind=kind, app=app))
    trace = both.same("out.tr")["out.tr"].splitlines()
    sizes = {int(line.split()[5]) for line in trace if line.startswith("+ 0.")
             or line.startswith("+ 1.")}
    assert max(sizes) <= agent_size
    assert int(both.ns.out.split()[0]) > 20


COSTS = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
for {{set i 0}} {{$i < 6}} {{incr i}} {{ set n($i) [$ns node] }}
# A star around 0, and a ring 1-2-3-4-5 beside it.
for {{set i 1}} {{$i < 6}} {{incr i}} {{ $ns duplex-link $n(0) $n($i) 1Mb 10ms DropTail }}
$ns duplex-link $n(1) $n(2) 1Mb 10ms DropTail
$ns duplex-link $n(2) $n(3) 1Mb 10ms DropTail
$ns duplex-link $n(3) $n(4) 1Mb 10ms DropTail
$ns duplex-link $n(4) $n(5) 1Mb 10ms DropTail
{costs}
puts "[[$ns link $n(3) $n(4)] cost?] [[$ns link $n(1) $n(2)] cost?]"
set k 0
foreach {{a b}} {{1 4 4 1 2 5 3 1 5 2 1 3}} {{
    set src($k) [new Agent/UDP]
    $ns attach-agent $n($a) $src($k)
    set dst($k) [new Agent/Null]
    $ns attach-agent $n($b) $dst($k)
    $ns connect $src($k) $dst($k)
    set cbr($k) [new Application/Traffic/CBR]
    $cbr($k) set packetSize_ 500
    $cbr($k) set interval_ 0.1
    $cbr($k) attach-agent $src($k)
    $ns at [expr 0.1 + 0.01 * $k] "$cbr($k) start"
    incr k
}}
$ns at 1.0 "$ns flush-trace; close $tr; exit 0"
$ns run
"""


@pytest.mark.parametrize("costs", [
    # The star's spokes dear: the ring carries everything.
    "foreach i {1 2 3 4 5} { $ns cost $n(0) $n($i) 3; $ns cost $n($i) $n(0) 3 }",
    # One ring link dear one way; equal-cost ties elsewhere; a fractional cost.
    "$ns cost $n(3) $n(4) 5\n$ns cost $n(1) $n(2) 0.5\n$ns cost $n(0) $n(2) 2.5",
    # Costs given but all 1: hop count, ns-2's tie order.
    "$ns cost $n(3) $n(4) 1",
])
def test_link_costs_route_as_ns2(vs_ns2: Any, costs: str) -> None:
    both = vs_ns2(COSTS.format(costs=costs))
    trace = both.same("out.tr")["out.tr"].splitlines()
    assert len(trace) > 100
