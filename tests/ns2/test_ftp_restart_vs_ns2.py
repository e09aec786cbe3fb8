"""An FTP started again after `stop` on a one-way TCP agent (issue 28, ns-2.35's held-back
cbq suite's FORMAL_TCP). ns-2.35's Application/FTP (tcl/lib/ns-source.tcl) stops with its
agent's `advance 0` (TcpAgent::command: curseq_ = maxseq_, nothing new after what was sent)
and `close` (Agent::close: nothing), and starts with `send -1` (TcpAgent::sendmsg: curseq_
endless again, send_much). The first segment after an idle spell restarts the
retransmission timer the idle agent kept running (TcpAgent::output's force_set_rtx_timer),
and the idle timeouts leave ssthresh_ (slowdown(CLOSE_CWND_ONE | NO_OUTSTANDING_DATA)).
Live against ns-2.35: stop and start while data are outstanding and after an idle spell,
the packet trace and the traced cwnd_ and ssthresh_."""

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
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 8
set tcp [new Agent/{agent}]
$ns attach-agent $n0 $tcp
set sink [new Agent/{sink}]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set cw [open cwnd.tr w]
$tcp attach $cw
$tcp trace cwnd_
$tcp trace ssthresh_
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 1.5 "$ftp stop"
$ns at 1.52 "$ftp start"
$ns at 3.0 "$ftp stop"
$ns at 3.0 "$ftp stop"
$ns at 6.0 "$ftp start"
$ns at 6.0 "$ftp start"
$ns at 7.0 "$ftp stop"
$ns at 9.0 "$ns flush-trace; close $tr; close $cw; exit 0"
$ns run
"""


@pytest.mark.parametrize(("agent", "sink", "files"), [
    ("TCP", "TCPSink", ("out.tr", "cwnd.tr")),
    ("TCP/Reno", "TCPSink", ("out.tr", "cwnd.tr")),
    ("TCP/Newreno", "TCPSink/DelAck", ("out.tr", "cwnd.tr")),
    ("TCP/Sack1", "TCPSink/Sack1", ("out.tr", "cwnd.tr")),
    # Vegas's traced ssthresh_ and cwnd_ at an idle timeout come in another order.
    ("TCP/Vegas", "TCPSink", ("out.tr",)),
])
def test_ftp_starts_again_after_stop_as_ns2(vs_ns2: Any, agent: str, sink: str,
                                            files: tuple[str, ...]) -> None:
    got = vs_ns2(SCRIPT.format(agent=agent, sink=sink)).same(*files)
    lines = got["out.tr"].splitlines()
    data = [float(x.split()[1]) for x in lines
            if x.startswith("+ ") and x.split()[2] == "0" and x.split()[4] == "tcp"]
    # Data leave in each running spell and in none of the stopped ones beyond what was
    # outstanding at the stop (nothing new between 3.5 and 6.0).
    assert any(1.52 <= t < 3.0 for t in data) and any(6.0 <= t < 7.0 for t in data)
    assert not any(3.5 <= t < 6.0 for t in data)


def test_ftp_restart_on_full_tcp_stays_not_supported(ns2: Any) -> None:
    script = """
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set src [new Agent/TCP/FullTcp]
set dst [new Agent/TCP/FullTcp]
$ns attach-agent $n0 $src
$ns attach-agent $n1 $dst
$ns connect $src $dst
$dst listen
set ftp [$src attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 1.0 "$ftp stop"
$ns at 2.0 "$ftp start"
$ns at 3.0 "exit 0"
$ns run
"""
    run = ns2(script, name="s.tcl")
    assert run.code == 2
    assert run.err.strip().startswith("ackclock: error: s.tcl:")
    assert run.err.strip().endswith(
        "restarting Application/FTP after stop (a CBR's is, and an FTP's on a one-way TCP"
        " agent) is not supported by ackclock yet")
