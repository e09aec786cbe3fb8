"""Types in CI (issue 27): the package type-checks under ``mypy --strict`` (pyproject.toml's
[tool.mypy]), and ``_core.pyi`` describes the compiled engine exactly (mypy's stubtest imports
the built module and compares every name, signature and class with the stub). The examples a
user starts from type-check as strictly against the installed package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("mypy")


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env=env)


def test_package_type_checks_strictly() -> None:
    r = _run("mypy", "--no-incremental", "--config-file", "pyproject.toml")
    assert r.returncode == 0, r.stdout + r.stderr


def test_stub_matches_the_compiled_engine() -> None:
    r = _run("mypy.stubtest", "ackclock._core", "--mypy-config-file", "pyproject.toml")
    assert r.returncode == 0, r.stdout + r.stderr


def test_examples_type_check_strictly(tmp_path: Path) -> None:
    # The seeds' run.py files share a name, so each is checked on its own; they import
    # examples/seeds/_wrap.py. One cache serves every run.
    env = {**os.environ, "MYPYPATH": str(ROOT / "examples" / "seeds")}
    groups = [[*sorted(str(p) for p in (ROOT / "examples").glob("*.py")),
               str(ROOT / "examples" / "seeds" / "_wrap.py")],
              *([str(p)] for p in sorted((ROOT / "examples" / "seeds").glob("*/run.py")))]
    assert len(groups) > 5
    for files in groups:
        r = _run("mypy", "--strict", "--cache-dir", str(tmp_path), *files, env=env)
        assert r.returncode == 0, r.stdout + r.stderr
