"""ns-2's global library procedures that scripts call outside any object (tcl/lib/ns-random.tcl's
`uniform`, `integer`, `exponential`; ns-lib.tcl's `warn`, `assert`, `find-max`), live against
ns-2.35; and what belongs to parts of ns-2 that ackclock does not model (satellite handoff
classes, PLM's `calc_cum`) stops with one line naming it, exit status 2, not a Tcl error."""

from __future__ import annotations

from typing import Any

SCRIPT = """
    set ns [new Simulator]
    $defaultRNG seed 17
    puts "[uniform 0 10] [integer 100] [exponential] [exponential 2.5]"
    puts "[$defaultRNG uniform 1 2] [uniform -3 3]"
    puts "[find-max {3 9.5 -2 7}] [find-max {}] [find-max {-4 -1}]"
    warn "twice"
    warn "twice"
    assert 1 < 2
    puts [catch {assert 2 < 1} msg]
    puts $msg
    add-all-packet-headers
    $ns at 1.0 "puts \\"at 1: [uniform 0 1]\\"; exit 0"
    $ns run
"""


def test_library_procedures_match_ns2(vs_ns2: Any) -> None:
    both = vs_ns2(SCRIPT)
    both.same()
    assert both.ac.err.count("warning: twice") == both.ns.err.count("warning: twice") == 1
    assert "assertion failed: 2 < 1" in both.ns.out


def test_parts_of_ns2_not_modelled_stop_with_one_line(ns2: Any) -> None:
    for line, what in (("HandoffManager/Term set elevation_mask_ 8.2", "HandoffManager/Term"),
                       ("set r [calc_cum {20e3 20e3}]", "calc_cum")):
        run = ns2(f"set ns [new Simulator]\n{line}\n")
        assert run.code == 2, run.err
        assert run.err.count("\n") == 1 and what in run.err and "script.tcl:2" in run.err
