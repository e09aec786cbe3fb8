"""benchmarks/compare.py's default results folder: a second run on the same day gets its own."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

COMPARE = Path(__file__).parents[2] / "benchmarks" / "compare.py"


def load_compare() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_compare", COMPARE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_compare"] = module
    spec.loader.exec_module(module)
    return module


def test_a_taken_results_folder_is_never_reused(tmp_path: Path) -> None:
    compare = load_compare()
    base = tmp_path / "2026-11-23"
    assert compare.fresh_folder(base) == base
    base.mkdir()
    assert compare.fresh_folder(base) == tmp_path / "2026-11-23b"
    (tmp_path / "2026-11-23b").mkdir()
    assert compare.fresh_folder(base) == tmp_path / "2026-11-23c"
