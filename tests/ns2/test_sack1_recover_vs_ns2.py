"""ns-2.35's Sack1TcpAgent::recv sets `recover_` to 0 on the ACK that ends fast recovery
(the engine's `sack_exit_clears_recover`, on under the ns2 profile): duplicate ACKs of that
very ACK start another fast retransmit at once (`dupack_action`'s `highest_ack_ >
recover_`), where a sender keeping its recovery point would wait for a timeout. Live against
ns-2.35: the packet trace and the traced cwnd_ must be identical (with the rule off the
trace parts from ns-2's at the second loss)."""

from __future__ import annotations

from typing import Any

# One Sack1 flow over a clean 10 Mb/s link; an ErrorModel/List drops the flow's 21st and
# 45th packets: the second is the first segment sent beyond the first recovery's point.
SCRIPT = """
    set ns [new Simulator]
    $ns trace-all [open out.tr w]
    set n0 [$ns node]
    set n1 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 10ms DropTail
    set tcp [new Agent/TCP/Sack1]
    set sink [new Agent/TCPSink/Sack1]
    $tcp set window_ 40
    $tcp set fid_ 1
    $ns attach-agent $n0 $tcp
    $ns attach-agent $n1 $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    set em [new ErrorModule Fid]
    [$ns link $n0 $n1] errormodule $em
    set m [new ErrorModel/List]
    $m droplist {20 44}
    $em insert $m
    $em bind $m 1
    set cf [open cwnd.tr w]
    $tcp attach $cf
    $tcp trace cwnd_
    $ns at 0 "$ftp start"
    $ns at 3 {puts "[$tcp set nrexmitpack_] [$tcp set ack_]"; close $cf; exit 0}
    $ns run
"""


def test_sack1_forgets_its_recovery_point_as_ns2(vs_ns2: Any) -> None:
    want = vs_ns2(SCRIPT).same("out.tr", "cwnd.tr")
    # Two losses, each repaired by a fast retransmit (no timeout: cwnd_ never falls to 1).
    assert sum(1 for line in want["out.tr"].splitlines() if line.startswith("d ")) == 2
    assert " 1.000" not in want["cwnd.tr"].split("\n", 2)[2]
