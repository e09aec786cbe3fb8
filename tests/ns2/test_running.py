"""Running like ns-2 (issue 28): Ctrl-C stops a script at once, wherever it is; no horizon;
what ackclock does not model stops the script in one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def start(tmp_path: Path, script: str) -> subprocess.Popen[str]:
    (tmp_path / "s.tcl").write_text(script, encoding="utf-8")
    return subprocess.Popen([sys.executable, "-m", "ackclock", "ns2", "s.tcl"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def interrupt_when_ready(proc: subprocess.Popen[str], tmp_path: Path) -> tuple[int, str, float]:
    """Waits for the script to say it is busy (a file it writes), sends SIGINT, and returns
    the exit status, stderr and the seconds the process took to end."""
    deadline = time.monotonic() + 60
    while not (tmp_path / "busy").exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.3)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    return proc.returncode, err, time.monotonic() - sent


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_ctrl_c_stops_a_tcl_loop_at_once(tmp_path):
    proc = start(tmp_path, """
set f [open busy w]; close $f
set i 0
while {1} { incr i }
""")
    code, err, took = interrupt_when_ready(proc, tmp_path)
    assert code == 130
    assert err.strip().splitlines() == ["ackclock: interrupted"]
    assert took < 5


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_ctrl_c_stops_a_long_simulated_stretch_at_once(tmp_path):
    proc = start(tmp_path, """
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Gb 1ms DropTail
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n1 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set rate_ 900Mb
$ns at 0 "$cbr start; set f \\[open busy w\\]; close \\$f"
$ns at 100000 "exit 0"
$ns run
""")
    code, err, took = interrupt_when_ready(proc, tmp_path)
    assert code == 130
    assert err.strip().splitlines() == ["ackclock: interrupted"]
    assert took < 5


def test_no_horizon_events_far_in_simulated_time_run(ns2):
    r = ns2("""
        set ns [new Simulator]
        $ns at 5000000 {puts "at [$ns now]"; exit 0}
        $ns run
    """)
    assert r.code == 0, r.err
    assert r.out == "at 5000000\n"


@pytest.mark.parametrize(("line", "named"), [
    ("$ns node-config -adhocRouting AODV", "wireless nodes ($ns node-config)"),
    ("set ns2 [new Simulator -multicast on]", "multicast"),
    ("$ns rtmodel Trace f.txt $n0 $n1", "links going down and up ($ns rtmodel Trace)"),
    ("create-god 5", "wireless networks (God)"),
    ("$ns rtproto LS", "dynamic routing (rtproto LS)"),
    ("$ns rtproto DV $n0 $n1", "rtproto DV on a list of nodes"),
    ("$n0 set multiPath_ 1; $ns rtproto DV", "rtproto DV with multiPath_"),
    ("$ns rtproto DV; $ns rtproto Static", "rtproto DV beside rtproto Static"),
    ("$ns rtproto DV; $ns simplex-link $n1 [$ns node] 1Mb 1ms DropTail",
     "rtproto DV over a one-way link"),
    ("$ns duplex-link $n0 [$ns node] 1Mb 10ms GK", "ns-2's queue type GK"),
])
def test_what_ackclock_does_not_model_stops_in_one_line(ns2, line, named):
    r = ns2(f"""
        set ns [new Simulator]
        set n0 [$ns node]
        set n1 [$ns node]
        $ns duplex-link $n0 $n1 1Mb 10ms DropTail
        {line}
        $ns run
    """)
    assert r.code == 2
    lines = r.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("ackclock: error: script.tcl:5: ")
    assert named in lines[0] and "not supported" in lines[0]


def test_an_unknown_command_with_a_script_body_is_quoted_by_its_first_line(ns2):
    r = ns2("""
        set ns [new Simulator]
        $ns no-such-command {
            puts one
            puts two
        }
    """)
    assert r.code == 2
    assert r.err.count("\n") == 1
    assert "puts one" not in r.err and "no-such-command" in r.err


def test_delay_growth_without_syn_stops_in_one_line(ns2):
    """ns-2's delay_growth_ without syn_ is not modelled: said, not run (syn_ without
    delay_growth_ is, tests/ns2/test_rfc793edu_vs_ns2.py)."""
    r = ns2("""
        set ns [new Simulator]
        set n0 [$ns node]
        set n1 [$ns node]
        $ns duplex-link $n0 $n1 1Mb 10ms DropTail
        set tcp [new Agent/TCP/Reno]
        $tcp set syn_ false
        $ns attach-agent $n0 $tcp
        set sink [new Agent/TCPSink]
        $ns attach-agent $n1 $sink
        $ns connect $tcp $sink
        $ns at 1 "exit 0"
        $ns run
    """)
    assert r.code == 2
    assert r.err.strip() == (
        "ackclock: error: script.tcl:6: Agent/TCP/Reno with syn_ false and delay_growth_ true"
        " (delay_growth_ only with syn_) is not supported by ackclock yet")


def test_the_invariant_checker_runs_under_ackclock_check(ns2, monkeypatch):
    """ACKCLOCK_CHECK=1 runs a script's network under the engine's invariant checker, as it
    does `ackclock run`'s (the whole tests/ns2 suite passes under it)."""
    import json

    from ackclock.ns2 import simulator

    documents: list[dict[str, object]] = []
    real = simulator.load_engine

    class Engine:
        def Simulation(self, document: str | dict[str, object]) -> object:  # noqa: N802
            # The binding's name; it takes the document as JSON text or as the dict itself.
            documents.append(json.loads(document) if isinstance(document, str) else document)
            return real().Simulation(document)

    monkeypatch.setattr(simulator, "load_engine", Engine)
    script = """
        set ns [new Simulator]
        set n0 [$ns node]
        set n1 [$ns node]
        $ns duplex-link $n0 $n1 1Mb 10ms DropTail
        set tcp [new Agent/TCP]
        $ns attach-agent $n0 $tcp
        set sink [new Agent/TCPSink]
        $ns attach-agent $n1 $sink
        $ns connect $tcp $sink
        set ftp [new Application/FTP]
        $ftp attach-agent $tcp
        $ns at 0.1 "$ftp start"
        $ns at 2 {puts [$tcp set ack_]; exit 0}
        $ns run
    """
    monkeypatch.setenv("ACKCLOCK_CHECK", "1")
    checked = ns2(script)
    monkeypatch.delenv("ACKCLOCK_CHECK")
    plain = ns2(script)
    assert checked.code == plain.code == 0, checked.err + plain.err
    assert checked.out == plain.out and int(plain.out) > 100
    assert [d["run"].get("check") for d in documents] == [True, None]
