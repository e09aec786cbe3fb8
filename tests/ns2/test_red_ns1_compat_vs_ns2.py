"""ns-2.35's `Queue/RED` with `ns1_compat_ true` (queue/red.cc, `REDQueue::enque`): a forced
drop leaves the count of packets since the last early drop as it is, where ns-2's default
(Philip Liu's fix) restarts it, so the next early drop comes sooner. The tcp-init-win suite's
Tahoe, Reno, Newreno and Sack tests set it. Live against ns-2.35: the packet trace must be
identical with and without it, and ns-2's two traces must differ (so that ignoring the
variable cannot pass)."""

from __future__ import annotations

from typing import Any

# Two Reno flows into a 1.5 Mb/s RED bottleneck of 10 packets for 5 s, max_p 1/3 between 2
# and 20 packets: forced drops while the average is between the thresholds.
SCRIPT = """
    Queue/RED set bytes_ false
    Queue/RED set queue_in_bytes_ false
    Queue/RED set q_weight_ 0.1
    Queue/RED set thresh_ 3
    Queue/RED set maxthresh_ 20
    Queue/RED set linterm_ 3
    COMPAT
    set ns [new Simulator]
    set tf [open out.tr w]
    $ns trace-all $tf
    set n0 [$ns node]
    set n1 [$ns node]
    set r1 [$ns node]
    set r2 [$ns node]
    $ns duplex-link $n0 $r1 10Mb 2ms DropTail
    $ns duplex-link $n1 $r1 10Mb 3ms DropTail
    $ns duplex-link $r1 $r2 1.5Mb 20ms RED
    $ns queue-limit $r1 $r2 10
    foreach {n fid start} [list $n0 0 0.0 $n1 1 0.3] {
        set tcp [$ns create-connection TCP/Reno $n TCPSink $r2 $fid]
        $tcp set window_ 40
        set ftp [$tcp attach-app FTP]
        $ns at $start "$ftp start"
    }
    $ns at 5.0 "close $tf; exit 0"
    $ns run
"""


def test_red_ns1_compat_as_ns2(vs_ns2: Any) -> None:
    compat = vs_ns2(SCRIPT.replace("COMPAT", "Queue/RED set ns1_compat_ true")).same("out.tr")
    default = vs_ns2(SCRIPT.replace("COMPAT", "")).same("out.tr")
    assert compat["out.tr"] != default["out.tr"]
