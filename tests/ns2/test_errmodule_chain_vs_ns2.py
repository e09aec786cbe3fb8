"""Several ErrorModules on one link (ns-2.35 tcl/lib/ns-link.tcl, `SimpleLink::errormodule`:
each goes to the link's head, `Link::add-to-head`, ahead of those placed before). A packet meets
the one placed last first; each model counts only what reaches it (`ListErrorModel::corrupt`'s
`cnt_`), and what one delays (`delay_pkt_`) goes on to the next one later (`ErrorModel::recv`
schedules it to its target). Live against ns-2.35, and the suites' tests that place two."""

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
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 20
set tcp [new Agent/TCP/{agent}]
$tcp set fid_ 1
$tcp set window_ 20
set sink [new Agent/{sink}]
$ns attach-agent $n0 $tcp
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
proc module {{link list delay}} {{
    set em [new ErrorModule Fid]
    set m [new ErrorModel/List]
    if {{$delay > 0}} {{
        $m set delay_pkt_ true
        $m set delay_ $delay
    }}
    $m droplist $list
    $link errormodule $em
    $em insert $m
    $em bind $m 1
}}
{modules}
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$ftp produce 120"
$ns at 8.0 "$ns flush-trace; close $tr; exit 0"
$ns run
"""


@pytest.mark.parametrize(("agent", "sink", "modules"), [
    # The second placed drops the data packet numbered 7; the first delays what reaches it as
    # 7..10, which are the sender's 8..11 (sack's FalsePipe1 with other numbers).
    ("Sack1", "TCPSink/Sack1",
     "module [$ns link $n1 $n2] {7 8 9 10} 0.3\nmodule [$ns link $n1 $n2] {7} 0"),
    # The second placed delays 12 by 0.25 s: the first numbers it after those that passed it
    # meanwhile, and drops its own 14 and 30.
    ("Newreno", "TCPSink",
     "module [$ns link $n1 $n2] {14 30} 0\nmodule [$ns link $n1 $n2] {12} 0.25"),
    # On the ACKs' path: delays, each model numbering the ACKs it sees (tcpOptions' maxburst_).
    ("Reno", "TCPSink",
     "module [$ns link $n2 $n1] {8 9 10} 50\nmodule [$ns link $n2 $n1] {13} 0.02"),
])
def test_two_modules_on_a_link_as_ns2(vs_ns2: Any, agent: str, sink: str,
                                      modules: str) -> None:
    both = vs_ns2(SCRIPT.format(agent=agent, sink=sink, modules=modules))
    lines = both.same("out.tr")["out.tr"].splitlines()
    # A module that drops (delay 0) writes its drops to the link's trace.
    drops = any(line.startswith("d ") for line in lines)
    assert drops == any(m.endswith(" 0") for m in modules.splitlines())


def test_the_suites_tests_with_two_modules_on_a_link(suite_states: Any) -> None:
    assert suite_states("links", {"delayPacket1"}) == {"delayPacket1": ("identical", "")}
    assert suite_states("sack", {"FalsePipe1"}) == {"FalsePipe1": ("identical", "")}
