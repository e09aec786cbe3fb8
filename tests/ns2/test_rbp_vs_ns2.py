"""ns-2.35's RBP agents (tcp/tcp-rbp.cc; the engine's `ns2_rbp`, tcp/sender/rbp.rs): a
connection whose retransmission timer expired with nothing outstanding paces its next window
over one round trip until the first ACK. Live against ns-2.35: the packet trace of two
connections sending pages with idle gaps between them, through a slow bottleneck, and the
agents' own `rbp_segs_actually_paced_` and `rbp_inter_pace_delay_`; and Vegas's
`slow_start_restart_ false` (VegasTcpAgent::timeout does nothing when idle)."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
Agent/TCP set tcpTick_ 0.01
foreach n {{a b r1 r2 c}} {{ set node($n) [$ns node] }}
$ns duplex-link $node(a) $node(r1) 10Mb 1ms DropTail
$ns duplex-link $node(b) $node(r1) 10Mb 3ms DropTail
$ns duplex-link $node(r1) $node(r2) 1Mb 40ms DropTail
$ns queue-limit $node(r1) $node(r2) 12
$ns duplex-link $node(c) $node(r2) 10Mb 2ms DropTail
foreach i {{1 2}} src {{a b}} {{
    set tcp($i) [$ns create-connection TCP/{agent} $node($src) TCPSink/DelAck $node(c) $i]
    $tcp($i) set window_ 24
    {extra}
    set ftp($i) [$tcp($i) attach-app FTP]
}}
set pages 0
proc page {{i n}} {{
    global ftp ns
    $ftp($i) producemore $n
}}
foreach t {{0.1 3.0 7.5 12.0 12.02}} n {{30 8 16 25 4}} {{
    $ns at $t "page 1 $n"
    $ns at [expr $t + 0.35] "page 2 [expr $n + 3]"
}}
proc show {{}} {{
    global tcp
    foreach i {{1 2}} {{
        set gap [$tcp($i) set rbp_inter_pace_delay_]
        puts "$i [$tcp($i) set rbp_segs_actually_paced_] [format {fmt} $gap] [$tcp($i) set cwnd_]"
    }}
}}
$ns at 7.8 "show"
$ns at 16.0 "show; $ns flush-trace; close $tr; exit 0"
$ns run
"""


# Reno's gap is exact (t_srtt_ in ticks); Vegas's v_rtt_ is a difference of ns-2's double
# clock (vegastime()), which the engine takes from its picosecond clock: the two differ in the
# 16th digit, so Vegas's gap is printed to the nanosecond.
@pytest.mark.parametrize(("agent", "extra", "fmt"), [
    ("Reno/RBP", "", "%.17g"),
    ("Reno/RBP", "$tcp($i) set rbp_scale_ 0.5", "%.17g"),
    ("Vegas/RBP", "", "%.9f"),
    ("Vegas/RBP", "$tcp($i) set rbp_rate_algorithm_ 2", "%.9f"),
])
def test_rbp_as_ns2(vs_ns2: Any, agent: str, extra: str, fmt: str) -> None:
    both = vs_ns2(SCRIPT.format(agent=agent, extra=extra, fmt=fmt))
    same = both.same("out.tr")
    lines = same["out.tr"].splitlines()
    assert len(lines) > 1000
    # Each agent paced after each idle period.
    counts = [int(line.split()[1]) for line in both.ns.out.splitlines()]
    assert min(counts) >= 1 and max(counts) >= 2, both.ns.out


def test_vegas_without_slow_start_restart_as_ns2(vs_ns2: Any) -> None:
    script = SCRIPT.replace("TCP/{agent}", "TCP/Vegas").replace(
        "{extra}", "$tcp($i) set slow_start_restart_ false").replace(
        "$ns at 7.8 \"show\"\n", "").replace("show; ", "")
    both = vs_ns2(script.format(fmt=""))
    assert len(both.same("out.tr")["out.tr"].splitlines()) > 1000
