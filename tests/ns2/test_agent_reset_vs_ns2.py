"""`reset` of a one-way TCP agent and its sink during the run (ns-2.35 tcp/tcp.cc
`TcpAgent::reset`, tcp/tcp-sink.cc `TcpSink::reset`), as adaptive-red's `newtraffic` uses it:
agents given no data (`produce 0`) are reset, then given data (`producemore`). Nothing of the
connection has changed yet, so only TcpAgent::reset's draw of boot_time_ from the default
generator remains, which moves RED's early drops. An agent that has sent, reset without its
sink, stays refused.

Also Sack1TcpAgent::dupack_action's `reset_rtx_timer(1, 0)`: the fast retransmission ends the
RTT measurement in progress (`rtt_active_ = 0`), so the ACK that ends recovery gives no
sample from a segment sent before it; the background Sack1 flow's traced srtt_ shows it."""

from __future__ import annotations

from typing import Any

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms RED
$ns queue-limit $n1 $n2 20
set tcp [new Agent/TCP/Sack1]
$tcp set window_ 30
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink/Sack1]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set st [open srtt.tr w]
$tcp attach $st
$tcp trace srtt_
$tcp trace rttvar_
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$ftp start"
for {set i 0} {$i < 4} {incr i} {
    set c [$ns create-connection-list @AGENT@ $n0 @SINK@ $n2 [expr $i + 1]]
    set src($i) [lindex $c 0]
    set dst($i) [lindex $c 1]
    $src($i) set window_ 20
    set f($i) [$src($i) attach-app FTP]
    $ns at 0.0 "$f($i) produce 0"
    set t [expr 2.0 + $i * 0.7]
    $ns at $t "$src($i) reset"
    $ns at $t "$dst($i) reset"
    $ns at $t "$f($i) producemore 200"
}
@LATE@
$ns at 8.0 "$ns flush-trace; close $tr; close $st; exit 0"
$ns run
"""


def _script(agent: str, sink: str, late: str = "") -> str:
    return SCRIPT.replace("@AGENT@", agent).replace("@SINK@", sink).replace("@LATE@", late)


def test_reset_before_data_as_ns2(vs_ns2: Any) -> None:
    both = vs_ns2(_script("TCP/Sack1", "TCPSink/Sack1"))
    want = both.same("out.tr", "srtt.tr")
    lines = want["out.tr"].splitlines()
    # RED's early drops and overflows: the random draws after the resets' boot_time_ draws.
    assert sum(line.startswith("d ") for line in lines) > 20
    # Each reset flow sends its SYN (segment 0) and segments up to 200 (flows 1-4: the fid
    # field); the first three finish before the end.
    sent = {fid: {line.split()[10] for line in lines
                  if line.startswith("+ ") and line.split()[7] == fid
                  and line.split()[4] == "tcp" and line.split()[2] == "0"}
            for fid in "1234"}
    assert [len(sent[fid]) for fid in "123"] == [201] * 3
    assert len(sent["4"]) > 100
    assert len(want["srtt.tr"].splitlines()) > 20


def test_reset_before_data_on_tahoe_as_ns2(vs_ns2: Any) -> None:
    both = vs_ns2(_script("TCP", "TCPSink/DelAck"))
    both.same("out.tr", "srtt.tr")


def test_reset_after_sending_without_the_sink_is_refused(vs_ns2: Any) -> None:
    both = vs_ns2(_script("TCP/Sack1", "TCPSink/Sack1", '$ns at 5.0 "$src(0) reset"'))
    assert both.ns.code == 0
    assert both.ac.code == 2
    err = both.ac.err.strip()
    assert len(err.splitlines()) == 1
    # (Its sink is not reset with it: tests/ns2/test_tcp_reset_mid_run_vs_ns2.py.)
    assert "s.tcl:" in err and "without resetting" in err
    assert "not supported" in err


def test_adaptive_red_resets_as_ns2(suite_states: Any) -> None:
    tests = {"red2", "red3Adapt", "red4Adapt"}
    assert suite_states("adaptive-red", tests) == dict.fromkeys(tests, ("identical", ""))
