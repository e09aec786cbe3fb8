"""ns-2's on-off sources (Application/Traffic/Exponential and /Pareto) run against ns-2.35:
their bursts and silences come from ns-2's default generator, in event order with the
script's own draws, and their sends are on ns-2's clock (traffic::ns2_onoff)."""

from __future__ import annotations

from collections.abc import Callable

from conftest import Both

# Three sources into loss monitors over a shared 1 Mb/s link, their rates recorded every
# 0.5 s by a Tcl procedure, as ns-2's tutorials do; one draws a number of its own first, so
# the sources' draws interleave with the script's.
SCRIPT = """
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set rates [open rates.txt w]
set hub [$ns node]
set dst [$ns node]
$ns duplex-link $hub $dst 1Mb 20ms DropTail
$ns queue-limit $hub $dst 20
proc source {kind size burst idle rate} {
    global ns hub dst
    set n [$ns node]
    $ns duplex-link $n $hub 10Mb 5ms DropTail
    set udp [new Agent/UDP]
    $ns attach-agent $n $udp
    set sink [new Agent/LossMonitor]
    $ns attach-agent $dst $sink
    $ns connect $udp $sink
    set app [new Application/Traffic/$kind]
    $app set packetSize_ $size
    $app set burst_time_ $burst
    $app set idle_time_ $idle
    $app set rate_ $rate
    $app attach-agent $udp
    return [list $app $sink]
}
set a [source Exponential 200 500ms 0.3 400k]
set b [source Pareto 500 250ms 250ms 600k]
set c [source Exponential 1000 1s 2s 900k]
set jitter [expr [ns-random] % 7]
proc record {} {
    global ns a b c rates
    set now [$ns now]
    set line $now
    foreach s [list $a $b $c] {
        set m [lindex $s 1]
        append line " [$m set bytes_] [$m set npkts_]"
        $m set bytes_ 0
    }
    puts $rates $line
    $ns at [expr $now + 0.5] record
}
$ns at 0.0 record
foreach s [list $a $b $c] t {1.0 1.0 2.5} {
    $ns at $t "[lindex $s 0] start"
}
$ns at 12.0 "[lindex $b 0] stop"
$ns at 20.0 "finish"
proc finish {} {
    global ns tf rates
    $ns flush-trace
    close $tf
    close $rates
    puts "draws now: [ns-random]"
    exit 0
}
$ns run
"""


def test_exponential_and_pareto_sources_send_as_in_ns2(
        vs_ns2: Callable[..., Both]) -> None:
    ns = vs_ns2(SCRIPT).same("rates.txt", "out.tr")
    trace = ns["out.tr"].splitlines()
    # The mechanism shows: exp and pareto packets, silences longer than an interval, drops.
    assert sum(" exp " in x for x in trace) > 500
    assert sum(" pareto " in x for x in trace) > 500
    assert sum(x.startswith("d ") for x in trace) > 10
    busy = [line.split() for line in ns["rates.txt"].splitlines()]
    assert any(int(f[1]) == 0 for f in busy[4:]) and any(int(f[1]) > 0 for f in busy[4:])
