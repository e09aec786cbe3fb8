"""Reading the files a user names: regular files only, of bounded size, checked before reading.

A scenario, a sweep file, an ns-2 script, a Tmix vector file, a trace to replay or a results
folder's summary.json may name anything: ``/dev/zero`` or ``/dev/urandom`` (endless), a FIFO
(blocks forever), a folder. Each is opened without blocking, checked to be a regular file and
below its size limit, and only then read (docs/reliability.md, "Input files").
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import ScenarioError

MiB = 1 << 20
# Scenario files, sweep files, ns-2 scripts: text a person writes.
MAX_TEXT_BYTES = 64 * MiB
# Tmix vector files, traces to replay, summary.json (which holds the Tmix vectors it ran),
# cached sweep runs: data. Parsed into Python lists, a file takes about ten times its size in
# memory.
MAX_DATA_BYTES = 1024 * MiB


def read_bytes(path: str | os.PathLike[str], limit: int = MAX_TEXT_BYTES,
               key: str | None = None, file: str | None = None) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes.

    Raises ScenarioError naming the file (``file``: the scenario that named it, with ``key``
    its key path) otherwise: missing, unreadable, not a regular file, or too large.
    """
    shown = str(path)

    def fail(what: str, opening: bool = False) -> ScenarioError:
        if key is not None:
            from .errors import quote

            text = f"cannot read {quote(shown)}: {what}" if opening else f"{quote(shown)} {what}"
            return ScenarioError(text, path=key, file=file)
        return ScenarioError(what, file=shown)

    if not isinstance(path, (str, os.PathLike)):
        raise fail("is not a file name")
    try:
        # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise fail(e.strerror or str(e), opening=True) from None
    except (ValueError, TypeError) as e:  # an embedded NUL, a name that is not text
        raise fail(f"not a usable file name ({e})", opening=True) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = ("a folder" if stat.S_ISDIR(st.st_mode) else
                    "a FIFO" if stat.S_ISFIFO(st.st_mode) else
                    "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else
                    "a socket" if stat.S_ISSOCK(st.st_mode) else "a special file")
            raise fail(f"is {kind}, not a regular file")
        if st.st_size > limit:
            raise fail(f"is {st.st_size:,} bytes, more than the limit of {limit:,} bytes for"
                       " this kind of file")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=True) as f:
            fd = -1
            data = f.read(limit + 1)
        if len(data) > limit:  # grew while being read
            raise fail(f"is more than the limit of {limit:,} bytes for this kind of file")
        return data
    except OSError as e:
        raise fail(e.strerror or str(e), opening=True) from None
    finally:
        if fd >= 0:
            os.close(fd)


def read_text(path: str | os.PathLike[str], limit: int = MAX_TEXT_BYTES,
              key: str | None = None, file: str | None = None) -> str:
    """:func:`read_bytes` decoded as UTF-8 (a ScenarioError naming the byte otherwise)."""
    data = read_bytes(path, limit, key, file)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        what = f"not UTF-8 text ({e.reason} at byte {e.start})"
        if key is not None:
            from .errors import quote

            raise ScenarioError(f"{quote(str(path))} is {what}", path=key, file=file) from None
        raise ScenarioError(what, file=str(path)) from None


def check_path_argument(value: object, what: str) -> Path:
    """A path argument of the Python API: a str or os.PathLike, else a ScenarioError."""
    if isinstance(value, (str, os.PathLike)) and not isinstance(value, bytes):
        p = os.fspath(value)
        if isinstance(p, str) and p:
            return Path(p)
    from .errors import quote

    raise ScenarioError(f"expected a file name (str or pathlib.Path), got {quote(value)}"
                        f" of type {type(value).__name__}", path=what)
