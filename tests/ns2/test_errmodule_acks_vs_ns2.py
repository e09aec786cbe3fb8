"""An ErrorModule bound to a one-way TCP's `fid_` on the link its ACKs cross: ns-2.35's
sink copies `fid_` into its ACKs (`TcpSink::ack`), so the module's model counts and drops
ACKs (the engine's `drop_list` with `acks`). Live against ns-2.35, as ecn-ack's synack1 does
with the SYN-ACK."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 5Mb 10ms DropTail
set tcp [new Agent/{agent}]
$tcp set fid_ 3
$tcp set window_ 20
{syn}
set sink [new Agent/{sink}]
$ns attach-agent $n0 $tcp
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set em [new ErrorModule Fid]
[$ns link $n1 $n0] errormodule $em
set m [new ErrorModel/{model}]
{setup}
$m drop-target [new Agent/Null]
$em insert $m
$em bind $m 3
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$ftp produce 200"
$ns at 6.0 "$ns flush-trace; close $tr; exit 0"
$ns run
"""


@pytest.mark.parametrize(("agent", "sink", "syn", "model", "setup"), [
    ("TCP/Reno", "TCPSink", "", "List", "$m droplist {2 3 4}"),
    ("TCP/Newreno", "TCPSink/DelAck", "", "List", "$m droplist {0 10}"),
    ("TCP/Sack1", "TCPSink/Sack1", "", "Periodic", "$m unit pkt; $m set offset_ 3;"
     " $m set period_ 25"),
])
def test_a_module_on_the_acks_path_drops_acks_as_ns2(vs_ns2: Any, agent: str, sink: str,
                                                     syn: str, model: str, setup: str) -> None:
    both = vs_ns2(SCRIPT.format(agent=agent, sink=sink, syn=syn, model=model, setup=setup))
    lines = both.same("out.tr")["out.tr"].splitlines()
    dropped = [line.split() for line in lines if line.startswith("d ")]
    assert dropped
    assert all((d[2], d[3], d[4]) == ("1", "0", "ack") for d in dropped)
