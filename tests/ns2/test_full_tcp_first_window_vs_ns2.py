"""FullTcp's first window and its timeout in fast recovery (issue 28, ns-2.35's held-back
test-suite-tcp-init-win-full).

- `windowInitOption_ 2`: `TcpAgent::initial_window` takes 4, 3 or 2 segments from `size_`,
  which for a FullTcp agent is what `FullTcpAgent::foutput` makes it: segsize_ plus its
  header, or with `segsize_ 0` packetSize_ itself (maxseg_ = size_ - headersize()).
- `FullTcpAgent::timeout_action`'s slowdown() halves window(), min(cwnd_, wnd_), and a
  two-way Reno or NewReno agent's cwnd_ carries fast recovery's inflation (dupack_action's
  ssthresh_ + dupacks_, extra_ack's cwnd_++): a timeout during fast recovery halves the
  inflated window (the engine's `dupwnd`), not ssthresh_.

Live against ns-2.35: the packet traces and the traced cwnd_ and ssthresh_."""

from __future__ import annotations

import collections
from typing import Any

import pytest

FIRST = """
Agent/TCP/FullTcp set segsize_ 0
Agent/TCP set windowInitOption_ 2
Agent/TCP set delay_growth_ true
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 100Mb 1ms DropTail
$ns duplex-link $n1 $n2 10Mb 30ms DropTail
$ns queue-limit $n1 $n2 50
foreach {i size} {1 1000 2 1500 3 2500 4 1095 5 1096 6 2190} {
    set src [new Agent/TCP/FullTcp{variant}]
    set dst [new Agent/TCP/FullTcp{variant}]
    $src set packetSize_ $size
    $dst set packetSize_ $size
    $src set fid_ $i
    $ns attach-agent $n0 $src
    $ns attach-agent $n2 $dst
    $ns connect $src $dst
    $dst listen
    set ftp($i) [$src attach-app FTP]
    $ns at 0.0$i "$ftp($i) start"
}
$ns at 1.0 "$ns flush-trace; close $f; exit 0"
$ns run
"""


@pytest.mark.parametrize("variant", ["", "/Newreno", "/Tahoe", "/Sack"])
def test_window_init_option_2_from_packet_size(vs_ns2: Any, variant: str) -> None:
    lines = vs_ns2(FIRST.replace("{variant}", variant)).same("out.tr")["out.tr"].splitlines()
    # The first data burst of each flow leaving n0: RFC 3390's 4, 3 or 2 segments by
    # packetSize_ (size_ <= 1095: 4, below 2190: 3, else 2).
    bursts: dict[str, collections.Counter[str]] = {}
    for line in lines:
        f = line.split()
        if f[0] == "+" and f[2] == "0" and f[4] == "tcp" and f[5] != "40":
            bursts.setdefault(f[7], collections.Counter())[f[1]] += 1
    first = {fid: next(iter(c.values())) for fid, c in bursts.items()}
    assert first == {"1": 4, "2": 3, "3": 2, "4": 4, "5": 3, "6": 2}


RECOVERY = """
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 800Kb 50ms DropTail
$ns queue-limit $n1 $n2 20
set src [new Agent/TCP/FullTcp{variant}]
set dst [new Agent/TCP/FullTcp{variant}]
$src set window_ 40
$src set segsize_ 960
$ns attach-agent $n0 $src
$ns attach-agent $n2 $dst
$ns connect $src $dst
$dst listen
set cw [open cwnd.tr w]
$src attach $cw
$src trace cwnd_
$src trace ssthresh_
set ftp [$src attach-app FTP]
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [$udp attach-app Traffic/CBR]
$cbr set packetSize_ 500
$cbr set rate_ 1Mb
$ns at 0.0 "$ftp start"
$ns at 1.1 "$cbr start"
$ns at 1.4 "$cbr stop"
$ns at 6.0 "$ns flush-trace; close $f; close $cw; exit 0"
$ns run
"""


def _timeouts(cwnd_trace: str) -> list[tuple[float, float, float]]:
    """(cwnd_ before, ssthresh_ before, ssthresh_ after) at each fall of cwnd_ to one."""
    rows = [(line.split()[0], line.split()[5], float(line.split()[6]))
            for line in cwnd_trace.splitlines()]
    out = []
    cwnd = 0.0
    for k, (t, var, value) in enumerate(rows):
        if var == "cwnd_" and value == 1.0 and cwnd > 1.0:
            # ns-2's slowdown() sets ssthresh_ just before cwnd_ (when it changes it).
            before = [v for u, w, v in rows[:k] if w == "ssthresh_" and u != t]
            after = [v for u, w, v in rows[:k] if w == "ssthresh_"]
            out.append((cwnd, before[-1], after[-1]))
        if var == "cwnd_":
            cwnd = value
    return out


@pytest.mark.parametrize("variant", ["", "/Newreno"])
def test_a_timeout_in_fast_recovery_halves_the_inflated_window(vs_ns2: Any,
                                                               variant: str) -> None:
    got = vs_ns2(RECOVERY.replace("{variant}", variant)).same("out.tr", "cwnd.tr")
    assert len(got["out.tr"].splitlines()) > 5000
    # The retransmission is lost again; the timeout comes with cwnd_ inflated to 48 above
    # ssthresh_ 20 and halves min(48, window_ 40): ssthresh_ stays 20 (10 from the
    # deflated window).
    assert (48.0, 20.0, 20.0) in _timeouts(got["cwnd.tr"])
