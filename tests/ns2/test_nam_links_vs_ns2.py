"""The link lines of a nam trace in ns-2.35's order and direction (ns-lib.tcl,
register-nam-linkconfig; Link instproc orient): one line per node pair, the direction made
first, unless `duplex-link-op ... orient` names the pair the other way round before that
direction has an orientation (then the named direction, moved to the end). Against ns-2."""

from __future__ import annotations

SCRIPT = """
set ns [new Simulator]
set nf [open out.nam w]
$ns namtrace-all $nf
set n0 [$ns node]; set n1 [$ns node]; set n2 [$ns node]; set n3 [$ns node]
$ns duplex-link $n0 $n2 1Mb 10ms DropTail
$ns duplex-link $n1 $n2 2Mb 20ms DropTail
$ns duplex-link $n3 $n2 1Mb 10ms DropTail
$ns simplex-link $n0 $n3 3Mb 5ms DropTail
%s
set u [new Agent/UDP]; $ns attach-agent $n0 $u
set z [new Agent/Null]; $ns attach-agent $n3 $z; $ns connect $u $z
set c [new Application/Traffic/CBR]; $c attach-agent $u
$ns at 0.1 "$c start"
$ns at 0.2 {close $nf; exit 0}
$ns run
"""

OPS = """
$ns duplex-link-op $n0 $n2 orient right-down
$ns duplex-link-op $n2 $n1 orient left-down
$ns duplex-link-op $n2 $n3 orient right
$ns duplex-link-op $n2 $n3 color red
$ns simplex-link-op $n0 $n3 orient up
"""


def links(nam: str) -> list[str]:
    return [line for line in nam.splitlines() if line.startswith("l -t *")]


def test_link_lines_without_orientation(vs_ns2):
    want = vs_ns2(SCRIPT % "").same("out.nam")["out.nam"]
    assert len(links(want)) == 4


def test_orientation_turns_and_moves_a_links_line(vs_ns2):
    want = links(vs_ns2(SCRIPT % OPS).same("out.nam")["out.nam"])
    assert want[-2].startswith("l -t * -s 2 -d 3") and "-c red -o right" in want[-2]
