"""Runs a scenario in the engine and collects its results."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from tqdm import tqdm

from .errors import EngineUnavailable, ScenarioError
from .results import Results
from .scenario import Scenario, resolve
from .units import PS_PER_S

# The run advances in this many slices, so that a progress bar can move and Ctrl-C is
# honoured between slices (the engine runs each slice without the GIL).
_SLICES = 200


def engine() -> ModuleType:
    """The compiled engine module."""
    try:
        from . import _core
    except ImportError as e:
        raise EngineUnavailable(
            "the compiled engine (ackclock._core) is not installed; build it with"
            f" `pip install .` or `maturin develop` ({e})"
        ) from None
    return _core


def run_scenario(scenario: Scenario, progress: bool | None = None,
                 trace_dir: str | os.PathLike[str] | None = None) -> Results:
    """Runs ``scenario`` to its duration.

    ``progress``: True shows a progress bar on stderr for runs longer than about 2 s of wall
    time; None does so only when stderr is a terminal (so logs stay clean); False never.
    ``trace_dir``: the folder packet traces are written to (default: the current folder).
    """
    resolved = resolve(scenario)
    document = json.dumps(_with_trace_paths(resolved, trace_dir))
    core = engine()
    try:
        sim = core.Simulation(document)
    except ValueError as e:
        # The front end checks everything it knows; what is left (e.g. unreachable
        # destinations) comes from the engine's own checks.
        raise ScenarioError(f"the engine rejected the scenario: {e}",
                            file=scenario.source) from None

    show = sys.stderr.isatty() if progress is None else progress
    duration = sim.duration_ps
    start = time.perf_counter()
    with tqdm(
        total=duration / PS_PER_S,
        unit="s",
        desc=f"{scenario.name} (simulated)",
        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.1f}/{total:.1f} s"
        " [{elapsed}<{remaining}]",
        delay=2,
        leave=False,
        disable=not show,
    ) as bar:
        done = 0
        for k in range(1, _SLICES + 1):
            target = duration * k // _SLICES
            sim.run_until(target)
            bar.update((target - done) / PS_PER_S)
            done = target
    wall_s = time.perf_counter() - start

    raw = sim.results()
    summary = raw["summary"]
    return Results.from_engine(
        raw,
        wall_s=wall_s,
        events_per_s=_per_second(summary.get("events"), wall_s),
        packet_hops_per_s=_per_second(summary.get("packet_hops"), wall_s),
        # Everything needed to run it again: the engine's exact input.
        scenario=resolved,
    )


def _with_trace_paths(resolved: dict[str, Any],
                      trace_dir: str | os.PathLike[str] | None) -> dict[str, Any]:
    """The engine's copy of the document: trace files made absolute under ``trace_dir``,
    whose folders are created. The recorded scenario keeps the names as given."""
    if not resolved.get("traces"):
        return resolved
    base = Path(trace_dir) if trace_dir is not None else Path.cwd()
    traces = []
    for t in resolved["traces"]:
        path = (base / t["path"]).absolute()
        path.parent.mkdir(parents=True, exist_ok=True)
        traces.append({**t, "path": str(path)})
    return {**resolved, "traces": traces}


def _per_second(count: int | None, wall_s: float) -> float | None:
    if count is None or wall_s <= 0:
        return None
    return count / wall_s
