"""A one-way TCP sender's counters read from a script, against a live ns-2.35 (skipped where
`ns` is not installed)."""

from __future__ import annotations

from typing import Any

# Four one-way agents through one 2 Mb/s bottleneck with a 15-packet buffer, so that each
# loses segments and sends some again; each agent's counters when the run ends.
SCRIPT = """
set ns [new Simulator]
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b 2Mb 20ms DropTail
$ns queue-limit $a $b 15
set i 0
foreach {cls sinkcls} {Agent/TCP/Newreno Agent/TCPSink Agent/TCP/Sack1 Agent/TCPSink/Sack1
                       Agent/TCP/Linux Agent/TCPSink/Sack1 Agent/TCP/Fack Agent/TCPSink/Sack1} {
    set s [$ns node]
    set r [$ns node]
    $ns duplex-link $s $a 100Mb 1ms DropTail
    $ns duplex-link $b $r 100Mb [expr 1 + 3 * $i]ms DropTail
    set tcp($i) [new $cls]
    if {$cls == "Agent/TCP/Linux"} { $tcp($i) select_ca reno }
    $tcp($i) set window_ 64
    set sink [new $sinkcls]
    $ns attach-agent $s $tcp($i)
    $ns attach-agent $r $sink
    $ns connect $tcp($i) $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp($i)
    $ns at [expr 0.1 * $i] "$ftp start"
    incr i
}
proc done {} {
    global tcp
    foreach i {0 1 2 3} {
        set line [$tcp($i) info class]
        foreach v {ndatapack_ ndatabytes_ nrexmitpack_ nrexmitbytes_ nackpack_} {
            append line " $v [$tcp($i) set $v]"
        }
        puts $line
    }
    exit 0
}
$ns at 10 done
$ns run
"""


def test_sender_counters_as_ns2(vs_ns2: Any) -> None:
    """`nackpack_` counts the ACKs that reached the agent (`++nackpack_` in TcpAgent::recv,
    tcp/tcp.cc, and in the Reno, NewReno, Sack1, Linux and Vegas versions; FackTcpAgent::recv
    has none, so a Fack agent's stays 0); `nrexmitbytes_` adds `size_` for each segment sent
    again (TcpAgent::output). Both were 0 whatever the agent did. `ndatabytes_` adds `size_`
    for each segment sent but the SYN (segment 0 with `syn_`: `databytes = 0`), which it
    counted."""
    both = vs_ns2(SCRIPT)
    assert both.ns.code == 0, both.ns.err
    assert both.ac.code == 0, both.ac.err

    # ns-2's LinuxTcpAgent prints `cmd select_ca reno` with a buffered printf, after the
    # script's own lines; the counters' lines are compared.
    def counters(out: str) -> list[str]:
        return [line for line in out.splitlines() if line.startswith("Agent/")]

    want = counters(both.ns.out)
    assert counters(both.ac.out) == want
    acks = {line.split()[0]: int(line.split()[-1]) for line in want}
    assert acks["Agent/TCP/Fack"] == 0
    assert all(acks[c] > 100 for c in ("Agent/TCP/Newreno", "Agent/TCP/Sack1",
                                       "Agent/TCP/Linux"))
    assert all(int(line.split()[6]) > 0 for line in want)  # every agent resent some
    # A SYN is a packet sent but no data bytes: one segment's size short of ndatapack_'s.
    assert all(int(line.split()[4]) == (int(line.split()[2]) - 1) * 1000 for line in want)
