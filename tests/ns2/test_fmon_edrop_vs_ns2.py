"""A flow monitor attached with early-drop support (ns-2.35's `Simulator instproc attach-fmon
$link $fmon 1`): the link's RED queue hands its early drops to their own target
(`early-drop-target`, REDQueue::enque's `de_drop_`), where the monitor counts them as drops
and apart (EDQueueMonitor::edrop: `epdrops_`, `ebdrops_`, FlowMon::fformat's fields 10, 11,
14 and 15); the link's trace shows them as drops all the same (trace-all gives RED an
early-drop trace of type Drop: Queue/RED instproc attach-traces). Live against ns-2.35: the
packet trace, the monitor's dumps and the counters printed must be identical."""

from __future__ import annotations

from typing import Any

import pytest

# Two Reno flows and a CBR into a 1.5 Mb/s RED bottleneck; the monitor dumped every second,
# its counters and the flows' printed and reset each time.
SCRIPT = """
    Queue/RED set gentle_ false
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
    $ns queue-limit $r1 $r2 25
    set fm [$ns makeflowmon Fid]
    set ff [open flows.txt w]
    $fm attach $ff
    $ns attach-fmon [$ns link $r1 $r2] $fm EDROP
    foreach {n fid start} [list $n0 1 0.0 $n1 2 0.3] {
        set tcp [$ns create-connection TCP/Reno $n TCPSink $r2 $fid]
        $tcp set window_ 100
        set ftp [$tcp attach-app FTP]
        $ns at $start "$ftp start"
    }
    set udp [new Agent/UDP]
    $udp set fid_ 3
    $ns attach-agent $n1 $udp
    set null [new Agent/Null]
    $ns attach-agent $r2 $null
    $ns connect $udp $null
    set cbr [new Application/Traffic/CBR]
    $cbr attach-agent $udp
    $cbr set packetSize_ 190
    $cbr set rate_ 500kb
    $ns at 0.5 "$cbr start"
    proc dump {} {
        global ns fm
        $fm dump
        puts "[$ns now] [$fm set epdrops_] [$fm set ebdrops_] [$fm set pdrops_]"
        foreach f [$fm flows] {
            puts "  [$f set flowid_] [$f set epdrops_] [$f set ebdrops_] [$f set pdrops_]"
            $f reset
        }
        $fm reset
        $ns at [expr [$ns now] + 1.0] dump
    }
    $ns at 1.0 dump
    $ns at 5.5 "close $tf; close $ff; exit 0"
    $ns run
"""


@pytest.mark.parametrize("edrop", ["1", "0"])
def test_early_drops_counted_apart_and_untraced(vs_ns2: Any, edrop: str) -> None:
    both = vs_ns2(SCRIPT.replace("EDROP", edrop))
    want = both.same("out.tr", "flows.txt")
    # The case must show what it tests: RED dropped early, and (edrop 1 only) the monitor
    # counted those drops apart.
    early = sum(int(line.split()[1]) for line in both.ns.out.splitlines()
                if not line.startswith(" "))
    drops = sum(1 for line in want["out.tr"].splitlines() if line.startswith("d "))
    assert early > 10 if edrop == "1" else early == 0
    assert drops > early
