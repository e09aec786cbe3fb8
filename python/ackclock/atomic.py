"""Atomic file writing: a temporary file beside the target, then a rename.

A reader (a user, a plot, a resumed sweep) never sees a half-written file: after a crash, a
full disk or Ctrl-C the target holds either its earlier content or the new one, whole. The
temporary file gets the permissions a plain ``open`` would give (umask), unlike
``tempfile.mkstemp``'s private 0600.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any


def temporary_name(path: Path) -> Path:
    """A fresh hidden name beside ``path``, ending in ``.tmp``."""
    return path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")


def write_atomic(path: str | os.PathLike[str], write: Callable[[IO[Any]], object],
                 binary: bool = False) -> None:
    """Calls ``write(f)`` on a temporary file beside ``path``, then renames it to ``path``.

    The temporary file is removed when ``write`` raises (KeyboardInterrupt included).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_name(path)
    try:
        if binary:
            with open(tmp, "xb") as f:
                write(f)
        else:
            with open(tmp, "x", encoding="utf-8", newline="") as f:
                write(f)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Writes ``text`` (UTF-8) to ``path`` atomically."""
    write_atomic(path, lambda f: f.write(text))
