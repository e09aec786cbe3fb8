"""Types in CI (issue 27): the package type-checks under ``mypy --strict`` (pyproject.toml's
[tool.mypy]), and ``_core.pyi`` describes the compiled engine exactly (mypy's stubtest imports
the built module and compares every name, signature and class with the stub)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("mypy")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def test_package_type_checks_strictly() -> None:
    r = _run("mypy", "--no-incremental", "--config-file", "pyproject.toml")
    assert r.returncode == 0, r.stdout + r.stderr


def test_stub_matches_the_compiled_engine() -> None:
    r = _run("mypy.stubtest", "ackclock._core", "--mypy-config-file", "pyproject.toml")
    assert r.returncode == 0, r.stdout + r.stderr
