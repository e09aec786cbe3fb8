"""ns-2.35's DiffServ queues (Queue/dsRED/edge and Queue/dsRED/core; diffserv/dsred.cc,
dsredq.cc, dsEdge.cc, dsPolicy.cc) against ns-2: each policer marking at an edge, RED per
virtual queue under each MRED mode, each scheduler between physical queues at a core, and the
tables and statistics as ns-2 prints them (``printPolicyTable``, ``printPolicerTable``,
``printPHBTable``, ``printStats``, ``getStat``, ``getAverage``, ``getCurrent``).

Two TCP flows and a CBR cross an edge (10 Mb/s) and a congested core (1.5 Mb/s); the packet
trace of every link and the printouts must be identical: ns-2's RED draws its early drops,
and the TSW markers their colors, from ns-2's default generator, in ns-2's order."""

from __future__ import annotations

import pytest

SCRIPT = """
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set a [$ns node]; set b [$ns node]; set c [$ns node]
set e [$ns node]; set k [$ns node]; set d [$ns node]
$ns duplex-link $a $e 10Mb 2ms DropTail
$ns duplex-link $b $e 10Mb 3ms DropTail
$ns duplex-link $c $e 10Mb 1ms DropTail
$ns simplex-link $e $k 10Mb 4ms dsRED/edge
$ns simplex-link $k $e 10Mb 4ms dsRED/core
$ns simplex-link $k $d 1.5Mb 10ms dsRED/core
$ns simplex-link $d $k 1.5Mb 10ms dsRED/edge
set qE [[$ns link $e $k] queue]
set qD [[$ns link $d $k] queue]
set qK [[$ns link $k $d] queue]
set qB [[$ns link $k $e] queue]
foreach q [list $qE $qD $qK $qB] {
    $q meanPktSize 800
    $q set numQueues_ 2
    $q setNumPrec 3
    $q addPHBEntry 10 0 0
    $q addPHBEntry 11 0 1
    $q addPHBEntry 12 0 2
    $q addPHBEntry 20 1 0
    $q addPHBEntry 21 1 1
    $q addPHBEntry 22 1 2
    $q addPHBEntry 0 1 2
    $q configQ 0 0 8 16 0.05
    $q configQ 0 1 5 10 0.1 0.01
    $q configQ 0 2 3 6 0.2
    $q configQ 1 0 6 12 0.05
    $q configQ 1 1 4 8 0.1
    $q configQ 1 2 2 5 0.3 0.02
    $q setMREDMode %(mred)s
}
$qK setSchedularMode %(sched)s
$qK addQueueWeights 0 3
$qK addQueueWeights 1 2
$qK addQueueRate 0 700000
$qE addPolicyEntry [$a id] [$d id] %(policy_a)s
$qE addPolicyEntry [$b id] [$d id] %(policy_b)s
$qE addPolicyEntry -1 [$d id] Null 22
$qE addPolicerEntry %(policer_a)s
$qE addPolicerEntry %(policer_b)s
$qE addPolicerEntry Null 22
$qD addPolicyEntry [$d id] -1 Dumb 0
$qD addPolicerEntry Dumb 0
$qE printPolicyTable
$qE printPolicerTable
$qK printPHBTable

proc tcp {src tag} {
    global ns d
    set t [new Agent/TCP/Reno]
    $t set window_ 30
    $t set fid_ $tag
    $ns attach-agent $src $t
    set s [new Agent/TCPSink]
    $ns attach-agent $d $s
    $ns connect $t $s
    set ftp [new Application/FTP]
    $ftp attach-agent $t
    return $ftp
}
set f1 [tcp $a 1]
set f2 [tcp $b 2]
set u [new Agent/UDP]
$ns attach-agent $c $u
set n [new Agent/Null]
$ns attach-agent $d $n
$ns connect $u $n
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $u
$cbr set packetSize_ 500
$cbr set rate_ 400k
$ns at 0.0 "$f1 start"
$ns at 0.2 "$f2 start"
$ns at 0.1 "$cbr start"
proc probe {} {
    global ns qK qE
    puts "[$ns now] [$qK getStat pkts] [$qK getStat drops] [$qK getStat edrops 11]\
 [$qK getAverage 0] [$qK getAverage 1] [$qK getCurrent 0] [$qE getStat pkts 21]"
    $ns at [expr [$ns now] + 1.0] probe
}
$ns at 0.5 probe
$ns at 4.0 "$qK printStats"
$ns at 8.0 "$qE printStats; $qK printStats"
$ns at 8.0 "close $f; exit 0"
$ns run
"""

POLICIES = {
    "tb": ("TokenBucket 10 400000 3000", "TokenBucket 20 300000 2000",
           "TokenBucket 10 11", "TokenBucket 20 21"),
    "srtcm": ("srTCM 10 400000 2000 3000", "srTCM 20 300000 1500 4000",
              "srTCM 10 11 12", "srTCM 20 21 22"),
    "trtcm": ("trTCM 10 300000 2000 600000 4000", "trTCM 20 200000 1000 500000 3000",
              "trTCM 10 11 12", "trTCM 20 21 22"),
    "tsw2cm": ("TSW2CM 10 400000", "TSW2CM 20 300000 0.5", "TSW2CM 10 11", "TSW2CM 20 21"),
    "tsw3cm": ("TSW3CM 10 300000 600000", "TSW3CM 20 200000 500000",
               "TSW3CM 10 11 12", "TSW3CM 20 21 22"),
}


def run(vs_ns2, policy: str, sched: str = "RR", mred: str = "RIO-C") -> str:
    pa, pb, ra, rb = POLICIES[policy]
    both = vs_ns2(SCRIPT % {"policy_a": pa, "policy_b": pb, "policer_a": ra,
                            "policer_b": rb, "sched": sched, "mred": mred})
    both.same("out.tr")
    return both.ns.out


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_each_policer_marks_as_ns2(vs_ns2, policy):
    out = run(vs_ns2, policy)
    # The edge downgraded some packets and the core dropped some, early ones among them.
    assert "Policy Table(3):" in out
    tail = out.split("Packets Statistics")[-1].splitlines()
    rows = {r.split()[0]: [int(x) for x in r.split()[1:]] for r in tail[4:] if r.strip()}
    assert rows["All"][2] + rows["All"][3] > 0, out
    assert any(cp in rows for cp in ("11", "21")), out


@pytest.mark.parametrize("sched", ["WRR", "WIRR", "PRI"])
def test_each_scheduler_as_ns2(vs_ns2, sched):
    run(vs_ns2, "srtcm", sched=sched)


@pytest.mark.parametrize("mred", ["RIO-D", "WRED", "DROP"])
def test_each_mred_mode_as_ns2(vs_ns2, mred):
    run(vs_ns2, "tb", mred=mred)


@pytest.mark.parametrize("line,what", [
    ("$q addPolicyEntry 0 1 SFD 10 1000", "the DiffServ SFD policy is not supported"),
    ("$q printWRRcount", 'command "printWRRcount" is not supported'),
])
def test_what_ackclock_lacks_stops_in_one_line(tmp_path, line, what):
    import subprocess
    import sys

    script = tmp_path / "s.tcl"
    script.write_text("set ns [new Simulator]\nset a [$ns node]; set b [$ns node]\n"
                      "$ns simplex-link $a $b 1Mb 1ms dsRED/edge\n"
                      "set q [[$ns link $a $b] queue]\n" + line + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "ackclock", "ns2", str(script)],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "s.tcl:5: " in done.stderr and what in done.stderr
