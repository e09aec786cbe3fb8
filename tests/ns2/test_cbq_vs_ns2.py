"""Class-based queueing links (ns-2.35 queue/cbq.cc, tcl/lib/ns-queue.tcl's CBQLink and
CBQClass; docs/models/cbq.md) against ns-2: a small tree on a CBQ or CBQ/WRR link, fed by
CBRs that start and stop, under each link-sharing guideline; what each flow id got across the
link per interval (a flow monitor's bdepartures_), the mean delay of its packets there
(get-delay-samples) and, with `newallot`, the shares changing during the run."""

from __future__ import annotations

import pytest

SCRIPT = """
set ns [new Simulator]
%(pre)s
foreach i {0 1 2 3} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(2) 10Mb 2ms DropTail
$ns duplex-link $n(1) $n(2) 10Mb 3ms DropTail
$ns simplex-link $n(2) $n(3) 1Mb 4ms %(link)s
$ns simplex-link $n(3) $n(2) 1Mb 4ms DropTail
set lk [$ns link $n(2) $n(3)]

set root [new CBQClass]
$root setparams none 0 %(rootallot)s %(rootidle)s 8 %(rootlevel)s 0
set mid [new CBQClass]
$mid setparams $root 1 0.6 auto 8 2 0
set a [new CBQClass]
$a setparams %(aparent)s %(aborrow)s 0.25 auto 1 1 %(axdelay)s
set b [new CBQClass]
$b setparams %(bparent)s true 0.35 auto 2 1 0
set c [new CBQClass]
$c setparams $root 1 0.4 auto 2 1 0
foreach cl [list $a $b $c] lim {15 25 30} {
    set q [new Queue/DropTail]
    $q set limit_ $lim
    $cl install-queue $q
}
foreach cl [list $root $mid $a $b $c] { $lk insert $cl }
$lk bind $a 7
$lk bind $b 8 9
$lk bind $c 5

set fm [$ns makeflowmon Fid]
$ns attach-fmon $lk $fm
[$lk queue] algorithm %(alg)s

set i 0
foreach src {0 1 1 0} fid {7 8 9 5} size {210 600 400 1000} rate {400k 500k 300k 700k} {
    set u($i) [new Agent/UDP]
    $u($i) set fid_ $fid
    $ns attach-agent $n($src) $u($i)
    set s($i) [new Agent/Null]
    $ns attach-agent $n(3) $s($i)
    $ns connect $u($i) $s($i)
    set g($i) [new Application/Traffic/CBR]
    $g($i) attach-agent $u($i)
    $g($i) set packetSize_ $size
    $g($i) set rate_ $rate
    $g($i) set random_ %(random)s
    incr i
}
$ns at 0.0 "$g(0) start; $g(1) start; $g(3) start"
$ns at 0.7 "$g(2) start"
$ns at 1.3 "$g(0) stop"
$ns at 1.9 "$g(0) start; $g(3) stop"
$ns at 2.6 "$g(3) start"
%(extra)s
set out [open out.txt w]
set last(5) 0; set last(7) 0; set last(8) 0; set last(9) 0
proc dump {} {
    global ns fm out last
    set cl [$fm classifier]
    foreach fid {5 7 8 9} {
        set f [$cl lookup auto 0 0 $fid]
        if {$f != ""} {
            set bd [$f set bdepartures_]
            puts $out "[$ns now] $fid [expr $bd - $last($fid)] [$f set pdrops_]"
            set last($fid) $bd
        }
    }
    $ns at [expr [$ns now] + 0.25] dump
}
proc delays {} {
    global ns fm out
    set cl [$fm classifier]
    foreach fid {5 7 8 9} {
        set f [$cl lookup auto 0 0 $fid]
        if {$f != ""} { puts $out "delay $fid [[$f get-delay-samples] mean]" }
    }
}
$ns at 0.0 dump
$ns at 3.4 delays
$ns at 3.5 {close $out; exit 0}
$ns run
"""

BASE = {"link": "CBQ", "rootallot": "0.98", "rootidle": "auto", "rootlevel": "3",
        "aparent": "$mid", "aborrow": "true", "axdelay": "0", "bparent": "$mid",
        "alg": "formal", "extra": "", "random": "1", "pre": ""}


def run(vs_ns2, *files: str, **over: str) -> list[str]:
    both = vs_ns2(SCRIPT % {**BASE, **over})
    want = both.same("out.txt", *files)["out.txt"].splitlines()
    return want


@pytest.mark.parametrize("alg", ["ancestor-only", "top-level", "formal"])
@pytest.mark.parametrize("link", ["CBQ", "CBQ/WRR"])
def test_guidelines_and_schedulers_as_ns2(vs_ns2, link: str, alg: str) -> None:
    want = run(vs_ns2, link=link, alg=alg)
    # The link is overloaded (1.9 Mb/s offered on 1 Mb/s): the leaves' drops are compared.
    drops = [int(line.split()[3]) for line in want if not line.startswith("delay")]
    assert max(drops) > 0


@pytest.mark.parametrize("alg", ["top-level", "formal"])
@pytest.mark.parametrize("link", ["CBQ", "CBQ/WRR"])
def test_ties_of_an_exact_grid_as_ns2(vs_ns2, link: str, alg: str) -> None:
    """CBRs without jitter: arrivals meet the ends of transmissions in one picosecond, which
    ns-2 orders by its doubles; the CBQ link keeps that clock (net/link/ns2_held.rs) and
    dequeues in a delay-0 event of its own (CBQueue::sched), its estimator on ns-2's time.
    The packet trace, line for line."""
    run(vs_ns2, "all.tr", link=link, random="0", alg=alg,
        pre="set tr [open all.tr w]; $ns trace-all $tr")


def test_leaf_that_may_not_borrow_and_extradelay_as_ns2(vs_ns2) -> None:
    run(vs_ns2, aborrow="false", axdelay="0.03", rootidle="0.004")


def test_two_level_tree_without_middle_class_as_ns2(vs_ns2) -> None:
    # a and b straight under the root (the root at level 3 all the same, as given).
    run(vs_ns2, aparent="$root", bparent="$root", rootallot="1.0", alg="top-level")


@pytest.mark.parametrize("link", ["CBQ", "CBQ/WRR"])
def test_newallot_during_the_run_as_ns2(vs_ns2, link: str) -> None:
    extra = ('$ns at 1.0 "$a newallot 0.05; $c newallot 0.7"\n'
             '$ns at 2.2 "$b newallot 0.6; $c newallot 0.1"')
    run(vs_ns2, link=link, extra=extra)


TIE = """
set ns [new Simulator]
set tr [open all.tr w]
$ns trace-all $tr
foreach i {0 1 2 3} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(2) 10Mb 2ms DropTail
$ns duplex-link $n(1) $n(2) 10Mb 2ms DropTail
$ns simplex-link $n(2) $n(3) 1Mb 4ms %(link)s
$ns simplex-link $n(3) $n(2) 1Mb 4ms DropTail
set lk [$ns link $n(2) $n(3)]
set root [new CBQClass]
$root setparams none 0 1.0 auto 8 2 0
set hi [new CBQClass]
$hi setparams $root true 0.5 auto 1 1 0
set lo [new CBQClass]
$lo setparams $root true 0.5 auto 2 1 0
foreach cl [list $hi $lo] {
    set q [new Queue/DropTail]
    $q set limit_ 20
    $cl install-queue $q
}
foreach cl [list $root $hi $lo] { $lk insert $cl }
$lk bind $hi 1
$lk bind $lo 2
[$lk queue] algorithm formal
foreach src {0 1} fid {2 1} {
    set u($fid) [new Agent/UDP]
    $u($fid) set fid_ $fid
    $ns attach-agent $n($src) $u($fid)
    set s($fid) [new Agent/Null]
    $ns attach-agent $n(3) $s($fid)
    $ns connect $u($fid) $s($fid)
    set g($fid) [new Application/Traffic/CBR]
    $g($fid) attach-agent $u($fid)
    $g($fid) set packetSize_ 1000
    $g($fid) set interval_ 0.02
}
$ns at 0.0 "$g(2) start; $g(1) start"
$ns at 0.3 {close $tr; exit 0}
$ns run
"""


@pytest.mark.parametrize("link", ["CBQ", "CBQ/WRR"])
def test_simultaneous_arrivals_at_an_idle_cbq_as_ns2(vs_ns2, link: str) -> None:
    """Two packets reach the idle CBQ link in one instant, the lower priority's first: ns-2's
    `CBQClass::recv` dequeues in a resume of delay 0 (`CBQueue::sched`), after both arrivals,
    so the higher priority's packet goes first; dequeuing at the first arrival would send the
    other. The packet trace, line for line."""
    both = vs_ns2(TIE % {"link": link})
    trace = both.same("all.tr")["all.tr"].splitlines()
    first = [line for line in trace if line.startswith("- ") and " 2 3 " in line][:2]
    assert [line.split()[7] for line in first] == ["1", "2"]
