"""ns-2.35's average window `awnd_` (TcpAgent::newack, the engine's `TcpSender::ns2_awnd`):
windowInit_ / 2 at the start, then an exponentially weighted average of cwnd_ (gain
windowThresh_ 0.002) on every ACK that reaches newack, which NewReno's and Sack1's partial ACKs
do not. Live against ns-2.35: the printed awnd_ (and cwnd_) must be identical, sampled every 10
ms (off the packets' instants), for each one-way agent, through two drops in one window (partial
ACKs) and a third later."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
    set ns [new Simulator]
    set n0 [$ns node]
    set n1 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 10ms DropTail
    set tcp [new Agent/TCP{agent}]
    set sink [new Agent/TCPSink{sink}]
    $tcp set window_ 40
    $tcp set fid_ 1
    $ns attach-agent $n0 $tcp
    $ns attach-agent $n1 $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    set em [new ErrorModule Fid]
    [$ns link $n0 $n1] errormodule $em
    set m [new ErrorModel/List]
    $m droplist {{20 25 60}}
    $em insert $m
    $em bind $m 1
    set f [open awnd.tr w]
    proc sample {{}} {{
        global ns tcp f
        puts $f "[$ns now] [$tcp set awnd_] [$tcp set cwnd_]"
        $ns at [expr {{[$ns now] + 0.01}}] sample
    }}
    $ns at 0.0051 sample
    $ns at 0 "$ftp start"
    $ns at 2 {{close $f; exit 0}}
    $ns run
"""


@pytest.mark.parametrize(("agent", "sink"), [("", ""), ("/Reno", ""), ("/Newreno", ""),
                                             ("/Sack1", "/Sack1")])
def test_awnd_is_ns2s_average_window(vs_ns2: Any, agent: str, sink: str) -> None:
    want = vs_ns2(SCRIPT.format(agent=agent, sink=sink)).same("awnd.tr")
    values = [line.split()[1] for line in want["awnd.tr"].splitlines()]
    assert values[0] == "1" and len(set(values)) > 100  # windowInit_ 2 / 2, then the average
