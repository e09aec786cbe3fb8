"""`$ns rtmodel Exponential|Deterministic {params} ...` against ns-2.35: links going down and
up again and again, at times from the model's intervals (Exponential's times drawn from
`$rtglibRNG`, which DV's update times share), until `finishTime_`
(python/ackclock/ns2/dynamics.py). Our own scripts: a line under static routing with two
Deterministic models (one with a finish time, one with `-` for a default), the same with two
Exponential models, and a ring under `rtproto DV` with an Exponential model and an
`rtmodel-at`."""

from __future__ import annotations

from collections.abc import Callable

from conftest import Both

DETERMINISTIC = """
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
for {set i 0} {$i < 4} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 1Mb 10ms DropTail
$ns duplex-link $n(1) $n(2) 1Mb 10ms DropTail
$ns duplex-link $n(2) $n(3) 1Mb 10ms DropTail
set udp [new Agent/UDP]
$ns attach-agent $n(0) $udp
set null [new Agent/Null]
$ns attach-agent $n(3) $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set interval_ 0.05
$cbr attach-agent $udp
$ns at 0.1 "$cbr start"
$ns rtmodel Deterministic {0.5 0.7 0.4 3.3} $n(1) $n(2)
$ns rtmodel Deterministic {- 0.25} $n(2) $n(3)
$ns at 5.0 "close $tf; exit 0"
$ns run
"""


def test_deterministic_models_go_down_and_up_until_their_finish_as_in_ns2(
        vs_ns2: Callable[..., Both]) -> None:
    trace = vs_ns2(DETERMINISTIC).same("out.tr")["out.tr"].splitlines()
    changes = [x for x in trace if x.startswith("v ")]
    # 0.5 + 0.7 down, 0.4 later up, 0.7 later down, up at 2.7; the down due at 3.4 is past
    # the finish (3.3): none. The other: 0.5 + 2 (the default up interval) down, 0.25 up...
    assert changes[0] == "v 1.2 link-down 2 1"
    assert sum("link-down 1 2" in x for x in changes) == 2
    assert "v 2.5 link-down 3 2" in changes and "v 2.75 link-up 3 2" in changes


# Under static routing: one model on a node's links, one on a link, with `-` for a default.
EXPONENTIAL_STATIC = """
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
for {set i 0} {$i < 3} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 1Mb 10ms DropTail
$ns duplex-link $n(1) $n(2) 1Mb 10ms DropTail
set udp [new Agent/UDP]
$ns attach-agent $n(0) $udp
set null [new Agent/Null]
$ns attach-agent $n(2) $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set interval_ 0.05
$cbr attach-agent $udp
$ns at 0.1 "$cbr start"
$ns rtmodel Exponential {0.1 1.0 0.5 9.0} $n(1)
$ns rtmodel Exponential {- 0.2} $n(0) $n(1)
$ns at 12.0 "close $tf; exit 0"
$ns run
"""


def test_exponential_models_draw_their_times_as_in_ns2(vs_ns2: Callable[..., Both]) -> None:
    trace = vs_ns2(EXPONENTIAL_STATIC).same("out.tr")["out.tr"].splitlines()
    downs = [float(x.split()[1]) for x in trace if x.startswith("v ") and "link-down 0 1" in x]
    assert len(downs) >= 3 and downs[0] != 0.5 + 10.0


# A ring of four under DV: a link failing at Exponential times, another by rtmodel-at.
EXPONENTIAL_DV = """
set ns [new Simulator]
$ns rtproto DV
set tf [open out.tr w]
$ns trace-all $tf
set nf [open out.nam w]
$ns namtrace-all $nf
for {set i 0} {$i < 4} {incr i} { set n($i) [$ns node] }
for {set i 0} {$i < 4} {incr i} {
    $ns duplex-link $n($i) $n([expr ($i + 1) % 4]) 1Mb 10ms DropTail
}
set udp [new Agent/UDP]
$ns attach-agent $n(0) $udp
set null [new Agent/Null]
$ns attach-agent $n(2) $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set interval_ 0.02
$cbr attach-agent $udp
$ns at 0.2 "$cbr start"
$ns rtmodel Exponential {0.1 0.3} $n(0) $n(1)
$ns rtmodel-at 2.0 down $n(2) $n(3)
$ns rtmodel-at 2.5 up $n(2) $n(3)
$ns at 8.0 "close $tf; close $nf; exit 0"
$ns run
"""


def test_an_exponential_model_under_dv_as_in_ns2(vs_ns2: Callable[..., Both]) -> None:
    want = vs_ns2(EXPONENTIAL_DV).same("out.tr", "out.nam")
    trace = want["out.tr"].splitlines()
    assert sum(" link-down 0 1" in x for x in trace) >= 2
    assert any(" rtProtoDV " in x for x in trace)
