"""FullTcp given parts of segments (`advance-bytes`, FTP `send` of any size): ns-2.35's
`FullTcpAgent::foutput` cuts the bytes given into segments of segsize_, holds a short one
back while data are outstanding (Nagle) and joins it to the next write if that comes first;
its receiver counts bytes for its ACKs (`need_send`), and timestamps_ enlarge every header
(`headersize`). The engine's tcp/sender/stream.rs (issue 28).

One connection per script: ns-2 acknowledges a held segment at its agent's delayed-ACK
tick (`delack_timer_`, every interval_ from the agent's first packet on), and where two
agents' ticks coincide with ACKs held the order ns-2 gives them is not modelled yet."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
    set ns [new Simulator]
    set f [open out.tr w]
    $ns trace-all $f
    set n0 [$ns node]
    set n1 [$ns node]
    set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 2ms DropTail
    $ns duplex-link $n1 $n2 800Kb 30ms DropTail
    $ns queue-limit $n1 $n2 QLIMIT
    set i 0
    foreach cls {CLASSES} {
        incr i
        set src [new Agent/TCP/$cls]
        set dst [new Agent/TCP/$cls]
        $src set fid_ $i
        $src set window_ 40
        $ns attach-agent $n0 $src
        $ns attach-agent $n2 $dst
        $ns connect $src $dst
        $dst listen
        set ftp($i) [$src attach-app FTP]
        # 1234 bytes, then 700 more while the short segment may still be held, then a
        # multiple of segsize_, then more after an idle spell.
        $ns at 0.1$i "$src advance-bytes 1234"
        $ns at 0.13 "$src advance-bytes 700"
        $ns at 0.43 "$ftp($i) send 5360"
        $ns at 0.93 "$ftp($i) send 20001"
        $ns at 3.03 "$src advance-bytes 77"
    }
    $ns at 4.0 "$ns flush-trace; close $f; exit 0"
    $ns run
"""


def script(classes: str, qlimit: int = 50) -> str:
    return SCRIPT.replace("CLASSES", classes).replace("QLIMIT", str(qlimit))


@pytest.mark.parametrize("cls", ["FullTcp", "FullTcp/Newreno"])
def test_parts_of_segments_as_ns2_cuts_and_holds_them(vs_ns2: Any, cls: str) -> None:
    got = vs_ns2(script(cls)).same("out.tr")["out.tr"].splitlines()
    sizes = {int(x.split()[5]) for x in got if x.split()[4] == "tcp"}
    # Short segments beside the full 576-byte ones: the parts given.
    assert 576 in sizes and len(sizes - {40, 576}) >= 3, sizes


@pytest.mark.parametrize("cls", ["FullTcp/Sack", "FullTcp/Tahoe"])
def test_parts_of_segments_with_losses(vs_ns2: Any, cls: str) -> None:
    got = vs_ns2(script(cls, 6)).same("out.tr")["out.tr"]
    assert any(x.startswith("d ") for x in got.splitlines()), "the queue drops some"


def test_timestamps_enlarge_every_header(vs_ns2: Any) -> None:
    text = script("FullTcp", 8).replace(
        "$src set window_ 40", "$src set window_ 40\n        $src set timestamps_ true\n"
        "        $dst set timestamps_ true")
    got = vs_ns2(text).same("out.tr")["out.tr"].splitlines()
    # The SYN, pure ACKs and full segments carry 40 + ts_option_size_ 10 bytes of header.
    assert {int(x.split()[5]) for x in got if x.split()[4] == "ack"} == {50}


def test_suite_full_small_and_restart_tests(suite_states: Any) -> None:
    tests = {"smallpkts", "SSR", "SSR2", "tsopt", "winlimited"}
    assert suite_states("full", tests) == dict.fromkeys(tests, ("identical", ""))
