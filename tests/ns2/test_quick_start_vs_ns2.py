"""Quick-Start (RFC 4782) as ns-2.35 has it (docs/quick-start.md): `$ns node-config -QS ON`
gives the nodes an `Agent/QSAgent`, `Agent/TCP`'s `qs_enabled_` and `rate_request_` make the
request, the sink echoes it, and an approved rate paces the first window: live against
ns-2.35, packet trace, `print_request_`'s lines and a flow monitor's `qs_pkts_`."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
Queue set util_weight_ 2
Agent/QSAgent set alloc_rate_ {alloc}
Agent/QSAgent set algorithm_ {algorithm}
Agent/QSAgent set rate_function_ {rate_function}
Agent/TCP set qs_enabled_ true
Agent/TCP set qs_request_mode_ {mode}
Agent/TCP set print_request_ true
Agent/TCPSink set qs_enabled_ true
$ns node-config -QS ON
set a [$ns node]
set r [$ns node]
set b [$ns node]
$ns duplex-link $a $r 100Mb 5ms DropTail
$ns duplex-link $r $b 8Mb 150ms DropTail
$ns queue-limit $r $b 200
{setup}
set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $r $b] $fmon
proc report {{}} {{
    global fmon
    foreach fid {{1 2}} {{
        set f [[$fmon classifier] lookup auto 0 0 $fid]
        if {{$f != ""}} {{
            puts "$fid [$f set pdepartures_] [$f set qs_pkts_] [$f set qs_bytes_]"
        }}
    }}
}}
set t1 [$ns create-connection {sender} $a {sink} $b 1]
$t1 set window_ 500
$t1 set rate_request_ {rate}
set f1 [new Application/FTP]
$f1 attach-agent $t1
$ns at 0.5 "$f1 produce 120"
set t2 [$ns create-connection TCP/Newreno $a TCPSink $b 2]
$t2 set window_ 500
$t2 set rate_request_ 300
set f2 [new Application/FTP]
$f2 attach-agent $t2
$ns at 0.8 "$f2 produce 60"
$ns at 4.0 "report; $ns flush-trace; close $tr; exit 0"
$ns run
"""


LOSSES = """
set em [new ErrorModule Fid]
[$ns link $a $r] errormodule $em
foreach {fid pkts} {1 {7 8} 2 {5}} {
    set m [new ErrorModel/List]
    $m droplist $pkts
    $em insert $m
    $em bind $m $fid
}
$em default pass
"""


@pytest.mark.parametrize(("sender", "sink", "alloc", "algorithm", "rate_function", "mode",
                          "rate", "setup"), [
    # Two requests through routers that allocate half the bandwidth (algorithm 3), the
    # second counted against the first's approval.
    ("TCP/Newreno", "TCPSink", 0.5, 3, 2, 0, 400, ""),
    # Sack1 (paced by cwnd_), linear rates, the request sized by the data (mode 1).
    ("TCP/Sack1", "TCPSink/Sack1", 0.8, 3, 1, 1, 2000, ""),
    # Algorithm 1 (the unused bandwidth, max_rate_) and plain TCP (Tahoe).
    ("TCP", "TCPSink", 0.3, 1, 1, 0, 600, ""),
    # A router that does not take part: every request is ignored.
    ("TCP/Reno", "TCPSink", 0.5, 3, 2, 0, 400, "[$r qs-agent] set qs_enabled_ 0"),
    # Losses in the Quick-Start window (lossQuickStart, tcp_qs_recovery_), from one
    # ErrorModule with a list bound to each flow id (ErrorModule::recv: each flow's packets
    # to its own model, numbered as they reach it).
    ("TCP/Sack1", "TCPSink/Sack1", 0.5, 3, 2, 0, 400, LOSSES),
    ("TCP/Newreno", "TCPSink", 0.5, 3, 2, 0, 400, LOSSES),
])
def test_quick_start_as_ns2(vs_ns2: Any, sender: str, sink: str, alloc: float,
                            algorithm: int, rate_function: int, mode: int, rate: int,
                            setup: str) -> None:
    both = vs_ns2(SCRIPT.format(sender=sender, sink=sink, alloc=alloc, algorithm=algorithm,
                                rate_function=rate_function, mode=mode, rate=rate,
                                setup=setup))
    both.same("out.tr")
    out = both.ns.out
    assert "QS request (before encoding)" in out
    approved = "Quick Start request, window" in out
    assert approved == ("qs_enabled_ 0" not in setup), out
    # The flow monitor counted the paced segments of an approved request.
    qs_pkts = [int(line.split()[2]) for line in out.splitlines() if line[:2] in ("1 ", "2 ")]
    assert (max(qs_pkts) > 0) == approved, out
