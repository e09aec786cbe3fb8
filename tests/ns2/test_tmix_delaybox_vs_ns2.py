"""A Tmix vector file on both delay boxes, live against ns-2.35 (skipped without `ns`): each
`Tmix_DelayBox` holding a connection's file holds every packet of it `r / 2` and drops it at
the vector's rate (`Tmix_DelayBoxClassifier::create_flow_table`, `recv`), so a packet that
passes two such boxes waits `r` each way on top of the path."""

from __future__ import annotations

import pytest

SCRIPT = """
    set f [open v.vec w]
    puts -nonewline $f "SEQ 100000 1 0 1\\nw 65535 65535\\nr 50000\\nl 0.0 0.0\\n"
    puts -nonewline $f "> 300\\nt 1000\\n< 5000\\n"
    close $f
    set ns [new Simulator]
    Agent/TCP/FullTcp set segsize_ 1000
    Agent/TCP/FullTcp set nodelay_ true
    set n0 [$ns node]; set n1 [$ns node]
    set b0 [$ns Tmix_DelayBox]; set b1 [$ns Tmix_DelayBox]
    $b0 set-cvfile v.vec [$n0 id] [$n1 id]; $b0 set-lossless
    @SECOND@
    $ns duplex-link $n0 $b0 1000Mb 1ms DropTail
    $ns duplex-link $b0 $b1 622Mb 48ms DropTail
    $ns duplex-link $b1 $n1 1000Mb 1ms DropTail
    set t [new Tmix]
    $t set-init $n0; $t set-acc $n1; $t set-ID 7; $t set-cvfile v.vec
    set tf [open out.tr w]
    $ns trace-queue $b0 $n0 $tf
    $ns trace-queue $b1 $n1 $tf
    $ns at 0.0 "$t start"
    $ns at 3 "close $tf; exit 0"
    $ns run
"""


def arrivals(trace: str) -> list[tuple[float, str, int]]:
    return [(float(f[1]), f[3], int(f[5])) for f in map(str.split, trace.splitlines())
            if f[0] == "r"]


@pytest.mark.parametrize("both", [False, True])
def test_a_file_on_both_delay_boxes_is_held_at_each(vs_ns2, both: bool) -> None:
    second = "$b1 set-cvfile v.vec [$n0 id] [$n1 id]; $b1 set-lossless" if both else ""
    run = vs_ns2(SCRIPT.replace("@SECOND@", second))
    assert run.ns.code == 0, run.ns.err
    assert run.ac.code == 0, run.ac.err
    ns, ours = arrivals(run.ns.file("out.tr")), arrivals(run.ac.file("out.tr"))
    # The SYN at the acceptor: 50 ms of path and 25 ms at each box holding the file.
    assert ns[0][0] == pytest.approx(0.200001 if both else 0.175001, abs=1e-6)
    # The data segments (ns-2.35's ACKs ride on data, ackclock's travel alone) arrive when
    # ns-2.35's do.
    data_ns = [x for x in ns if x[2] > 100]
    data_ours = [x for x in ours if x[2] > 100]
    assert [x[1:] for x in data_ours] == [x[1:] for x in data_ns]
    assert max(abs(a[0] - b[0]) for a, b in zip(data_ours, data_ns, strict=True)) < 2e-6
