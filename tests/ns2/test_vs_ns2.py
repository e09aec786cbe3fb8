"""Live comparisons with ns-2.35 (skipped where `ns` is not installed)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (ns) not installed")


def both(tmp_path: Path, script: str, *args: str) -> tuple[Path, str, Path, str]:
    """Runs the script in ns-2 and in ackclock, each in its own folder."""
    out = []
    for who, cmd in (("ns", ["ns"]), ("ac", [sys.executable, "-m", "ackclock", "ns2"])):
        folder = tmp_path / who
        folder.mkdir()
        (folder / "s.tcl").write_text(textwrap.dedent(script), encoding="utf-8")
        done = subprocess.run([*cmd, "s.tcl", *args], cwd=folder, capture_output=True,
                              text=True, check=False, timeout=300)
        assert done.returncode == 0, done.stderr
        out += [folder, done.stdout]
    return out[0], out[1], out[2], out[3]


SINGLE = """
    set ns [new Simulator]
    set n0 [$ns node]
    set n1 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 10ms DropTail
    set tcp [new Agent/TCP/Reno]
    set sink [new Agent/TCPSink]
    $ns attach-agent $n0 $tcp
    $ns attach-agent $n1 $sink
    $ns connect $tcp $sink
    $tcp set window_ [lindex $argv 0]
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    set f [open cwnd.tr w]
    $tcp trace cwnd_
    $tcp attach $f
    proc record {} {
        global ns sink tcp
        puts "[$ns now] [$sink set bytes_] [$tcp set cwnd_]"
        $sink set bytes_ 0
        $ns at [expr [$ns now] + 0.5] record
    }
    $ns at 0.0 "$ftp start"
    $ns at 0.5 record
    $ns at 4.1 "close $f; exit 0"
    $ns run
"""


@pytest.mark.parametrize("window", ["20", "1000"])
def test_single_reno_flow_matches_ns2(tmp_path, window):
    ns_dir, ns_out, ac_dir, ac_out = both(tmp_path, SINGLE, window)
    ns_rows = [line.split() for line in ns_out.split("\n") if line]
    ac_rows = [line.split() for line in ac_out.split("\n") if line]
    assert [r[0] for r in ac_rows] == [r[0] for r in ns_rows]
    for a, b in zip(ac_rows, ns_rows, strict=True):
        assert abs(int(a[1]) - int(b[1])) <= 0.01 * int(b[1]) + 1040
        assert float(a[2]) == pytest.approx(float(b[2]), rel=0.01)
    ns_cwnd = [line for line in (ns_dir / "cwnd.tr").read_text().splitlines() if "cwnd_" in line]
    ac_cwnd = [line for line in (ac_dir / "cwnd.tr").read_text().splitlines() if "cwnd_" in line]
    assert ac_cwnd[:30] == ns_cwnd[:30]


SYMMETRIC = """
    set ns [new Simulator]
    set tr [open out.tr w]
    $ns trace-all $tr
    set sw [$ns node]
    set out [$ns node]
    $ns duplex-link $sw $out 10Mb 10ms DropTail
    $ns queue-limit $sw $out 20
    for {set i 0} {$i < 4} {incr i} {
        set s($i) [$ns node]
        set k($i) [$ns node]
        $ns duplex-link $s($i) $sw 10Mb 1ms DropTail
        $ns duplex-link $out $k($i) 10Mb 1ms DropTail
        set tcp($i) [new Agent/TCP/Reno]
        $tcp($i) set window_ 100
        $tcp($i) set fid_ $i
        $ns attach-agent $s($i) $tcp($i)
        set sink($i) [new Agent/TCPSink]
        $ns attach-agent $k($i) $sink($i)
        $ns connect $tcp($i) $sink($i)
        set ftp($i) [new Application/FTP]
        $ftp($i) attach-agent $tcp($i)
        $ns at 0.1 "$ftp($i) start"
    }
    proc finish {} { global ns tr; $ns flush-trace; close $tr; exit 0 }
    $ns at 3.0 "finish"
    $ns run
"""


def test_simultaneous_events_come_in_ns2s_order(tmp_path):
    """Four identical flows through one switch: their packets and the links' resumes meet at
    instants that are ties in exact time. ns-2 orders them by its double-valued times, then
    by scheduling order; the ns2 profile does the same, so the traces are the same bytes
    (ordered by exact time, then by ackclock's insertion order, they part at 0.153448 s)."""
    ns_dir, _, ac_dir, _ = both(tmp_path, SYMMETRIC)
    ns_lines = (ns_dir / "out.tr").read_text().splitlines()
    ac_lines = (ac_dir / "out.tr").read_text().splitlines()
    assert len(ns_lines) > 40_000
    first = next((i for i, (a, b) in enumerate(zip(ns_lines, ac_lines, strict=False))
                  if a != b), None)
    assert first is None, (first, ns_lines[first], ac_lines[first])
    assert len(ac_lines) == len(ns_lines)


def test_event_order_and_clock_formatting_match_ns2(tmp_path):
    script = """
        set ns [new Simulator]
        proc tick {n} {
            global ns
            puts "tick $n [$ns now] [expr [$ns now] * 3]"
            if {$n < 4} { $ns at [expr [$ns now] + 0.1] "tick [expr $n + 1]" }
        }
        $ns at 0.5 "puts a"
        $ns at 0.5 "puts b"
        $ns at 0.1 "tick 1"
        $ns at [expr 0.1 + 0.2] {puts "odd [$ns now]"}
        $ns at 2 "exit 0"
        $ns run
    """
    _, ns_out, _, ac_out = both(tmp_path, script)
    assert ac_out == ns_out


def test_seed000_topology2_total_throughput_within_5_percent(tmp_path):
    import re

    text = (Path(__file__).resolve().parents[2] / "examples" / "ns2" /
            "seed000_topology2.tcl").read_text()
    text = re.sub(r"^set MAX_TIME 500\.0;", "set MAX_TIME 6.0;", text, flags=re.M)
    ns_dir, _, ac_dir, _ = both(tmp_path, text)

    def total(folder: Path) -> float:
        rows = (folder / "throughputs.csv").read_text().splitlines()[2:]
        return sum(sum(float(x) for x in r.split(";")[1:]) for r in rows)

    assert total(ac_dir) == pytest.approx(total(ns_dir), rel=0.05)


@pytest.mark.parametrize("queue", ["RED", "DropTail"])
def test_red_validation_script_runs_unchanged_and_agrees(tmp_path, queue):
    """validation/ns2/red_tcp_cbr.tcl (written for ns-2) under both simulators."""
    script = (Path(__file__).resolve().parents[2] / "validation" / "ns2" /
              "red_tcp_cbr.tcl").read_text()
    _, ns_out, _, ac_out = both(tmp_path, script, "Reno", "4Mb", "40", "10", queue, "1")

    def values(out: str) -> dict[str, float]:
        return {k: float(v) for k, v in (line.split() for line in out.splitlines() if line)}

    ns, ac = values(ns_out), values(ac_out)
    assert ac["tcp_mbps"] == pytest.approx(ns["tcp_mbps"], rel=0.05)
    assert ac["udp_mbps"] == pytest.approx(ns["udp_mbps"], rel=0.01)
    assert ac["mean_queue_packets"] == pytest.approx(ns["mean_queue_packets"], rel=0.15)


FLOWMON = """
    set ns [new Simulator]
    set n0 [$ns node]; set n1 [$ns node]; set n2 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 10ms DropTail
    $ns duplex-link $n1 $n2 1Mb 20ms DropTail
    $ns queue-limit $n1 $n2 5
    set fmon [$ns makeflowmon Fid]
    $ns attach-fmon [$ns link $n1 $n2] $fmon
    set f [open dump.txt w]
    $fmon attach $f
    set tcp [new Agent/TCP/Reno]; $tcp set fid_ 1
    $ns attach-agent $n0 $tcp
    set sink [new Agent/TCPSink]; $ns attach-agent $n2 $sink; $ns connect $tcp $sink
    set ftp [new Application/FTP]; $ftp attach-agent $tcp
    set udp [new Agent/UDP]; $udp set fid_ 2
    $ns attach-agent $n0 $udp
    set null [new Agent/Null]; $ns attach-agent $n2 $null; $ns connect $udp $null
    set cbr [new Application/Traffic/CBR]; $cbr attach-agent $udp; $cbr set rate_ 0.5Mb
    set cl [$fmon classifier]
    puts "before: [$cl lookup auto 0 0 1]"
    proc show {} {
        global fmon cl ns
        foreach id {1 2} {
            set fl [$cl lookup auto 0 0 $id]
            puts "[$ns now] $id [$fl info class] [$fl set parrivals_] [$fl set barrivals_]\\
                [$fl set pdepartures_] [$fl set bdepartures_] [$fl set pdrops_]\\
                [$fl set bdrops_] [$fl set src_] [$fl set dst_] [$fl set flowid_]"
        }
        puts "all [$fmon set parrivals_] [$fmon set pdepartures_] [$fmon set pdrops_]\\
            [$fmon set pkts_] [llength [$fmon flows]] unknown=[$cl lookup auto 0 0 7]"
        $fmon dump
    }
    $ns at 0.1 "$ftp start"; $ns at 0.1 "$cbr start"
    $ns at 1.0 "show"
    $ns at 1.5 {[$cl lookup auto 0 0 1] set pdrops_ 0}
    $ns at 2.0 "show; close $f; exit 0"
    $ns run
"""


def test_flow_monitor_matches_ns2(tmp_path):
    """makeflowmon Fid / attach-fmon / classifier lookup / flow variables / dump: the same
    numbers and the same dump lines as ns-2.35 on a Reno + CBR bottleneck with drops (the
    run is deterministic; its packet trace matches ns-2's, docs/traces.md)."""
    ns_dir, ns_out, ac_dir, ac_out = both(tmp_path, FLOWMON)
    assert ac_out == ns_out
    assert (ac_dir / "dump.txt").read_text() == (ns_dir / "dump.txt").read_text()
    dump = (ac_dir / "dump.txt").read_text().splitlines()
    assert len(dump) == 4 and all(len(x.split()) == 22 for x in dump)
    assert int(dump[-1].split()[15]) > 0  # drops happened


TMIX = """
    set ns [new Simulator]
    Agent/TCP set window_ 64
    set n(0) [$ns node]; set n(1) [$ns node]
    set d(0) [$ns Tmix_DelayBox]; set d(1) [$ns Tmix_DelayBox]
    $d(0) set-cvfile sample.vec [$n(0) id] [$n(1) id]
    $d(0) set-lossless
    $ns duplex-link $n(0) $d(0) 100Mb 1ms DropTail
    $ns duplex-link $d(0) $d(1) 10Mb 10ms DropTail
    $ns duplex-link $d(1) $n(1) 100Mb 1ms DropTail
    set t [new Tmix]
    $t set-init $n(0); $t set-acc $n(1); $t set-ID 7; $t set-cvfile sample.vec
    set qf [$ns monitor-queue $d(0) $d(1) ""]
    set qb [$ns monitor-queue $d(1) $d(0) ""]
    $ns at 0.0 "$t start"
    proc done {} {
        global qf qb
        puts "[$qf set barrivals_] [$qf set parrivals_] [$qb set barrivals_] [$qb set parrivals_]"
        exit 0
    }
    $ns at 60 done
    $ns run
"""


def test_tmix_replay_carries_what_ns2_carries(tmp_path):
    """ns-2.35's Tmix (FullTcp, ACKs on data) and ackclock's (half-connections, separate
    ACKs) replay examples/tmix/sample.vec through delay boxes: the bytes and packets crossing
    the bottleneck each way agree within 1% (measured: 0.07% and 0.01% of bytes)."""
    sample = Path(__file__).resolve().parents[2] / "examples" / "tmix" / "sample.vec"
    for who in ("ns", "ac"):
        (tmp_path / who).mkdir()
        (tmp_path / who / "sample.vec").write_text(sample.read_text())
        (tmp_path / who).rename(tmp_path / f"pre-{who}")
    out = {}
    for who, cmd in (("ns", ["ns"]), ("ac", [sys.executable, "-m", "ackclock", "ns2"])):
        folder = tmp_path / f"pre-{who}"
        (folder / "s.tcl").write_text(textwrap.dedent(TMIX), encoding="utf-8")
        done = subprocess.run([*cmd, "s.tcl"], cwd=folder, capture_output=True, text=True,
                              check=False, timeout=300)
        assert done.returncode == 0, done.stderr
        out[who] = [int(x) for x in done.stdout.split()]
    assert out["ns"][0] > 50_000 and out["ns"][2] > 1_500_000
    for ours, theirs in zip(out["ac"], out["ns"], strict=True):
        assert ours == pytest.approx(theirs, rel=0.01)


WRAP = """
    set ns [new Simulator]
    set n0 [$ns node]
    set n1 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 10ms DropTail
    set tcp [new Agent/TCP/Reno]
    set sink [new Agent/TCPSink]
    $ns attach-agent $n0 $tcp
    $ns attach-agent $n1 $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    set qmon [$ns monitor-queue $n0 $n1 ""]
    # A long run's counts, set near ns-2's int limit: they wrap within the next second.
    $ns at 1.0 "$qmon set barrivals_ 2147000000; $sink set bytes_ 2147000000"
    proc show {} {
        global ns qmon sink
        puts "[$ns now] [$qmon set barrivals_] [$qmon set parrivals_] [$sink set bytes_]"
    }
    $ns at 0.0 "$ftp start"
    $ns at 1.5 show
    $ns at 2.0 show
    $ns at 2.1 "exit 0"
    $ns run
"""


def test_int32_counters_wrap_as_ns2s_do(tmp_path):
    """ns-2 keeps queue-monitor and sink byte counts in C ints, which wrap past 2^31 (seed
    000's queueStats.csv shows negative byte counts); `--int32-counters` does the same."""
    folder = tmp_path / "ns"
    folder.mkdir()
    (folder / "s.tcl").write_text(textwrap.dedent(WRAP), encoding="utf-8")
    ns = subprocess.run(["ns", "s.tcl"], cwd=folder, capture_output=True, text=True,
                        timeout=300)
    outs = {}
    for flag in ((), ("--int32-counters",)):
        done = subprocess.run([sys.executable, "-m", "ackclock", "ns2", *flag, "s.tcl"],
                              cwd=folder, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        outs[flag] = done.stdout
    assert ns.stdout == outs[("--int32-counters",)]
    assert int(ns.stdout.split()[-3]) < 0 and int(ns.stdout.split()[-1]) < 0
    assert all(float(x) > 0 for x in outs[()].split())
