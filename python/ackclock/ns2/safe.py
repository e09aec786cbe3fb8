"""``ackclock ns2 --safe``: the script runs in a Tcl safe interpreter (``interp create -safe``).

Tcl's safe-interpreter rules (the Tcl manual, "interp", SAFE INTERPRETERS; the Safe Base,
"safe"): the script has no ``exec``, ``socket``, ``load``, ``cd``, ``glob``, ``pwd``,
``exit`` (ackclock's own ``exit`` stays), no ``file`` subcommand that touches the file system,
and ``open`` and ``source`` only through aliases to this module, which allow relative paths
inside the folder the script runs in (the results folder: no absolute path, no ``..``, no
symbolic link leading out). Everything else (ns-2's commands, OTcl, ``puts`` on its own
channels and stdout) works as without ``--safe``.

:class:`SafeTcl` offers the part of ``tkinter.Tcl``'s interface the front end uses (``eval``,
``call``, ``getvar``, ``setvar``, ``createcommand``, ``splitlist``), evaluated in the safe
child; the Python commands behind ns-2's objects live in the (unsafe) parent and are aliased
into the child, as the Safe Base does for its own aliases.
"""

from __future__ import annotations

import os
import tkinter
from collections.abc import Callable
from pathlib import Path
from typing import Any

_CHILD = "ackclock_script"
_OPEN_MODES = ("r", "r+", "w", "w+", "a", "a+", "rb", "wb", "ab", "RDONLY", "WRONLY", "RDWR",
               "CREAT", "TRUNC", "APPEND", "EXCL", "BINARY", "NOCTTY", "NONBLOCK")


def _status(func: Callable[..., Any]) -> Callable[..., tuple[str, Any]]:
    def call(*args: Any) -> tuple[str, Any]:
        try:
            return ("ok", func(*args))
        except tkinter.TclError as e:
            return ("error", str(e))

    return call


class SafeTcl:
    """A safe child interpreter behind tkinter.Tcl's interface."""

    def __init__(self, script: str | None = None,
                 root: str | os.PathLike[str] | None = None) -> None:
        self.root = Path(root or os.getcwd()).resolve()
        # The script itself may be anywhere (the user named it).
        self.script = os.path.abspath(script) if script else None
        self.master = tkinter.Tcl()
        m = self.master
        # ns-2 prints doubles with 17 significant digits; a safe interpreter may not set it.
        m.eval("set ::tcl_precision 17")
        m.call("interp", "create", "-safe", _CHILD)
        for chan in ("stdin", "stdout", "stderr"):  # as the Safe Base shares them
            m.call("interp", "share", "", chan, _CHILD)
        # Calls with their words as given (one list: no second round of substitution).
        m.eval(f"proc ::__ac_call {{args}} {{ {_CHILD} eval $args }}")
        # A Python callback cannot set a Tcl error message: it returns (status, text) and a
        # proc raises the error (as interp.py's dispatcher does).
        for name, func in (("open", self._open), ("source", self._source)):
            m.createcommand(f"::__ac_safe_{name}_py", _status(func))
            m.eval(f"proc ::__ac_safe_{name} {{args}} {{\n"
                   f"    set r [::__ac_safe_{name}_py {{*}}$args]\n"
                   "    if {[lindex $r 0] eq \"ok\"} { return [lindex $r 1] }\n"
                   "    return -code error [lindex $r 1]\n}")
            m.call("interp", "alias", _CHILD, name, "", f"::__ac_safe_{name}")

    # --- tkinter.Tcl's interface, in the child ----------------------------------------------

    def eval(self, script: str) -> Any:
        return self.master.call("::__ac_call", "eval", script)

    def call(self, *args: Any) -> Any:
        return self.master.call("::__ac_call", *args)

    def getvar(self, name: str) -> Any:
        return self.master.call("::__ac_call", "set", name)

    def setvar(self, name: str, value: Any) -> None:
        self.master.call("::__ac_call", "set", name, value)

    def createcommand(self, name: str, func: Callable[..., Any]) -> None:
        self.master.createcommand(name, func)
        self.master.call("interp", "alias", _CHILD, name, "", name)

    def splitlist(self, value: Any) -> tuple[Any, ...]:
        return self.master.splitlist(value)

    # --- the aliases ---------------------------------------------------------------------

    def inside(self, name: str, what: str) -> Path:
        """``name`` as a path inside the root, else a Tcl error saying so."""
        text = str(name)
        p = Path(text)
        if not text or p.is_absolute() or ".." in p.parts:
            raise tkinter.TclError(f'{what} "{text}": --safe allows only relative paths inside'
                                   f" {self.root} (no absolute path, no ..)")
        full = (self.root / p).resolve()
        if full != self.root and self.root not in full.parents:
            raise tkinter.TclError(f'{what} "{text}": --safe allows only paths inside'
                                   f" {self.root} (this one leads out through a link)")
        return full

    def _open(self, *args: str) -> str:
        if not args or len(args) > 3:
            raise tkinter.TclError('wrong # args: should be "open fileName ?access? ?perms?"')
        name = str(args[0])
        if name.startswith("|"):
            raise tkinter.TclError(f'open "{name}": --safe runs no commands (open |...)')
        path = self.inside(name, "open")
        if len(args) > 1:
            words = self.master.splitlist(args[1])
            if not all(str(w) in _OPEN_MODES for w in words):
                raise tkinter.TclError(f'open: unknown access mode "{args[1]}"')
        chan = str(self.master.call("open", str(path), *args[1:]))
        self.master.call("interp", "transfer", "", chan, _CHILD)
        return chan

    def _source(self, *args: str) -> Any:
        if len(args) != 1:
            raise tkinter.TclError('wrong # args: should be "source fileName"')
        if os.path.abspath(str(args[0])) != self.script:
            self.inside(str(args[0]), "source")
        # The child's own (hidden) source: its frames name the file and lines, for errors.
        return self.master.call("interp", "invokehidden", _CHILD, "source", str(args[0]))
