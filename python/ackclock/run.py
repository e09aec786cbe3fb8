"""Runs a scenario in the engine and collects its results."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from .errors import EngineUnavailable, InvariantViolation, ScenarioError
from .results import Results
from .scenario import Scenario, collector_paused, resolve, resolve_shared
from .units import PS_PER_S

if TYPE_CHECKING:
    from ._core import Simulation

# The run advances in slices of simulated time, so that a progress bar can move and Ctrl-C is
# honoured between slices (the engine runs each slice without the GIL). A slice is sized to
# take about _SLICE_WALL_S of wall time, and is at most 1/_SLICES of the run while a progress
# bar is shown.
_SLICES = 200
_SLICE_WALL_S = 0.1


class Engine(Protocol):
    """The compiled engine module's interface (``_core.pyi``, checked against the module by
    mypy's stubtest in tests/unit/test_types.py)."""

    @property
    def Simulation(self) -> type[Simulation]: ...  # noqa: N802 - the module's class
    def cc_registry(self) -> list[dict[str, Any]]: ...
    def queue_registry(self) -> list[dict[str, Any]]: ...
    def read_tmix_vectors(self, text: str) -> dict[str, Any] | None: ...
    def scenario_schema(self) -> str: ...
    def version(self) -> str: ...


def engine() -> Engine:
    """The compiled engine module."""
    try:
        from . import _core
    except ImportError as e:
        raise EngineUnavailable(
            "the compiled engine (ackclock._core) is not installed; build it with"
            f" `pip install .` or `maturin develop` ({e})"
        ) from None
    return _core


F = TypeVar("F", bound=Callable[..., Any])


def user_facing(f: F) -> F:
    """``f``, a function that runs simulations, made to pass an exception a Python hook
    (docs/custom-algorithms.md) raised to its caller with the hook's own traceback: the
    caller's frames, then the hook's, none of ackclock's (``ackclock._core.UserFacing``: a
    wrapper that is no Python frame). Without the compiled engine, ``f`` itself."""
    try:
        from ._core import UserFacing
    except ImportError:
        return f
    return cast(F, UserFacing(f))


@user_facing
def run_scenario(scenario: Scenario, progress: bool | None = None,
                 trace_dir: str | os.PathLike[str] | None = None) -> Results:
    """Runs ``scenario`` to its duration.

    ``progress``: True shows a progress bar on stderr for runs longer than about 2 s of wall
    time; None does so only when stderr is a terminal (so logs stay clean); False never.
    ``trace_dir``: the folder packet traces are written to (default: the current folder).
    """
    if not isinstance(scenario, Scenario):
        raise ScenarioError(f"expected a Scenario (from load_scenario or Network.scenario),"
                            f" got {type(scenario).__name__}", path="run_scenario")
    document, explain = resolved_for_run(scenario)
    return run_document(document, progress=progress, source=scenario.source,
                        trace_dir=trace_dir, explain=explain)


def resolved_for_run(scenario: Scenario
                     ) -> tuple[dict[str, Any], Callable[[str], ScenarioError]]:
    """``scenario``'s document for a run that records it unchanged, as the command line
    resolves a file: the tables that come out the same shared, the engine's rules left to the
    engine building the run (:func:`ackclock.scenario.resolve_shared`), the cyclic garbage
    collector paused (none of its tables are cyclic); and the error for a document the engine
    refuses, named in the scenario's words by resolving it again with the rules."""
    with collector_paused():
        document = resolve_shared(scenario, engine_rules=False)
    return document, partial(explain_rejection, partial(resolve, scenario), scenario.source)


def explain_rejection(resolve_checked: Callable[[], object], source: str | None,
                      message: str) -> ScenarioError:
    """The error for a run the engine refused to build: the scenario resolved again with the
    engine's rules names the mistake in its own words; a refusal those rules do not explain
    (one only building finds) is reported as the engine put it."""
    try:
        resolve_checked()
    except ScenarioError as e:
        return e
    return ScenarioError(f"the engine rejected the scenario: {message}", file=source)


def under_checker(document: dict[str, Any]) -> dict[str, Any]:
    """The engine document with ``run.check`` set when ACKCLOCK_CHECK=1 (the invariant checker
    on every run, e.g. a whole test suite, whatever front end built the document)."""
    run = document.get("run")
    if os.environ.get("ACKCLOCK_CHECK") != "1" or not isinstance(run, dict):
        return document
    return {**document, "run": {**run, "check": True}}


def with_tcp_tables(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` as the engine reads it fastest: each distinct table of TCP parameters once,
    in ``tcp_tables``, and each flow's ``tcp`` replaced by its index there (``tcp_table``;
    docs/engine-contract.md). The front end gives the flows of one ``count = N`` table the same
    table object, so 10 000 flows carry one table, not 10 000 copies of 99 keys. Tables are
    told apart by identity, and a table equal to the one before it (a document read back from
    summary.json) joins it. ``document`` itself when no two flows share a table."""
    flows = document.get("flows")
    if not isinstance(flows, list):
        return document
    tables: list[dict[str, Any]] = []
    index: dict[int, int] = {}
    out: list[Any] = []
    tcp_flows = 0
    for flow in flows:
        tcp = flow.get("tcp") if isinstance(flow, dict) else None
        if not isinstance(tcp, dict):
            out.append(flow)
            continue
        tcp_flows += 1
        k = index.get(id(tcp))
        if k is None:
            if tables and tables[-1] == tcp:
                k = len(tables) - 1
            else:
                k = len(tables)
                tables.append(tcp)
            index[id(tcp)] = k
        named = dict(flow)
        del named["tcp"]
        named["tcp_table"] = k
        out.append(named)
    if len(tables) == tcp_flows:
        return document
    return {**document, "flows": out, "tcp_tables": tables}


def simulation(core: Engine, document: dict[str, Any]) -> Simulation:
    """The engine's run of ``document``, read with shared TCP tables (the binding writes the
    text, json.dumps's, itself: no Python str of it). The flows' copies made for that are
    dropped on return. Every front end builds its engine this way (``run_document``, a
    sweep's check of each point, ``ackclock ns2``)."""
    shared = with_tcp_tables(document)
    try:
        return core.Simulation(shared)
    except ValueError:
        if shared is document:
            raise
    # Read again as given, so that the message names the flow, not its table.
    return core.Simulation(document)


def run_document(document: Mapping[str, Any], progress: bool | None = None,
                 source: str | None = None,
                 trace_dir: str | os.PathLike[str] | None = None,
                 explain: Callable[[str], ScenarioError] | None = None) -> Results:
    """Runs a resolved scenario document (what :func:`ackclock.scenario.resolve` returns, and
    what summary.json records under ``scenario``) to its duration.

    Raises ScenarioError when the engine rejects the document or a resource guard
    (``run.max_events``, ``run.max_packets``) stops the run, and InvariantViolation when the
    invariant checker finds a broken rule. KeyboardInterrupt (Ctrl-C) is honoured between
    slices of about 0.1 s. ``explain`` turns the engine's rejection of the document into the
    error to raise (the command line's, whose document was resolved without the engine's
    rules, names it in the scenario's words).
    """
    if not isinstance(document, Mapping):
        raise ScenarioError(f"expected a resolved scenario (a dict), got"
                            f" {type(document).__name__}", file=source)
    resolved = dict(document)
    try:
        engine_input = _with_trace_paths(resolved, trace_dir, source)
    except ScenarioError as e:
        raise e.in_file(source) from None
    # The recorded scenario stays as given: the checker does not change results.
    engine_input = under_checker(engine_input)
    from .limits import check_memory

    try:  # again here: a replayed document was not resolved by this process
        check_memory(resolved)
    except ScenarioError as e:
        raise e.in_file(source) from None
    except (AttributeError, TypeError, KeyError, ValueError):
        pass  # a malformed document: the engine's checks below name what is wrong
    core = engine()
    try:
        sim = simulation(core, engine_input)
    except ValueError as e:
        if explain is not None:
            raise explain(str(e)) from None
        # The front end checks everything it knows; what is left (e.g. unreachable
        # destinations) comes from the engine's own checks.
        raise ScenarioError(f"the engine rejected the scenario: {e}", file=source) from None

    from .progress import show_progress

    show = show_progress(progress)
    duration = sim.duration_ps
    name = str(resolved.get("name", "scenario"))
    bar: Any = _NoBar()
    if show:  # tqdm is imported only then: it takes about 20 ms, a tenth of a short run
        from .progress import tqdm_class

        bar = tqdm_class()(
            total=duration / PS_PER_S,
            unit="s",
            desc=f"{name} (simulated)",
            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.1f}/{total:.1f} s"
            " [{elapsed}<{remaining}]",
            delay=2,
            leave=False,
        )
    start = time.perf_counter()
    with bar:
        done = 0
        # Without a bar only Ctrl-C needs the slices, which then grow up to the whole run
        # (a sweep's 20 ms runs had taken some 200 slices each).
        first = max(1, duration // _SLICES // 64)
        largest = max(1, duration // _SLICES) if show else duration
        step = first
        while done < duration:
            target = min(duration, done + step)
            t0 = time.perf_counter()
            sim.run_until(target)
            took = time.perf_counter() - t0
            reason = sim.stop_reason
            if reason is not None and reason["kind"] == "external":
                # Raised here, so that only this frame and its callers come before the
                # hook's own frames.
                raise user_error(sim, reason)
            _raise_if_stopped(sim, source)
            bar.update((target - done) / PS_PER_S)
            done = target
            # Slices of about _SLICE_WALL_S keep Ctrl-C prompt at little cost per call.
            if took < _SLICE_WALL_S / 2:
                step = min(largest, step * 2)
            elif took > _SLICE_WALL_S * 2:
                step = max(1, step // 2)
    wall_s = time.perf_counter() - start

    raw = sim.results()
    summary = raw["summary"]
    results = Results.from_engine(
        raw,
        wall_s=wall_s,
        events_per_s=_per_second(summary.get("events"), wall_s),
        packet_hops_per_s=_per_second(summary.get("packet_hops"), wall_s),
        # Everything needed to run it again: the engine's exact input.
        scenario=resolved,
    )
    results.trace_paths = [t["path"] for t in engine_input.get("traces", [])]
    return results


class _NoBar:
    """What the run loop needs of a tqdm bar, when none is shown."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: float) -> None:
        return None


def _with_trace_paths(resolved: dict[str, Any], trace_dir: str | os.PathLike[str] | None,
                      source: str | None = None) -> dict[str, Any]:
    """The engine's copy of the document: trace files made absolute under ``trace_dir``,
    whose folders are created. The recorded scenario keeps the names as given.

    Each name is checked again (a replayed summary.json may have been edited): relative, no
    ``..``, not a results file's name, and nothing but a regular file where it points."""
    traces_in = resolved.get("traces")
    if not traces_in:
        return resolved
    from .atomic import check_replaceable
    from .scenario import check_output_path

    if not isinstance(traces_in, list):
        raise ScenarioError("expected a list of traces", path="scenario.traces", file=source)
    base = (Path(trace_dir) if trace_dir is not None else Path.cwd()).absolute()
    traces = []
    for i, t in enumerate(traces_in):
        if not isinstance(t, dict):
            raise ScenarioError("expected a table", path=f"scenario.traces[{i}]", file=source)
        key = f"traces[{i}].path"
        check_output_path(t.get("path"), key)
        path = base / t["path"]
        try:
            check_replaceable(path)
        except OSError as e:
            raise ScenarioError(f"{path}: {e.strerror}", path=key, file=source) from None
        # Folders inside the output folder only (the name has no "..").
        path.parent.mkdir(parents=True, exist_ok=True)
        traces.append({**t, "path": str(path)})
    return {**resolved, "traces": traces}


def _raise_if_stopped(sim: Any, source: str | None) -> None:
    reason = sim.stop_reason
    if reason is None:
        return
    message = str(reason["message"])
    if reason["kind"] == "invariant":
        raise InvariantViolation(
            f"{message} (a bug in ackclock, not in the scenario: please report it with the"
            " scenario)")
    key = reason.get("key")
    if key and message.startswith(f"{key}: "):
        message = message[len(key) + 2:]
    raise ScenarioError(message, path=key, file=source)


class UserCodeError(RuntimeError):
    """A congestion control written in Python (docs/custom-algorithms.md) left a value that
    is not a window (a negative or NaN cwnd, a hook's result that is not a number): one line
    naming the flow, the simulated time, the hook and the value."""


def user_error(sim: Any, reason: Mapping[str, Any]) -> BaseException:
    """What stops the run for a Python algorithm's failure: its own exception, with its own
    traceback (the hook's frames) and a note naming the flow and the simulated time, or a
    :class:`UserCodeError` when a hook returned nonsense."""
    where = (f"in {reason['component']} at simulated time {reason['time_s']:.6f} s"
             f" ({reason['detail']})")
    error: BaseException | None = sim.take_user_error()
    if error is None:
        return UserCodeError(str(reason["message"]))
    if hasattr(error, "add_note"):
        error.add_note(f"ackclock: {where}")
    try:  # for the command line, which prints these frames alone
        setattr(error, "_ackclock_hook_tb", error.__traceback__)  # noqa: B010
        setattr(error, "_ackclock_where", where)  # noqa: B010
    except AttributeError:
        pass
    # The traceback the hook left: the user's frames (called from the engine, it has none
    # of ackclock's).
    return error


def load_replay(path: str | Path) -> dict[str, Any]:
    """The resolved scenario a results folder's summary.json recorded, for ``--replay``.

    Raises ScenarioError when the file is unreadable or records no scenario; warns (on
    stderr) when it was written by another engine version, whose results may differ.
    """
    from .inputs import MAX_DATA_BYTES, read_text

    file = str(path)
    text = read_text(path, MAX_DATA_BYTES)
    try:
        summary = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ScenarioError(f"not a summary.json ({e})", file=file) from None
    document = summary.get("scenario") if isinstance(summary, dict) else None
    if not isinstance(document, dict):
        raise ScenarioError("records no resolved scenario (written by an older ackclock?)",
                            path="scenario", file=file)
    version = summary.get("version")
    current = str(engine().version())
    if version is not None and version != current:
        print(f"ackclock: warning: {file} was written by engine {version}, this is {current};"
              " the results may differ", file=sys.stderr)
    return document


def _per_second(count: int | None, wall_s: float) -> float | None:
    if count is None or wall_s <= 0:
        return None
    return count / wall_s
