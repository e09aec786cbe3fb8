"""ns-2's FQ link (`duplex-link ... FQ`: tcl/lib/ns-queue.tcl FQLink, queue/fq.cc): a DropTail
queue per flow id, of Queue's limit_ when the flow is first met, behind fair queueing by
finish times; the engine's `ns2_fq` discipline (queue/fq.rs), issue 28."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
    LIMIT
    set ns [new Simulator]
    set f [open out.tr w]
    $ns trace-all $f
    set s1 [$ns node]
    set s2 [$ns node]
    set r [$ns node]
    set k [$ns node]
    $ns duplex-link $s1 $r 10Mb 2ms DropTail
    $ns duplex-link $s2 $r 10Mb 7ms DropTail
    $ns duplex-link $r $k 600Kb 5ms FQ
    set i 0
    foreach {src size start} {s1 1000 0.0 s2 400 0.05 s1 200 0.2} {
        incr i
        set tcp [new Agent/TCP/Reno]
        $tcp set fid_ $i
        $tcp set packetSize_ $size
        $tcp set window_ 30
        $ns attach-agent [set $src] $tcp
        set sink [new Agent/TCPSink]
        $ns attach-agent $k $sink
        $ns connect $tcp $sink
        set ftp [new Application/FTP]
        $ftp attach-agent $tcp
        $ns at $start "$ftp start"
    }
    $ns at 4.0 "$ns flush-trace; close $f; exit 0"
    $ns run
"""


@pytest.mark.parametrize("limit", ["", "Queue set limit_ 7"])
def test_fq_shares_the_link_by_finish_times(vs_ns2: Any, limit: str) -> None:
    got = vs_ns2(SCRIPT.replace("LIMIT", limit)).same("out.tr")["out.tr"].splitlines()
    sent = {fid: sum(1 for x in got if x.startswith("- ") and x.split()[2:4] == ["2", "3"]
                     and x.split()[7] == fid) for fid in ("1", "2", "3")}
    assert all(n > 20 for n in sent.values()), sent
    if limit:
        assert any(x.startswith("d ") for x in got), "7 packets per flow: drops"


def test_schedule_suite_fq_tests(suite_states: Any) -> None:
    tests = {"fq", "fq_small_queue"}
    assert suite_states("schedule", tests) == dict.fromkeys(tests, ("identical", ""))
