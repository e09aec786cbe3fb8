"""Issue 27's size rules for the engine's sources (docs/architecture.md, "How we know"): no
Rust file of the engine over 1000 lines, and the event loop (`sim/mod.rs`) under 800. A file
that grows past them is split by job (a child module per concern), not trimmed of comments."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 1000
LOOP_LIMIT = 800


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_engine_source_file_over_1000_lines() -> None:
    files = sorted((ROOT / "crates").rglob("*.rs"))
    assert files, "crates/: no Rust sources found"
    over = {str(p.relative_to(ROOT)): n for p in files if (n := _lines(p)) > LIMIT}
    assert not over, f"over {LIMIT} lines (split by job): {over}"


def test_the_event_loop_stays_under_800_lines() -> None:
    n = _lines(ROOT / "crates/ackclock-core/src/sim/mod.rs")
    assert n < LOOP_LIMIT, f"sim/mod.rs has {n} lines (the loop's budget is {LOOP_LIMIT})"
