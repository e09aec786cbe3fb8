"""Every Rust file is formatted (issue 27). ``cargo fmt`` formats the modules it finds by
following ``mod`` items from each crate's root, and the modules declared inside a macro (the
``algorithms!`` list in tcp/cc/mod.rs, the ``disciplines!`` list in queue/mod.rs: one line per
congestion control or queue discipline) it never reaches, so ``cargo fmt --all -- --check``
passes whatever those files look like. This test hands rustfmt every file itself."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _edition() -> str:
    found = re.search(r'^edition\s*=\s*"(\d+)"', (ROOT / "Cargo.toml").read_text(encoding="utf-8"),
                      re.MULTILINE)
    assert found is not None, "Cargo.toml: the workspace's edition"
    return found.group(1)


def test_cargo_fmt_misses_the_modules_declared_in_macros() -> None:
    """The premise: the registries declare their modules inside the macros (so a file of
    theirs is outside cargo fmt's reach), not with a plain ``mod`` item."""
    for registry, module in (("crates/ackclock-core/src/tcp/cc/mod.rs", "cubic"),
                             ("crates/ackclock-core/src/queue/mod.rs", "red")):
        text = (ROOT / registry).read_text(encoding="utf-8")
        assert re.search(rf"^\s*{module}::\w+", text, re.MULTILINE), registry
        assert not re.search(rf"^\s*(pub )?mod {module};", text, re.MULTILINE), registry


def test_every_rust_file_is_formatted() -> None:
    rustfmt = shutil.which("rustfmt")
    if rustfmt is None:
        pytest.skip("rustfmt is not installed (rustup component add rustfmt)")
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "crates").rglob("*.rs")
                   if "target" not in p.parts)
    r = subprocess.run([rustfmt, "--edition", _edition(), "--check", *files], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    unformatted = sorted(set(re.findall(r"^Diff in (\S+?):\d+:", r.stdout, re.MULTILINE)))
    assert r.returncode == 0 and not unformatted, (
        f"not formatted (run rustfmt --edition {_edition()} on them): {unformatted}\n"
        + r.stderr[-2000:])
