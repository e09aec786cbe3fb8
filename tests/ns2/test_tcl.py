"""The Tcl side: the interpreter, argv, files, procs, exit, and ns-2's object model."""

from __future__ import annotations

import pytest


def test_argv_argc_argv0_and_plain_tcl(ns2):
    r = ns2("""
        proc twice {x} { global factor; return [expr {$x * $factor}] }
        set factor 2
        puts "argc=$argc argv0=$argv0 first=[lindex $argv 0] last=[lindex $argv end]"
        puts [format "%5.2f|%d" [expr 1.0/4] [twice 21]]
        set f [open out.txt w]
        puts -nonewline $f "a;"
        puts $f "b"
        flush $f
        close $f
        puts [exec echo hello]
    """, "x", "y z")
    assert r.code == 0, r.err
    assert "argc=2 argv0=script.tcl first=x last=y z" in r.out
    assert " 0.25|42" in r.out
    assert "hello" in r.out
    assert r.file("out.txt") == "a;b\n"


def test_exit_status_is_the_scripts(ns2):
    r = ns2("""
        puts before
        exit 3
        puts after
    """)
    assert r.code == 3
    assert "before" in r.out and "after" not in r.out


def test_doubles_print_with_17_digits_as_in_ns2(ns2):
    r = ns2("puts [expr 1.0/3]")
    assert r.out.strip() == "0.33333333333333331"


def test_class_defaults_apply_to_objects_created_afterwards(ns2):
    r = ns2("""
        set a [new Agent/TCP/Reno]
        Agent/TCP set window_ 100
        set b [new Agent/TCP/Reno]
        set c [new Agent/TCP/Newreno]
        puts "[$a set window_] [$b set window_] [$c set window_] [Agent/TCP set window_]"
        $a set window_ 7
        puts "[$a set window_] [$b set window_] [$a set tcpTick_] [$a set syn_]"
        $a set my_own_ hello
        puts [$a set my_own_]
    """)
    assert r.code == 0, r.err
    lines = r.out.split("\n")
    assert lines[0] == "20 100 100 100"
    assert lines[1] == "7 100 0.01 1"
    assert lines[2] == "hello"


def test_reading_an_unset_variable_is_a_tcl_error_with_its_line(ns2):
    r = ns2("""
        set a [new Agent/TCP]
        puts ok
        puts [$a set no_such_var_]
    """)
    assert r.code == 1
    assert "script.tcl:3:" in r.err
    assert "no_such_var_" in r.err
    assert "Traceback" not in r.err


def test_tcl_errors_can_be_caught_by_the_script(ns2):
    r = ns2("""
        set a [new Agent/TCP]
        if {[catch {$a set nope_} msg]} { puts "caught: $msg" }
    """)
    assert r.code == 0
    assert 'caught: can\'t read "nope_"' in r.out


def test_simulator_instance_and_now(ns2):
    r = ns2("""
        set ns [new Simulator]
        puts "[expr {[Simulator instance] eq $ns}] [$ns now]"
    """)
    assert r.out.strip() == "1 0"


def test_unsupported_command_names_file_line_and_command(ns2):
    r = ns2("""
        set ns [new Simulator]
        set n0 [$ns node]

        $ns frobnicate $n0 1 2
    """)
    assert r.code == 2
    err = r.err.strip()
    assert err.count("\n") == 0, err
    assert err.startswith("ackclock: error: script.tcl:4:")
    assert "frobnicate" in err


def test_unsupported_class_is_named(ns2):
    r = ns2("""
        set ns [new Simulator]
        set t [new Agent/TCP/BayFullTcp]
    """)
    assert r.code == 2
    assert "script.tcl:2:" in r.err and "Agent/TCP/BayFullTcp" in r.err


def test_unknown_class(ns2):
    r = ns2("set x [new Agent/NoSuchThing]")
    assert r.code == 2
    assert "script.tcl:1:" in r.err and "Agent/NoSuchThing" in r.err


def test_missing_script_file(tmp_path, monkeypatch, capfd):
    from ackclock.ns2 import run_script

    monkeypatch.chdir(tmp_path)
    assert run_script("nope.tcl") == 2
    assert "nope.tcl" in capfd.readouterr().err


def test_default_rng_commands(ns2):
    r = ns2("""
        global defaultRNG
        $defaultRNG seed 7
        puts [$defaultRNG seed]
        $defaultRNG next-substream
        set u [new RandomVariable/Uniform]
        $u set min_ 2
        $u set max_ 3
        set ok 1
        for {set i 0} {$i < 100} {incr i} {
            set v [$u value]
            if {$v < 2 || $v > 3} { set ok 0 }
        }
        puts $ok
    """)
    assert r.code == 0, r.err
    assert r.out.split() == ["7", "1"]


def test_cli_runs_a_script_with_arguments(tmp_path):
    import subprocess
    import sys

    (tmp_path / "a.tcl").write_text('puts "$argc [lindex $argv 1]"\nexit 4\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "ackclock", "ns2", "a.tcl", "p", "-q"],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 4
    assert done.stdout.strip() == "2 -q"


def test_ns_random(ns2):
    r = ns2("""
        ns-random 5
        set a [ns-random]
        puts [expr {$a >= 0 && $a < 2147483647}]
    """)
    assert r.code == 0, r.err
    assert r.out.strip() == "1"


def test_var_number_reads_a_variable_as_its_bound_type():
    from ackclock.ns2.errors import Location, Ns2Error
    from ackclock.ns2.interp import Context
    from ackclock.ns2.objects import TclObject

    ctx = Context("x.tcl", [])
    tcp = TclObject(ctx, "Agent/TCP", "_o1", Location("x.tcl", 1))
    cbr = TclObject(ctx, "Application/Traffic/CBR", "_o2", Location("x.tcl", 2))
    sink = TclObject(ctx, "Agent/TCPSink/DelAck", "_o3", Location("x.tcl", 3))
    tcp.vars.update(window_="20.7", ecn_="true", overhead_="1e-3", my_=" 2k")
    cbr.vars["rate_"] = "10Mb"
    sink.vars["interval_"] = "10ms"
    # atoi, bind_bool, strtod; a time in seconds, a bandwidth in b/s; unbound as a double.
    assert [tcp.var_number(v) for v in ("window_", "ecn_", "overhead_", "my_")] == \
        [20, True, 0.001, 2.0]
    assert (sink.var_number("interval_"), cbr.var_number("rate_")) == (0.01, 1e7)
    tcp.vars["overhead_"] = "x"
    tcp.set_at["overhead_"] = Location("x.tcl", 7)
    with pytest.raises(Ns2Error, match="overhead_: expected a number") as e:
        tcp.var_number("overhead_")
    assert e.value.where == Location("x.tcl", 7)
