"""`$agent close` on a FullTcp agent during the run, live against ns-2.35 (skipped without
`ns`), on the test-suite-full topology (an 800 kb/s bottleneck with a 6-packet queue, a
100-segment window): ns-2.35's `FullTcpAgent::usrclosed` puts the FIN right after the data sent
so far (`curseq_ = maxseq_ - 1`: data given but not sent are dropped, an FTP's endless send
stops) and sends it at once whatever the window (`send_much` with `force`); the listener
acknowledges the FIN at once and, without `halfclose_`, closes too once its own data are
acknowledged (the end of `recv`): its FIN follows that ACK. A FIN carries no CWR mark
(`foutput` marks only data), and a retransmission of the last data segment while the FIN is
unacknowledged carries FIN too (`foutput`: `outflags` in FIN-WAIT-1 and the segment empties
the buffer). The router's two queues are traced into one file with ns-2's TCP header columns."""

from __future__ import annotations

import pytest

SCRIPT = """
    Agent/TCP set tcpTick_ 0.1
    Agent/TCP set rfc2988_ false
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
    $src set window_ 100
    set ftp [$src attach-app FTP]
    set tf [open out.tr w]
    $ns trace-queue $r1 $k1 $tf
    $ns trace-queue $k1 $r1 $tf
    $ns at 0.0 "$ftp APP"
    $ns at CLOSE "$src close"
    $ns at 8.0 "close $tf; exit 0"
    $ns run
"""

CASES = {
    # All 30 segments acknowledged long before the close: the FIN, the listener's ACK of it
    # and its own FIN, the last ACK.
    "idle": ("produce 30", "4.0"),
    # An endless FTP closed in slow start, its window full, queue drops behind it: the FIN
    # leaves at once beyond the window, the losses are recovered after it (the last data
    # segment's retransmission carries FIN).
    "in-flight": ("start", "1.5"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_full_tcp_close_during_the_run_as_ns2(vs_ns2, case: str) -> None:
    app, at = CASES[case]
    both = vs_ns2(SCRIPT.replace("APP", app).replace("CLOSE", at))
    trace = both.same("out.tr")["out.tr"]
    fins = [line for line in trace.splitlines()
            if line.startswith("- ") and int(line.split()[-3], 16) & 0x1]
    # Both ends sent a FIN (the listener's labelled ack, as ns-2 labels a listener's segments).
    assert any(" tcp " in line for line in fins), trace[-2000:]
    assert any(" ack " in line for line in fins), trace[-2000:]
