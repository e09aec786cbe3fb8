"""A flow monitor's dump names each flow's packet type as ns-2.35 numbers them
(common/packet.h): Exponential and Pareto on UDP, and TFRC (found through its fid_ as the
classifier finds it), against ns-2 itself."""

from __future__ import annotations

SCRIPT = """
set ns [new Simulator]
set a [$ns node]; set b [$ns node]
$ns duplex-link $a $b 1Mb 10ms DropTail
set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $a $b] $fmon
$fmon attach [open fm.out w]
foreach i {1 2} kind {Exponential Pareto} {
    set u($i) [new Agent/UDP]; $u($i) set fid_ $i
    $ns attach-agent $a $u($i)
    set n($i) [new Agent/Null]; $ns attach-agent $b $n($i); $ns connect $u($i) $n($i)
    set g($i) [new Application/Traffic/$kind]; $g($i) attach-agent $u($i)
    $ns at 0.1 "$g($i) start"
}
set tf [$ns create-connection TFRC $a TFRCSink $b 3]
set ftp [new Application/FTP]; $ftp attach-agent $tf
$ns at 0.1 "$ftp start"
$ns at 2 {
    $fmon dump
    puts "[[[$fmon classifier] lookup auto 0 0 3] set pdepartures_]"
    exit 0
}
$ns run
"""


def test_the_dump_numbers_packet_types_as_ns2(vs_ns2):
    want = vs_ns2(SCRIPT).same("fm.out")["fm.out"]
    assert sorted(line.split()[3] for line in want.splitlines()) == ["28", "29", "42"]
