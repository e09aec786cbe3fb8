"""Runs every code block of README.md and docs/ (pytest-codeblocks, `--codeblocks` in
pyproject.toml): Python and shell blocks run as they are, each in a fresh folder holding the
repository's examples/ and benchmarks/ (links), so that their results/ folders go there and
the relative paths the docs use work. TOML blocks are checked by tests/unit/test_docs.py."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
_LINKED = ("examples", "benchmarks", "validation", "docs", "python", "scripts", "crates",
           "Cargo.toml", "Cargo.lock", "pyproject.toml", "README.md", "target")


def _is_code_block(item: pytest.Item) -> bool:
    return type(item).__module__.startswith("pytest_codeblocks")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    if not _is_code_block(item):
        yield
        return
    tmp = Path(item.config._tmp_path_factory.mktemp("codeblock"))  # type: ignore[attr-defined]
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
