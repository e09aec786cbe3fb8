"""`noFastRetrans_` (ns-2.35 tcp/tcp.cc, `TcpAgent::recv`: `++dupacks_ == numdupacks_ &&
!noFastRetrans_`): Agent/TCP (Tahoe) counts the duplicates but does not retransmit at the
threshold, so only its timeout recovers; Reno's own `recv` never reads it. Live against
ns-2.35, on two drops of one flow."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
Agent/TCP set noFastRetrans_ @NOFR@
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
set tcp [new Agent/@AGENT@]
$tcp set window_ 20
$tcp set fid_ 1
set sink [new Agent/TCPSink]
$ns attach-agent $n0 $tcp
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set em [new ErrorModule Fid]
[$ns link $n1 $n2] errormodule $em
set m [new ErrorModel/List]
$m droplist {14 31}
$em insert $m
$em bind $m 1
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$ftp produce 120"
$ns at 4.0 {puts "[$tcp set nrexmitpack_] [$tcp set nrexmit_]"; close $tr; exit 0}
$ns run
"""


@pytest.mark.parametrize("agent", ["TCP", "TCP/Reno"])
def test_no_fast_retrans_as_ns2(vs_ns2: Any, agent: str) -> None:
    texts = {}
    for nofr in ("true", "false"):
        both = vs_ns2(SCRIPT.replace("@NOFR@", nofr).replace("@AGENT@", agent))
        texts[nofr] = both.same("out.tr")["out.tr"]
        assert both.ac.out == both.ns.out
    drops = [line for line in texts["true"].splitlines() if line.startswith("d ")]
    assert len(drops) == 2
    # Tahoe waits for its timeout instead: another trace; Reno never reads the variable.
    assert (texts["true"] != texts["false"]) == (agent == "TCP")
