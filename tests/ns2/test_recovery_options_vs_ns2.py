"""ns-2.35's loss-recovery options on one-way agents, live against ns-2.35 (packet trace and
traced cwnd_ identical):

- NewReno's `exit_recovery_fix_` (the full ACK sets cwnd_ to min(ssthresh_, maxseq_ - ack +
  1), `NewRenoTcpAgent::recv`; the engine's `exit_recovery_fix`) and `lessCareful_` (a fast
  retransmit also at exactly the recovery point, `NewRenoTcpAgent::dupack_action`;
  `less_careful`), on four drops in two windows with partial ACKs (whose deflation beyond the
  inflation takes cwnd_ down, `partialnewack`, and whose sends are two at most,
  `send_much(0, 0, 2)`) and a timeout;
- `numdupacksFrac_` on Sack1 (`TcpAgent::numdupacks`: the duplicate-ACK threshold at least
  (int) cwnd_ / numdupacksFrac_; `dupack_cwnd_fraction`)."""

from __future__ import annotations

from typing import Any

import pytest

PATH = """
    set ns [new Simulator]
    $ns trace-all [open out.tr w]
    set n0 [$ns node]
    set n1 [$ns node]
    set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 5ms DropTail
    $ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
    $ns queue-limit $n1 $n2 {limit}
    set tcp [new Agent/TCP/{sender}]
    set sink [new Agent/{sink}]
    $tcp set window_ {window}
    $tcp set fid_ 1
    $ns attach-agent $n0 $tcp
    $ns attach-agent $n2 $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    set em [new ErrorModule Fid]
    [$ns link $n0 $n1] errormodule $em
    set m [new ErrorModel/List]
    $m droplist {{{drops}}}
    $em insert $m
    $em bind $m 1
    set cf [open cwnd.tr w]
    $tcp attach $cf
    $tcp trace cwnd_
    $tcp trace ssthresh_
    $ns at 0 "$ftp start"
    $ns at {stop} {{puts "[$tcp set nrexmitpack_] [$tcp set ack_]"; close $cf; exit 0}}
    $ns run
"""


@pytest.mark.parametrize(("fix", "less_careful"), [(0, "false"), (1, "false"), (1, "true")])
def test_newreno_recovery_options_as_ns2(vs_ns2: Any, fix: int, less_careful: str) -> None:
    script = (f"Agent/TCP/Newreno set exit_recovery_fix_ {fix}\n"
              f"Agent/TCP set lessCareful_ {less_careful}\n"
              + PATH.format(limit=10, sender="Newreno", sink="TCPSink", window=30,
                            drops="30 33 36 120 122", stop=8))
    want = vs_ns2(script).same("out.tr", "cwnd.tr")
    assert sum(1 for line in want["out.tr"].splitlines() if line.startswith("d ")) >= 10


@pytest.mark.parametrize("fraction", [-1, 6, 10])
def test_sack1_numdupacks_frac_as_ns2(vs_ns2: Any, fraction: int) -> None:
    script = (f"Agent/TCP set numdupacksFrac_ {fraction}\n"
              + PATH.format(limit=100, sender="Sack1", sink="TCPSink/Sack1", window=60,
                            drops="200", stop=6))
    vs_ns2(script).same("out.tr", "cwnd.tr")
