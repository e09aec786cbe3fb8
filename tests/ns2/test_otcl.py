"""OTcl, ns-2's object system (python/ackclock/ns2/otcl.py). The expected outputs are what
`ns` 2.35 prints for the same scripts."""

from __future__ import annotations

import pytest


def test_multiple_inheritance_next_and_heritage(ns2):
    r = ns2("""
        Class A
        A instproc foo {} { return "A.foo [$self info class] $class $proc" }
        Class B -superclass A
        B instproc foo {} { return "B.foo -> [$self next]" }
        Class C -superclass A
        C instproc foo {} { return "C.foo -> [$self next]" }
        Class D -superclass {B C}
        D instproc init args { puts "D init $args"; eval $self next $args }
        set d [new D]
        puts [$d foo]
        puts [D info heritage]
        puts [D info superclass]
        puts [A info subclass]
        puts "[A info subclass D] [A info subclass A] [D info superclass A] [$d info class A]"
        puts [$d info class]
        puts [catch {$d next} msg]
    """)
    assert r.code == 0, r.err
    assert r.out.splitlines() == [
        "D init ", "B.foo -> C.foo -> A.foo D A foo", "B C A Object", "B C", "C B",
        "1 1 1 1", "D", "1"]


def test_instance_variables_set_array_info_vars(ns2):
    r = ns2("""
        Class A
        A instproc init {} { $self instvar z {w ww}; set z 9; set ww 10 }
        A instproc get {} { $self instvar z w; return "$z $w" }
        set a [new A]
        puts "vars: [lsort [$a info vars]]"
        $a set x 1
        $a set y(a) 2
        puts "[lsort [$a info vars]] [$a array names y] [$a set y(a)] [$a get]"
        $a unset x
        puts [lsort [$a info vars]]
        puts [catch {$a set nope} msg]
        $a destroy
        puts "gone:[info commands $a]"
    """)
    assert r.code == 0, r.err
    assert r.out.splitlines() == ["vars: w z", "w x y z a 2 9 10", "w y z", "1", "gone:"]


def test_constructor_arguments_defaults_and_errors(ns2):
    r = ns2("""
        Class A
        A instproc init {} { $self instvar z; set z 9 }
        Class E -superclass A
        E instproc init {x {y 2}} { $self next; $self instvar z; puts "E $x $y $z" }
        new E 1
        E e1 3 4
        puts [E info instdefault init y v]; puts $v
        puts [E info instargs init]
        puts [E info heritage A*]
        Class F
        puts [catch {new F x} msg]; puts $msg
        puts [catch {new E} msg]; puts [string match "class E: constructor failed: *" $msg]
        puts [catch {A info subclass Zz} msg]; puts $msg
    """)
    assert r.code == 0, r.err
    assert r.out.splitlines() == [
        "E 1 2 9", "E 3 4 9", "1", "2", "x y", "A", "1",
        "class F: constructor failed: uneven number of args", "1", "1", "1",
        "expected a class but got Zz"]


def test_a_subclass_of_an_ns2_class_ackclock_lacks_is_not_supported(ns2):
    # A subclass of ns-2's multicast agent Agent/SRM: not a Tcl error.
    r = ns2("""
        Class Agent/SRM/Mine -superclass Agent/SRM
    """)
    assert r.code == 2
    assert r.err.strip().endswith('unknown or unsupported ns-2 class "Agent/SRM"')
    r = ns2("Class B -superclass NoSuch\n")
    assert r.code != 0 and "expected a class but got NoSuch" in r.err


def test_procs_on_classes_and_objects_and_the_metaclass(ns2):
    r = ns2("""
        Class A
        A proc hello {x} { return "hello $x $self $class $proc" }
        puts [A hello 1]
        puts "[Object info heritage]|[Class info class]|[Object info class]|[A info class]"
        Object create obj1
        obj1 proc p1 {} { return "p1 $class $proc" }
        puts "[obj1 info class] [obj1 p1] [obj1 info procs]"
        A instproc foo {} {}
        puts "instprocs:[A info instprocs]"
        A instproc foo {} { return 1 }
        A a1
        puts "[a1 foo] [A info instances]"
        Class A
        puts "again:[A info instprocs]"
        puts [catch {a1 foo} msg]; puts $msg
    """)
    assert r.code == 0, r.err
    assert r.out.splitlines() == [
        "hello 1 A  hello", "|Class|Class|Class", "Object p1  p1 p1", "instprocs:",
        "1 a1", "again:", "1", 'invalid command name "a1"']


def test_object_init_calls_option_methods(ns2):
    r = ns2("""
        Class A
        A instproc size {n} { $self set size_ $n }
        set a [new A -size 5]
        puts [$a set size_]
        Object instproc hi {} { return "hi from [$self info class]" }
        puts [$a hi]
    """)
    assert r.code == 0, r.err
    assert r.out.splitlines() == ["5", "hi from A"]


def test_methods_added_to_ackclocks_classes_and_subclasses_of_them(ns2):
    r = ns2("""
        set ns [new Simulator]
        Simulator instproc hello {} { return "sim [$self info class]" }
        puts [$ns hello]
        Agent/TCP instproc wnd {} { $self instvar window_; return $window_ }
        Class Agent/MyTcp -superclass Agent/TCP/Reno
        Agent/MyTcp set window_ 7
        Agent/MyTcp instproc init args {
            eval $self next $args
            $self instvar mine_ maxcwnd_
            set mine_ 1
            set maxcwnd_ 33
        }
        set m [new Agent/MyTcp]
        set t [new Agent/TCP]
        puts "[$m wnd] [$t wnd] [$m info class] [$m set mine_] [$m set maxcwnd_]"
        puts "[Agent/MyTcp set window_] [Agent/TCP set window_] [$m info class Agent/TCP]"
        puts [Agent/MyTcp info heritage]
    """)
    assert r.code == 0, r.err
    assert r.out.splitlines() == [
        "sim Simulator", "7 20 Agent/MyTcp 1 33", "7 20 1",
        "Agent/TCP/Reno Agent/TCP Agent SplitObject Object"]


def test_a_subclass_of_agent_tcp_runs_as_the_parent(ns2):
    r = ns2("""
        set ns [new Simulator]
        set n0 [$ns node]
        set n1 [$ns node]
        $ns duplex-link $n0 $n1 10Mb 10ms DropTail
        Class Agent/MyTcp -superclass Agent/TCP/Newreno
        Agent/MyTcp instproc init {} { $self next; $self set window_ 10 }
        Agent/MyTcp instproc done? {} { return [expr {[$self set ndatapack_] > 0}] }
        set tcp [$ns create-connection MyTcp $n0 TCPSink $n1 0]
        set ftp [$tcp attach-app FTP]
        $ns at 0 "$ftp start"
        $ns at 2 {puts "[$tcp info class] [$tcp set window_] [$tcp done?]"; exit 0}
        $ns run
    """)
    assert r.code == 0, r.err
    assert r.out.strip() == "Agent/MyTcp 10 1"


def test_errors_inside_methods_name_the_method(ns2):
    r = ns2("""
        Class T
        T instproc run {} { expr {1 + $nope} }
        set t [new T]
        $t run
    """)
    assert r.code == 1
    assert "T instproc run" in r.err and "nope" in r.err


def test_an_ns2_class_ackclock_lacks_stops_in_one_line(ns2):
    r = ns2("""
        set x 1
        Agent/SRM set C1_ 2
    """)
    assert r.code == 2
    assert r.err.strip() == ('ackclock: error: script.tcl:2: unknown or unsupported ns-2 class'
                             ' "Agent/SRM"')
    r = ns2("puts [catch {nosuchcommand} msg]; puts $msg")
    assert r.out.splitlines() == ["1", 'invalid command name "nosuchcommand"']


@pytest.mark.parametrize("line, cls", [
    ("Mac set bandwidth_ 10Mb", "Mac"),  # a root class alone (ns-2.35 tcl/ex/xcp's HDLC)
    ("LL set delay_ 125ms", "LL"),
    ("Antenna/OmniAntenna set Z_ 1.5", "Antenna/OmniAntenna"),  # wireless scripts' preamble
    ("Propagation/Shadowing set pathlossExp_ 2.0", "Propagation/Shadowing"),
])
def test_a_class_variable_of_an_ns2_class_ackclock_lacks_stops_in_one_line(ns2, line: str,
                                                                           cls: str) -> None:
    r = ns2(f"set x 1\n{line}\n")
    assert r.code == 2
    assert r.err.strip() == ("ackclock: error: script.tcl:2: unknown or unsupported ns-2"
                             f' class "{cls}"')


def test_a_method_changed_after_it_was_called(ns2):
    # otcl.py remembers which instproc a class's objects run for a method: defining,
    # deleting or moving one (another superclass) must be seen by the next call.
    r = ns2("""
        Class A
        A instproc hi {} { return A }
        Class B -superclass A
        set b [new B]
        puts [$b hi]
        B instproc hi {} { return "B [$self next]" }
        puts [$b hi]
        B instproc hi {} {}
        puts [$b hi]
        Class C
        C instproc hi {} { return C }
        B superclass C
        puts [$b hi]
        set ns [new Simulator]
        set t [new Agent/TCP]
        $t reset
        Agent/TCP instproc reset {} { puts "mine [$self set window_]" }
        $t reset
        Agent/TCP instproc reset {} {}
        $t reset
        puts done
    """)
    assert r.code == 0, r.err
    assert r.out.splitlines() == ["A", "B A", "A", "C", "mine 20", "done"]
