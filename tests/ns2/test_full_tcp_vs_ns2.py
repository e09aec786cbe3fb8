"""ns-2's FullTcp agents as ns-2.35 runs them (tcp/tcp-full.cc), live against ns-2.35 (skipped
without `ns`): the test-suite-full topology (8 Mb/s access links, an 800 kb/s bottleneck with a
6-packet queue) with a 100-segment window, so that slow start overflows the queue, fast
retransmit and a timeout follow; both queues of the router traced into one file with ns-2's TCP
header columns (`Trace set show_tcphdr_ 1`), cwnd_ and ssthresh_ traced.

What it holds to ns-2: two `trace-queue`s into one channel interleave in time; the header
columns (ackno -1 on the first SYN, PUSH on a dataless SYN and on each segment that empties the
send buffer, CWR with the congestion-action mark, which waits for new data: `foutput`,
`sendpacket`); FullTcp's own loss rules (no limited transmit; another fast retransmit after three
more duplicates while the last cut was a fast retransmit's, `dupack_action`; cwnd_ back to
ssthresh_ when recovery ends, `pack_action`; Newreno's partial ACKs, `NewRenoFullTcpAgent::
pack_action`; /Sack's pipe control, `SackFullTcpAgent`), and cwnd_ as FullTcp keeps it (inflated
by the duplicates but for /Sack's and /Tahoe's)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import pytest

SCRIPT = """
    Agent/TCP set tcpTick_ 0.1
    Agent/TCP set rfc2988_ false
    Agent/TCP set windowInit_ 1
    Trace set show_tcphdr_ 1
    set ns [new Simulator]
    set s1 [$ns node]
    set s2 [$ns node]
    set r1 [$ns node]
    set k1 [$ns node]
    $ns duplex-link $s1 $r1 8Mb 5ms DropTail
    $ns duplex-link $s2 $r1 8Mb 5ms DropTail
    $ns duplex-link $r1 $k1 800Kb 100ms DropTail
    $ns queue-limit $r1 $k1 6
    $ns queue-limit $k1 $r1 6
    set src [new Agent/TCP/CLASS]
    set sink [new Agent/TCP/CLASS]
    $ns attach-agent $s1 $src
    $ns attach-agent $k1 $sink
    $ns connect $src $sink
    $sink listen
    $src set window_ 100
    set ftp [$src attach-app FTP]
    set tf [open out.tr w]
    $ns trace-queue $r1 $k1 $tf
    $ns trace-queue $r1 $s1 $tf
    set cf [open cwnd.tr w]
    $src trace cwnd_
    $src trace ssthresh_
    $src attach $cf
    $ns at 0.0 "$ftp start"
    $ns at 6.0 "close $tf; close $cf; exit 0"
    $ns run
"""


@pytest.mark.parametrize("cls", ["FullTcp", "FullTcp/Newreno", "FullTcp/Tahoe", "FullTcp/Sack"])
def test_full_tcp_traces_are_ns2s(vs_ns2: Any, cls: str) -> None:
    got = vs_ns2(SCRIPT.replace("CLASS", cls)).same("out.tr", "cwnd.tr")
    lines = [line.split() for line in got["out.tr"].splitlines()]
    assert lines[0][12:14] == ["-1", "0xa"]  # the SYN: no ackno yet, SYN + PUSH
    assert {f[3] for f in lines} == {"3", "0"}  # both queues, in one file
    assert any(f[6] == "---A---" and f[13] == "0x90" for f in lines)  # CWR on new data
    if cls in ("FullTcp", "FullTcp/Newreno"):
        # fast recovery's inflated cwnd_ (ssthresh_ + duplicates), as FullTcp traces it
        assert "cwnd_ 16.000" in got["cwnd.tr"]


# Data given as the run goes, from both ends: FTP produce on a closed FullTcp agent opens the
# connection (FullTcpAgent::advance_bytes in CLOSED: connect), produce on the listener after
# the SYN queues its data (SYN_RECEIVED / ESTABLISHED), producemore and advance-bytes add
# more, and the listener's FTP start sends without end (sendmsg(-1)). The listener labels all
# it sends `ack` (FullTcpAgent::listen); PUSH marks each segment that empties the buffer; the
# listener, idle longer than its RTO, restarts from the initial window (foutput's
# slow_start_restart_, idle_restart) and marks that with CWR.
BOTH_ENDS = """
    Agent/TCP set tcpTick_ 0.1
    Agent/TCP set windowInit_ 1
    Trace set show_tcphdr_ 1
    set ns [new Simulator]
    set s1 [$ns node]
    set r1 [$ns node]
    set k1 [$ns node]
    $ns duplex-link $s1 $r1 8Mb 5ms DropTail
    $ns duplex-link $r1 $k1 800Kb 100ms DropTail
    $ns queue-limit $r1 $k1 6
    $ns queue-limit $k1 $r1 6
    set src [new Agent/TCP/FullTcp]
    set sink [new Agent/TCP/FullTcp]
    $ns attach-agent $s1 $src
    $ns attach-agent $k1 $sink
    $ns connect $src $sink
    $sink listen
    $src set window_ 20
    $sink set window_ 20
    set ftp1 [$src attach-app FTP]
    set ftp2 [$sink attach-app FTP]
    set tf [open out.tr w]
    $ns trace-queue $r1 $k1 $tf
    $ns trace-queue $r1 $s1 $tf
    $ns at 0.5 "$ftp1 produce 30"
    $ns at 1.0 "$ftp2 produce 10"
    $ns at 2.0 "$ftp1 producemore 15"
    $ns at 2.5 "$src advance-bytes 5360"
    $ns at 3.0 "$ftp2 start"
    $ns at 5.0 "close $tf; exit 0"
    $ns run
"""


def test_full_tcp_data_from_both_ends_as_the_run_goes(vs_ns2: Any) -> None:
    trace = vs_ns2(BOTH_ENDS).same("out.tr")["out.tr"]
    lines = [line.split() for line in trace.splitlines()]
    assert lines[0][1] == "0.50504"  # the first produce opened the connection
    listener_data = [f for f in lines if f[2] == "1" and f[3] == "0" and f[5] == "576"]
    assert listener_data and {f[4] for f in listener_data} == {"ack"}
    assert any(f[6] == "---A---" for f in listener_data)  # the restart after idling


def test_full_tcp_without_slow_start_restart(vs_ns2: Any) -> None:
    """`slow_start_restart_ false` on both agents: the listener, idle longer than its RTO,
    sends on with the window it had (FullTcpAgent::foutput restarts only with
    slow_start_restart_): a trace identical to ns-2's, and not the restarting one."""
    script = BOTH_ENDS.replace("    $sink listen\n",
                               "    $sink listen\n    $src set slow_start_restart_ false\n"
                               "    $sink set slow_start_restart_ false\n")
    trace = vs_ns2(script).same("out.tr")["out.tr"]
    assert trace != vs_ns2(BOTH_ENDS).same("out.tr")["out.tr"]


def test_full_tcp_simultaneous_open_is_refused(tmp_path: Any) -> None:
    script = BOTH_ENDS.replace("    $sink listen\n", "")
    (tmp_path / "s.tcl").write_text(textwrap.dedent(script).lstrip("\n"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "ackclock", "ns2", "s.tcl"], cwd=tmp_path,
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 2
    assert "simultaneous open" in done.stderr and "not supported" in done.stderr


# One segment dropped early by a loss model at the bottleneck's head (fid 0), so that slow
# start's window is still open when the third duplicate ACK arrives: FullTcpAgent::recv calls
# dupack_action and drops the ACK (`goto drop`), and FullTcpAgent::dupack_action's
# fast_retransmit sends only the lost segment; the inflated window sends new data from the
# next duplicate on (ns-2's one-way Reno sends at once). test-suite-full-fixes' ecn-rexmt.
ONE_DROP = """
    Trace set show_tcphdr_ 1
    set ns [new Simulator]
    set s1 [$ns node]
    set r1 [$ns node]
    set k1 [$ns node]
    $ns duplex-link $s1 $r1 8Mb 5ms DropTail
    $ns duplex-link $r1 $k1 800Kb 100ms DropTail
    $ns queue-limit $r1 $k1 6
    set tf [open out.tr w]
    $ns trace-queue $r1 $k1 $tf
    $ns trace-queue $k1 $r1 $tf
    set em [new ErrorModule Fid]
    set el [new ErrorModel/List]
    $el droplist {DROPS}
    [$ns link $r1 $k1] errormodule $em
    $em insert $el
    $em bind $el 0
    $em default pass
    set src [new Agent/TCP/CLASS]
    set sink [new Agent/TCP/CLASS]
    $ns attach-agent $s1 $src
    $ns attach-agent $k1 $sink
    $ns connect $src $sink
    $sink listen
    $src set window_ 100
    set ftp [$src attach-app FTP]
    set cf [open cwnd.tr w]
    $src trace cwnd_
    $src attach $cf
    $ns at 0.0 "$ftp start"
    $ns at END "close $tf; close $cf; exit 0"
    $ns run
"""


def one_drop(cls: str, drops: str, end: str) -> str:
    return ONE_DROP.replace("CLASS", cls).replace("DROPS", drops).replace("END", end)


@pytest.mark.parametrize("cls", ["FullTcp", "FullTcp/Newreno", "FullTcp/Tahoe"])
def test_full_tcp_fast_retransmit_sends_one_segment(vs_ns2: Any, cls: str) -> None:
    got = vs_ns2(one_drop(cls, "4", "1.0")).same("out.tr", "cwnd.tr")
    lines = [line.split() for line in got["out.tr"].splitlines()]
    [drop] = [f for f in lines if f[0] == "d"]
    seq = drop[10]
    resent = next(i for i, f in enumerate(lines)
                  if f[0] == "+" and f[4] == "tcp" and f[10] == seq and i > lines.index(drop))
    after = lines[resent + 1]
    if cls in ("FullTcp", "FullTcp/Newreno"):  # Reno and Newreno: no new data at the same instant
        assert not (after[0] == "+" and after[4] == "tcp" and after[1] == lines[resent][1])


def test_full_tcp_lost_syn_is_sent_again(vs_ns2: Any) -> None:
    """The loss model's first packet on the initiator's side is the SYN (test-suite-full's
    droppedsyn): FullTcpAgent::timeout resends it after the initial timeout."""
    got = vs_ns2(one_drop("FullTcp", "0", "8.0")).same("out.tr", "cwnd.tr")
    lines = [line.split() for line in got["out.tr"].splitlines()]
    assert lines[0][0] == "d" and lines[0][13] == "0xa"  # the SYN, dropped
    syns = [f for f in lines if f[0] == "+" and f[13] == "0xa"]
    assert len(syns) == 1 and float(syns[0][1]) > 1.0  # resent on the timer


def test_full_tcp_lost_syn_ack_is_sent_again(vs_ns2: Any) -> None:
    """The module on the acceptor's side numbers the connection's packets there, the SYN-ACK
    first (the engine's drop list with `connection`): dropped, it is resent by the
    acceptor's own timer, the initiator's resent SYN being ignored in SYN_RECEIVED
    (FullTcpAgent::recv)."""
    script = one_drop("FullTcp", "0", "8.0").replace(
        "[$ns link $r1 $k1] errormodule", "[$ns link $k1 $r1] errormodule")
    got = vs_ns2(script).same("out.tr", "cwnd.tr")
    lines = [line.split() for line in got["out.tr"].splitlines()]
    drops = [f for f in lines if f[0] == "d"]
    assert len(drops) == 1 and drops[0][13] == "0x1a"  # the SYN-ACK (SYN, ACK, PUSH)
    syn_acks = [f for f in lines if f[0] == "+" and f[13] == "0x1a" and f[2] == drops[0][2]]
    # the module sits at the link's entry, ahead of its `+`: only the resent one enters
    assert len(syn_acks) == 1 and float(syn_acks[0][1]) > 1.0  # resent on its timer


@pytest.mark.parametrize("cls", ["FullTcp", "FullTcp/Newreno", "FullTcp/Tahoe", "FullTcp/Sack"])
def test_full_tcp_dupack_threshold_is_tcprexmtthresh(vs_ns2: Any, cls: str) -> None:
    """FullTcpAgent::recv starts fast retransmit at the `tcprexmtthresh_`-th duplicate and
    never reads TcpAgent's `numdupacks_` (tcpOptions' onedrop_numdup4_*_full)."""
    script = one_drop(cls, "4", "1.0").replace(
        "set src [new", "Agent/TCP/FullTcp set tcprexmtthresh_ 4\n"
        "    Agent/TCP set numdupacks_ 2\n    set src [new")
    got = vs_ns2(script).same("out.tr")
    lines = [line.split() for line in got["out.tr"].splitlines()]
    [drop] = [f for f in lines if f[0] == "d"]
    later = lines[lines.index(drop):]
    resent = next(i for i, f in enumerate(later) if f[0] == "+" and f[4] == "tcp"
                  and f[10] == drop[10])
    # Three segments follow the loss: three duplicates, one below tcprexmtthresh_ (the default
    # 3, or numdupacks_ 2, would start fast retransmit): the retransmission timer resends.
    dups = [f for f in later[:resent] if f[0] == "r" and f[4] == "ack" and f[12] == drop[10]]
    assert len(dups) == 3
    assert float(later[resent][1]) - float(dups[-1][1]) > 0.2


# `$ns eventtrace-all` after `trace-all` (ns-2.35 tcl/lib/ns-lib.tcl): each TCP agent made after
# it writes its congestion events into trace-all's file (`Agent/TCP instproc init`,
# create-eventtrace), `E time addr daddr TCP type fid t_seqno_ int(cwnd_)`
# (TcpAgent::trace_event), between the arrival that caused them and what they send:
# FullTcpAgent's FAST_RETX (fast_retransmit; Tahoe's before its slowdown), SackFullTcpAgent's
# FAST_RECOVERY, slowdown's SLOW_START (a cut to one segment or within slow start: timeouts,
# Tahoe). The SCRIPT run, whole trace-all with its events.
@pytest.mark.parametrize("cls", ["FullTcp", "FullTcp/Newreno", "FullTcp/Tahoe", "FullTcp/Sack"])
def test_full_tcp_events_are_ns2s(vs_ns2: Any, cls: str) -> None:
    queues = ("    set tf [open out.tr w]\n    $ns trace-queue $r1 $k1 $tf\n"
              "    $ns trace-queue $r1 $s1 $tf\n")
    assert queues in SCRIPT
    script = SCRIPT.replace(queues, "").replace("CLASS", cls).replace(
        "set ns [new Simulator]\n", "set ns [new Simulator]\n    set tf [open out.tr w]\n"
        "    $ns trace-all $tf\n    $ns eventtrace-all\n")
    got = vs_ns2(script).same("out.tr")
    events = [line.split() for line in got["out.tr"].splitlines() if line.startswith("E ")]
    kinds = {f[5] for f in events}
    assert {"FAST_RETX", "SLOW_START"} <= kinds
    assert ("FAST_RECOVERY" in kinds) == (cls == "FullTcp/Sack")
    assert {tuple(f[2:5]) for f in events} == {("0", "3", "TCP")}  # addr, daddr


def test_testreno_full_suite_events(suite_states: Any) -> None:
    """ns-2.35's test-suite-testReno-full: its FullTcp tests' traces with their E lines."""
    tests = {"Tahoe_FullTCP", "Reno_FullTCP", "NewReno_FullTCP", "Tahoe_FullTCP2",
             "Reno_FullTCP2", "NewReno_FullTCP2"}
    assert suite_states("testReno-full", tests) == dict.fromkeys(tests, ("identical", ""))


def test_full_suite_delack_and_iss(suite_states: Any) -> None:
    """ns-2.35's test-suite-full: `segsperack_ 2` on the listener (delack: an ACK every second
    segment, else at the next tick of FullTcpAgent's delayed-ACK timer, every interval_ from
    time 0), and the listener's `iss_ 2144` (twoway1, twowayrandom: its direction numbered from
    2144, data both ways)."""
    tests = {"delack", "twoway1", "twowayrandom"}
    assert suite_states("full", tests) == dict.fromkeys(tests, ("identical", ""))


def test_ecn_ack_suite_ecn_syn_and_syn_ack_drops(suite_states: Any) -> None:
    """ns-2.35's test-suite-ecn-ack: `ecn_syn_` (RFC 5562's ECN-capable SYN-ACK as
    FullTcpAgent has it) with the SYN-ACK marked (`ecn_syn_wait_` 0: a window of two, halved;
    2: the SYN-ACK again, a window of one) or not, or dropped (the acceptor's own timer
    resends it; a duplicate SYN in SYN_RECEIVED is ignored), a drop list numbering the
    connection's packets on the acceptor's path, and TCPSink's `ecn_syn_` (synack2)."""
    tests = {"synack1_fulltcp", "synack2", "synack2_fulltcp", "synack2b_fulltcp",
             "synack3_fulltcp", "synack3b_fulltcp", "synack3c_fulltcp", "synack3d_fulltcp",
             "synack3f_fulltcp", "synack3g_fulltcp", "synack3h_fulltcp",
             "synack_many_fulltcp"}
    assert suite_states("ecn-ack", tests) == dict.fromkeys(tests, ("identical", ""))


def test_full_fixes_suite_dropped_syn_ack(suite_states: Any) -> None:
    """ns-2.35's test-suite-full-fixes: the SYN-ACK dropped (reno-drop-synack,
    ecn-drop-synack): resent by the acceptor's retransmission timer."""
    tests = {"reno-drop-synack", "ecn-drop-synack"}
    assert suite_states("full-fixes", tests) == dict.fromkeys(tests, ("identical", ""))


def test_full_tcp_initial_window_by_size_and_no_slow_start_restart(suite_states: Any) -> None:
    """windowInitOption_ 2 on FullTcp (RFC 3390's window from segsize_ plus headers, ecn-ack
    synack4c_fulltcp) and slow_start_restart_ false (ecn-full's smallwin3Ecn_tahoe_full)."""
    assert suite_states("ecn-ack", {"synack4c_fulltcp"}) == {
        "synack4c_fulltcp": ("identical", "")}
    assert suite_states("ecn-full", {"ecn_smallwin3Ecn_tahoe_full"}) == {
        "ecn_smallwin3Ecn_tahoe_full": ("identical", "")}
