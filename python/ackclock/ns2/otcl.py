"""OTcl, the object system ns-2 scripts are written in, as a small layer of Tcl.

Semantics from OTcl's documentation (D. Wetherall, "OTcl Tutorial", and the reference pages
``object.html``/``class.html`` of otcl-1.14) and from how ns-2.35's ``tcl/lib`` and test suites
use it, checked against ``ns`` 2.35 itself; the code is our own.

- ``Class NAME ?-superclass {A B}?`` (or ``Class create NAME``) makes a class; a class is an
  object of the metaclass ``Class``, every class descends from ``Object``. Defining an existing
  class again forgets its methods, as OTcl does.
- ``CLS instproc NAME ARGS BODY`` and ``OBJ proc NAME ARGS BODY`` define methods (both empty
  ARGS and BODY delete one). Inside, ``self``, ``class`` and ``proc`` are set.
- A call ``$obj m args`` looks for ``m`` in the object's own procs, then in the instprocs of
  the class precedence list (``info heritage``: depth first, left to right, each class after all
  of its subclasses), then in the built-in methods below; ``$self next args`` continues the
  search after the class of the running method (and returns "" if nothing is left).
- ``CLS create NAME args`` / ``CLS NAME args`` (an unknown method of a class creates an
  object) / ns-2's ``new CLS args`` (names ``_oN``) allocate and call ``init``; ``Object``'s
  ``init`` treats ``-name value...`` as calls of ``$self name value...``; errors in ``new``
  read "class CLS: constructor failed: ...".
- Built-in methods of every object: ``set``, ``unset``, ``array``, ``instvar`` (``{var
  alias}`` too), ``next``, ``info`` (``class ?C?``, ``vars``, ``procs``, ``args``, ``body``,
  ``default``, ``commands``), ``proc``, ``destroy``, ``class``, ``init``, ns-2's
  ``init-instvar``; of every class: ``create``, ``alloc``, ``instproc``, ``superclass``,
  ``info`` (``heritage``, ``superclass ?C?``, ``subclass ?C?``, ``instances``, ``instprocs``,
  ``instargs``, ``instbody``, ``instdefault``, ``instcommands``), ``unknown``.

ackclock's own ns-2 classes (``Simulator``, ``Agent/TCP``, ...) are classes here too, marked
*built in*: their objects are Python objects, which get every method no instproc defines
(``$tcp set cwnd_``, ``$ns at ...``) from Python through ``::__ac_dispatch``; a script may add
instprocs to them and subclass them (``Class Agent/MyTcp -superclass Agent/TCP``): the
subclass's objects are the Python object of the nearest built-in class. The variables of a
Python object live in Python; ``$self instvar window_`` links a Tcl variable to it through
read and write traces, so both see one value.
"""

from __future__ import annotations

OTCL = r"""
namespace eval ::otcl {
    variable cls       ;# object -> its class
    variable tclobj    ;# object -> 1 for one kept in Tcl (a class, or an object of a class
                       ;# without a Python ancestor); a Python object has no entry
    variable vns       ;# object -> namespace holding its variables, made when first needed
    variable isclass   ;# class -> 1
    variable supers    ;# class -> direct superclasses
    variable subs      ;# class -> direct subclasses, newest first (as OTcl lists them)
    variable builtin   ;# class -> 1 for ackclock's own (Python) classes
    variable ip        ;# [list class method] -> proc
    variable op        ;# [list object method] -> proc
    variable order     ;# class -> precedence list, itself first (a cache)
    variable found     ;# [list class method] -> {proc class} of the instproc an object of
                       ;# class runs, {} for none (a cache, as order)
    variable nid 0     ;# the last _oN handle
    variable nns 0     ;# the last variable namespace
    variable nproc 0
}

proc ::otcl::newid {} {
    variable nid
    return _o[incr nid]
}

# --- objects and classes ------------------------------------------------------------------

# A 10 000-flow script makes some 90 000 Python objects: each costs Tcl its command and
# its class's entry, but no namespace (most never have a Tcl variable) and no other entry.
proc ::otcl::register {obj class ispy} {
    variable cls; variable tclobj
    set cls($obj) $class
    if {!$ispy} { set tclobj($obj) 1 }
    interp alias {} $obj {} ::otcl::dispatch $obj
    return $obj
}

# The namespace holding an object's Tcl variables, made the first time one is asked for.
proc ::otcl::vars_ns {obj} {
    variable vns; variable nns
    if {![info exists vns($obj)]} {
        set vns($obj) ::otcl::v[incr nns]
        namespace eval $vns($obj) {}
    }
    return $vns($obj)
}

proc ::otcl::forget {obj} {
    variable cls; variable tclobj; variable vns; variable op
    if {![info exists cls($obj)]} { return }
    if {[info exists vns($obj)]} {
        catch {namespace delete $vns($obj)}
        unset vns($obj)
    }
    foreach k [array names op] {
        if {[lindex $k 0] eq $obj} { catch {rename $op($k) {}}; unset op($k) }
    }
    unset cls($obj)
    unset -nocomplain tclobj($obj)
    catch {rename $obj {}}
}

proc ::otcl::defclass {name superclasses isbuiltin} {
    variable isclass; variable supers; variable subs; variable builtin; variable ip
    variable cls
    if {[info exists isclass($name)]} {
        # OTcl forgets a class defined again: its methods, superclasses and objects go.
        foreach o [array names cls] {
            if {$cls($o) eq $name && $o ne $name} { catch {$o destroy} }
        }
        foreach k [array names ip] {
            if {[lindex $k 0] eq $name} { catch {rename $ip($k) {}}; unset ip($k) }
        }
        ::otcl::setsupers $name {}
        ::otcl::forget $name
    }
    set isclass($name) 1
    set builtin($name) $isbuiltin
    if {![info exists subs($name)]} { set subs($name) {} }
    set supers($name) {}
    ::otcl::register $name Class 0
    if {$superclasses ne ""} { ::otcl::setsupers $name $superclasses }
    return $name
}

proc ::otcl::setsupers {class superclasses} {
    variable supers; variable subs; variable order; variable isclass
    foreach s $superclasses {
        if {![info exists isclass($s)]} {
            # A subclass of an ns-2 class ackclock does not have (Agent/MessagePassing): the
            # class is not supported, the script is not wrong.
            if {[::otcl::ns2_class_path $s]} {
                return [::__ac_dispatch __unsupported_class $s]
            }
            error "expected a class but got $s"
        }
    }
    if {[info exists supers($class)]} {
        foreach s $supers($class) {
            set i [lsearch -exact $subs($s) $class]
            if {$i >= 0} { set subs($s) [lreplace $subs($s) $i $i] }
        }
    }
    if {$superclasses eq "" && $class ne "Object"} { set superclasses Object }
    set supers($class) $superclasses
    foreach s $superclasses { set subs($s) [linsert $subs($s) 0 $class] }
    ::otcl::changed
    ::__ac_py __classdef $class {*}[::otcl::precedence $class]
    return ""
}

proc ::otcl::precedence {class} {
    variable order; variable supers
    if {[info exists order($class)]} { return $order($class) }
    set walk [::otcl::dfs $class]
    # Each class after all of its subclasses: keep a class's last occurrence.
    set out {}
    set n [llength $walk]
    for {set i 0} {$i < $n} {incr i} {
        set c [lindex $walk $i]
        if {[lsearch -exact [lrange $walk [expr {$i + 1}] end] $c] < 0} { lappend out $c }
    }
    set order($class) $out
    return $out
}

proc ::otcl::dfs {class} {
    variable supers
    set out [list $class]
    if {[info exists supers($class)]} {
        foreach s $supers($class) { lappend out {*}[::otcl::dfs $s] }
    }
    return $out
}

proc ::otcl::classof {obj} {
    variable cls
    if {![info exists cls($obj)]} { error "$obj: not an object" }
    return $cls($obj)
}

proc ::otcl::isclass {name} {
    variable isclass
    return [info exists isclass($name)]
}

proc ::otcl::is_builtin_class {name} {
    variable builtin
    return [expr {[info exists builtin($name)] && $builtin($name)}]
}

# The built-in (Python) class an object of this class is made of, or "".
proc ::otcl::pyclass {class} {
    variable builtin
    foreach c [::otcl::precedence $class] {
        if {[info exists builtin($c)] && $builtin($c)} { return $c }
    }
    return ""
}

proc ::otcl::isa {class ancestor} {
    return [expr {[lsearch -exact [::otcl::precedence $class] $ancestor] >= 0}]
}

# --- calling methods ----------------------------------------------------------------------

proc ::otcl::dispatch {obj args} {
    variable op; variable cls; variable found
    if {![llength $args]} { error "$obj: no method given" }
    set m [lindex $args 0]
    if {[info exists op([list $obj $m])]} {
        tailcall $op([list $obj $m]) $obj {} $m {*}[lrange $args 1 end]
    }
    # The class's instproc, looked up once per class and method (a 10 000-flow script makes
    # some 150 000 calls of a few methods).
    set key [list $cls($obj) $m]
    if {![info exists found($key)]} { set found($key) [::otcl::instproc_of $cls($obj) $m] }
    set hit $found($key)
    if {$hit ne ""} {
        tailcall [lindex $hit 0] $obj [lindex $hit 1] $m {*}[lrange $args 1 end]
    }
    tailcall ::otcl::builtin $obj $m {*}[lrange $args 1 end]
}

# The first instproc m along class's precedence list, as {proc class}; {} for none.
proc ::otcl::instproc_of {class m} {
    variable ip
    foreach c [::otcl::precedence $class] {
        if {[info exists ip([list $c $m])]} { return [list $ip([list $c $m]) $c] }
    }
    return {}
}

# Classes, their superclasses or their instprocs changed: the caches go.
proc ::otcl::changed {} {
    variable order; variable found
    array unset order
    array unset found
}

# What no instproc defines: the methods of Object and Class, then Python's.
proc ::otcl::builtin {obj m args} {
    variable tclobj; variable cls
    if {[info exists tclobj($obj)] && [::otcl::isa $cls($obj) Class]} {
        switch -exact -- $m {
            create - alloc - instproc - superclass - info - unknown - proc -
            instvar - next - destroy - array - unset - class - init - init-instvar {
                tailcall ::otcl::m_class_$m $obj {*}$args
            }
            set {
                if {[::otcl::pyclass $obj] ne ""} {
                    return [::__ac_dispatch __classvar $obj {*}$args]
                }
                tailcall ::otcl::m_set $obj {*}$args
            }
            default {
                if {[::otcl::pyclass $obj] ne "" && [::otcl::is_builtin_class $obj]} {
                    return [::__ac_dispatch __classcmd $obj $m {*}$args]
                }
                tailcall ::otcl::m_class_create $obj $m {*}$args
            }
        }
    }
    switch -exact -- $m {
        set - unset - array - instvar - next - info - proc - destroy - class - init -
        init-instvar {
            tailcall ::otcl::m_$m $obj {*}$args
        }
    }
    if {![info exists tclobj($obj)]} { return [::__ac_dispatch $obj $m {*}$args] }
    error "$obj: unable to dispatch method $m"
}

proc ::otcl::m_next {obj args} {
    variable ip; variable cls; variable tclobj
    if {[catch {uplevel 1 {list $self $class $proc}} here]} { error "no executing proc" }
    lassign $here self class m
    set search [::otcl::precedence $cls($obj)]
    if {$class ne ""} {
        set i [lsearch -exact $search $class]
        set search [lrange $search [expr {$i + 1}] end]
    }
    foreach c $search {
        if {[info exists ip([list $c $m])]} {
            tailcall $ip([list $c $m]) $obj $c $m {*}$args
        }
    }
    # Past the last instproc: Object's built-ins, or the Python object's own method.
    switch -exact -- $m {
        init {
            if {![info exists tclobj($obj)]} { return "" }
            tailcall ::otcl::m_init $obj {*}$args
        }
        destroy - set - unset - array - instvar - info - proc - class - init-instvar {
            tailcall ::otcl::builtin $obj $m {*}$args
        }
    }
    if {![info exists tclobj($obj)]} { return [::__ac_dispatch $obj $m {*}$args] }
    return ""
}

proc ::otcl::defproc {table key self_ name arglist body} {
    variable $table; variable nproc
    upvar 0 $table t
    if {[info exists t($key)]} { catch {rename $t($key) {}}; unset t($key) }
    if {$table eq "ip"} { ::otcl::changed }
    if {$arglist eq "" && $body eq ""} { return "" }
    set p ::otcl::p[incr nproc]
    proc $p [list self class proc {*}$arglist] $body
    set t($key) $p
    set ::otcl::pname($p) "$self_ [expr {$table eq "ip" ? "instproc" : "proc"}] $name"
    return ""
}

# --- Object's methods ---------------------------------------------------------------------

proc ::otcl::m_init {obj args} {
    # Pairs "-name value" (or "name value"): $self name value, in order.
    if {[llength $args] % 2} { error "uneven number of args" }
    foreach {name value} $args {
        if {[string index $name 0] eq "-"} { set name [string range $name 1 end] }
        uplevel 1 [list $obj $name $value]
    }
    return ""
}

proc ::otcl::m_set {obj args} {
    variable tclobj
    if {![info exists tclobj($obj)]} {
        return [::__ac_dispatch $obj set {*}$args]
    }
    switch [llength $args] {
        1 { return [set [::otcl::vars_ns $obj]::[lindex $args 0]] }
        2 { return [set [::otcl::vars_ns $obj]::[lindex $args 0] [lindex $args 1]] }
    }
    error "wrong # args: should be \"$obj set var ?value?\""
}

proc ::otcl::m_unset {obj args} {
    set ns [::otcl::vars_ns $obj]
    foreach v $args { unset ${ns}::$v }
    return ""
}

proc ::otcl::m_array {obj opt name args} {
    return [array $opt [::otcl::vars_ns $obj]::$name {*}$args]
}

proc ::otcl::m_instvar {obj args} {
    variable tclobj
    set ns [::otcl::vars_ns $obj]
    foreach v $args {
        if {[llength $v] == 2} { lassign $v var local } else { set var $v; set local $v }
        set full ${ns}::$var
        if {![info exists tclobj($obj)]} { ::otcl::pylink $obj $var $full }
        uplevel 1 [list upvar #0 $full $local]
    }
    return ""
}

# A Python object's variable seen from Tcl: read and written through Python.
proc ::otcl::pylink {obj var full} {
    if {[trace info variable $full] ne ""} { return }
    if {![catch {::__ac_dispatch $obj __ac_array $var} pairs]} {
        # An array the Python object keeps (the Simulator's link_, Node_): as it is now.
        array unset $full
        array set $full $pairs
        return
    }
    if {![catch {::__ac_dispatch $obj set $var} value]} { set $full $value }
    trace add variable $full {read write} [list ::otcl::pytrace $obj $var $full]
}

proc ::otcl::pytrace {obj var full name1 name2 op} {
    if {$name2 ne ""} { return }
    if {$op eq "read"} {
        set $full [::__ac_dispatch $obj set $var]
    } else {
        ::__ac_dispatch $obj set $var [set $full]
    }
}

proc ::otcl::m_init-instvar {obj var} {
    # ns-2's tcl/lib: an instance variable starts from the nearest class that sets it.
    foreach c [::otcl::precedence [::otcl::classof $obj]] {
        if {![catch {$c set $var} value]} {
            $obj set $var $value
            return ""
        }
    }
    return ""
}

proc ::otcl::m_proc {obj name arglist body} {
    return [::otcl::defproc op [list $obj $name] $obj $name $arglist $body]
}

proc ::otcl::m_class {obj args} {
    variable cls
    if {![llength $args]} { return $cls($obj) }
    set c [lindex $args 0]
    if {![::otcl::isclass $c]} { error "expected a class but got $c" }
    set cls($obj) $c
    return ""
}

proc ::otcl::m_destroy {obj} {
    variable tclobj
    if {![info exists tclobj($obj)]} {
        ::__ac_dispatch __forget $obj
    }
    ::otcl::forget $obj
    return ""
}

proc ::otcl::m_info {obj {what ""} args} {
    variable cls; variable vns; variable op; variable tclobj
    switch -exact -- $what {
        class {
            if {[llength $args]} {
                set c [lindex $args 0]
                if {![::otcl::isclass $c]} { error "expected a class but got $c" }
                return [::otcl::isa $cls($obj) $c]
            }
            return $cls($obj)
        }
        vars {
            set out {}
            if {![info exists tclobj($obj)]} {
                set out [::__ac_dispatch __vars $obj]
            }
            if {[info exists vns($obj)]} {
                foreach v [info vars $vns($obj)::*] {
                    set v [namespace tail $v]
                    if {[lsearch -exact $out $v] < 0} { lappend out $v }
                }
            }
            if {[llength $args]} {
                set pat [lindex $args 0]
                set out [lmap v $out { if {[string match $pat $v]} { set v } else continue }]
            }
            return $out
        }
        procs - commands {
            set out {}
            foreach k [array names op] {
                if {[lindex $k 0] eq $obj
                    && (![llength $args] || [string match [lindex $args 0] [lindex $k 1]])} {
                    lappend out [lindex $k 1]
                }
            }
            return $out
        }
        args - body - default {
            set name [lindex $args 0]
            set k [list $obj $name]
            if {![info exists op($k)]} { error "$obj info $what: no such proc $name" }
            return [::otcl::procinfo $op($k) $what {*}[lrange $args 1 end]]
        }
    }
    error "$obj info: unknown option \"$what\""
}

# info args/body/default of a method proc, hiding self/class/proc.
proc ::otcl::procinfo {p what args} {
    switch -exact -- $what {
        args - instargs { return [lrange [info args $p] 3 end] }
        body - instbody { return [info body $p] }
        default - instdefault {
            lassign $args arg var
            upvar 2 $var v
            return [info default $p $arg v]
        }
    }
}

# --- Class's methods ----------------------------------------------------------------------

proc ::otcl::m_class_create {class name args} {
    if {[::otcl::isa $class Class]} {
        # A new class: Class create NAME ?-superclass ...?
        ::otcl::defclass $name {} 0
        ::otcl::setsupers $name {}
        if {$class ne "Class"} { ::otcl::m_class $name $class }
        uplevel 1 [list $name init {*}$args]
        return $name
    }
    set pyc [::otcl::pyclass $class]
    if {$pyc ne ""} {
        # Python makes the object (with the arguments only when no instproc takes them).
        set hasinit [::otcl::has_instproc $class init]
        if {$hasinit} {
            ::__ac_dispatch __alloc $class $pyc $name
        } else {
            ::__ac_dispatch __alloc $class $pyc $name {*}$args
        }
        if {$hasinit} { uplevel 1 [list $name init {*}$args] }
        return $name
    }
    ::otcl::register $name $class 0
    uplevel 1 [list $name init {*}$args]
    return $name
}

proc ::otcl::m_class_alloc {class name args} {
    ::otcl::register $name $class 0
    return $name
}

proc ::otcl::m_class_unknown {class name args} {
    tailcall ::otcl::m_class_create $class $name {*}$args
}

proc ::otcl::has_instproc {class m} {
    variable ip
    foreach c [::otcl::precedence $class] {
        if {[info exists ip([list $c $m])]} { return 1 }
    }
    return 0
}

proc ::otcl::m_class_instproc {class name arglist body} {
    return [::otcl::defproc ip [list $class $name] $class $name $arglist $body]
}

proc ::otcl::m_class_superclass {class args} {
    variable supers
    if {![llength $args]} { return $supers($class) }
    return [::otcl::setsupers $class [lindex $args 0]]
}

proc ::otcl::m_class_proc {class args} { tailcall ::otcl::m_proc $class {*}$args }
proc ::otcl::m_class_instvar {class args} { tailcall ::otcl::m_instvar $class {*}$args }
proc ::otcl::m_class_next {class args} { tailcall ::otcl::m_next $class {*}$args }
proc ::otcl::m_class_array {class args} { tailcall ::otcl::m_array $class {*}$args }
proc ::otcl::m_class_unset {class args} { tailcall ::otcl::m_unset $class {*}$args }
proc ::otcl::m_class_class {class args} { tailcall ::otcl::m_class $class {*}$args }
proc ::otcl::m_class_init {class args} { tailcall ::otcl::m_init $class {*}$args }
proc ::otcl::m_class_init-instvar {class args} {
    tailcall ::otcl::m_init-instvar $class {*}$args
}

proc ::otcl::m_class_destroy {class} {
    variable isclass; variable ip; variable supers; variable subs; variable order; variable cls
    foreach k [array names ip] {
        if {[lindex $k 0] eq $class} { catch {rename $ip($k) {}}; unset ip($k) }
    }
    foreach s $supers($class) {
        set i [lsearch -exact $subs($s) $class]
        if {$i >= 0} { set subs($s) [lreplace $subs($s) $i $i] }
    }
    foreach sub $subs($class) {
        set i [lsearch -exact $supers($sub) $class]
        set supers($sub) [lreplace $supers($sub) $i $i]
        if {$supers($sub) eq ""} { set supers($sub) Object }
    }
    foreach o [array names cls] {
        if {$cls($o) eq $class} { set cls($o) Object }
    }
    unset isclass($class) supers($class) subs($class)
    ::otcl::changed
    ::otcl::forget $class
    return ""
}

proc ::otcl::m_class_info {class {what ""} args} {
    variable supers; variable subs; variable ip; variable cls
    switch -exact -- $what {
        heritage {
            set out [lrange [::otcl::precedence $class] 1 end]
            if {[llength $args]} { set out [lsearch -all -inline -glob $out [lindex $args 0]] }
            return $out
        }
        superclass {
            if {[llength $args]} {
                set c [lindex $args 0]
                if {![::otcl::isclass $c]} { error "expected a class but got $c" }
                return [expr {[lsearch -exact [lrange [::otcl::precedence $class] 1 end] $c] >= 0}]
            }
            return $supers($class)
        }
        subclass {
            if {[llength $args]} {
                set c [lindex $args 0]
                if {![::otcl::isclass $c]} { error "expected a class but got $c" }
                return [::otcl::isa $c $class]
            }
            return $subs($class)
        }
        instances {
            set out {}
            foreach o [array names cls] {
                if {$cls($o) eq $class
                    && (![llength $args] || [string match [lindex $args 0] $o])} {
                    lappend out $o
                }
            }
            return $out
        }
        instprocs - instcommands {
            set out {}
            foreach k [array names ip] {
                if {[lindex $k 0] eq $class
                    && (![llength $args] || [string match [lindex $args 0] [lindex $k 1]])} {
                    lappend out [lindex $k 1]
                }
            }
            return $out
        }
        instargs - instbody - instdefault {
            set k [list $class [lindex $args 0]]
            if {![info exists ip($k)]} {
                error "$class info $what: no such instproc [lindex $args 0]"
            }
            return [::otcl::procinfo $ip($k) $what {*}[lrange $args 1 end]]
        }
    }
    tailcall ::otcl::m_info $class $what {*}$args
}

# --- the root classes, and ns-2's new/delete ----------------------------------------------

namespace eval ::otcl {
    variable isclass; variable supers; variable subs; variable builtin
    foreach c {Object Class SplitObject} {
        set isclass($c) 1
        set builtin($c) 0
        set subs($c) {}
    }
    set supers(Object) {}
    set supers(Class) Object
    set supers(SplitObject) Object
    set subs(Object) {SplitObject Class}
    ::otcl::register Object Class 0
    ::otcl::register Class Class 0
    ::otcl::register SplitObject Class 0
}

# An ns-2 class ackclock does not have, used as a command (`Agent/TFRC set SndrType_ 1`):
# one line saying so (status 2), not Tcl's "invalid command name".
if {[llength [info commands ::unknown]]} {
    rename ::unknown ::otcl::tcl_unknown
} else {  ;# a safe interpreter has no unknown handler
    proc ::otcl::tcl_unknown {args} {
        return -code error "invalid command name \"[lindex $args 0]\""
    }
}
set ::otcl::ns2_roots {Agent Application Queue Mac Phy LL Classifier Trace ErrorModel
    RandomVariable Routing RtModule Connector QueueMonitor DelayLink Module Filter Process Node
    Link PacketHeader Antenna Propagation Channel Topography God EnergyModel Scheduler
    ADC ARPTable AbsLanNode ArpAgent BaseTrace BiConnector CMUPriQueue CMUTrace DelayModel
    DropTargetAgent DynamicLink FECModel FSM GAFPartner GridKeeper HackLossyLink
    HandoffManager Http LanNode LanRouter MIPEncapsulator MeasureMod MobiCache MobileNode
    Network NetworkInterface PGMErrorModel PackMimeHTTP PagePool Position RTPSource
    RouteCache SALink SRForwarder SRM SRMErrorModel SRNode SatGeometry SatRouteObject
    SelectErrorModel SessionHelper Snoop SnoopQueue TBF TPM TagDbase TraceIp Tracefile
    VARPTable PLM PLMLayer PLMTopology McastProtocol McastMonitor HierNode BST DM}
# Whether a name reads as a class of ns-2's (Agent/Ping): one of its roots that ackclock does
# not define (`Mac set bandwidth_ 10Mb`), or a path under one (`Antenna/OmniAntenna set Z_ 1.5`).
proc ::otcl::ns2_class_path {name} {
    set root [lindex [split $name /] 0]
    return [expr {$root in $::otcl::ns2_roots && [regexp {^[A-Za-z0-9_/]+$} $name]
                  && [string index $name end] ne "/"}]
}
proc ::unknown {args} {
    set name [lindex $args 0]
    if {[::otcl::ns2_class_path $name]} {
        return [::__ac_dispatch __unsupported_class $name]
    }
    tailcall ::otcl::tcl_unknown {*}$args
}

proc new {class args} {
    if {![::otcl::isclass $class]} { return [::__ac_dispatch __new $class {*}$args] }
    set o [::otcl::newid]
    if {[catch {uplevel 1 [list $class create $o {*}$args]} msg opts]} {
        if {[dict get $opts -errorcode] eq {ACKCLOCK fatal}} {
            return -options $opts $msg
        }
        catch {::otcl::forget $o}
        error "class $class: constructor failed: $msg" [dict get $opts -errorinfo]
    }
    return $o
}

proc delete {args} {
    foreach o $args { uplevel 1 [list $o destroy] }
}
"""
