"""Agent/TCP/Linux's `select_ca` and `set_ca_default_param` (ns-2.35 tcp/tcp-linux.cc,
`LinuxTcpAgent::command`): the congestion control named, chosen before `$ns run` or from a
`$ns at` script before the agent sends (the tcpLinux suite selects it at time 0), each command
printed as ns-2 prints it; every module runs under ns-2's own LinuxTcpAgent
(tests/ns2/test_linux_agent_vs_ns2.py compares its losses and recovery). Live, the packets of
a window-limited run are ns-2's."""

from __future__ import annotations

from typing import Any

import pytest

NET = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 100Mb 2ms DropTail
$ns duplex-link $n1 $n2 10Mb 20ms DropTail
$ns queue-limit $n1 $n2 {limit}
set tcp [new Agent/TCP/Linux]
$tcp set syn_ false
$tcp set delay_growth_ false
$tcp set window_ 40
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink/Sack1]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
{select}
$ns at 0.1 "$ftp start"
$ns at {end} "$ns flush-trace; close $tr; exit 0"
$ns run
"""


@pytest.mark.parametrize("cc", ["reno", "cubic", "htcp"])
def test_select_ca_at_time_zero_as_ns2(vs_ns2: Any, cc: str) -> None:
    both = vs_ns2(NET.format(limit=100, end=3.0,
                             select=f'$ns at 0.0 "$tcp select_ca {cc}"\n'
                                    '$ns at 0.0 "$tcp set_ca_default_param linux debug_level 2"'))
    assert both.ns.code == 0 and both.ac.code == 0, both.ac.err
    # ns-2 prints each command from C (its printf output comes out at exit).
    lines = [f"cmd select_ca {cc}", "cmd set_ca_default_param linux debug_level 2"]
    assert both.ns.out.split("\n")[:2] == lines
    assert both.ac.out.split("\n")[:2] == lines
    trace = both.ns.file("out.tr")
    assert len(trace.splitlines()) > 20000
    assert both.ac.file("out.tr") == trace


def cwnd_trace(ns2: Any, select: str) -> str:
    script = NET.format(limit=10, end=5.0, select=select).replace(
        "$ns run", "$tcp attach [open cwnd.tr w]\n$tcp trace cwnd_\n$ns run")
    run = ns2(script)
    assert run.code == 0, run.err
    return run.file("cwnd.tr")


def test_select_ca_during_the_run_is_select_ca_before_it(ns2: Any) -> None:
    """The engine's flow, rebuilt with the algorithm at time 0, runs as one built with it."""
    before = cwnd_trace(ns2, "$tcp select_ca cubic")
    assert cwnd_trace(ns2, '$ns at 0.0 "$tcp select_ca cubic"') == before
    assert cwnd_trace(ns2, '$ns at 0.05 "$tcp select_ca cubic"') == before
    assert cwnd_trace(ns2, '$ns at 0.0 "$tcp select_ca reno"') != before
    # ns-2.35's other modules.
    for name in ("naive_reno", "hybla", "veno", "yeah", "illinois", "compound"):
        assert cwnd_trace(ns2, f'$ns at 0.0 "$tcp select_ca {name}"')


@pytest.mark.parametrize(("select", "message"), [
    ('$ns at 0.5 "$tcp select_ca cubic"',
     "s.tcl:1: select_ca on _o"),
    # ns-2.35's lp prints a debugging line per ACK under TCP-Linux's default debug_level.
    ("$tcp select_ca lp",
     "select_ca lp on _o"),
    ("$tcp set_ca_default_param vegas alpha 4",
     "set_ca_default_param vegas alpha is not supported by ackclock yet"),
])
def test_what_is_not_modelled_says_so(ns2: Any, select: str,
                                      message: str) -> None:
    run = ns2(NET.format(limit=100, end=1.0, select=select), name="s.tcl")
    assert run.code == 2
    [line] = run.err.strip().splitlines()
    assert line.startswith("ackclock: error: s.tcl:"), line
    assert message.split("s.tcl:1: ")[-1] in line, line
