"""An `ErrorModel/List` placed on a link by itself (`$ns lossmodel`, `$ns link-lossmodel`),
not in an ErrorModule, as ns-2.35's rfc793edu suite places one: `ListErrorModel::corrupt`
numbers every packet crossing the link. Live against ns-2.35 where one flow's data alone
cross it (the engine's `drop_list` on that flow) or its ACKs alone (the list with `acks`);
refused in one line otherwise."""

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
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 2Mb 20ms DropTail
set lm [new ErrorModel/List]
$lm droplist {{{drops}}}
$lm drop-target [new Agent/Null]
$ns {how} $lm $n1 $n2
set tcp [new Agent/{agent}]
$tcp set window_ 24
$ns attach-agent $n0 $tcp
set sink [new Agent/{sink}]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
{second}
$ns at 3.0 "$ns flush-trace; close $tr; exit 0"
$ns run
"""

SECOND = """
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [$udp attach-app Traffic/CBR]
$ns at 0.2 "$cbr start"
"""


@pytest.mark.parametrize(("agent", "sink", "how", "drops"), [
    ("TCP", "TCPSink", "lossmodel", "20"),
    ("TCP/Reno", "TCPSink/DelAck", "link-lossmodel", "30 32"),
    ("TCP/Sack1", "TCPSink/Sack1", "lossmodel", "40 41 44"),
])
def test_a_bare_list_drops_as_ns2(vs_ns2: Any, agent: str, sink: str, how: str,
                                  drops: str) -> None:
    both = vs_ns2(SCRIPT.format(agent=agent, sink=sink, how=how, drops=drops, second=""))
    lines = both.same("out.tr")["out.tr"].splitlines()
    assert len(lines) > 1000
    # The listed packets of the link are the flow's, dropped there (n1 -> n2).
    dropped = [line.split() for line in lines if line.startswith("d ")]
    assert [d[2:4] for d in dropped] == [["1", "2"]] * len(drops.split())


def test_a_bare_list_crossed_by_two_flows_is_refused(ns2: Any) -> None:
    r = ns2(SCRIPT.format(agent="TCP", sink="TCPSink", how="lossmodel", drops="20",
                          second=SECOND))
    assert r.code == 2
    assert r.err.strip() == (
        "ackclock: error: script.tcl:12: ErrorModel/List as a link's loss model, crossed by 2"
        " flows' data and 0 flows' ACKs (only one one-way flow's data or ACKs) is not supported by"
        " ackclock yet")


@pytest.mark.parametrize(("agent", "sink", "drops"), [
    ("TCP/Reno", "TCPSink", "0"),
    ("TCP/Newreno", "TCPSink/DelAck", "5 6 7"),
    ("TCP/Sack1", "TCPSink/Sack1", "12 30"),
])
def test_a_bare_list_on_the_acks_path_drops_those_acks_as_ns2(vs_ns2: Any, agent: str,
                                                               sink: str, drops: str) -> None:
    script = SCRIPT.format(agent=agent, sink=sink, how="lossmodel", drops=drops, second="")
    both = vs_ns2(script.replace("$ns lossmodel $lm $n1 $n2", "$ns lossmodel $lm $n2 $n1"))
    lines = both.same("out.tr")["out.tr"].splitlines()
    dropped = [line.split() for line in lines if line.startswith("d ")]
    # the listed ACKs, counted from 0, lost on n2 -> n1
    assert [(d[2], d[3], d[4]) for d in dropped] == [("2", "1", "ack")] * len(drops.split())
