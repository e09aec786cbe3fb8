"""ns-2.35's own TCP-Linux sender (`Agent/TCP/Linux`, tcp/tcp-linux.cc `LinuxTcpAgent`) with
its modules (`naive_reno`, `reno`, `scalable`, `highspeed`, `bic`, `vegas`, `veno`, `yeah`,
`cubic`, `htcp`, `hybla`, `westwood`, `illinois`, `lp`, `compound`): the engine's Reno under
`ns2_linux` (tcp/sender/ns2_linux.rs, the modules in ns2_linux/modules.rs and a file each
beside it). Live against ns-2.35: the packet trace and traced cwnd_ of a flow through a short
DropTail queue (losses, ScoreBoard1's SACK recovery with its rate halving, timeouts), every
module, with TCP-Linux's globals as ns-2.35 has them and as `set_ca_default_param linux
debug_level 2` leaves them (ns-2.35 writes an int over three unsigned chars: tcp_max_burst and
sysctl_tcp_abc become 0); and ns-2.35's tcpLinux suite's tests of every module."""

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
set tcp [new Agent/TCP/Linux]
$tcp set window_ 100
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink/Sack1/DelAck]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set cw [open cwnd.tr w]
$tcp attach $cw
$tcp trace cwnd_
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$tcp select_ca {module}"
{extra}
$ns at 0.1 "$ftp start"
$ns at 8.0 "$ns flush-trace; close $tr; close $cw; exit 0"
$ns run
"""


def _changes(text: str) -> list[tuple[str, str]]:
    """(time, cwnd_) at each change of the traced window."""
    out: list[tuple[str, str]] = []
    for line in text.splitlines():
        f = line.split()
        if not out or out[-1][1] != f[-1]:
            out.append((f[0], f[-1]))
    return out


DEBUG2 = '$ns at 0.0 "$tcp set_ca_default_param linux debug_level 2"'


MODULES = ["naive_reno", "reno", "scalable", "highspeed", "bic", "vegas", "veno", "yeah", "cubic",
           "htcp", "hybla", "westwood", "illinois", "lp", "compound"]


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("limit", [6, 15])
@pytest.mark.parametrize("extra", ["", DEBUG2])
def test_linux_agent_as_ns2(vs_ns2: Any, module: str, limit: int, extra: str) -> None:
    both = vs_ns2(SCRIPT.format(module=module, limit=limit, extra=extra))
    if module == "lp" and not extra:
        # Under TCP-Linux's default debug_level 1 ns-2.35's lp prints a line per ACK
        # (tcp_lp_pkts_acked's pr_debug), which ackclock refuses rather than leave out.
        assert "TCP-LP: " in both.ns.out
        assert both.ac.code == 2
        assert "select_ca lp" in both.ac.err and "not supported" in both.ac.err
        return
    want = both.same("out.tr")
    lines = want["out.tr"].splitlines()
    assert len(lines) > 3000
    if module == "vegas":
        # Vegas keeps the queue short of loss: its own rule takes the window down.
        cwnd = [float(c) for _, c in _changes(both.ns.file("cwnd.tr"))]
        assert any(b < a for a, b in zip(cwnd, cwnd[1:], strict=False))
    else:
        assert any(line.startswith("d ") for line in lines)
    assert _changes(both.ns.file("cwnd.tr")) == _changes(both.ac.file("cwnd.tr"))


def test_tcp_linux_suite_as_ns2(suite_states: Any) -> None:
    tests = {"tcpLinuxBase"} | {f"tcpLinux{q}_{m}" for q in ("DropTail", "RED")
                                for m in MODULES if m != "naive_reno"}
    states = suite_states("tcpLinux", tests)
    assert {t: s for t, (s, _) in states.items()} == dict.fromkeys(tests, "identical")
