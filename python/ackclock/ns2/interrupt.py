"""Ctrl-C and the progress line while ``ackclock ns2`` runs a script.

A script spends its time where Python's own signal handling cannot reach it: inside Tcl
(``while {1} {...}``, long ``for`` loops) or inside the engine's run between two ``$ns at``
events. Python's C-level handler still notes the signal at once and writes it to a wake-up
file descriptor; a watcher thread waiting on that descriptor ends the process as ns-2 ends on
Ctrl-C: at once, status 130, with one line on stderr ("interrupted"). Files the script has not
closed are left as ns-2 leaves them (what Tcl had not flushed yet is lost, in both).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from types import FrameType, TracebackType

INTERRUPTED = 130


class CtrlC:
    """While active (``with CtrlC():``), Ctrl-C ends the process at once with status 130."""

    def __init__(self) -> None:
        self._pipe: tuple[int, int] | None = None
        self._old_fd = -1
        self._old_handler: object = None

    def __enter__(self) -> CtrlC:
        if threading.current_thread() is not threading.main_thread():
            return self  # signals reach only the main thread; nothing to watch
        r, w = os.pipe()
        os.set_blocking(w, False)
        self._pipe = (r, w)
        self._old_fd = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        self._old_handler = signal.signal(signal.SIGINT, _noted)
        threading.Thread(target=self._watch, args=(r,), name="ackclock-ctrl-c",
                         daemon=True).start()
        return self

    def _watch(self, r: int) -> None:
        while True:
            try:
                data = os.read(r, 64)
            except OSError:
                return
            if not data:
                return
            if signal.SIGINT in data:
                try:
                    sys.stdout.flush()
                except Exception:  # noqa: BLE001 - exiting anyway
                    pass
                os.write(2, b"\nackclock: interrupted\n")
                os._exit(INTERRUPTED)

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._pipe is None:
            return
        signal.set_wakeup_fd(self._old_fd)
        signal.signal(signal.SIGINT, self._old_handler)  # type: ignore[arg-type]
        r, w = self._pipe
        os.close(w)  # the watcher's read sees the end and returns
        self._pipe = None
        del r


def _noted(signum: int, frame: FrameType | None) -> None:
    """The Python-level handler: the watcher thread acts on the signal."""


class Progress:
    """A progress line (simulated time, wall time) on stderr when stderr is a terminal and
    the run has gone on for a while; erased when the run ends."""

    AFTER_S = 2.0  # wall seconds before the first line
    EVERY_S = 0.5

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def update(self, sim_s: float) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.AFTER_S or now - self.last < self.EVERY_S:
            return
        self.last = now
        self.shown = True
        sys.stderr.write(f"\r\033[Kackclock ns2: simulated {sim_s:.3f} s,"
                         f" wall {now - self.start:.1f} s")
        sys.stderr.flush()

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.shown = False
