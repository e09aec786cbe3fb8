"""The simulation side: $ns at scheduling, sinks, queue monitors, loss models, traces, CBR."""

from __future__ import annotations

import re
from pathlib import Path

import pytest


def test_at_events_run_in_time_then_insertion_order_and_may_reschedule(ns2):
    r = ns2("""
        set ns [new Simulator]
        proc tick {n} {
            global ns
            puts "tick $n [$ns now]"
            if {$n < 3} { $ns at [expr [$ns now] + 0.25] "tick [expr $n + 1]" }
        }
        $ns at 0.5 "puts a"
        $ns at 0.5 "puts b"
        $ns at 0.1 "tick 1"
        $ns at [expr 0.1 + 0.2] {puts "odd [$ns now]"}
        $ns at 2 "exit 0"
        $ns run
    """)
    assert r.code == 0, r.err
    assert r.out.split("\n")[:6] == ["tick 1 0.10000000000000001", "odd 0.30000000000000004",
                                      "tick 2 0.34999999999999998", "a", "b",
                                      "tick 3 0.59999999999999998"]


def test_run_returns_when_no_events_are_left(ns2, one_flow):
    r = ns2(one_flow + """
        $ns at 0.0 "$ftp start"
        $ns at 1.0 {puts "last at [$ns now]"}
        $ns run
        puts "after run"
    """)
    assert r.code == 0, r.err
    assert r.out.split("\n")[:2] == ["last at 1", "after run"]


def test_halt_stops_the_run(ns2, one_flow):
    r = ns2(one_flow + """
        $ns at 1.0 "$ns halt"
        $ns at 2.0 "puts never"
        $ns run
        puts "halted at [$ns now]"
    """)
    assert r.code == 0, r.err
    assert "never" not in r.out
    assert "halted at 1" in r.out


def test_sink_bytes_can_be_read_and_reset_mid_run(ns2, one_flow):
    # 10 Mb/s for 1 s is 1.25 MB; after slow start the sink must see most of that per second.
    r = ns2(one_flow + """
        $tcp set window_ 1000
        proc record {} {
            global ns sink
            puts "[$ns now] [$sink set bytes_]"
            $sink set bytes_ 0
            $ns at [expr [$ns now] + 1.0] record
        }
        $ns at 0.0 "$ftp start"
        $ns at 1.0 record
        $ns at 5.5 "exit 0"
        $ns run
    """)
    assert r.code == 0, r.err
    rows = [line.split() for line in r.out.strip().split("\n")]
    assert [row[0] for row in rows] == ["1", "2", "3", "4", "5"]
    per_second = [int(row[1]) for row in rows]
    # At most the link's rate (give or take one packet at the window's edges).
    assert all(b <= 10e6 / 8 + 1040 for b in per_second)
    # Not cumulative (the reset works) and the link is nearly full once the window has opened.
    assert all(b > 0.8 * 10e6 / 8 for b in per_second[2:])


def test_window_limits_throughput(ns2, one_flow):
    # window_ 5 packets per 20 ms round trip: at most 5 x 1040 B / 20 ms = 2.08 Mb/s.
    r = ns2(one_flow + """
        $tcp set window_ 5
        $ns at 0.0 "$ftp start"
        $ns at 10.0 {puts [$sink set bytes_]; exit 0}
        $ns run
    """)
    rate = int(r.out.strip()) * 8 / 10
    assert 1.5e6 < rate <= 5 * 1040 * 8 / 0.020


def test_app_stop_stops_the_flow(ns2, one_flow):
    r = ns2(one_flow + """
        $ns at 0.0 "$ftp start"
        $ns at 1.0 "$ftp stop"
        $ns at 2.0 {puts [$sink set bytes_]}
        $ns at 5.0 {puts [$sink set bytes_]; exit 0}
        $ns run
    """)
    a, b = (int(x) for x in r.out.split())
    assert a > 0 and a == b


def test_tcp_variables_are_live(ns2, one_flow):
    r = ns2(one_flow + """
        $ns at 0.0 "$ftp start"
        $ns at 0.0 {puts "[$tcp set cwnd_] [$tcp set backoff_]"}
        $ns at 0.3 {puts "[$tcp set cwnd_] [$tcp set rtt_] [$tcp set srtt_] [$tcp set ssthresh_]"}
        $ns at 0.31 "exit 0"
        $ns run
    """)
    assert r.code == 0, r.err
    first, later = r.out.strip().split("\n")
    cwnd, rtt, srtt, ssthresh = later.split()
    assert float(cwnd) >= 20  # slow start up to ssthresh (window_ 20), then linear growth
    assert int(rtt) == 2  # 20 ms round trip in 10 ms ticks
    # ns-2 keeps srtt_ in ticks scaled by 8; ns-2.35 prints 17 here (checked live): its
    # samples count the tick boundaries crossed from boot_time_, and one 20.9 ms round trip
    # crossed three (TcpAgent::rtt_update: t_srtt_ 16 + (3 - 2)).
    assert int(srtt) == 17
    assert int(ssthresh) == 20


def test_queue_monitor_counters_and_integrator(ns2):
    r = ns2("""
        set ns [new Simulator]
        set n0 [$ns node]
        set n1 [$ns node]
        set n2 [$ns node]
        $ns duplex-link $n0 $n1 100Mb 1ms DropTail
        $ns duplex-link $n1 $n2 1Mb 10ms DropTail
        $ns queue-limit $n1 $n2 10
        set tcp [$ns create-connection TCP/Reno $n0 TCPSink $n2 1]
        $tcp set window_ 100
        set ftp [$tcp attach-app FTP]
        set qm [$ns monitor-queue $n1 $n2 ""]
        set integ [$qm get-pkts-integrator]
        proc show {} {
            global qm integ
            foreach v {parrivals_ pdepartures_ pdrops_ pkts_ barrivals_ bdepartures_ bdrops_} {
                puts -nonewline "[$qm set $v] "
            }
            puts [$integ set sum_]
        }
        $ns at 0.0 "$ftp start"
        $ns at 20.0 "show; $qm set pdrops_ 0; $integ set sum_ 0; show; exit 0"
        $ns run
    """)
    assert r.code == 0, r.err
    before, after = r.out.strip().split("\n")
    arr, dep, drops, pkts, barr, bdep, bdrops, area = (float(x) for x in before.split())
    assert drops > 0  # a 100-packet window overflows a 10-packet buffer
    assert arr == dep + drops + pkts
    # 1040-byte segments, and one 40-byte SYN (ns-2's syn_ true) through the queue first.
    assert barr == 1040 * (arr - 1) + 40 and bdep == 1040 * (dep - 1) + 40
    assert bdrops == 1040 * drops
    assert 0 <= pkts <= 10
    # The mean backlog is between empty and the buffer (ns-2 holds limit - 1 waiting).
    assert 0 < area / 20 < 9
    reset = after.split()
    assert reset[2] == "0" and float(reset[-1]) == 0.0
    assert reset[0] == before.split()[0]


def test_link_lossmodel_drops_at_its_rate(ns2):
    r = ns2("""
        set ns [new Simulator]
        set a [$ns node]
        set b [$ns node]
        $ns simplex-link $a $b 10Mb 5ms DropTail
        $ns simplex-link $b $a 10Mb 5ms DropTail
        $ns queue-limit $a $b 1000
        set em [new ErrorModel]
        $em set rate_ 0.05
        $em unit pkt
        $em ranvar [new RandomVariable/Uniform]
        $em drop-target [new Agent/Null]
        $ns link-lossmodel $em $a $b
        set udp [new Agent/UDP]
        set null [new Agent/Null]
        $ns attach-agent $a $udp
        $ns attach-agent $b $null
        $ns connect $udp $null
        set cbr [new Application/Traffic/CBR]
        $cbr set packetSize_ 500
        $cbr set rate_ 4Mb
        $cbr attach-agent $udp
        set qm [$ns monitor-queue $a $b ""]
        $ns at 0 "$cbr start"
        $ns at 10 {puts "[$qm set parrivals_] [$qm set pdrops_]"; exit 0}
        $ns run
    """)
    assert r.code == 0, r.err
    arrivals, drops = (int(x) for x in r.out.split())
    assert abs(arrivals - 10 * 4e6 / 8 / 500) <= 2  # CBR: one 500-byte packet per ms
    # Binomial(10000, 0.05): mean 500, sd ~22.
    assert 400 < drops < 600


def test_traced_variables_are_written_in_ns2_format(ns2, one_flow):
    r = ns2(one_flow + """
        set f [open cwnd.tr w]
        $tcp trace cwnd_
        $tcp trace ssthresh_
        $tcp attach $f
        $ns at 0.0 "$ftp start"
        $ns at 1.0 "close $f; exit 0"
        $ns run
    """)
    assert r.code == 0, r.err
    lines = r.file("cwnd.tr").splitlines()
    assert len(lines) > 20
    pattern = re.compile(r"^(\d+\.\d{5}) +0  0  1  0  (cwnd_ \d+\.\d{3}|ssthresh_ \d+) *$")
    cwnd = []
    for line in lines:
        m = pattern.match(line)
        assert m, line
        if "cwnd_" in line:
            cwnd.append(float(line.split()[-1]))
    times = [float(line.split()[0]) for line in lines]
    assert times == sorted(times)
    # Slow start from windowInit_ 2: one more segment per ACK.
    assert cwnd[:4] == [2.0, 3.0, 4.0, 5.0]


def test_setting_tcp_parameters_during_the_run_is_refused(ns2, one_flow):
    r = ns2(one_flow + """
        $ns at 0.0 "$ftp start"
        $ns at 1.0 "$tcp set window_ 50"
        $ns run
    """)
    assert r.code == 2
    assert "window_" in r.err and "during the run" in r.err


def test_unsupported_tcp_variable_is_reported_where_it_was_set(ns2, one_flow):
    r = ns2(one_flow + """
        $tcp set QOption_ 1
        $ns at 1.0 "exit 0"
        $ns run
    """)
    assert r.code == 2
    assert "script.tcl:13:" in r.err and "QOption_" in r.err


def test_error_inside_an_at_event_names_where_it_was_scheduled(ns2, one_flow):
    r = ns2(one_flow + """
        proc broken {} { puts $nowhere }
        $ns at 0.5 broken
        $ns run
    """)
    assert r.code == 1
    assert "script.tcl:14:" in r.err and "nowhere" in r.err and "broken" in r.err


def test_trace_all_writes_ns2_lines_up_to_the_finish_proc(ns2):
    r = ns2("""
        set ns [new Simulator]
        set nf [open out.nam w]
        $ns namtrace-all $nf
        set tr [open out.tr w]
        $ns trace-all $tr
        set n0 [$ns node]
        set n1 [$ns node]
        $ns duplex-link $n0 $n1 10Mb 10ms DropTail
        set tcp [new Agent/TCP/Reno]
        $tcp set fid_ 7
        set sink [new Agent/TCPSink]
        $ns attach-agent $n0 $tcp
        $ns attach-agent $n1 $sink
        $ns connect $tcp $sink
        set ftp [new Application/FTP]
        $ftp attach-agent $tcp
        proc finish {} {
            global ns tr
            $ns flush-trace
            close $tr
            exit 0
        }
        $ns at 0.0 "$ftp start"
        $ns at 1.0 "finish"
        $ns run
    """)
    assert r.code == 0, r.err
    lines = r.file("out.tr").splitlines()
    assert lines[0] == "+ 0 0 1 tcp 40 ------- 7 0.0 1.0 0 0"
    assert lines[1] == "- 0 0 1 tcp 40 ------- 7 0.0 1.0 0 0"
    times = [float(x.split()[1]) for x in lines]
    assert times == sorted(times) and 0.9 < times[-1] <= 1.0
    assert {x.split()[4] for x in lines} == {"tcp", "ack"}


def test_trace_queue_traces_one_link_direction_into_its_own_file(ns2):
    r = ns2("""
        set ns [new Simulator]
        set all [open all.tr w]
        $ns trace-all $all
        set q [open q.tr w]
        set n0 [$ns node]
        set n1 [$ns node]
        set n2 [$ns node]
        $ns duplex-link $n0 $n1 10Mb 10ms DropTail
        $ns duplex-link $n1 $n2 1Mb 20ms DropTail
        $ns queue-limit $n1 $n2 5
        $ns trace-queue $n1 $n2 $q
        set tcp [new Agent/TCP/Reno]
        set sink [new Agent/TCPSink]
        $ns attach-agent $n0 $tcp
        $ns attach-agent $n2 $sink
        $ns connect $tcp $sink
        set ftp [new Application/FTP]
        $ftp attach-agent $tcp
        $ns at 0.0 "$ftp start"
        $ns at 2.0 "$ns flush-trace; close $all; close $q; exit 0"
        $ns run
    """)
    assert r.code == 0, r.err
    queue = r.file("q.tr").splitlines()
    every = r.file("all.tr").splitlines()
    # The queue's trace is exactly trace-all's lines of the n1 -> n2 direction, drops too.
    assert queue == [x for x in every if x.split()[2:4] == ["1", "2"]]
    assert {x[0] for x in queue} == {"+", "-", "r", "d"}


def test_trace_queue_needs_a_file_or_trace_all(ns2):
    r = ns2("""
        set ns [new Simulator]
        set n0 [$ns node]
        set n1 [$ns node]
        $ns duplex-link $n0 $n1 10Mb 10ms DropTail
        $ns trace-queue $n0 $n1
        $ns run
    """)
    assert r.code != 0
    assert "trace-queue" in r.err and "Traceback" not in r.err


def test_flow_monitor_counts_each_fid_and_adds_up_to_the_queue(ns2):
    r = ns2("""
        set ns [new Simulator]
        set n0 [$ns node]; set n1 [$ns node]; set n2 [$ns node]
        $ns duplex-link $n0 $n1 10Mb 10ms DropTail
        $ns duplex-link $n1 $n2 1Mb 20ms DropTail
        $ns queue-limit $n1 $n2 10
        set qm [$ns monitor-queue $n1 $n2 ""]
        set fmon [$ns makeflowmon Fid]
        $ns attach-fmon [$ns link $n1 $n2] $fmon
        foreach id {3 4 5} {
            set tcp($id) [new Agent/TCP/Reno]; $tcp($id) set fid_ $id
            $ns attach-agent $n0 $tcp($id)
            set s [new Agent/TCPSink]; $ns attach-agent $n2 $s; $ns connect $tcp($id) $s
            set ftp($id) [new Application/FTP]; $ftp($id) attach-agent $tcp($id)
            $ns at 0.0 "$ftp($id) start"
        }
        proc check {} {
            global fmon qm
            set cl [$fmon classifier]
            foreach v {parrivals_ barrivals_ pdepartures_ bdepartures_ pdrops_ bdrops_} {
                set sum 0
                foreach f [$fmon flows] { incr sum [$f set $v] }
                puts "$v [$fmon set $v] [$qm set $v] $sum"
            }
            puts "flows [llength [$fmon flows]] [[$cl lookup auto 0 0 4] set flowid_]"
            puts "none [$cl lookup auto 0 0 9]"
            exit 0
        }
        $ns at 5.0 check
        $ns run
    """)
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    for line in lines[:6]:
        name, fmon, qmon, total = line.split()
        assert int(fmon) == int(qmon) == int(total) and int(fmon) > 0, line
    assert lines[6] == "flows 3 4"
    assert lines[7] == "none "


def test_flow_monitor_other_classifiers_are_refused(ns2):
    r = ns2("""
        set ns [new Simulator]
        set fmon [$ns makeflowmon SrcDest]
    """)
    assert r.code == 2 and "script.tcl:2:" in r.err and "SrcDest" in r.err


def test_tmix_objects_replay_the_vectors(ns2, tmp_path):
    sample = Path(__file__).resolve().parents[2] / "examples" / "tmix" / "sample.vec"
    (tmp_path / "v.vec").write_text(sample.read_text())
    script = """
        set ns [new Simulator]
        set n(0) [$ns node]; set n(1) [$ns node]
        set d [$ns tmix_net]
        $d set-flowfile v.vec [$n(0) id] [$n(1) id]
        $d set-lossless
        $ns duplex-link $n(0) $d 100Mb 1ms DropTail
        $ns duplex-link $d $n(1) 10Mb 10ms DropTail
        set t [new Tmix_End]
        $t set-init $n(0); $t set-acc $n(1); $t set-ID 3; $t set-cvfile v.vec
        $t set-pkt-size 1000
        set q [$ns monitor-queue $d $n(1) ""]
        $ns at 0.5 "$t start"
        $ns at 0.49 {puts "before [$q set parrivals_]"}
        $ns at 30 {puts "late [$q set barrivals_]"; exit 0}
        $ns run
    """
    r = ns2(script)
    assert r.code == 0, r.err
    before, late = r.out.splitlines()
    assert before == "before 0"  # nothing before the start
    # Every ADU byte the initiator writes (350 + 420 + 200 + 5000 + 7000) crosses, with headers.
    assert int(late.split()[1]) > 350 + 420 + 200 + 5000 + 7000


def test_tmix_needs_its_nodes_and_file(ns2):
    r = ns2("""
        set ns [new Simulator]
        set n0 [$ns node]
        set t [new Tmix]
        $t set-init $n0
        $ns run
    """)
    assert r.code == 2 and "set-acc" in r.err and "Traceback" not in r.err


CREATE_TRACE = """
    set ns [new Simulator]
    set all [open all.tr w]
    $ns trace-all $all
    set n0 [$ns node]; set n1 [$ns node]; set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 10ms DropTail
    $ns duplex-link $n1 $n2 1Mb 20ms DropTail
    set em [new ErrorModel]; $em set rate_ 0.05; $em unit pkt
    $em ranvar [new RandomVariable/Uniform]
    set f [open lost.tr w]
    set tr [$ns create-trace Drop $f $n1 $n2]
    BEFORE
    $ns link-lossmodel $em $n1 $n2
    AFTER
    set qm [$ns monitor-queue $n1 $n2 ""]
    set tcp [new Agent/TCP/Reno]
    $ns attach-agent $n0 $tcp
    set sink [new Agent/TCPSink]; $ns attach-agent $n2 $sink; $ns connect $tcp $sink
    set ftp [new Application/FTP]; $ftp attach-agent $tcp
    $ns at 0.1 "$ftp start"
    $ns at 10.0 {puts [$qm set pdrops_]; $ns flush-trace; close $all; close $f; exit 0}
    $ns run
"""


def test_create_trace_as_a_loss_models_drop_target_gets_its_drops(ns2):
    r = ns2(CREATE_TRACE.replace("BEFORE", "").replace("AFTER", "$em drop-target $tr"))
    assert r.code == 0, r.err
    lost = r.file("lost.tr").splitlines()
    # The queue never overflows here (no queue limit reached): every drop is the model's.
    assert len(lost) == int(r.out) > 0
    assert all(x.startswith("d ") and x.split()[2:4] == ["1", "2"] for x in lost)
    # As in ns-2, they no longer reach the link's own drop trace (trace-all).
    assert not [x for x in r.file("all.tr").splitlines() if x.startswith("d ")]


def test_a_drop_target_set_before_link_lossmodel_is_replaced_by_the_links(ns2):
    r = ns2(CREATE_TRACE.replace("BEFORE", "$em drop-target $tr").replace("AFTER", ""))
    assert r.code == 0, r.err
    assert r.file("lost.tr") == ""
    drops = [x for x in r.file("all.tr").splitlines() if x.startswith("d ")]
    assert len(drops) == int(r.out) > 0


def test_delack_sink_and_create_connection_list(ns2):
    r = ns2("""
        set ns [new Simulator]
        set a [$ns node]
        set b [$ns node]
        $ns duplex-link $a $b 10Mb 10ms DropTail
        set pair [$ns create-connection-list TCP/Newreno $a TCPSink/DelAck $b 3]
        set tcp [lindex $pair 0]
        set sink [lindex $pair 1]
        puts "[$tcp info class] [$sink info class] [$tcp set fid_] [$sink set interval_]"
        set ftp [new Application/FTP]
        $ftp attach-agent $tcp
        $ns at 0 "$ftp start"
        $ns at 2 {puts [$sink set bytes_]; exit 0}
        $ns run
    """)
    assert r.code == 0, r.err
    head, got = r.out.strip().split("\n")
    assert head == "Agent/TCP/Newreno Agent/TCPSink/DelAck 3 0.10000000000000001"
    assert int(got) > 100_000


RED_NET = """
    set ns [new Simulator]
    set s [$ns node]
    set r [$ns node]
    set d [$ns node]
    $ns duplex-link $s $r 100Mb 1ms DropTail
    $ns duplex-link $r $d 10Mb 20ms QUEUE
    $ns queue-limit $r $d 100
    set tcp [$ns create-connection TCP/Reno $s TCPSink $d 1]
    $tcp set window_ 200
    set ftp [$tcp attach-app FTP]
    set qm [$ns monitor-queue $r $d ""]
    $ns at 0 "$ftp start"
    $ns at 30 {puts "[$qm set pdrops_] [expr [[$qm get-pkts-integrator] set sum_] / 30]"; exit 0}
    $ns run
"""


def test_red_queue_keeps_the_queue_shorter_than_droptail(ns2):
    droptail = ns2(RED_NET.replace("QUEUE", "DropTail"))
    red = ns2("Queue/RED set thresh_ 5\nQueue/RED set maxthresh_ 15\n"
              + RED_NET.replace("QUEUE", "RED"))
    assert droptail.code == 0 and red.code == 0, red.err
    dt_drops, dt_queue = (float(x) for x in droptail.out.split())
    red_drops, red_queue = (float(x) for x in red.out.split())
    assert dt_queue > 40  # a window of 200 fills most of the 100-packet buffer
    assert 2 < red_queue < 15  # RED holds the average between its thresholds
    assert red_drops > 0


def test_unsupported_queue_variable(ns2):
    # REDQueue::pickPacketToDrop's random victim is not modelled (the arriving packet is);
    # drop_tail_, which red.cc binds but never reads, is accepted (test_unread_red_...).
    r = ns2("Queue/RED set drop_rand_ true\n" + RED_NET.replace("QUEUE", "RED"))
    assert r.code == 2
    assert "script.tcl:1:" in r.err and "drop_rand_" in r.err


def test_exponential_on_off_source_averages_its_duty_cycle(ns2):
    r = ns2("""
        set ns [new Simulator]
        set a [$ns node]
        set b [$ns node]
        $ns duplex-link $a $b 100Mb 1ms DropTail
        set udp [new Agent/UDP]
        set lm [new Agent/LossMonitor]
        $ns attach-agent $a $udp
        $ns attach-agent $b $lm
        $ns connect $udp $lm
        set src [new Application/Traffic/Exponential]
        $src set rate_ 8Mb
        $src set packetSize_ 1000
        $src set burst_time_ 100ms
        $src set idle_time_ 300ms
        $src attach-agent $udp
        $ns at 0 "$src start"
        $ns at 200 {puts [$lm set bytes_]; exit 0}
        $ns run
    """)
    assert r.code == 0, r.err
    rate = int(r.out) * 8 / 200
    # 8 Mb/s a quarter of the time: 2 Mb/s on average (about 500 on/off cycles).
    assert 1.7e6 < rate < 2.3e6


def test_start_before_run_after_delete_and_traceall_name(ns2, one_flow):
    r = ns2(one_flow + """
        $ftp start
        set tmp [new Agent/Null]
        delete $tmp
        puts "[info commands $tmp]|[$ns get-ns-traceall]|"
        $ns after 1.0 {puts "at [$ns now] [expr [$sink set bytes_] > 0]"; exit 0}
        $ns run
    """)
    assert r.code == 0, r.err
    assert r.out.split("\n")[:2] == ["||", "at 1 1"]


def test_detach_agent_during_the_run_stops_its_application(ns2, one_flow):
    r = ns2(one_flow + """
        $ns at 0 "$ftp start"
        $ns at 1 "$ns detach-agent $n0 $tcp"
        $ns at 2 {puts [$sink set bytes_]}
        $ns at 4 {puts [$sink set bytes_]; exit 0}
        $ns run
    """)
    a, b = (int(x) for x in r.out.split())
    assert 0 < a == b


def test_select_ca_after_the_agent_sent_is_refused(ns2):
    # Before its first segment the flow takes the algorithm (tests/ns2/test_tcp_linux_vs_ns2.py).
    r = ns2("""
        set ns [new Simulator]
        set n0 [$ns node]; set n1 [$ns node]
        $ns duplex-link $n0 $n1 10Mb 10ms DropTail
        set tcp [new Agent/TCP/Linux]
        set sink [new Agent/TCPSink/Sack1]
        $ns attach-agent $n0 $tcp; $ns attach-agent $n1 $sink; $ns connect $tcp $sink
        set ftp [$tcp attach-app FTP]
        $ns at 0 "$ftp start"
        $ns at 0.5 "$tcp select_ca cubic"
        $ns at 1 "exit 0"
        $ns run
    """)
    assert r.code == 2 and r.err.count("\n") == 1
    assert "select_ca on _o" in r.err and "after it started sending" in r.err


@pytest.mark.parametrize(("line", "what"), [
    ("$defaultRNG uniform a b", "expected a number, got 'a'"),
    ("$defaultRNG integer q", "expected an integer, got 'q'"),
    ("$ns after x {puts hi}", "expected a delay, got 'x'"),
    ("set t [new Tmix]; $t set-ID seven", "expected an integer, got 'seven'"),
    ("set fm [$ns makeflowmon Fid]; [$fm classifier] lookup auto 0 0 x",
     "expected a flow id, got 'x'"),
])
def test_a_malformed_number_in_a_command_is_the_scripts_error(ns2, line, what):
    r = ns2(f"set ns [new Simulator]\n{line}\n")
    assert r.code == 1 and "script.tcl:2:" in r.err and what in r.err
    assert "Traceback" not in r.err and "internal error" not in r.err


# Every ns-2.35 Agent/TCP variable is known (defaults.py): one set away from its default that
# ackclock does not model stops the script with one line; one that cannot matter here runs.
@pytest.mark.parametrize("setting,runs", [
    ("Agent/TCP set ts_resetRTO_ true", True),
    ("Agent/TCP set bugFix_ack_ true", True),  # NewRenoTcpAgent alone reads it
    ("Agent/TCP/Reno set lessCareful_ true", True),  # NewRenoTcpAgent alone reads it
    ("Agent/TCP set useHeaders_ false", True),  # packetSize_ on the wire
    ("Agent/TCP set windowInitOption_ 2", True),  # the window from packetSize_
    ("Agent/TCP set windowInitOption_ 2; Agent/TCP set useHeaders_ false", False),
    ("Agent/TCP set control_increase_ 1", True),  # control_increase (test_telnet_vs_ns2.py)
    ("Agent/TCP set QOption_ 1", False),
    ("Agent/TCP/Newreno set newreno_changes_ 1", True),  # the agent is Reno: not its class
    ("Agent/TCP set old_ecn_ 1", True),  # no ecn_: ECN-Echo never arrives
    ("Agent/TCPSink set SYN_immediate_ack_ false", True),  # read by DelAck sinks only
    ("Agent/TCP set updated_rttvar_ false", True),  # ns-2.35's C++ never reads it
    ("Agent/TCP set rfc2988_ false", True),  # rto_rule pre_rfc2988
])
def test_ns2_tcp_variables_are_modelled_or_refused(ns2, one_flow, setting, runs):
    r = ns2(setting + "\n" + one_flow + """
        $ns at 0.0 "$ftp start"
        $ns at 1.0 "exit 0"
        $ns run
    """)
    if runs:
        assert r.code == 0, r.err
    else:
        assert r.code == 2
        assert r.err.count("\n") == 1 and "script.tcl:1:" in r.err
        assert setting.split()[2] in r.err and "not supported" in r.err


def test_old_ecn_with_ecn_runs(ns2, one_flow):
    # Modelled (ns2_ecn = "old_ecn"; tests/ns2/test_ecn_vs_ns2.py compares it with ns-2.35).
    r = ns2("Agent/TCP set old_ecn_ 1\nAgent/TCP set ecn_ 1\n" + one_flow + """
        $ns at 0.0 "$ftp start"
        $ns at 1.0 "exit 0"
        $ns run
    """)
    assert r.code == 0, r.err
