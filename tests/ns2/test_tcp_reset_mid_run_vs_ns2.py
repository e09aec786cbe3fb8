"""`reset` of a one-way TCP agent and of its sink while the connection has data in flight
(ns-2.35 tcp/tcp.cc `TcpAgent::reset`, tcp/tcp-sack1.cc `Sack1TcpAgent::reset`, tcp/tcp-sink.cc
`TcpSink::reset` and `DelAckSink::reset`), live against ns-2.35: the agent starts over from
segment 0 with the initial window, `ssthresh_` from `window_`, a new RTT estimate and a new
`boot_time_`; each end then drops the packets of the earlier connection by their timestamps
(`lastreset_`); `rtt_active_` survives the reset, so the first ACK of the new connection
gives an RTT sample measured from the old timed segment. Resetting only the sink, or an agent
whose FTP ran endless (`curseq_` goes to 0: it stops), follows ns-2 as well. A reset
in fast recovery, or of the agent without its sink, stays refused in one line."""

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
set n3 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n3 $n1 10Mb 3ms DropTail
$ns duplex-link $n1 $n2 1Mb 15ms DropTail
$ns queue-limit $n1 $n2 12
set tcp [new Agent/@AGENT@]
$tcp set window_ 16
$tcp set packetSize_ 512
$ns attach-agent $n0 $tcp
set sink [new Agent/@SINK@]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
set udp [new Agent/UDP]
$ns attach-agent $n3 $udp
set null [new Agent/Null]
$ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 700
$cbr set interval_ 0.011
$cbr attach-agent $udp
$ns at 0.05 "$cbr start"
$ns at 0.0 "$ftp @FIRST@"
@RESETS@
$ns at 6.0 "$ns flush-trace; close $tr; exit 0"
$ns run
"""


def _script(agent: str, sink: str, resets: str, first: str = "produce 40") -> str:
    return (SCRIPT.replace("@AGENT@", agent).replace("@SINK@", sink)
            .replace("@RESETS@", resets).replace("@FIRST@", first))


BOTH = """
$ns at 0.27 "$tcp reset"
$ns at 0.27 "$sink reset"
$ns at 0.3 "$ftp producemore 60"
$ns at 2.13 "$tcp reset"
$ns at 2.13 "$sink reset"
$ns at 2.5 "$ftp producemore 30"
"""


def _tcp_packets(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines() if line.split()[4] == "tcp"]


@pytest.mark.parametrize("agent,sink", [
    ("TCP", "TCPSink"),
    ("TCP/Reno", "TCPSink/DelAck"),
    ("TCP/Newreno", "TCPSink"),
    ("TCP/Sack1", "TCPSink/Sack1"),
    ("TCP/Sack1", "TCPSink/Sack1/DelAck"),
])
def test_reset_with_data_in_flight_as_ns2(vs_ns2: Any, agent: str, sink: str) -> None:
    both = vs_ns2(_script(agent, sink, BOTH))
    lines = _tcp_packets(both.same("out.tr")["out.tr"])
    # Segment 0 leaves three times (one per connection), and segments sent before a reset
    # reach the sink after it (its "r" at n2, a data packet leaving n1 for n2).
    starts = [float(f[1]) for f in lines if f[0] == "+" and f[2] == "0" and f[10] == "0"]
    assert len(starts) == 3
    assert starts[1] >= 0.3 and starts[2] >= 2.5
    late = [f for f in lines if f[0] == "r" and f[3] == "2" and 0.27 < float(f[1]) < 0.3]
    assert late


def test_reset_of_the_sink_alone_as_ns2(vs_ns2: Any) -> None:
    # The sink forgets what came; the old connection's segments are dropped there, and the
    # sender, whose segments it no longer holds in order, times out again and again.
    resets = '$ns at 0.27 "$sink reset"\n$ns at 0.3 "$ftp producemore 60"'
    both = vs_ns2(_script("TCP/Reno", "TCPSink", resets))
    assert len(_tcp_packets(both.same("out.tr")["out.tr"])) > 100


def test_reset_of_the_agent_alone_is_refused(vs_ns2: Any) -> None:
    # ns-2 takes the old sink's ACKs of the old segments as ACKs of the new connection
    # (its segment 25 follows), which the engine does not model.
    resets = '$ns at 0.27 "$tcp reset"\n$ns at 0.3 "$ftp producemore 60"'
    both = vs_ns2(_script("TCP/Reno", "TCPSink", resets))
    assert both.ns.code == 0
    assert both.ac.code == 2
    err = both.ac.err.strip()
    assert len(err.splitlines()) == 1
    assert "s.tcl:" in err and "without resetting" in err and "not supported" in err


def test_reset_stops_an_endless_ftp_as_ns2(vs_ns2: Any) -> None:
    resets = '$ns at 1.0 "$tcp reset"\n$ns at 1.0 "$sink reset"\n' \
        '$ns at 3.0 "$ftp producemore 25"'
    both = vs_ns2(_script("TCP/Newreno", "TCPSink", resets, first="start"))
    lines = _tcp_packets(both.same("out.tr")["out.tr"])
    # Nothing leaves between the reset (curseq_ 0) and producemore.
    assert not [f for f in lines if f[0] == "+" and f[2] == "0" and 1.0 < float(f[1]) < 3.0]


def test_reset_in_fast_recovery_is_refused(vs_ns2: Any) -> None:
    # Reno with window_ 16 loses segments 25, 26, 30 and 40 at 0.18-0.27 s (the first test's
    # connection); at 0.35 s it is in fast recovery (the last duplicate ACKs of 40).
    resets = '$ns at 0.35 "$tcp reset"\n$ns at 0.35 "$sink reset"'
    both = vs_ns2(_script("TCP/Reno", "TCPSink", resets))
    assert both.ns.code == 0
    assert both.ac.code == 2
    err = both.ac.err.strip()
    assert len(err.splitlines()) == 1
    assert "s.tcl:" in err and "fast recovery" in err and "not supported" in err
