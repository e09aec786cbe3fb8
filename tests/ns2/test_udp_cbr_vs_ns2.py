"""A CBR over UDP as ns-2.35 runs it, against ns-2 itself: ``interval_`` given with a unit
(ns-source.tcl's CBR ``set`` takes it through delay_parse) and ``random_ 1`` (each gap's
jitter drawn from ns-2's default generator, tools/cbr_traffic.cc ``next_interval``)."""

from __future__ import annotations

HEAD = """
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set a [$ns node]; set b [$ns node]; set c [$ns node]
$ns duplex-link $a $b 10Mb 1ms DropTail
$ns duplex-link $b $c 1Mb 5ms DropTail
$ns queue-limit $b $c 10
"""

SOURCES = """
foreach i {0 1 2} iv {%s} {
    set u($i) [new Agent/UDP]; $u($i) set fid_ $i
    $ns attach-agent $a $u($i)
    set n($i) [new Agent/Null]; $ns attach-agent $c $n($i); $ns connect $u($i) $n($i)
    set cbr($i) [new Application/Traffic/CBR]; $cbr($i) attach-agent $u($i)
    $cbr($i) set packetSize_ 250
    $cbr($i) set interval_ $iv
    $cbr($i) set random_ %d
    $ns at 0.0 "$cbr($i) start"
}
puts "[$cbr(0) set interval_] [$cbr(0) set rate_]"
$ns at 0.5 "$cbr(1) stop"
$ns at 1.0 {close $f; exit 0}
$ns run
"""


def test_an_interval_with_a_unit_is_parsed_as_ns2_does(vs_ns2):
    both = vs_ns2(HEAD + SOURCES % ("20ms 4ms 2.5ms", 0))
    both.same("out.tr")
    assert both.ac.out.split() == ["0.02", "100000"]


def test_jittered_cbrs_draw_ns2s_numbers(vs_ns2):
    want = vs_ns2(HEAD + SOURCES % ("20ms 4ms 2.5ms", 1)).same("out.tr")["out.tr"]
    # the jitter moved the sends off the 2.5 ms grid
    starts = [float(line.split()[1]) for line in want.splitlines()
              if line.startswith("+ ") and " 0 1 " in line and line.split()[8] == "0.2"]
    assert len({round(t % 0.0025, 6) for t in starts}) > 3


def test_jitter_with_script_draws_in_between(vs_ns2):
    # the script draws from the default generator during the run: the CBRs' draws follow
    # in event order
    script = HEAD + SOURCES % ("5ms 7ms 3ms", 1)
    script = script.replace('$ns at 0.5 "$cbr(1) stop"',
                            '$ns at 0.5 "$cbr(1) stop"\n'
                            '$ns at 0.25 {puts [$defaultRNG uniform 0 1]}')
    vs_ns2(script).same("out.tr")
