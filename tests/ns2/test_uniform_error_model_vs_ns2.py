"""`ErrorModel/Uniform` (ns-2.35 tcl/lib/ns-errmodel.tcl: `init {rate {unit pkt}}` sets
`rate_` and the unit from its arguments), by itself on a link and bound in an ErrorModule to
the flow ids of every packet crossing it (`ErrorModule::recv` hands each packet to it, and it
draws for each as a model on the link by itself does): live against ns-2.35, and friendly's
tfrcOnlyHighLoss tests."""

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
set udp [new Agent/UDP]
$udp set fid_ 2
set null [new Agent/Null]
$ns attach-agent $n0 $udp
$ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set interval_ 0.005
$cbr attach-agent $udp
set em [new ErrorModel/Uniform 0.1 pkt]
{place}
$ns at 0.1 "$cbr start"
$ns at 3.0 "$ns flush-trace; close $tr; exit 0"
$ns run
"""


@pytest.mark.parametrize("place", [
    "$ns lossmodel $em $n1 $n2",
    "set mod [new ErrorModule Fid]\n[$ns link $n1 $n2] errormodule $mod\n$mod insert $em\n"
    "$mod bind $em 0 5\n$mod default pass",
])
def test_a_uniform_error_model_drops_as_ns2(vs_ns2: Any, place: str) -> None:
    both = vs_ns2(SCRIPT.format(place=place))
    lines = both.same("out.tr")["out.tr"].splitlines()
    drops = [line for line in lines if line.startswith("d ")]
    # About a tenth of the 580 packets: the rate came from the constructor's argument.
    assert 30 < len(drops) < 90


def test_friendly_tfrc_only_high_loss_as_ns2(suite_states: Any) -> None:
    tests = {"tfrcOnlyHighLoss", "tfrcOnlyHighLoss1"}
    assert suite_states("friendly", tests) == dict.fromkeys(tests, ("identical", ""))
