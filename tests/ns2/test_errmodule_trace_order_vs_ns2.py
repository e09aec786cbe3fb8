"""Where a packet trace sits against a loss model at a link's entry, live against ns-2.35
(skipped without `ns`).

ns-2.35's tcl/lib/ns-link.tcl: `SimpleLink instproc errormodule` (and `$ns lossmodel`, which
calls it) and `SimpleLink instproc trace` (trace-all on a new link, `$ns trace-queue`) both put
their object at the link's head with `add-to-head`, so whichever comes later sees the packet
first. A trace made before the errormodule sits behind it: no `+` for a packet the module
drops, and a packet it marks (`markecn_`) shows the mark already. A trace-queue made after the
errormodule sits ahead of it: `+` for every packet offered, as it was, then `d` for the
module's drop (its drop target is the link's drophead, where both traces write drops). Both
orders in one run, two files; test-suite-full's dropped* and ecn* tests trace so.
"""

from __future__ import annotations

from typing import Any

SCRIPT = """
    Trace set show_tcphdr_ 1
    Agent/TCP set windowInit_ 1
    set ns [new Simulator]
    set s1 [$ns node]
    set r1 [$ns node]
    set r2 [$ns node]
    $ns duplex-link $s1 $r1 10Mb 2ms DropTail
    $ns duplex-link $r1 $r2 1.5Mb 10ms DropTail
    $ns queue-limit $r1 $r2 10
    set before [open before.tr w]
    $ns trace-queue $r1 $r2 $before
    set em [new ErrorModule Fid]
    set el [new ErrorModel/List]
    $el droplist {4 9 10 30}
    $el set markecn_ MARK
    [$ns link $r1 $r2] errormodule $em
    $em insert $el
    $em bind $el 1
    $em default pass
    set after [open after.tr w]
    $ns trace-queue $r1 $r2 $after
    $ns trace-queue $r2 $r1 $after
    set src [new Agent/TCP/FullTcp/Newreno]
    set sink [new Agent/TCP/FullTcp/Newreno]
    $src set fid_ 1
    $sink set fid_ 1
    $src set window_ 20
    $src set ecn_ true
    $sink set ecn_ true
    $ns attach-agent $s1 $src
    $ns attach-agent $r2 $sink
    $ns connect $src $sink
    $sink listen
    set ftp [$src attach-app FTP]
    $ns at 0.01 "$ftp start"
    $ns at 2.0 "close $before; close $after; exit 0"
    $ns run
"""


def lines(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines()]


def test_trace_before_and_after_the_errormodule_drops(vs_ns2: Any) -> None:
    got = vs_ns2(SCRIPT.replace("MARK", "false")).same("before.tr", "after.tr")
    before, after = lines(got["before.tr"]), lines(got["after.tr"])
    # The module's four drops: the trace behind it writes `d` alone (queue overflows, `+`
    # then `d`, come later), the one ahead of it `+` then `d`.
    module = [f for i, f in enumerate(before) if f[0] == "d" and before[i - 1] != ["+", *f[1:]]]
    assert len(module) == 4
    for d in module:
        i = after.index(d)
        assert after[i - 1] == ["+", *d[1:]]


def test_trace_before_and_after_the_errormodule_marks(vs_ns2: Any) -> None:
    got = vs_ns2(SCRIPT.replace("MARK", "true")).same("before.tr", "after.tr")
    before, after = lines(got["before.tr"]), lines(got["after.tr"])
    # The four packets the module marks: `+` with CE (E) behind it, without it ahead of it.
    marked = [f for f in before if f[0] == "+" and "E" in f[6] and f[4] == "tcp"]
    assert len(marked) == 4
    for f in marked:
        plain = [*f[:6], f[6].replace("E", "-"), *f[7:]]
        assert plain in after and f not in after
