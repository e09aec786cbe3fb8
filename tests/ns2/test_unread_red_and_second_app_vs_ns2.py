"""Two things others' scripts do that change nothing in ns-2.35, against ns-2:

- `Queue/RED set drop_tail_ false`: queue/red.cc binds drop_tail_ but never reads it
  (`REDQueue::pickPacketToDrop` takes the front with drop_front_, a random one with
  drop_rand_, else the arriving packet), so RED drops as it would with true.
- a second application attached to an agent (`$cbr2 attach-agent $tcp` after `$cbr1
  attach-agent $tcp`): apps/app.cc `Application::command "attach-agent"` calls
  `Agent::attachApp`, which makes the later one the agent's application; an earlier one that
  is never started sends nothing. Starting it is named not supported."""

from __future__ import annotations

RED = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
Queue/RED set drop_tail_ false
Queue/RED set thresh_ 3
Queue/RED set maxthresh_ 8
set a [$ns node]; set b [$ns node]; set c [$ns node]
$ns duplex-link $a $b 10Mb 2ms DropTail
$ns duplex-link $b $c 1Mb 20ms RED
$ns queue-limit $b $c 12
[[$ns link $b $c] queue] set drop_tail_ 0
set t [open q.tr w]
set q [[$ns link $b $c] queue]
$q trace curq_
$q attach $t
for {set i 0} {$i < 3} {incr i} {
    set tcp($i) [new Agent/TCP/Reno]
    $tcp($i) set window_ 40
    $ns attach-agent $a $tcp($i)
    set k($i) [new Agent/TCPSink]
    $ns attach-agent $c $k($i)
    $ns connect $tcp($i) $k($i)
    set f($i) [new Application/FTP]
    $f($i) attach-agent $tcp($i)
    $ns at [expr 0.1 * $i] "$f($i) start"
}
$ns at 4.0 {close $tr; close $t; exit 0}
$ns run
"""


def test_red_drop_tail_false_drops_as_ns2(vs_ns2):
    out = vs_ns2(RED).same("out.tr", "q.tr")["out.tr"]
    assert any(line.startswith("d ") for line in out.splitlines())


SECOND = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set a [$ns node]; set b [$ns node]
$ns duplex-link $a $b 1Mb 10ms DropTail
set tcp [new Agent/TCP/Newreno]
$ns attach-agent $a $tcp
set k [new Agent/TCPSink]
$ns attach-agent $b $k
$ns connect $tcp $k
set first [new Application/Traffic/CBR]
$first set rate_ 50Kb
$first attach-agent $tcp
set second [new Application/Traffic/CBR]
$second set rate_ 400Kb
$second attach-agent $tcp
$ns at 0.0 "$second start"
%s
$ns at 2.0 {close $tr; exit 0}
$ns run
"""


def test_second_application_is_the_agents(vs_ns2):
    out = vs_ns2(SECOND % "").same("out.tr")["out.tr"]
    sent = [x for x in out.splitlines() if x.startswith("+ ") and " tcp " in x]
    assert len(sent) > 150  # the second's 400Kb fills the 1Mb link (about 250), the first's 50Kb 60


def test_starting_the_first_is_named(vs_ns2):
    both = vs_ns2(SECOND % '$ns at 1.0 "$first start"')
    assert both.ns.code == 0
    assert both.ac.code == 2 and "not supported" in both.ac.err
    assert len(both.ac.err.strip().splitlines()) == 1
