"""`maxcwnd_` on one-way TCP agents (ns-2.35 tcp/tcp.cc: `TcpAgent::opencwnd` ends by setting
cwnd_ to maxcwnd_ when its whole part is above it; the engine's `max_cwnd`). Live against
ns-2.35: the packet trace of agents held below their window by maxcwnd_, with losses, and the
simple suite's test that sets it. Traced cwnd_ is compared by its changes: ns-2 traces the
window both before (maxcwnd_ + 1) and after the limit on each ACK, ackclock the window it
keeps."""

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
$ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
$ns queue-limit $n1 $n2 {limit}
set tcp [new Agent/{agent}]
$tcp set window_ 40
$tcp set maxcwnd_ {maxcwnd}
$ns attach-agent $n0 $tcp
set sink [new Agent/{sink}]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set cw [open cwnd.tr w]
$tcp attach $cw
$tcp trace cwnd_
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 6.0 "$ns flush-trace; close $tr; close $cw; exit 0"
$ns run
"""


def _cwnds(text: str, below: float) -> list[float]:
    """The traced windows below `below`, a run of equal ones as one."""
    out: list[float] = []
    for line in text.splitlines():
        w = float(line.split()[-1])
        if w < below and (not out or out[-1] != w):
            out.append(w)
    return out


@pytest.mark.parametrize(("agent", "sink", "maxcwnd", "limit"), [
    ("TCP", "TCPSink", 12, 30),
    ("TCP/Reno", "TCPSink/DelAck", 20, 8),
    ("TCP/Newreno", "TCPSink", 16, 6),
    ("TCP/Sack1", "TCPSink/Sack1", 25, 10),
])
def test_maxcwnd_as_ns2(vs_ns2: Any, agent: str, sink: str, maxcwnd: int, limit: int) -> None:
    both = vs_ns2(SCRIPT.format(agent=agent, sink=sink, maxcwnd=maxcwnd, limit=limit))
    want = both.same("out.tr")
    lines = want["out.tr"].splitlines()
    assert len(lines) > 3000
    # With the short queues maxcwnd_ is above what the path holds: losses and recovery.
    assert any(line.startswith("d ") for line in lines) == (limit < maxcwnd)
    # ns-2 traces the window before opencwnd's limit too (maxcwnd_ + 1, then maxcwnd_ again
    # on every ACK): ackclock traces the window it keeps.
    ac_cwnd = _cwnds(both.ac.file("cwnd.tr"), float("inf"))
    assert _cwnds(both.ns.file("cwnd.tr"), maxcwnd + 1) == ac_cwnd
    assert max(ac_cwnd) == maxcwnd


def test_simple_reno_as_ns2(suite_states: Any) -> None:
    tests = {"reno"}
    assert suite_states("simple", tests) == dict.fromkeys(tests, ("identical", ""))
