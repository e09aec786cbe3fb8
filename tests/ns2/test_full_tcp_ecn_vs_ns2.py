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


# A window of one segment, test-suite-ecn-full's smallwin tests in small: the loss module sits
# at the head of the bottleneck (an ErrorModel/List on the connection's fid; with markecn_ it
# marks instead of dropping), the trace before it, so ns-2 writes no enqueue for its drops.
SMALL_WINDOW = """
    Agent/TCP set tcpTick_ 0.01
    Agent/TCP set windowInit_ 1
    Trace set show_tcphdr_ 1
    set ns [new Simulator]
    set s1 [$ns node]
    set r1 [$ns node]
    set r2 [$ns node]
    set s3 [$ns node]
    $ns duplex-link $s1 $r1 10Mb 2ms DropTail
    $ns duplex-link $r1 $r2 1.5Mb 10ms DropTail
    $ns duplex-link $r2 $s3 10Mb 4ms DropTail
    set tf [open out.tr w]
    $ns trace-queue $r1 $r2 $tf
    $ns trace-queue $r2 $r1 $tf
    set em [new ErrorModule Fid]
    set el [new ErrorModel/List]
    $el droplist {LIST}
    $el set markecn_ MARK
    [$ns link $r1 $r2] errormodule $em
    $em insert $el
    $em bind $el 1
    $em default pass
    set src [new Agent/TCP/CLASS]
    set sink [new Agent/TCP/CLASS]
    $src set fid_ 1
    $sink set fid_ 1
    $ns attach-agent $s1 $src
    $ns attach-agent $s3 $sink
    $ns connect $src $sink
    $sink listen
    $src set window_ 30
    $src set segsize_ 960
    $src set ecn_ true
    $sink set ecn_ true
    set ftp [$src attach-app FTP]
    set cf [open cwnd.tr w]
    $src trace cwnd_
    $src attach $cf
    $ns at 0.0 "$ftp start"
    $ns at 3.0 "close $tf; close $cf; exit 0"
    $ns run
"""


def small_window(cls: str, drops: str, mark: bool) -> str:
    return (SMALL_WINDOW.replace("CLASS", cls).replace("LIST", drops)
            .replace("MARK", "true" if mark else "false"))


def test_full_tcp_every_new_ack_ends_the_backoff(vs_ns2: Any) -> None:
    """FullTcpAgent::newack ends the timer's backoff on every new ACK, not only on one that
    times a segment (TcpAgent::newack): a retransmission's ACK, which Karn's rule keeps from
    sampling, resets it too, so the next loss waits one RTO, not a doubled one."""
    got = vs_ns2(small_window("FullTcp/Tahoe", "4 8 9 10 11 12", False)).same("out.tr",
                                                                             "cwnd.tr")
    drops = [line.split() for line in got["out.tr"].splitlines() if line.startswith("d ")]
    assert len(drops) == 6
    # 1921 is lost and timed out (backoff 2); its retransmission's ACK ends the backoff, so
    # 4801, lost next, is resent after one timeout of 0.2 s (minrto_), then 0.4, 0.8 s
    times = [float(f[1]) for f in drops]
    assert round(times[3] - times[1], 3) == 0.2
    assert round(times[4] - times[3], 3) == 0.4


@pytest.mark.parametrize("cls", ["FullTcp/Tahoe", "FullTcp/Newreno"])
def test_full_tcp_window_below_one_segment_keeps_the_timer(vs_ns2: Any, cls: str) -> None:
    """An ECN-Echo at a window of one segment halves cwnd_ below one, so nothing can be sent:
    FullTcpAgent::recv sets the retransmission timer after ecn() although all is
    acknowledged ("set_rtx_timer();" from T. Kelly), and FullTcpAgent::timeout_action then
    opens the window to one without backing the timer off and, the last cut being ECN's,
    keeps ssthresh_ (slowdown(CLOSE_CWND_ONE))."""
    got = vs_ns2(small_window(cls, "4 8 9 11 12 13 30 31", True)).same("out.tr", "cwnd.tr")
    cwnd = [(float(t), float(c)) for t, _, _, _, _, _, c in
            (line.split() for line in got["cwnd.tr"].splitlines())]
    below = [i for i, (_, c) in enumerate(cwnd) if c < 1.0]
    assert below, "a window cut below one segment"
    t0, _ = cwnd[below[0]]
    t1, c1 = cwnd[below[0] + 1]
    assert c1 == 1.0 and t1 - t0 > 0.1  # the timer, not an ACK, reopened it
    assert len(got["out.tr"].splitlines()) > 2000  # and the transfer went on
