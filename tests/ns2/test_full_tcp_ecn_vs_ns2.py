"""FullTcp agents with ECN over a marking RED queue, live against ns-2.35 (skipped without
`ns`): tcp/tcp-full.cc's rules that the one-way agents do not share.

- `foutput`: the SYN carries ECE and CWR, the SYN-ACK ECE, neither ECT (`C--A---`, header
  flags 0xca; `C------`, 0x5a); ECE (0x40) and CWR (0x80) in the header column of every
  segment; an ECE on the SYN-ACK is not a congestion signal.
- `recv`'s header prediction: a pure ACK of new data while `cwnd_ >= wnd_` does not open
  cwnd_, which stops at `window_` (30 here, never 30.033).
- `recv`: no ACK carrying ECN-Echo opens cwnd_ (`ect_` comes from the handshake; `old_ecn_`
  is never read), and the receiver stops echoing at a segment with the congestion-action mark
  (ns-2's `cwr()` is `cong_action_`; test-suite-ecn-full's ecn_drop tests, where that segment
  is a retransmission, `validation/ns2_test_suites.py --suite ecn-full`).
- `advance_bytes` in CLOSED (the FTP's start) resets the agent: one more `boot_time_` drawn
  from the default generator, so RED's early marks draw ns-2's numbers after it.
- `ecn_ true`: tcp.cc binds `ecn_` with `delay_bind_bool` (the word true is 1).

The run: 1.5 Mb/s RED bottleneck (thresholds 5/15, q_weight 0.002, 25 packets), window_ 30,
segsize_ 960: slow start overflows the queue (drops, a timeout), then RED marks; the packet
trace of both directions of the bottleneck (with TCP headers) and cwnd_ are ns-2's for 2 s.
"""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
    Agent/TCP set tcpTick_ 0.1
    Agent/TCP set rfc2988_ false
    Agent/TCP set windowInit_ 1
    Queue/RED set setbit_ true
    Queue/RED set thresh_ 5
    Queue/RED set maxthresh_ 15
    Queue/RED set q_weight_ 0.002
    Trace set show_tcphdr_ 1
    set ns [new Simulator]
    set s1 [$ns node]
    set r1 [$ns node]
    set r2 [$ns node]
    set s3 [$ns node]
    $ns duplex-link $s1 $r1 10Mb 2ms DropTail
    $ns duplex-link $r1 $r2 1.5Mb 10ms RED
    $ns duplex-link $r2 $s3 10Mb 4ms DropTail
    $ns queue-limit $r1 $r2 25
    set src [new Agent/TCP/CLASS]
    set sink [new Agent/TCP/CLASS]
    $ns attach-agent $s1 $src
    $ns attach-agent $s3 $sink
    $ns connect $src $sink
    $sink listen
    $src set window_ 30
    $src set segsize_ 960
    $src set ecn_ true
    $sink set ecn_ true
    set ftp [$src attach-app FTP]
    set tf [open out.tr w]
    $ns trace-queue $r1 $r2 $tf
    $ns trace-queue $r2 $r1 $tf
    set cf [open cwnd.tr w]
    $src trace cwnd_
    $src attach $cf
    $ns at 0.0 "$ftp start"
    $ns at 2.0 "close $tf; close $cf; exit 0"
    $ns run
"""


@pytest.mark.parametrize("cls", ["FullTcp/Tahoe", "FullTcp/Newreno"])
def test_full_tcp_ecn_is_ns2s(vs_ns2: Any, cls: str) -> None:
    got = vs_ns2(SCRIPT.replace("CLASS", cls)).same("out.tr", "cwnd.tr")
    lines = [line.split() for line in got["out.tr"].splitlines()]
    assert lines[0][6] == "C--A---" and lines[0][13] == "0xca"  # the ECN-setup SYN
    synack = next(f for f in lines if f[4] == "ack")
    assert synack[6] == "C------" and synack[13] == "0x5a"
    assert any(f[0] == "d" for f in lines)  # queue overflow drops
    assert any("E" in f[6] for f in lines)  # RED's marks, on ns-2's draws
    cwnd = [float(line.split()[-1]) for line in got["cwnd.tr"].splitlines()]
    # held at window_ (fast recovery's inflation aside): 30, never 30.033
    assert 30.0 in cwnd and not any(30.0 < c < 31.0 for c in cwnd)
