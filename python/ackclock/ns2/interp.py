"""The Tcl interpreter and the glue between it and the Python objects.

Every ns-2 object is a Tcl command aliased to one dispatcher proc, which calls Python and
turns its answer into a Tcl result or error. Python cannot set a Tcl error message from a
callback, so the callback returns a (status, text) pair and the proc raises the error.
"""

from __future__ import annotations

import gc
import os
import shutil
import sys
import tkinter
import traceback
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from .defaults import PARENT
from .errors import Location, Ns2Error, ScriptExit, unsupported
from .objects import ClassDefaults, TclError, TclObject
from .otcl import OTCL

if TYPE_CHECKING:
    from .agents import TcpAgent
    from .rng import Rng
    from .simulator import Simulator

_GLUE = r"""
proc ::__ac_dispatch {args} {
    set r [::__ac_py {*}$args]
    set status [lindex $r 0]
    if {$status eq "ok"} { return [lindex $r 1] }
    return -code error -errorcode [list ACKCLOCK $status] [lindex $r 1]
}
proc ::__ac_where {} {
    # From the frame below this proc's own.
    for {set k [expr {[info frame] - 1}]} {$k > 0} {incr k -1} {
        set f [info frame $k]
        if {[dict exists $f file]} { return "[dict get $f line] [dict get $f file]" }
    }
    return {}
}
proc ::__ac_close_all {} {
    foreach ch [chan names] {
        if {$ch ni {stdin stdout stderr}} { catch {close $ch} }
    }
    catch {flush stdout}
    catch {flush stderr}
}

proc exit {{code 0}} { ::__ac_dispatch __exit $code }
proc ns-random {args} { ::__ac_dispatch __ns_random {*}$args }
proc ns-hasint64 {args} { return 1 }
proc ns-add64 {args} { ::__ac_dispatch __ns_int64 add {*}$args }
proc ns-mult64 {args} { ::__ac_dispatch __ns_int64 mult {*}$args }
proc ns-int64todbl {args} { ::__ac_dispatch __ns_int64 todbl {*}$args }
"""

Factory = Callable[["Context", str, str, Location, list[str]], TclObject]


class Context:
    """One script run: the interpreter, the objects, and the error or exit in flight."""

    def counter(self, value: int) -> int:
        """``value`` as ns-2 holds a counter declared ``int``: wrapped to 32 bits (two's
        complement) when the run asked for it, else as it is."""
        if not self.int32_counters:
            return value
        return (value + 2**31) % 2**32 - 2**31

    def __init__(self, script: str, argv: Sequence[str], safe: bool = False):
        self.script = script
        self._script_abs = os.path.abspath(script)
        if safe:  # `ackclock ns2 --safe` (safe.py)
            from .safe import SafeTcl

            self.tcl: tkinter.Tk | SafeTcl = SafeTcl(script)
        else:
            self.tcl = tkinter.Tcl()
        self.classes = ClassDefaults()
        self.objects: dict[str, TclObject] = {}
        # A fatal condition raised inside Tcl, re-raised when control is back in Python.
        self.pending: BaseException | None = None
        # Where the `$ns at` event being run was scheduled (for errors inside it).
        self.event_where: Location | None = None
        # where()'s Location of each script line ("line file" as Tcl gives it), and of the
        # call from Tcl being run (_dispatch).
        self._lines: dict[str, Location] = {}
        self._here: Location | None = None
        self._collector_paused = False
        self.simulator: Simulator | None = None
        # ns-2's C int counters wrap (`ackclock ns2 --int32-counters`).
        self.int32_counters = False
        # TCP-Linux's sysctl_tcp_abc and tcp_max_burst, global to every Agent/TCP/Linux
        # (`set_ca_default_param linux ...`, agents.py), as Reno's ns2_abc / ns2_max_burst.
        self.linux_globals: dict[str, float] = {"ns2_abc": 1.0, "ns2_max_burst": 3.0}
        # TCP-Linux's debug_level (1 unless set), and the agents running its `lp` module,
        # which prints a line per ACK while debug_level is at most 1 (agents.py).
        self.linux_debug_level = 1
        self.lp_agents: list[TcpAgent] = []
        # One-way TCP agents reset during the run whose sink has not been reset at the same
        # instant (yet): the simulator refuses them before it moves on (agents.py, cmd_reset).
        self.lone_resets: list[TcpAgent] = []
        # What ns-2's C++ prints with printf (a queue's printstats): C's stdout buffer, which
        # a pipe or file gets only at exit, after Tcl's own output (see c_print).
        self.c_stdout: list[str] = []
        self.factories: dict[str, Factory] = {}
        # ns-2's random-number package: the next stream a `new RNG` takes (rng.py).
        from .rng import Streams

        self.rng_streams = Streams()
        self.tcl.createcommand("::__ac_py", self._dispatch)
        self.tcl.eval(_GLUE)
        self.tcl.eval(OTCL)
        for cls in _parents_first(PARENT):
            # As in ns-2: C++ classes descend from SplitObject, its OTcl-only ones do not.
            root = "Object" if cls in ("Simulator", "Link") else "SplitObject"
            self.tcl.call("::otcl::defclass", cls, PARENT[cls] or root, 1)
        # ns-2 scripts pipe their traces through ns-2's Perl tools as `exec $PERL ...`.
        self.tcl.setvar("::PERL", shutil.which("perl") or "perl")
        # ns-2 prints doubles with 17 significant digits (its init sets tcl_precision).
        if not safe:  # shared by a thread's interpreters; SafeTcl sets it in the parent
            self.tcl.eval("set ::tcl_precision 17")
        self.tcl.setvar("argv0", script)
        self.tcl.setvar("argc", str(len(argv)))
        self.tcl.eval("set argv {}")
        for a in argv:
            self.tcl.call("lappend", "argv", a)

    # --- locations -------------------------------------------------------------------------

    def where(self) -> Location:
        """The script line of the command being run (or of the `$ns at` that scheduled it).
        One Location per line, kept: a 10 000-flow script asks this 160 000 times, from a few
        lines."""
        if self._here is not None:
            return self._here
        found = self.tcl.call("::__ac_where")
        if not found:  # no script line: an event's, or ackclock's own call
            return self.event_where or Location(self.script, 0)
        text = str(found)
        at = self._lines.get(text)
        if at is None:
            line, _, file = text.partition(" ")
            at = self._lines[text] = Location(self._shown(file), int(line))
        self._here = at
        return at

    def _shown(self, file: str) -> str:
        if file in (self.script, self._script_abs):  # most are: no path to work out
            return self.script
        return self.script if os.path.abspath(file) == self._script_abs else file

    # --- objects ---------------------------------------------------------------------------

    def register(self, factory_classes: dict[str, Factory]) -> None:
        self.factories.update(factory_classes)

    def new_object(self, cls: str, args: list[str]) -> TclObject:
        """A new object of ``cls``; a script's own class (``Class Agent/MyTcp -superclass
        Agent/TCP``) is made as ``new`` makes it, running its ``init``."""
        if cls not in PARENT and self.tcl.call("::otcl::isclass", cls) in (1, "1"):
            try:
                handle = str(self.tcl.call("new", cls, *args))
            except tkinter.TclError as e:
                self.raise_pending()
                raise TclError(str(e)) from None
            return self.lookup(handle)
        return self.alloc(cls, cls, str(self.tcl.call("::otcl::newid")), args)

    def alloc(self, cls: str, builtin: str, handle: str, args: list[str]) -> TclObject:
        """The Python object behind ``handle``, of the built-in class ``builtin`` (``cls``
        itself, or the nearest built-in ancestor of the script's class ``cls``)."""
        factory = self._factory(builtin)
        obj = factory(self, builtin, handle, self.where(), args)
        if cls != builtin:  # the script's classes' defaults (Agent/MyTcp set window_ 7)
            for c in reversed(self.classes.lineage(cls)):
                if c not in PARENT:
                    obj.vars.update(self.classes.values.get(c, {}))
        self.objects[handle] = obj
        self.tcl.call("::otcl::register", handle, cls, 1)
        return obj

    def _factory(self, cls: str) -> Factory:
        c = cls
        while c:
            if c in self.factories:
                return self.factories[c]
            c = PARENT.get(c, "")
        if cls in PARENT:
            raise Ns2Error(f"objects of class {cls} are not supported by ackclock yet")
        raise Ns2Error(f"unknown or unsupported ns-2 class \"{cls}\"")

    def default_rng(self) -> Rng:
        """The object behind ``$defaultRNG``."""
        from .rng import Rng

        obj = self.objects.get(str(self.tcl.getvar("::defaultRNG")))
        if not isinstance(obj, Rng):
            raise Ns2Error("$defaultRNG is not an RNG object")
        return obj

    def delete(self, obj: TclObject) -> None:
        self.objects.pop(obj.handle, None)
        self.tcl.call("::otcl::forget", obj.handle)

    def lookup(self, handle: str, kind: type[TclObject] | None = None,
               what: str = "an object") -> TclObject:
        obj = self.objects.get(handle)
        if obj is None or (kind is not None and not isinstance(obj, kind)):
            raise TclError(f"expected {what}, got \"{handle}\"")
        return obj

    # --- the Tcl <-> Python call ------------------------------------------------------------

    def _dispatch(self, target: str, *args: str) -> tuple[str, str]:
        if self.pending is not None:
            return ("fatal", "ackclock: stopping")
        # The call's script line, once asked, holds until it returns (a call it makes back
        # into Tcl returns to the same frames); a call from Tcl within it has its own.
        outer, self._here = self._here, None
        try:
            return ("ok", self._call(target, list(args)))
        except TclError as e:
            return ("error", str(e))
        except (Ns2Error, ScriptExit) as e:
            if isinstance(e, Ns2Error) and e.where is None:
                e.where = self.where()
            self.pending = e
            return ("fatal", str(e))
        except Exception as e:  # a bug in ackclock: report it with where it happened
            tb = traceback.format_exc(limit=-3)
            err = Ns2Error(f"internal error in ackclock ({type(e).__name__}: {e})\n{tb}",
                           self.where(), status=70)
            self.pending = err
            return ("fatal", str(err))
        finally:
            self._here = outer

    def _call(self, target: str, args: list[str]) -> str:
        if target == "__new":
            if not args:
                raise TclError('wrong # args: should be "new class ?args?"')
            return self.new_object(args[0], args[1:]).handle
        if target == "__alloc":  # ::otcl's create of a built-in class or a subclass of one
            return self.alloc(args[0], args[1], args[2], args[3:]).handle
        if target == "__forget":  # $obj destroy
            self.objects.pop(args[0], None)
            return ""
        if target == "__vars":
            return " ".join(self.lookup(args[0]).vars)
        if target == "__classdef":  # a class and its precedence list (OTcl's heritage)
            self.classes.define(args[0], args[1:])
            return ""
        if target == "__classvar":
            return self._class_command(args[0], ["set", *args[1:]])
        if target == "__classcmd":
            return self._class_command(args[0], args[1:])
        if target == "__unsupported_class":
            raise Ns2Error(f"unknown or unsupported ns-2 class \"{args[0]}\"")
        if target == "__unsupported":
            raise Ns2Error(unsupported(args[0] if args else "this command"))
        if target == "__ns_random":
            rng = self.default_rng()
            if args:
                return str(rng.cmd_seed(args[0]))
            return str(rng.cmd_next_random())  # Random::random()
        if target == "__ns_int64":
            return _int64_command(args)
        if target == "__exit":
            try:
                code = int(args[0]) if args else 0
            except ValueError:
                raise TclError(f'expected integer but got "{args[0]}"') from None
            raise ScriptExit(code)
        return self.lookup(target).call(args)

    def _class_command(self, cls: str, args: list[str]) -> str:
        if args[:1] == ["set"] and len(args) == 3:
            self.classes.set(cls, args[1], args[2], self.where())
            return args[2]
        if args[:1] == ["set"] and len(args) == 2:
            value = self.classes.get(cls, args[1])
            if value is None:
                raise TclError(f'can\'t read "{args[1]}": no such variable')
            return value
        if cls == "Node" and args == ["enable-module", "VC"]:
            # ns-2.35's virtual classifier nodes (tcl/lib/ns-rtmodule.tcl RtModule/VC,
            # classifier/classifier-virtual.cc VirtualClassifier::recv): each packet's next
            # hop asked of the route logic, the routes static routing computes, so unicast
            # packets go where they go without the module.
            return ""
        if cls == "Node" and args[:1] in (["allocaddr"], ["expandaddr"]):
            raise Ns2Error(unsupported(f"multicast (Node {args[0]})"))
        if cls == "Simulator" and args == ["instance"]:
            if self.simulator is None:
                raise TclError("no Simulator has been created")
            return self.simulator.handle
        shown = " ".join([cls, *args])
        raise Ns2Error(f"class command \"{shown}\" is not supported by ackclock")

    # --- running ---------------------------------------------------------------------------

    def eval_global(self, script: str) -> None:
        """Evaluates ``script`` at the global level; fatal conditions come back as raises."""
        try:
            self.tcl.call("uplevel", "#0", script)
        except tkinter.TclError as e:
            self.raise_pending()
            raise Ns2Error(self._tcl_message(str(e)), self._error_where(), status=1) from None
        self.raise_pending()

    def raise_pending(self) -> None:
        if self.pending is not None:
            raise self.pending

    def _tcl_message(self, message: str) -> str:
        info = str(self.tcl.getvar("::errorInfo"))
        procs = [self._method_name(line.split('"')[1]) for line in info.splitlines()
                 if line.strip().startswith('(procedure "')]
        procs = [p for p in procs if not p.startswith("::otcl::")]
        inside = f" (in procedure {procs[0]})" if procs else ""
        return f"Tcl error{inside}: {message}"

    def _method_name(self, proc: str) -> str:
        """``Test/ecn instproc run`` for the Tcl proc behind an OTcl method."""
        if proc.startswith("::otcl::p"):
            try:
                return str(self.tcl.call("set", f"::otcl::pname({proc})"))
            except tkinter.TclError:
                pass
        return proc

    def _error_where(self) -> Location:
        info = str(self.tcl.getvar("::errorInfo"))
        last: Location | None = None
        for line in info.splitlines():
            s = line.strip()
            if s.startswith('(file "') and " line " in s:
                file = s.split('"')[1]
                try:
                    n = int(s.rsplit(" line ", 1)[1].rstrip(")"))
                except ValueError:
                    continue
                if last is None:
                    last = Location(self._shown(file), n)
        return last or self.event_where or Location(self.script, 0)

    def pause_collector(self) -> None:
        """The cyclic garbage collector waits while the script builds its network: some ten
        objects per flow, none of them garbage, which each of its passes would walk again
        (10 000 flows: about 0.7 s). It resumes when the run starts (Simulator._start) or
        the script ends."""
        self._collector_paused = gc.isenabled()
        gc.disable()

    def resume_collector(self) -> None:
        if self._collector_paused:
            gc.enable()
            self._collector_paused = False

    def close_all(self) -> None:
        self.tcl.call("::__ac_close_all")

    def c_print(self, text: str) -> None:
        """Text ns-2's C++ writes with printf: on a terminal at once (line-buffered), else
        held until the script ends and written after Tcl's output (C's fully buffered stdout
        is flushed at exit), as ns-2's output reads when piped or redirected."""
        if sys.stdout.isatty():
            self.tcl.eval("catch {flush stdout}")
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            self.c_stdout.append(text)

    def flush_c_stdout(self) -> None:
        """Writes what `c_print` held, after Tcl's stdout."""
        if self.c_stdout:
            self.tcl.eval("catch {flush stdout}")
            sys.stdout.write("".join(self.c_stdout))
            sys.stdout.flush()
            self.c_stdout.clear()

    def write_channel(self, channel: str, text: str) -> None:
        self.tcl.call("puts", "-nonewline", channel, text)


def _parents_first(parent: Mapping[str, str]) -> list[str]:
    out: list[str] = []

    def visit(c: str) -> None:
        if c and c not in out:
            visit(parent.get(c, ""))
            out.append(c)

    for c in parent:
        visit(c)
    return out


def _strtoi64(text: str) -> int:
    """C's ``strtoll(text, NULL, 0)``: leading blanks, a sign, 0x for hex, 0 for octal; the
    longest valid prefix (none: 0), saturated to 64 bits."""
    t = text.lstrip(" \t\n\v\f\r")
    sign = -1 if t[:1] == "-" else 1
    t = t[1:] if t[:1] in "+-" else t
    base, digits = 10, "0123456789"
    if t[:2].lower() == "0x" and t[2:3].lower() in "0123456789abcdef" and t[2:3]:
        base, digits, t = 16, "0123456789abcdef", t[2:]
    elif t[:1] == "0":
        base, digits = 8, "01234567"
    n = 0
    for ch in t:
        if ch.lower() not in digits:
            break
        n = n * base + int(ch, 16)
    return max(-(2**63), min(2**63 - 1, sign * n))


def _int64_command(args: list[str]) -> str:
    """ns-2.35's ns-add64, ns-mult64 and ns-int64todbl (common/misc.cc): 64-bit integer
    arithmetic on counters that Tcl 8.4 could not hold; the sum or product wraps as C's
    int64_t does on this machine, the double prints as ``%.1f``."""
    op, rest = args[0], args[1:]
    name = {"add": "ns-add64", "mult": "ns-mult64", "todbl": "ns-int64todbl"}[op]
    if op == "todbl":
        if len(rest) != 1:
            raise TclError(f"{name} requires only one arguments.")
        return f"{float(_strtoi64(rest[0])):.1f}"
    if len(rest) != 2:
        raise TclError(f"{name} requires two arguments.")
    a, b = _strtoi64(rest[0]), _strtoi64(rest[1])
    r = a + b if op == "add" else a * b
    return str((r + 2**63) % 2**64 - 2**63)
