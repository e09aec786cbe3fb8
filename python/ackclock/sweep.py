"""Sweeps: one scenario run over a grid of parameter values and replications.

A point of the grid is the scenario loaded with ``--set`` overrides (its grid values and
``run.seed``), so a sweep can change exactly what the command line can. Every point is checked
before any runs; each finished run is cached under ``out/runs/<key>.json``, keyed by the
resolved scenario and the engine version, so an interrupted sweep resumes and results of
another engine version are never mixed in. See docs/sweeps.md.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import math
import os
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .atomic import clean_folder, write_atomic
from .errors import ScenarioError, quote
from .run import engine, explain_rejection, run_document, simulation
from .scenario import Scenario, _run, collector_paused, resolve, resolve_shared
from .toml_loader import load_resolved, parse_toml, resolved_from_raw, scenario_to_raw

try:  # compiled where its wheel is (pyproject.toml): large files read twice as fast
    import tomli as tomllib
except ImportError:  # pragma: no cover - installed without its dependencies
    import tomllib  # type: ignore[no-redef]

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    import pandas as pd
    from distributed import Client

RUNS_DIR = "runs"
METRICS = ("throughput_mbps", "goodput_mbps", "loss_rate", "mean_rtt_s", "timeouts")
# Per run, over all flows and links (summary.csv's rows with flow = "all"; aggregates.csv).
AGGREGATES = ("jain_index", "utilization", "queue_delay_mean_s", "queue_delay_p50_s",
              "queue_delay_p95_s")
ALL_FLOWS = "all"
# The engine's tables a sweep keeps per run: always these ...
KEPT_TABLES = ("flows", "queues")
# ... and, with timeseries=True, these (written as Parquet: they are long).
SERIES_TABLES = ("timeseries", "queue_timeseries")
_SWEEP_KEYS = ("scenario", "replications", "grid", "set")



# --- the sweep file ---------------------------------------------------------------------


@dataclass(frozen=True)
class Sweep:
    """A sweep file: the scenario, the grid (dotted path -> values), the replications and
    the fixed overrides (``[set]``, applied to every point)."""

    scenario: Path
    grid: dict[str, list[Any]] = field(default_factory=dict)
    replications: int = 1
    fixed: dict[str, Any] = field(default_factory=dict)
    source: str | None = None

    def run(self, **options: Any) -> pd.DataFrame:
        """Runs the sweep; ``options`` as for :func:`sweep` (jobs, scheduler, out, progress)."""
        return run_sweep(self.scenario, self.grid, self.replications, fixed=self.fixed, **options)


def load_sweep(path: str | os.PathLike[str]) -> Sweep:
    """Reads a sweep file (docs/sweeps.md). ``scenario`` is relative to it.

    Raises ScenarioError naming the file and the key for unknown keys, a missing scenario,
    bad replications or a grid entry that is not a non-empty list.
    """
    from .inputs import check_path_argument, read_text

    path = check_path_argument(path, "sweep file")
    file = str(path)
    text = read_text(path)
    try:
        raw = parse_toml(text)
    except ScenarioError as e:
        raise e.in_file(file) from None

    for key in raw:
        if key not in _SWEEP_KEYS:
            raise ScenarioError(f"unknown key; expected one of {', '.join(_SWEEP_KEYS)}",
                                path=key, file=file)
    scenario = raw.get("scenario")
    if not isinstance(scenario, str) or not scenario:
        raise ScenarioError(f"expected the scenario file's path, got {quote(scenario)}",
                            path="scenario", file=file)
    try:
        grid, replications, fixed = check_sweep(raw.get("grid", {}), raw.get("replications", 1),
                                                raw.get("set", {}))
    except ScenarioError as e:
        raise e.in_file(file) from None
    return Sweep(path.parent / scenario, grid, replications, fixed, source=file)


# A sweep of more runs than this is refused before its points are expanded (each point is
# loaded and checked, a few milliseconds each: a million already take an hour).
MAX_RUNS = 1_000_000


def check_sweep(grid: object, replications: object, fixed: object
                ) -> tuple[dict[str, list[Any]], int, dict[str, Any]]:
    """The grid, replications and fixed overrides of a sweep, checked the same way for a
    sweep file and for :func:`sweep`: ScenarioError naming the key otherwise, and for a sweep
    of more than MAX_RUNS runs, before anything is expanded."""
    from .units import plain_number

    replications = plain_number(replications)
    if isinstance(replications, bool) or not isinstance(replications, int) or replications < 1:
        raise ScenarioError(f"expected a whole number >= 1, got {quote(replications)}",
                            path="replications")
    if not isinstance(grid, Mapping):
        raise ScenarioError(f"expected a table of dotted paths, got {quote(grid)}",
                            path="grid")
    runs = replications
    checked: dict[str, list[Any]] = {}
    for key, values in grid.items():
        if not isinstance(key, str) or not key:
            raise ScenarioError(f"expected a dotted path, got {quote(key)}", path="grid")
        where = f"grid.{json.dumps(key)}" if "." in key else f"grid.{key}"
        if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__len__") \
                or not hasattr(values, "__iter__"):
            raise ScenarioError(f"expected a non-empty list of values, got {quote(values)}",
                                path=where)
        if len(values) == 0:
            raise ScenarioError(f"expected a non-empty list of values, got {quote(values)}",
                                path=where)
        runs *= len(values)
        if runs > MAX_RUNS:
            raise ScenarioError(
                f"the grid and replications make more than {MAX_RUNS:,} runs"
                f" ({' x '.join(str(len(v)) for v in grid.values())} points"
                f" x {replications} replications); split the sweep", path=where)
        checked[key] = list(values)
        for i, v in enumerate(checked[key]):
            _check_value(v, f"{where}[{i}]")
    if runs > MAX_RUNS:
        raise ScenarioError(f"{runs:,} runs is more than {MAX_RUNS:,}; split the sweep",
                            path="replications")
    if not isinstance(fixed, Mapping) or not all(isinstance(k, str) and k for k in fixed):
        raise ScenarioError(f"expected a table of dotted paths, got {quote(fixed)}",
                            path="set")
    for key, v in fixed.items():
        _check_value(v, f"set.{json.dumps(key)}" if "." in key else f"set.{key}")
    return checked, replications, dict(fixed)


def _check_value(value: Any, where: str) -> None:
    try:
        format_value(value)
    except ScenarioError as e:
        e.path = where
        raise
    except RecursionError:
        raise ScenarioError("nested too deeply", path=where) from None


# --- points -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Point:
    """One run of the sweep: grid values, replication, its checked and resolved document
    (what a worker runs), the file it came from (for error messages) and its key."""

    params: dict[str, Any]
    replication: int
    seed: int
    document: dict[str, Any]
    source: str | None
    key: str


def format_value(value: Any) -> str:
    """A grid value in ``--set`` syntax: strings as they are (quoted only when they would
    otherwise read as another TOML type, e.g. "50"), everything else as TOML."""
    value = _python(value)
    if isinstance(value, str):
        try:
            tomllib.loads(f"v = {value}")
        except tomllib.TOMLDecodeError:
            return value
        return json.dumps(value, ensure_ascii=False)
    return _toml(value)


def _toml(value: Any) -> str:
    value = _python(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)  # repr is valid TOML for ints and floats, inf and nan included
    if isinstance(value, str):
        # JSON strings are TOML basic strings for everything but control characters.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}"
                                for k, v in value.items()) + " }"
    raise ScenarioError(f"expected a value TOML can write (a number, a string, a boolean, a"
                        f" list or a table of them), got {quote(value)}")


def _python(value: Any) -> Any:
    if "ackclock.custom" in sys.modules:
        # A congestion control or queue discipline written in Python as its scenario name
        # ("module:Class"), an instance with its parameters ("module:Class(beta=0.6)"; a
        # function scenario receives the instance itself).
        from .custom import CongestionControl, QueueDiscipline, as_name

        for base in (CongestionControl, QueueDiscipline):
            if not (isinstance(value, base) or (isinstance(value, type)
                                                and issubclass(value, base))):
                continue
            name, params = as_name(value, "cc" if base is CongestionControl else "queue",
                                   base)
            if params:
                name += "(" + ", ".join(f"{k}={v!r}" for k, v in params.items()) + ")"
            return name
    # NumPy scalars (np.arange grids) as the Python numbers they hold.
    return value.item() if hasattr(value, "item") and not isinstance(value, Mapping) else value


def run_key(document: Mapping[str, Any], engine_version: str) -> str:
    """The cache key of a run: sha256 of the resolved scenario (sorted-key JSON) and the
    engine version, so a result is reused only for the same input to the same engine."""
    import hashlib

    text = json.dumps(document, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(f"{text}\n{engine_version}".encode()).hexdigest()


class _KeyText:
    """:func:`run_key` of the replications of one point, whose documents differ only in
    their run table: the sorted JSON of the other top-level keys is made once (a document of
    10 000 flows: some 0.3 s each). The text is json.dumps's with sort_keys, piece by piece."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        self.pieces: dict[str, str] = {}

    def run_key(self, document: Mapping[str, Any], engine_version: str) -> str:
        if (type(document) is not dict or list(document) != list(self.document)
                or any(type(k) is not str for k in document)
                or any(document[k] is not v for k, v in self.document.items() if k != "run")):
            return run_key(document, engine_version)
        import hashlib

        parts = []
        for key in sorted(document):
            text = self.pieces.get(key) if key != "run" else None
            if text is None:
                text = json.dumps(document[key], sort_keys=True, separators=(",", ":"),
                                  allow_nan=False)
                if key != "run":
                    self.pieces[key] = text
            parts.append(f"{json.dumps(key)}:{text}")
        text = "{" + ",".join(parts) + "}"
        return hashlib.sha256(f"{text}\n{engine_version}".encode()).hexdigest()


# A point from its function arguments and dotted-path overrides: its scenario, its document,
# and how to resolve it again with the engine's rules (to name a mistake they find).
Loader = Callable[[Mapping[str, Any], Mapping[str, Any]],
                  tuple[Scenario, dict[str, Any], Callable[[], object]]]


def _loader(scenario: Any, grid: Mapping[str, Any], fixed: Mapping[str, Any]) -> Loader:
    """What builds a point from its function arguments and its dotted-path overrides: a
    scenario file (the overrides are --set on it), a Scenario (built in Python, or loaded
    from a file: then the overrides apply to that file), or a function returning a Scenario
    (grid keys naming its parameters are passed to it; dotted paths apply to what it
    returns)."""

    def overrides(values: Mapping[str, Any]) -> list[str]:
        return [f"{n}={format_value(v)}" for n, v in values.items()]

    # Each point is resolved as the command line resolves a file: the tables that come out
    # the same shared (its document goes to a worker and into summary.json unchanged), the
    # engine's rules left to the engine, which _points asks before any run.
    def from_raw(raw: Mapping[str, Any], values: Mapping[str, Any]
                 ) -> tuple[Scenario, dict[str, Any], Callable[[], object]]:
        given = overrides(values)
        return (*resolved_from_raw(raw, None, given, share=True, engine_rules=False),
                lambda: resolved_from_raw(raw, None, given))

    def from_file(path: Path, values: Mapping[str, Any]
                  ) -> tuple[Scenario, dict[str, Any], Callable[[], object]]:
        given = overrides(values)
        return (*load_resolved(path, given, share=True, engine_rules=False),
                lambda: load_resolved(path, given))

    if isinstance(scenario, Scenario) and scenario.source is None:
        raw = scenario_to_raw(scenario)
        return lambda _, values: from_raw(raw, values)
    if isinstance(scenario, (Scenario, str, os.PathLike)):
        path = _scenario_path(scenario)
        return lambda _, values: from_file(path, values)
    if not callable(scenario):
        raise ScenarioError("expected a file name (str or pathlib.Path), a Scenario or a"
                            f" function returning one, got {quote(scenario)}", path="scenario")

    def build(args: Mapping[str, Any], values: Mapping[str, Any]
              ) -> tuple[Scenario, dict[str, Any], Callable[[], object]]:
        from .network import Network

        made = scenario(**args)
        if isinstance(made, Network):
            raise ScenarioError("the function returned a Network; return"
                                " net.scenario(duration=...) instead", path="scenario")
        if not isinstance(made, Scenario):
            raise ScenarioError(f"the function returned {quote(made)}, not a Scenario",
                                path="scenario")
        if not values:
            with collector_paused():
                return (made, resolve_shared(made, engine_rules=False),
                        functools.partial(resolve, made))
        if made.source is not None:
            return from_file(Path(made.source), values)
        return from_raw(scenario_to_raw(made), values)

    return build


def _function_keys(scenario: Any, keys: Iterable[str]) -> set[str]:
    """The grid (or fixed) keys that are arguments of a scenario function; every other key
    must be a dotted path."""
    if isinstance(scenario, (Scenario, str, os.PathLike)) or not callable(scenario):
        return set()
    import inspect

    try:
        params = inspect.signature(scenario).parameters
    except (TypeError, ValueError):
        return {k for k in keys if "." not in k}
    takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())
    named = {k for k in keys if k in params or (takes_any and "." not in k)}
    what = getattr(scenario, "__name__", "the function")
    for k in keys:
        if k not in named and "." not in k:
            raise ScenarioError(f"not an argument of {what} nor a dotted path (e.g. run.seed)",
                                path=k)
    return named


def _points(load: Loader, function_keys: set[str], grid: Mapping[str, Sequence[Any]],
            replications: int, fixed: Mapping[str, Any], version: str) -> list[_Point]:
    """Every point, loaded and resolved; the first bad one raises, naming its grid values."""
    names = list(grid)
    core = engine()
    points = []
    for values in itertools.product(*(grid[n] for n in names)):
        params = dict(zip(names, values, strict=True))
        given = {**fixed, **params}
        args = {k: v for k, v in given.items() if k in function_keys}
        dotted = {k: v for k, v in given.items() if k not in function_keys}
        where = ", ".join(f"{n}={format_value(v)}" for n, v in params.items()) or "no values"
        try:
            point, document, checked = load(args, dotted)
            try:
                # The engine's own checks (e.g. unreachable destinations), once per point
                # before any run: the seed does not change them.
                simulation(core, document)
            except ValueError as e:
                # Named in the scenario's words by its resolution with the engine's rules.
                raise explain_rejection(checked, point.source, str(e)) from None
            base = int(point.run.seed)
            keys = _KeyText(document)
            for r in range(replications):
                if r > 0:
                    # Replications differ only in the seed, which only the run table holds.
                    document = {**document, "run": _run(dataclasses.replace(
                        point.run, seed=base + r))}
                points.append(_Point(params, r, base + r, document, point.source,
                                     keys.run_key(document, version)))
        except ScenarioError as e:
            e.message += f" (sweep point {where})"
            raise
    return points


# --- running ----------------------------------------------------------------------------


def _run_one(document: Mapping[str, Any], source: str | None = None,
             series: bool = False) -> dict[str, Any]:
    """Runs one point's resolved document in a worker (the parent resolved it for the run's
    key already); returns its flows and queues tables (and with ``series`` its time series)
    and summary as plain JSON data."""
    res = run_document(document, progress=False, source=source)
    tables = KEPT_TABLES + (SERIES_TABLES if series else ())
    return {
        **{name: _plain_table(res, name) for name in tables},
        # The resolved scenario is left out: the run's key already pins it down, and
        # writing it with every cached run made the parent the bottleneck of short sweeps.
        "summary": {k: v for k, v in res.summary.items() if k != "scenario"},
    }


def _plain_table(res: Any, name: str) -> dict[str, Any]:
    # The engine's columns as they came: a worker never needs pandas (slow to import).
    columns = res.columns(name)
    if columns is None:
        frame = getattr(res, name)
        columns = {str(c): list(frame[c]) for c in frame.columns}
    names = list(columns)
    return {"columns": [str(c) for c in names],
            "data": [[_plain(v) for v in row]
                     for row in zip(*(columns[c] for c in names), strict=True)]}


def _plain(v: Any) -> Any:
    # numpy scalars to Python ones, NaN to null: the cached JSON stays standard and exact
    # (json writes floats as their shortest round-trip repr).
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def run_sweep(
    scenario: str | os.PathLike[str] | Scenario | Callable[..., Scenario],
    grid: Mapping[str, Sequence[Any]],
    replications: int = 1,
    *,
    fixed: Mapping[str, Any] | None = None,
    jobs: int | None = None,
    scheduler: str | Client | None = None,
    out: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
    timeseries: bool = False,
) -> pd.DataFrame:
    """Runs ``scenario`` at every point of ``grid`` (key -> values, cartesian product) times
    ``replications``; replication r uses run.seed = the point's seed + r. Returns the runs
    table (one row per run x flow), whose ``attrs`` count the distinct ``runs``, those that
    ``ran`` now and those ``cached``, and map each grid column to its key (``grid``).

    ``scenario`` is a scenario file or a Scenario (grid keys are dotted paths, as for
    ``--set``: ``link.r1-r2.queue.limit``, ``flow.tcp0.count``), or a function returning a
    Scenario (grid keys naming its parameters are passed to it, e.g. the number of flows;
    dotted paths apply to the Scenario it returns). ``fixed``: values for every point, not
    shown as columns. Grid columns get short names (``queue_limit``); ``attrs["grid"]`` and
    ``out/grid.json`` record the full keys.

    Runs go to ``jobs`` local processes (default: every core), or to a Dask scheduler
    (``scheduler``: an address or a ``distributed.Client``). With ``out``, each run is
    cached in ``out/runs/<key>.json`` as it finishes and runs already there are skipped, and
    runs.csv, runs.parquet, queues.csv, aggregates.csv and summary.csv are written at the
    end, with ``timeseries=True`` also timeseries.parquet and queue_timeseries.parquet.
    ``progress``: a progress bar (None: when stderr is a terminal, or in a notebook).
    """
    _refuse_in_worker_bootstrap()
    if out is not None:
        from .inputs import check_path_argument

        out = check_path_argument(out, "out")
        check_sweep_folder(out)
    grid, replications, fixed = check_sweep(grid, replications, {} if fixed is None else fixed)
    load = _loader(scenario, grid, fixed)
    function_keys = _function_keys(scenario, [*grid, *fixed])
    from .units import plain_number

    given = plain_number(jobs)
    if given is not None and (isinstance(given, bool) or not isinstance(given, int) or given < 1):
        raise ScenarioError(f"expected a number >= 1, got {quote(given)}", path="jobs")
    jobs = given
    version = str(engine().version())
    pool = None
    if scheduler is None:
        n_runs = math.prod(len(v) for v in grid.values()) * replications
        workers = min(jobs or os.cpu_count() or 1, n_runs)
        if workers > 1:
            if _called_unguarded():
                raise ScenarioError(_UNGUARDED)
            # Started first, so that the workers come up while the points are checked.
            pool = _start_pool(workers)
    try:
        points = _points(load, function_keys, grid, replications, fixed, version)
        return _sweep(points, list(grid), version, pool, scheduler, out, progress,
                      bool(timeseries))
    except BaseException as e:
        # Ctrl-C, SIGTERM or a failed run: the runs in progress are stopped at once (their
        # results would be lost anyway); every finished run is in the cache already.
        if pool is not None:
            _stop_pool(pool)
        if pool is not None and _unguarded_script(e):
            main = str(getattr(sys.modules.get("__main__"), "__file__", ""))
            raise ScenarioError(_MAIN_GUARD if os.path.isfile(main) else _NO_SCRIPT) from None
        raise
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _sweep(points: list[_Point], keys: list[str], version: str,
           pool: ProcessPoolExecutor | None, scheduler: str | Client | None,
           out: str | os.PathLike[str] | None, progress: bool | None,
           series: bool) -> pd.DataFrame:
    cache = Path(out) / RUNS_DIR if out is not None else None
    records: dict[str, dict[str, Any]] = {}
    if cache is not None:
        for p in points:
            if p.key not in records and (record := _read_record(cache / f"{p.key}.json",
                                                                p.key, version, series)):
                records[p.key] = record
    todo = {p.key: p for p in points if p.key not in records}  # equal points run once
    if cache is not None and todo:
        # What killed sweeps left in the cache, once: each run's file is then written
        # without a scan of the folder (one per run made a sweep quadratic in its runs).
        clean_folder(cache)

    from .progress import show_progress, tqdm_class

    show = show_progress(progress)
    # tqdm is imported only when shown: it takes about 20 ms.
    bar_class: Any = tqdm_class() if show else _NoBar
    with bar_class(total=len({p.key for p in points}), initial=len(records), unit="run",
                   desc="sweep") as bar:
        for key, result in _execute(todo, pool, scheduler, series):
            p = todo[key]
            record = {"key": key, "engine_version": version,
                      "params": {k: format_value(v) for k, v in p.params.items()},
                      "replication": p.replication, "seed": p.seed, **result}
            if cache is not None:
                _write_atomic(cache / f"{key}.json", functools.partial(_dump_json, record),
                              clean=False)
            records[key] = record
            bar.update(1)

    names = short_names(keys)
    runs = _table(points, records, names, "flows")
    # How the runs were obtained, for reports (pandas keeps attrs on the frame it returns),
    # and which key each grid column stands for.
    distinct = len({p.key for p in points})
    runs.attrs.update(runs=distinct, ran=len(todo), cached=distinct - len(todo),
                      grid={short: key for key, short in names.items()})
    if out is not None:
        tables = {"queues": _table(points, records, names, "queues")}
        if series:
            tables.update({t: _table(points, records, names, t) for t in SERIES_TABLES})
        write_tables(runs, list(names.values()), out, tables=tables)
    return runs


class _NoBar:
    """What the sweep loop needs of a tqdm bar, when none is shown."""

    def __init__(self, **_: Any) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: float) -> None:
        return None


_MAIN_GUARD = ("worker processes could not start: a script that calls ackclock.sweep must"
               " call it under `if __name__ == \"__main__\":` (each worker imports the script;"
               " or pass jobs=1)")


_UNGUARDED = ("a script that calls ackclock.sweep with jobs > 1 must call it under"
              " `if __name__ == \"__main__\":` (each worker process imports the script and"
              " would run the sweep again; or pass jobs=1)")


_NO_SCRIPT = ("worker processes could not start: code read from standard input cannot be"
              " imported by them; pass jobs=1, or save it as a script")


def _unguarded_script(e: BaseException) -> bool:
    """Whether ``e`` is the pool breaking under a script (the likely cause: the script runs
    run_sweep() at its top level, which stops each worker as it imports the script)."""
    from concurrent.futures.process import BrokenProcessPool

    main = sys.modules.get("__main__")
    return isinstance(e, BrokenProcessPool) and getattr(main, "__file__", None) is not None


def _called_unguarded() -> bool:
    """Whether run_sweep() was called from the top level of the script being run, outside
    an ``if __name__ == "__main__":`` block: each worker would run that call again as it
    imports the script. Found before any worker starts, so that no worker can write to
    stderr after the one-line advice (a worker forked as the parent exits could)."""
    import ast

    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    spec = getattr(main, "__spec__", None)
    if not isinstance(path, str) or (spec is not None and spec.name.endswith("__main__")):
        return False  # workers do not run a package's __main__ again (`python -m ackclock`)
    frame: Any = sys._getframe(1)
    # The script's own top-level frame, wherever the call came from (a function of the
    # script called at its top level runs again in each worker just the same).
    while frame is not None and not (frame.f_globals is getattr(main, "__dict__", None)
                                     and frame.f_code.co_name == "<module>"):
        frame = frame.f_back
    if frame is None:
        return False
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return False  # not a readable script: the pool's own failure will tell
    line = frame.f_lineno
    for node in tree.body:
        end = node.end_lineno or node.lineno
        if node.lineno <= line <= end:
            return not _is_main_guard(node)
    return False


def _is_main_guard(node: Any) -> bool:
    """``if __name__ == "__main__":`` (either order of the comparison)."""
    import ast

    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    parts = [node.test.left, *node.test.comparators]
    names = {p.id for p in parts if isinstance(p, ast.Name)}
    values = {p.value for p in parts if isinstance(p, ast.Constant)}
    return names == {"__name__"} and values == {"__main__"}


def _refuse_in_worker_bootstrap() -> None:
    """A worker process importing a script that calls run_sweep() at its top level (no
    ``__main__`` guard) stops quietly here, instead of starting processes of its own (which
    multiprocessing refuses with a page about freeze_support); the parent then explains."""
    mp = sys.modules.get("multiprocessing")
    if mp is not None and getattr(mp.current_process(), "_inheriting", False):
        raise SystemExit(1)


def short_names(keys: Sequence[str]) -> dict[str, str]:
    """Each grid key's column name: a key without dots as it is, a dotted path by its last
    two parts (``link.r1-r2.queue.limit``: ``queue_limit``, ``defaults.tcp.variant``:
    ``tcp_variant``), more parts where two would collide with another grid column or with
    a column of the tables (``flow``, ``seed``, ...)."""
    import re

    taken = {"replication", "seed", "flow", "link", "time_s", "runs", "kind", "variant", "cc",
             "from", "to"}
    names: dict[str, str] = {}
    for key in keys:
        parts = key.split(".")
        n = 1 if len(parts) == 1 else 2
        while True:
            name = re.sub(r"[^A-Za-z0-9_]+", "_", "_".join(parts[-n:])).strip("_") or key
            if n >= len(parts) or (name not in taken and name not in names.values()):
                break
            n += 1
        names[key] = name if name not in names.values() else key
    return names


def _scenario_path(scenario: str | os.PathLike[str] | Scenario) -> Path:
    if isinstance(scenario, Scenario):
        if scenario.source is None:
            raise ScenarioError("a sweep needs a scenario file (overrides apply to the file);"
                                " this scenario was built in Python")
        return Path(scenario.source)
    from .inputs import check_path_argument

    return check_path_argument(scenario, "scenario")


def _start_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of `workers` processes, started now and each loading the engine."""
    # Imported here: a single `ackclock run` never needs them (start-up time).
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # forkserver: workers fork from a clean process, not from this one, whose threads
    # (progress bars, a Dask client) a plain fork could copy mid-lock.
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(["ackclock.sweep"])
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=_worker_init, initargs=(os.getpid(),))
    for _ in range(workers):
        pool.submit(_warm_up)
    return pool


def _worker_init(sweep_pid: int) -> None:
    """A worker leaves Ctrl-C to the sweep's process (which stops it), and exits when that
    process is gone (a SIGKILL gives it no chance to stop its workers)."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        import time

        while True:
            time.sleep(0.5)
            try:
                os.kill(sweep_pid, 0)
                with open(f"/proc/{sweep_pid}/stat", "rb") as f:  # a zombie is gone too
                    gone = f.read().rsplit(b")", 1)[-1].split()[0] == b"Z"
            except ProcessLookupError:
                gone = True
            except (OSError, IndexError):
                gone = False
            if gone:
                os._exit(1)

    threading.Thread(target=watch, daemon=True, name="ackclock-watch-sweep").start()


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Drops the runs not started and kills the workers running the others."""
    # ProcessPoolExecutor has no public way to stop a running call: its processes are
    # killed. (The attribute is private but has been there since Python 3.2; shutdown()
    # clears it, so it is read first.)
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        try:
            p.kill()
        except (OSError, ValueError):
            pass
    for p in processes:
        try:
            p.join(timeout=1)
        except (OSError, ValueError, AssertionError):
            pass
    # The pool's manager thread sees its workers die and closes its wake-up pipe. If the
    # interpreter exits before it has, CPython's exit hook for the pool
    # (concurrent.futures.process._python_exit) writes to that pipe while the thread closes
    # it, and prints "OSError: [Errno 9] Bad file descriptor" after our one-line message.
    # Waiting for the thread ends the race: a closed wake-up is never written to.
    if isinstance(manager, threading.Thread) and manager.is_alive():
        manager.join(timeout=5)


def _warm_up() -> None:
    engine()


def _execute(todo: Mapping[str, _Point], pool: ProcessPoolExecutor | None,
             scheduler: str | Client | None,
             series: bool = False) -> Iterator[tuple[str, dict[str, Any]]]:
    """Runs the points, yielding (key, result) as each finishes."""
    if not todo:
        return
    if scheduler is not None:
        yield from _execute_dask(todo, scheduler, series)
        return
    if pool is None:
        for key, p in todo.items():  # no pool to start: simpler to debug, faster for one
            yield key, _run_one(p.document, p.source, series)
        return
    from concurrent.futures import FIRST_COMPLETED, wait

    futures: dict[Future[dict[str, Any]], str] = {
        pool.submit(_run_one, p.document, p.source, series): key for key, p in todo.items()
    }
    _import_pandas_meanwhile()
    pending = set(futures)
    # Ctrl-C or a failed run: run_sweep() stops the pool; finished runs are cached already.
    while pending:
        # A wait without a timeout would hold Ctrl-C until the next run finishes: the
        # signal handler runs only between the waits' slices.
        done, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
        for future in sorted(done, key=lambda f: futures[f]):
            yield futures[future], future.result()


def _import_pandas_meanwhile() -> None:
    """Imports pandas in a background thread while the workers run: the runs table needs it
    at the end, where its import (about 0.4 s) kept every worker core idle."""
    if "pandas" in sys.modules:
        return
    import threading

    threading.Thread(target=_import_pandas_quietly, daemon=True,
                     name="ackclock-import-pandas").start()


def _import_pandas_quietly() -> None:
    # Only a head start: a sweep interrupted meanwhile stops the interpreter under the
    # import, and a real import error is reported where pandas is needed.
    try:
        import pandas  # noqa: F401
    except BaseException:
        pass


def _execute_dask(todo: Mapping[str, _Point], scheduler: str | Client,
                  series: bool = False) -> Iterator[tuple[str, dict[str, Any]]]:
    try:
        import distributed
    except ImportError:
        raise ScenarioError("a Dask scheduler needs the `distributed` package"
                            " (pip install distributed)") from None
    own = isinstance(scheduler, str)
    client = distributed.Client(scheduler) if isinstance(scheduler, str) else scheduler
    try:
        futures = {client.submit(_run_one, p.document, p.source, series,
                                 key=f"ackclock-run-{key}", pure=False):
                   key for key, p in todo.items()}
        try:
            for future in distributed.as_completed(list(futures)):
                yield futures[future], future.result()
        except BaseException:
            client.cancel(list(futures))
            raise
    finally:
        if own:
            client.close()


def _read_record(path: Path, key: str | None = None, version: str | None = None,
                 series: bool = False) -> dict[str, Any] | None:
    """A cached run, or None when absent, unreadable, not of this run's ``key`` and engine
    ``version``, without a table this sweep keeps (``series``: the time series too), or not
    shaped as :func:`_sweep` writes it: then it is run again (and the file replaced). A run
    file copied over another, edited or truncated is never trusted."""
    from .inputs import MAX_DATA_BYTES, read_bytes

    try:
        record = json.loads(read_bytes(path, MAX_DATA_BYTES))
    except (ScenarioError, ValueError, RecursionError):
        return None
    if not isinstance(record, dict):
        return None
    if key is not None and record.get("key") != key:
        return None
    if version is not None and record.get("engine_version") != version:
        return None
    if not isinstance(record.get("summary"), dict):
        return None
    scalar = (str, int, float, bool, type(None))
    for name in KEPT_TABLES + (SERIES_TABLES if series else ()):
        table = record.get(name)
        if not isinstance(table, dict):
            return None
        columns, data = table.get("columns"), table.get("data")
        if not isinstance(columns, list) or not isinstance(data, list):
            return None
        if name == "flows" and not columns:
            return None
        if not all(isinstance(c, str) for c in columns) or len(set(columns)) != len(columns):
            return None
        for row in data:
            if not isinstance(row, list) or len(row) != len(columns) or not all(
                    isinstance(v, scalar) for v in row):
                return None
    if not isinstance(record.get("replication"), int) or not isinstance(record.get("seed"), int):
        return None
    return record


def _dump_json(record: Any, f: Any) -> None:
    # json.dumps, not json.dump: dump streams through the encoder's pure-Python path (a
    # quarter of the parent's time in a sweep of short runs); dumps takes the C encoder and
    # writes the same text.
    f.write(json.dumps(record, allow_nan=False))


def _write_atomic(path: Path, write: Callable[[Any], None], binary: bool = False,
                  clean: bool = True) -> None:
    """Writes via a temporary file in the same folder and os.replace, so a reader (or a
    resumed sweep) never sees a half-written file."""
    write_atomic(path, write, binary=binary, clean=clean)


# --- tables -----------------------------------------------------------------------------


def _table(points: Iterable[_Point], records: Mapping[str, Mapping[str, Any]],
           names: Mapping[str, str], table: str = "flows") -> pd.DataFrame:
    """One of the runs' tables with one row per run x row, in grid order: the grid columns
    (``names``: key -> column), replication, seed, then the table's columns."""
    import pandas as pd

    # Rows are gathered as plain lists and framed once: a frame per run made building the
    # table the slowest part of a sweep of short runs.
    lead_columns = [*names.values(), "replication", "seed"]
    columns: list[str] | None = None
    rows: list[list[Any]] = []
    for p in points:
        t = records[p.key][table]
        if columns is None:
            columns = list(t["columns"])
        lead = [_cell(p.params[key]) for key in names] + [p.replication, p.seed]
        if list(t["columns"]) == columns:
            rows.extend(lead + list(row) for row in t["data"])
        else:  # runs of another engine version: align by name
            for row in t["data"]:
                values = dict(zip(t["columns"], row, strict=True))
                rows.append(lead + [values.get(c) for c in columns])
    if columns is None:
        return pd.DataFrame(columns=lead_columns)
    frame = pd.DataFrame(rows, columns=[*lead_columns, *columns])
    # JSON null stands for NaN in numeric columns, as the per-run frames read it.
    return frame.infer_objects()


def _cell(value: Any) -> Any:
    # Tables and distributions are shown as the TOML a user would write.
    value = _python(value)
    return value if isinstance(value, (str, int, float, bool)) else format_value(value)


def t_quantile_975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (two-sided 95%),
    from SciPy; NaN for df < 1."""
    if df < 1:
        return math.nan
    from scipy.stats import t

    return float(t.ppf(0.975, df))


def aggregates(runs: pd.DataFrame, queues: pd.DataFrame | None,
               params: Sequence[str]) -> pd.DataFrame:
    """One row per run (grid columns, replication, seed): over all its flows, the total
    ``throughput_mbps`` and ``goodput_mbps``, ``loss_rate`` (drops / packets sent),
    ``mean_rtt_s`` (mean over TCP flows), ``timeouts`` (sum) and Jain's fairness index of
    the flows' throughputs, (sum x)^2 / (n sum x^2); and of the run's busiest link direction
    (highest utilisation, the bottleneck): ``utilization``, and the mean, median and 95th
    percentile of its queueing delay."""
    import pandas as pd

    keys = [*params, *(c for c in ("replication", "seed") if c in runs.columns)]
    rows = []
    by_run = dict(tuple(queues.groupby(keys, sort=False, dropna=False))) \
        if queues is not None and not queues.empty else {}
    for key, g in runs.groupby(keys, sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        x = g["throughput_mbps"].to_numpy(dtype=float)
        sent = g["packets_sent"].sum() if "packets_dropped" in g and "packets_sent" in g \
            else math.nan
        row = dict(zip(keys, key, strict=True))
        row.update(
            flow_count=len(g),
            throughput_mbps=float(x.sum()),
            goodput_mbps=float(g["goodput_mbps"].sum()) if "goodput_mbps" in g else math.nan,
            loss_rate=float(g["packets_dropped"].sum() / sent) if sent == sent and sent
            else math.nan,
            mean_rtt_s=float(g["mean_rtt_s"].mean()) if "mean_rtt_s" in g else math.nan,
            timeouts=float(g["timeouts"].sum()) if "timeouts" in g else math.nan,
            jain_index=float(x.sum() ** 2 / (len(x) * (x ** 2).sum()))
            if len(x) and (x ** 2).sum() > 0 else math.nan,
        )
        q = by_run.get(key)
        if q is not None and "utilization" in q and q["utilization"].notna().any():
            busiest = q.loc[q["utilization"].idxmax()]
            row.update(bottleneck=busiest["link"], utilization=float(busiest["utilization"]),
                       queue_delay_mean_s=float(busiest.get("mean_sojourn_s", math.nan)),
                       queue_delay_p50_s=float(busiest.get("p50_sojourn_s", math.nan)),
                       queue_delay_p95_s=float(busiest.get("p95_sojourn_s", math.nan)))
        rows.append(row)
    return pd.DataFrame(rows, columns=[*keys, "flow_count", *METRICS, "jain_index", "bottleneck",
                                       *AGGREGATES[1:]])


def _stats(grouped: Any, metrics: Sequence[str], table: pd.DataFrame) -> None:
    for m in metrics:
        stats = grouped[m].agg(["mean", "std", "count"]).reset_index(drop=True)
        n = stats["count"].to_numpy()
        t = [t_quantile_975(int(k) - 1) for k in n]
        table[f"{m}_mean"] = stats["mean"].to_numpy()
        table[f"{m}_std"] = stats["std"].to_numpy()
        table[f"{m}_n"] = n
        table[f"{m}_ci95"] = stats["std"].to_numpy() * t / [math.sqrt(k) if k else 1 for k in n]


def summarize(runs: pd.DataFrame, params: Sequence[str],
              queues: pd.DataFrame | None = None, *,
              per_run: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per grid point and flow, for each metric in METRICS: ``<metric>_mean``, ``_std``
    (sample, ddof 1), ``_n`` (runs with a value) and ``_ci95``, the half-width of the 95%
    Student-t confidence interval of the mean, t(0.975, n-1) * std / sqrt(n). After each
    point's flows, a row with flow = "all": the same statistics of each run's
    :func:`aggregates` (total throughput, ...), and of its ``jain_index``, ``utilization``
    and queueing delays, which per-flow rows leave empty. ``per_run``: those aggregates
    when the caller has them already."""
    import pandas as pd

    keys = [*params, "flow"]
    if runs.empty:
        return pd.DataFrame(columns=keys)
    metrics = [m for m in METRICS
               if m in runs.columns and pd.api.types.is_numeric_dtype(runs[m])]
    grouped = runs.groupby(keys, sort=False, dropna=False)
    table = grouped.size().rename("runs").reset_index()
    _stats(grouped, metrics, table)

    agg = aggregates(runs, queues, params) if per_run is None else per_run
    extra = [m for m in metrics if m in agg] + [
        m for m in AGGREGATES if m in agg and agg[m].notna().any()]
    if params:
        per_point = agg.groupby(list(params), sort=False, dropna=False)
        total = per_point.size().rename("runs").reset_index()
    else:
        per_point = agg.groupby(lambda _: 0)
        total = pd.DataFrame({"runs": [len(agg)]})
    total.insert(len(params), "flow", ALL_FLOWS)
    _stats(per_point, extra, total)
    # Each point's flows, then its "all" row.
    table["_order"], total["_order"] = 0, 1
    both = pd.concat([table, total], ignore_index=True)
    if params:
        # Column by column, not a row-wise agg: one Python call per row was most of the
        # tables' time in a sweep of many short runs.
        point = pd.Series(["\x1f".join(t) for t in zip(
            *(both[c].astype(str) for c in params), strict=True)], index=both.index)
        first = {v: i for i, v in enumerate(dict.fromkeys(point))}
        both["_point"] = point.map(first)
        both = both.sort_values(["_point", "_order"], kind="stable").drop(columns="_point")
    return both.drop(columns="_order").reset_index(drop=True)


def write_tables(runs: pd.DataFrame, params: Sequence[str], out: str | os.PathLike[str],
                 tables: Mapping[str, pd.DataFrame] | None = None) -> list[Path]:
    """Writes runs.csv, runs.parquet, summary.csv, aggregates.csv and grid.json into
    ``out`` (each atomically), and ``tables``: queues.csv, and the time series as
    timeseries.parquet and queue_timeseries.parquet; returns their paths."""
    from .atomic import write_set_atomic

    out = Path(out)
    tables = dict(tables or {})
    files: list[tuple[str, Callable[[Any], object], bool]] = []

    def csv(frame: pd.DataFrame) -> Callable[[Any], None]:
        return lambda f: frame.to_csv(f, index=False, lineterminator="\n", na_rep="")

    def parquet(frame: pd.DataFrame) -> Callable[[Any], None]:
        # Parquet columns have one type; a grid mixing strings and numbers is written as text.
        frame = frame.copy()
        for name in params:
            if name in frame and frame[name].dtype == object:
                frame[name] = frame[name].map(str)
        return lambda f: frame.to_parquet(f, index=False)

    files.append(("runs.csv", csv(runs), False))
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        warnings.warn("pyarrow is not installed: no Parquet tables written", stacklevel=2)
        has_parquet = False
    else:
        has_parquet = True
        files.append(("runs.parquet", parquet(runs), True))
    queues = tables.get("queues")
    if queues is not None:
        files.append(("queues.csv", csv(queues), False))
    for name in SERIES_TABLES:
        if name in tables and has_parquet:
            files.append((f"{name}.parquet", parquet(tables[name]), True))
    per_run = aggregates(runs, queues, params)
    files.append(("aggregates.csv", csv(per_run), False))
    files.append(("summary.csv", csv(summarize(runs, params, queues, per_run=per_run)), False))
    grid = runs.attrs.get("grid", {name: name for name in params})
    files.append(("grid.json",
                  lambda f: json.dump({"columns": grid}, f, indent=2, ensure_ascii=False),
                  False))
    # One set: the tables of one sweep, never of two (a kill between renames leaves a part
    # of the new set beside TABLES_INCOMPLETE; the cache rewrites them on the next run).
    return write_set_atomic(out, files, stale=TABLES, marker=TABLES_INCOMPLETE)


TABLES = ("runs.csv", "runs.parquet", "queues.csv", "aggregates.csv", "summary.csv",
          "grid.json", "timeseries.parquet", "queue_timeseries.parquet")
# Present while the tables are being replaced: they are then not a consistent set.
TABLES_INCOMPLETE = ".tables-incomplete"


def is_sweep_folder(path: Path) -> bool:
    """Whether ``path`` looks like a folder a sweep wrote (its cache or tables)."""
    return (path / RUNS_DIR).is_dir() or any((path / t).is_file() for t in TABLES)


def check_sweep_folder(out: Path) -> None:
    """Refuses (OSError naming it) an ``out`` that is not absent, an empty folder or a sweep
    folder: a sweep writes into it, and never into a folder it did not make."""
    import errno
    import stat

    for p, what in ((out, "a sweep folder"), (out / RUNS_DIR, "a sweep's cache folder")):
        try:
            st = os.lstat(p)
        except FileNotFoundError:
            return
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
            raise FileExistsError(errno.EEXIST, f"exists and is not {what}", str(p))
        if p == out and any(os.scandir(out)) and not is_sweep_folder(out):
            raise FileExistsError(errno.EEXIST, "exists and is not a sweep folder (not"
                                  " empty); a sweep writes only into folders it made", str(out))
