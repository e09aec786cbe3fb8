"""Runs every code block of README.md and docs/ (pytest-codeblocks, `--codeblocks` in
pyproject.toml): Python and shell blocks run as they are, in order, each page's blocks in a
fresh folder of their own holding the repository's examples/ and benchmarks/ (links), so that
their results/ folders go there, a page's later blocks see what its earlier ones wrote, and
the relative paths the docs use work. TOML blocks are checked by tests/unit/test_docs.py."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
_LINKED = ("examples", "benchmarks", "validation", "docs", "python", "scripts", "crates",
           "Cargo.toml", "Cargo.lock", "pyproject.toml", "README.md", "target")


_FOLDERS: dict[Path, Path] = {}  # page -> the folder its blocks run in


def _is_code_block(item: pytest.Item) -> bool:
    return type(item).__module__.startswith("pytest_codeblocks")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    if not _is_code_block(item):
        yield
        return
    tmp = _FOLDERS.get(item.path)
    if tmp is None:
        factory = item.config._tmp_path_factory  # type: ignore[attr-defined]
        tmp = _FOLDERS[item.path] = Path(factory.mktemp("codeblock"))
        for name in _LINKED:
            if (ROOT / name).exists():
                (tmp / name).symlink_to(ROOT / name)
    old = Path.cwd()
    env = os.environ.get("MPLBACKEND")
    os.environ["MPLBACKEND"] = "Agg"
    os.chdir(tmp)
    try:
        yield
    finally:
        os.chdir(old)
        if env is None:
            os.environ.pop("MPLBACKEND", None)
        else:
            os.environ["MPLBACKEND"] = env
