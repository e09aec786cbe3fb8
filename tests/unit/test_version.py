"""`ackclock.__version__` comes from the engine, without importlib.metadata (30-45 ms to
import): the engine and the Python package are built from one version number."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import ackclock
from ackclock import _core


def test_the_engine_and_the_installed_package_carry_the_same_version() -> None:
    assert _core.version() == version("ackclock")
    assert ackclock.__version__ == version("ackclock")


def test_the_version_flag_does_not_import_importlib_metadata() -> None:
    code = ("import sys; before = set(sys.modules); from ackclock.cli import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
            "print('importlib.metadata' in sys.modules and "
            "'importlib.metadata' not in before)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    lines = done.stdout.split()
    assert lines[:2] == ["ackclock", version("ackclock")], done.stdout
    assert lines[-1] == "False", done.stdout + done.stderr
