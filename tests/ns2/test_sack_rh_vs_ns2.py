"""`Agent/TCP/SackRH` (ns-2.35 tcp/tcp-sack-rh.cc, `SackRHTcpAgent`: TCP SACK with
Rate-Halving, the engine's `sack_rh` variant) live against ns-2.35 on its own script: one
flow through a small DropTail queue and a periodic cross traffic, losses in several windows
(rate-halving's exact and estimated adjustments, timeouts), and tcpVariants' four sackRH
tests."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n3 $n1 10Mb 3ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
$ns queue-limit $n1 $n2 @QLIM@
set tcp [new Agent/TCP/SackRH]
$tcp set window_ 40
set sink [new Agent/@SINK@]
$ns attach-agent $n0 $tcp
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set udp [new Agent/UDP]
$ns attach-agent $n3 $udp
set null [new Agent/Null]
$ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set interval_ 0.006
$cbr attach-agent $udp
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$ftp start"
$ns at 0.3 "$cbr start"
$ns at 6.0 {puts "[$tcp set cwnd_] [$tcp set ssthresh_]"; close $tr; exit 0}
$ns run
"""


@pytest.mark.parametrize("sink,qlim", [("TCPSink/Sack1", 10), ("TCPSink/Sack1", 6),
                                       ("TCPSink", 10), ("TCPSink/Sack1/DelAck", 8)])
def test_sack_rh_as_ns2(vs_ns2: Any, sink: str, qlim: int) -> None:
    both = vs_ns2(SCRIPT.replace("@SINK@", sink).replace("@QLIM@", str(qlim)))
    lines = both.same("out.tr")["out.tr"].splitlines()
    assert sum(line.startswith("d ") and " tcp " in line for line in lines) > 3


def test_tcp_variants_sack_rh_as_ns2(suite_states: Any) -> None:
    tests = {"onedrop_sackRH", "twodrops_sackRH", "threedrops_sackRH", "fourdrops_sackRH"}
    assert suite_states("tcpVariants", tests) == dict.fromkeys(tests, ("identical", ""))
