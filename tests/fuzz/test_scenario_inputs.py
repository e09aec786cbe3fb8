"""The scenario loader and the engine on garbled and random input (Hypothesis), and the
fuzzers' regression corpus: every input is a scenario or a one-line ScenarioError, never
another exception; the engine never panics on what the loader accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")

from harness import CORPUS, CRASHERS, check  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from strategies import garbled, inputs  # noqa: E402

FAST = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FAST
@given(inputs)
def test_any_text_is_a_scenario_or_a_one_line_error(case: tuple[str, str]) -> None:
    source, text = case
    check(text, source=source, engine=False)


@FAST
@given(garbled())
def test_the_engine_rejects_or_runs_what_the_loader_accepts(case: tuple[str, str]) -> None:
    source, text = case
    check(text, source=source)


REGRESSIONS = sorted(CORPUS.glob("*.toml")) + sorted(CRASHERS.glob("*.toml"))


@pytest.mark.parametrize("path", REGRESSIONS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_regression_corpus(path: Path) -> None:
    expected = path.read_text(encoding="utf-8").split("\n", 1)[0]
    outcome = check(path.read_text(encoding="utf-8"), source=str(path))
    # A corpus file may pin its outcome on its first line: "# expect: rejected".
    if expected.startswith("# expect: "):
        assert outcome == expected.removeprefix("# expect: ").strip()
