"""A C++-bound variable set to text without a number at its start holds 0, as tclcl's
strtod / atoi give it (ns-2.35's `bind`, `bind_time`, `bind_bw`, `bind_bool`), and ns-2 runs
on with it: ns-2.35's test-suite-tcp-init-win-full writes `$errmodel set offset_ n`. And
ErrorModel/Periodic in packets as `PeriodicErrorModel::corrupt` counts: `int(offset_)`,
`int(period_)`, and `cnt_ < burstlen_` after the first drop (ceil(burstlen_) in a row).
Live against ns-2.35."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms DropTail
set tcp [new Agent/TCP/Reno]
$tcp set fid_ 1
$tcp set window_ 10
set sink [new Agent/TCPSink]
$ns attach-agent $n0 $tcp
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set em [new ErrorModule Fid]
[$ns link $n0 $n1] errormodule $em
set m [new ErrorModel/Periodic]
$m unit pkt
@SETS@
$em insert $m
$em bind $m 1
puts "[$m set offset_] [$m set period_] [$m set burstlen_]"
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$ftp produce 60"
$ns at 3.0 {close $tr; exit 0}
$ns run
"""


@pytest.mark.parametrize("sets,drops", [
    # No number: offset_ 0, so the model drops the first packet it sees.
    ("$m set offset_ n\n$m set period_ 1000", 1),
    # int(offset_) 7, int(period_) 20, and burstlen_ 1.5: two in a row each time.
    ("$m set offset_ 7.9\n$m set period_ 20.7\n$m set burstlen_ 1.5", 6),
])
def test_periodic_model_values_as_ns2(vs_ns2: Any, sets: str, drops: int) -> None:
    both = vs_ns2(SCRIPT.replace("@SETS@", sets))
    lines = both.same("out.tr")["out.tr"].splitlines()
    assert sum(line.startswith("d ") for line in lines) >= drops


def test_a_bound_variable_without_a_number_reads_0_as_ns2(vs_ns2: Any) -> None:
    script = """
    set ns [new Simulator]
    set t [new Agent/TCP]
    $t set window_ abc
    Agent/TCPSink/DelAck set interval_ zz
    set s [new Agent/TCPSink/DelAck]
    set c [new Application/Traffic/CBR]
    $c set rate_ none
    puts "[$t set window_] [$s set interval_] [$c set rate_]"
    """
    both = vs_ns2(script)
    assert both.ns.code == 0 and both.ac.code == 0, both.ac.err
    assert both.ac.out == both.ns.out == "0 0 0\n"
