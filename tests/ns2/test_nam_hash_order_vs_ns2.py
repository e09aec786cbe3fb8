"""The colour, node and queue-position lines of a nam trace in ns-2.35's order: ns-namsupp.tcl
writes them by walking the Simulator's arrays (`array names color_`, `Node_`, `link_`), so
they come in Tcl's hash-table order, not in the order the script made them (six nodes are
listed 4 0 5 1 2 3). Against ns-2."""

from __future__ import annotations

SCRIPT = """
set ns [new Simulator]
set nf [open out.nam w]
$ns namtrace-all $nf
foreach c {3 1 7 2 12 5} { $ns color $c green }
$ns color 1 red
for {set i 0} {$i < %d} {incr i} { set n($i) [$ns node] }
$n(0) shape box
$n(0) color blue
for {set i 1} {$i < %d} {incr i} {
    $ns duplex-link $n(0) $n($i) 1Mb 10ms DropTail
    $ns duplex-link-op $n(0) $n($i) queuePos 0.5
}
set u [new Agent/UDP]; $ns attach-agent $n(1) $u
set z [new Agent/Null]; $ns attach-agent $n(2) $z; $ns connect $u $z
set c [new Application/Traffic/CBR]; $c attach-agent $u
$ns at 0.1 "$c start"
$ns at 0.2 {close $nf; exit 0}
$ns run
"""


def lines(nam: str, kind: str) -> list[str]:
    return [line for line in nam.splitlines() if line.startswith(kind + " -t *")]


def test_six_nodes_in_tcls_order(vs_ns2):
    nam = vs_ns2(SCRIPT % (6, 6)).same("out.nam")["out.nam"]
    assert [line.split()[4] for line in lines(nam, "n")] == ["4", "0", "5", "1", "2", "3"]
    assert len(lines(nam, "c")) == 6 and len(lines(nam, "q")) == 10


def test_forty_nodes_in_tcls_order(vs_ns2):
    nam = vs_ns2(SCRIPT % (40, 40)).same("out.nam")["out.nam"]
    ids = [int(line.split()[4]) for line in lines(nam, "n")]
    assert sorted(ids) == list(range(40)) and ids != sorted(ids)
