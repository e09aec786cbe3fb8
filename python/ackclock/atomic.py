"""Atomic file and folder writing: a temporary file or folder beside the target, then a rename.

A reader (a user, a plot, a resumed sweep) never sees a half-written file or a mixed folder:
after a crash, a full disk, Ctrl-C or a kill the target holds either its earlier content or the
new one, whole. Temporary names start with ``.`` and carry ``.ackclock-<pid>-`` so that the
next write beside them removes those of processes that no longer run. Temporary files get the
permissions a plain ``open`` would give (umask), unlike ``tempfile.mkstemp``'s private 0600.

Every write and rename passes through :func:`fault_point`, the test hook of tests/hostile:
``ACKCLOCK_FAULT=<op>:<n>[:<what>]`` makes the n-th ``write`` or ``rename`` of the process
fail with ENOSPC (``<what>`` = ``enospc``, the default), EIO (``eio``) or a SIGKILL of the
process (``kill``). See docs/reliability.md.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

# --- the fault-injection hook ---------------------------------------------------------------

_counts: dict[str, int] = {}


def fault_point(op: str, path: str | os.PathLike[str]) -> None:
    """Called before each write (``op="write"``) and rename (``op="rename"``) of results."""
    spec = os.environ.get("ACKCLOCK_FAULT")
    if not spec:
        return
    parts = spec.split(":")
    if len(parts) < 2 or parts[0] != op:
        return
    _counts[op] = _counts.get(op, 0) + 1
    if str(_counts[op]) != parts[1]:
        return
    what = parts[2] if len(parts) > 2 else "enospc"
    if what == "kill":
        import signal

        os.kill(os.getpid(), signal.SIGKILL)
    code = errno.EIO if what == "eio" else errno.ENOSPC
    raise OSError(code, os.strerror(code), str(path))


# --- names ----------------------------------------------------------------------------------

# A name component of at most this many bytes (Linux NAME_MAX); temporary names keep a
# shortened copy of the target's name so that they never exceed it where the target does not.
NAME_MAX = 255
_TMP = re.compile(r"^\.(.*)\.ackclock-(\d+)-[0-9a-f]{8}\.(tmp|old)$", re.S)


def _short(name: str) -> str:
    return name.encode()[:80].decode(errors="ignore")


def temporary_name(path: Path, kind: str = "tmp") -> Path:
    """A fresh hidden name beside ``path``, ending in ``.tmp`` (or ``.old``)."""
    return path.with_name(f".{_short(path.name)}.ackclock-{os.getpid()}-{os.urandom(4).hex()}"
                          f".{kind}")


def check_name(path: Path) -> None:
    """Raises OSError(ENAMETOOLONG) naming ``path`` itself (not a temporary name) when its
    last component is longer than the file system allows."""
    if len(path.name.encode()) > NAME_MAX:
        raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG), str(path))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def clean_leftovers(path: Path) -> list[Path]:
    """Removes the temporary files and folders beside ``path`` (for ``path``'s name) that
    processes which no longer run left behind (SIGKILL, power loss); returns them."""
    return _clean(path.parent, _short(path.name))


def clean_folder(folder: Path) -> list[Path]:
    """:func:`clean_leftovers` for every name in ``folder``, in one scan."""
    return _clean(folder, None)


def _clean(parent: Path, short: str | None) -> list[Path]:
    removed: list[Path] = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    for entry in entries:
        m = _TMP.match(entry.name)
        if m is None or (short is not None and m.group(1) != short) \
                or _alive(int(m.group(2))):
            continue
        p = Path(entry.path)
        if entry.is_dir(follow_symlinks=False):
            import shutil

            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
        removed.append(p)
    return removed


# --- files ----------------------------------------------------------------------------------


def replace(src: Path, dst: Path) -> None:
    """``os.replace`` through the fault hook."""
    fault_point("rename", dst)
    os.replace(src, dst)


def write_atomic(path: str | os.PathLike[str], write: Callable[[IO[Any]], object],
                 binary: bool = False, clean: bool = True) -> None:
    """Calls ``write(f)`` on a temporary file beside ``path``, then renames it to ``path``.

    The temporary file is removed when ``write`` raises (KeyboardInterrupt included). An
    OSError names ``path``, not the temporary file. ``path`` must not be anything but a
    regular file (or absent). ``clean``: first remove what killed processes left beside
    ``path`` (a scan of its folder); a caller writing many files into one folder does that
    once for the folder instead (:func:`clean_folder`).
    """
    path = Path(path)
    check_name(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    check_replaceable(path)
    if clean:
        clean_leftovers(path)
    tmp = temporary_name(path)
    try:
        try:
            fault_point("write", path)
            if binary:
                with open(tmp, "xb") as f:
                    write(f)
            else:
                with open(tmp, "x", encoding="utf-8", newline="") as f:
                    write(f)
        except OSError as e:
            raise OSError(e.errno, e.strerror, str(path)) from None
        replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Writes ``text`` (UTF-8) to ``path`` atomically."""
    write_atomic(path, lambda f: f.write(text))


def check_replaceable(path: Path) -> None:
    """Raises OSError naming ``path`` when something other than a regular file is there
    (a folder, a device, a FIFO, a symbolic link): ackclock replaces only its own files."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(st.st_mode):
        raise FileExistsError(errno.EEXIST, "exists and is not a regular file; ackclock"
                              " replaces only files it wrote", str(path))


def write_set_atomic(folder: Path, files: Iterable[tuple[str, Callable[[IO[Any]], object], bool]],
                     stale: Iterable[str] = (), marker: str = ".incomplete") -> list[Path]:
    """Writes several files of ``folder`` as one set: each (name, write, binary) to a
    temporary file first; then ``marker`` is created, the earlier set (the new names and
    ``stale``) removed, the new files renamed in and the marker removed. At every instant the
    folder holds the earlier set, the new set, or a part of the new set beside ``marker``
    (never files of both); readers refuse a folder with the marker."""
    folder.mkdir(parents=True, exist_ok=True)
    staged: list[tuple[Path, Path]] = []
    try:
        for name, write, binary in files:
            target = folder / name
            check_name(target)
            check_replaceable(target)
            clean_leftovers(target)
            tmp = temporary_name(target)
            staged.append((tmp, target))
            try:
                fault_point("write", target)
                if binary:
                    with open(tmp, "xb") as f:
                        write(f)
                else:
                    with open(tmp, "x", encoding="utf-8", newline="") as f:
                        write(f)
            except OSError as e:
                raise OSError(e.errno, e.strerror, str(target)) from None
        mark = folder / marker
        write_text_atomic(mark, "a set of files is being replaced; it is incomplete\n")
        for name in {*(t.name for _, t in staged), *stale}:
            p = folder / name
            check_replaceable(p)
            p.unlink(missing_ok=True)
        for tmp, target in staged:
            replace(tmp, target)
        mark.unlink()
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    return [t for _, t in staged]


# --- folders --------------------------------------------------------------------------------


def _exchange(a: Path, b: Path) -> bool:
    """Swaps two paths atomically (Linux renameat2 RENAME_EXCHANGE); False where the system
    or file system cannot."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                          ctypes.c_uint]
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


class StagedFolder:
    """A folder built beside ``target`` and swapped in whole by :meth:`commit`.

    ``target`` must be absent, an empty folder, or a folder ``is_ours`` accepts (e.g. an
    earlier results folder); anything else is refused before any work. Until the commit the
    target keeps its earlier content; the commit exchanges the two folders in one step
    (RENAME_EXCHANGE; elsewhere two renames, between which the target is briefly absent) and
    removes the earlier one. Leftovers of killed processes beside the target are removed.
    """

    def __init__(self, target: str | os.PathLike[str], is_ours: Callable[[Path], bool],
                 what: str = "an ackclock results folder") -> None:
        self.target = Path(target)
        check_name(self.target)
        try:
            st = os.lstat(self.target)
        except FileNotFoundError:
            st = None
        if st is not None:
            if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
                raise FileExistsError(errno.EEXIST, f"exists and is not {what}; ackclock"
                                      " replaces only folders it wrote", str(self.target))
            if any(os.scandir(self.target)) and not is_ours(self.target):
                raise FileExistsError(errno.EEXIST, f"exists and is not {what} (not empty);"
                                      " ackclock replaces only folders it wrote",
                                      str(self.target))
        parent = self.target.absolute().parent
        parent.mkdir(parents=True, exist_ok=True)
        clean_leftovers(self.target.absolute())
        self.path = temporary_name(self.target.absolute())
        self.path.mkdir()
        self.committed = False

    def commit(self) -> None:
        """Swaps the built folder in; the earlier one (if any) is removed."""
        target = self.target.absolute()
        fault_point("rename", target)
        if target.is_dir() and not target.is_symlink():
            # Imported here: a first run into a new folder never needs it (start-up time).
            import shutil

            if _exchange(self.path, target):
                self.committed = True
                shutil.rmtree(self.path, ignore_errors=True)
                return
            old = temporary_name(target, "old")
            os.rename(target, old)
            os.rename(self.path, target)
            self.committed = True
            shutil.rmtree(old, ignore_errors=True)
            return
        os.rename(self.path, target)
        self.committed = True

    def discard(self) -> None:
        if not self.committed:
            import shutil

            shutil.rmtree(self.path, ignore_errors=True)

    def __enter__(self) -> StagedFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()
