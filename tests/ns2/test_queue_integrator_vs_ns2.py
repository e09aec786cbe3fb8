"""A queue monitor's integrators (``$qmon get-bytes-integrator`` / ``get-pkts-integrator``),
read during the run as scripts that estimate a queue's mean delay do, against ns-2.35:
tools/integrator.cc's ``newPoint`` adds ``(x - lastx_) * lasty_`` only at the monitor's
arrivals, departures and drops, in ns-2's doubles, so ``sum_`` read between two of them does
not include the time since, and it rounds at each point (the engine keeps it so on a link
with ns-2's clock); ``reset`` sets all three to zero (lasty_ too, until the next point)."""

from __future__ import annotations

from collections.abc import Callable

from conftest import Both

SCRIPT = """
set ns [new Simulator]
set a [$ns node]
set b [$ns node]
set c [$ns node]
$ns duplex-link $a $b 10Mb 1ms DropTail
$ns duplex-link $b $c 1Mb 15ms DropTail
$ns queue-limit $b $c 12
foreach i {1 2} {
    set tcp($i) [new Agent/TCP/Reno]
    $tcp($i) set fid_ $i
    $ns attach-agent $a $tcp($i)
    set sink($i) [new Agent/TCPSink]
    $ns attach-agent $c $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
}
$ns at 0.0 "$ftp(1) start"
$ns at 0.7 "$ftp(2) start"
set qmon [$ns monitor-queue $b $c ""]
set bint [$qmon get-bytes-integrator]
set pint [$qmon get-pkts-integrator]
proc show {} {
    global ns bint pint qmon
    puts "[$ns now] bytes [$bint set sum_] [$bint set lastx_] [$bint set lasty_]\
 pkts [$pint set sum_] [$qmon set pkts_]"
    $ns at [expr [$ns now] + 0.25] "show"
}
$ns at 0.0 "show"
$ns at 2.1 "$qmon reset"
$ns at 3.3 "$pint set sum_ 1.5"
$ns at 4.0 "exit 0"
$ns run
"""


def test_integrators_read_during_the_run_as_in_ns2(vs_ns2: Callable[..., Both]) -> None:
    both = vs_ns2(SCRIPT)
    both.same()
    lines = both.ns.out.splitlines()
    assert len(lines) == 16
    # The queue builds up (so the sums move between reads), the reset zeroes them.
    sums = [float(x.split()[2]) for x in lines]
    assert sums[8] > sums[4] > 0
    assert 0 <= sums[9] < sums[8]
