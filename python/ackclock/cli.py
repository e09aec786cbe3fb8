"""The ``ackclock`` command line (docs/cli.md).

A mistake in the user's input (scenario, override, path) prints one line,
``ackclock: error: <message>``, and exits with status 2, as argparse does for usage errors.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

from .errors import EngineUnavailable, InvariantViolation, ScenarioError

if TYPE_CHECKING:
    from .results import Results

_USER_ERROR = 2
# The invariant checker found an engine bug (docs/reliability.md).
_ENGINE_BUG = 3


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    # Only the named command's parser is built: each costs a millisecond or more of start-up
    # (argparse looks up translations and the terminal width for every parser and argument).
    only = argv[0] if argv and argv[0] in _COMMANDS else None
    args = _parser(only).parse_args(argv)
    previous = _on_sigterm()
    import os

    max_memory = os.environ.get("ACKCLOCK_MAX_MEMORY")  # --max-memory sets it for a command
    try:
        status = int(args.func(args))
        sys.stdout.flush()  # here, so that a reader gone away is seen below
        return status
    except BrokenPipeError:
        return _closed_pipe()
    except ScenarioError as e:
        # An ns-2 script's puts reports a closed pipe as a Tcl error.
        return _closed_pipe() if _stdout_closed() else _fail(str(e))
    except OSError as e:
        if _stdout_closed():
            return _closed_pipe()
        return _fail(f"{e.filename}: {e.strerror}" if e.filename and e.strerror else str(e))
    except EngineUnavailable as e:
        return _fail(str(e), status=1)
    except InvariantViolation as e:
        return _fail(str(e), status=_ENGINE_BUG)
    except Exception as e:
        # A congestion control written in Python failed: its own frames and one line.
        from .run import UserCodeError

        if isinstance(e, UserCodeError):
            return _fail(str(e))
        hook_tb = getattr(e, "_ackclock_hook_tb", None)
        if hook_tb is None:
            raise
        import traceback

        print("Traceback (most recent call last):", file=sys.stderr)
        print("".join(traceback.format_tb(hook_tb)), end="", file=sys.stderr)
        print("".join(traceback.format_exception_only(type(e), e)), end="", file=sys.stderr)
        if not hasattr(e, "__notes__"):  # Python 3.10 prints no notes
            print(f"ackclock: {getattr(e, '_ackclock_where', '')}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as e:
        # Finished work is kept: a results folder is written whole or not at all, and a
        # sweep's finished runs are cached (re-running it resumes).
        print("ackclock: interrupted", file=sys.stderr)
        return 143 if isinstance(e, Terminated) else 130
    finally:
        if max_memory is None:
            os.environ.pop("ACKCLOCK_MAX_MEMORY", None)
        else:
            os.environ["ACKCLOCK_MAX_MEMORY"] = max_memory
        if previous is not None:
            import signal

            signal.signal(signal.SIGTERM, previous)


_CLOSED_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a command killed by it


def _stdout_closed() -> bool:
    """Whether standard output is a pipe whose reader has gone (poll reports an error)."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(event & select.POLLERR for _, event in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def _closed_pipe() -> int:
    """The reader of standard output went away (`ackclock ns2 x.tcl | head`): exit quietly,
    as command-line tools do, instead of a Broken pipe error. Standard output is pointed at
    /dev/null so that the interpreter's last flush finds nothing to complain about."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return _CLOSED_PIPE


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is (a results folder whole or absent, workers stopped,
    finished sweep runs cached), with exit status 143 (128 + 15)."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated()


def _on_sigterm() -> Any:
    """Makes SIGTERM raise Terminated in the main thread; returns the earlier handler."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    try:
        return signal.signal(signal.SIGTERM, _raise_terminated)
    except (ValueError, OSError):
        return None


def _fail(message: str, status: int = _USER_ERROR) -> int:
    print(f"ackclock: error: {' '.join(message.split())}", file=sys.stderr)
    return status


class _Version(argparse.Action):
    """--version, with the version looked up only when asked for (see __init__.py)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0,
                         help=help or "show program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from . import __version__

        print(f"ackclock {__version__}")
        parser.exit()


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter with the terminal width looked up without importing shutil (a few
    milliseconds of every command's start-up), the same way: $COLUMNS, else the terminal of
    standard output, else 80; argparse keeps two columns free."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=_columns() - 2)


def _columns() -> int:
    import os

    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        stdout = sys.__stdout__
        if stdout is None:
            return 80
        return os.get_terminal_size(stdout.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


_COMMANDS = ("run", "sweep", "plot", "report", "ns2", "seed")


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `only`, that command's sub-parser alone."""
    parser = argparse.ArgumentParser(
        prog="ackclock",
        description="A packet-level discrete-event network simulator for TCP studies.",
        formatter_class=_Formatter,
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def wanted(name: str) -> bool:
        return only is None or only == name

    if wanted("run"):
        _add_run(sub)
    if wanted("sweep"):
        _add_sweep(sub)
    if wanted("plot"):
        _add_plot(sub)
    if wanted("report"):
        _add_report(sub)
    if wanted("ns2"):
        _add_ns2(sub)
    if wanted("seed"):
        _add_seed(sub)
    return parser


def _add_run(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = sub.add_parser("run", formatter_class=_Formatter,
                         help="run one scenario (the built-in demo without SCENARIO)",
                         description="Runs one scenario and writes its results folder.")
    run.add_argument("scenario", nargs="?", metavar="SCENARIO",
                     help="scenario file (TOML); omit for the built-in demo")
    run.add_argument("--out", metavar="DIR",
                     help="results folder (default: results/<scenario name>)")
    run.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                     help="override a key, e.g. link.r1-r2.queue.limit=50,"
                          " flow.tcp1.window=64, run.seed=3 (repeatable)")
    run.add_argument("--seed", type=int, metavar="N", help="same as --set run.seed=N")
    run.add_argument("--plot", action="store_true", help="also draw cwnd, throughput and queue"
                     " plots (PNG)")
    run.add_argument("--report", action="store_true",
                     help="also write report.html: an interactive report that opens offline"
                          " (topology, tables, zoomable time series)")
    run.add_argument("--check", action="store_true",
                     help="run the invariant checker (same as --set run.check=true); a broken"
                          " invariant stops the run with exit status 3")
    run.add_argument("--replay", metavar="SUMMARY",
                     help="run again the resolved scenario a results folder's summary.json"
                          " recorded (bit for bit the same results with the same engine"
                          " version); excludes SCENARIO, --set and --seed")
    run.add_argument("--quiet", action="store_true", help="print nothing but errors")
    _add_max_memory(run)
    run.set_defaults(func=_run)


def _add_sweep(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sweep = sub.add_parser("sweep", formatter_class=_Formatter,
                           help="run a sweep file's grid of runs (resumable)",
                           description="Runs every point and replication of a sweep file on"
                           " local cores or a Dask scheduler; runs already cached in"
                           " DIR/runs are skipped. Writes runs.csv, runs.parquet and"
                           " summary.csv.")
    sweep.add_argument("sweep", metavar="SWEEP", help="sweep file (TOML)")
    sweep.add_argument("--out", metavar="DIR",
                       help="results folder (default: results/<sweep file name>)")
    sweep.add_argument("--jobs", type=int, metavar="N",
                       help="local worker processes (default: every core)")
    sweep.add_argument("--scheduler", metavar="ADDR",
                       help="Dask scheduler address, e.g. tcp://10.0.0.1:8786, instead of"
                            " local processes")
    _add_max_memory(sweep)
    sweep.set_defaults(func=_sweep)


def _add_max_memory(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-memory", metavar="SIZE",
                        help="refuse a run whose estimated memory is above SIZE, e.g. 64GB"
                             " (default: the memory available; ACKCLOCK_MAX_MEMORY)")


def _set_max_memory(args: argparse.Namespace) -> None:
    if getattr(args, "max_memory", None) is not None:
        import os

        from .units import parse_size

        parse_size(args.max_memory, "--max-memory")
        # In the environment: a sweep's workers check their runs too.
        os.environ["ACKCLOCK_MAX_MEMORY"] = args.max_memory


def _add_plot(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    plot = sub.add_parser("plot", formatter_class=_Formatter,
                          help="draw the standard plots of a results folder, or overlay"
                               " several runs",
                          description="Draws cwnd.png, throughput.png, queue.png and rtt.png"
                          " into a results folder (a sweep's folder: sweep_*.png); with"
                          " several folders, overlays their runs into --out.")
    plot.add_argument("dir", metavar="DIR", nargs="+", help="results folder(s)")
    plot.add_argument("--out", metavar="OUT",
                      help="with several DIRs: where the overlaid plots go (default:"
                           " results/compare)")
    plot.set_defaults(func=_plot)


def _add_report(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    report = sub.add_parser("report", formatter_class=_Formatter,
                            help="write an interactive report.html of a run or sweep folder",
                            description="Writes DIR/report.html: one self-contained page"
                            " (it opens offline) with the topology, the summary tables and"
                            " zoomable time series; for a sweep's folder, its summary and"
                            " each metric against the swept parameter. See docs/report.md.")
    report.add_argument("dir", metavar="DIR", help="results folder or sweep folder")
    report.set_defaults(func=_report)


def _add_ns2(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ns2 = sub.add_parser("ns2", formatter_class=_Formatter,
                         help="run an ns-2 Tcl script, as `ns SCRIPT ARGS...` would",
                         description="Runs an ns-2 Tcl script unchanged: the script writes its"
                         " own output files. See docs/ns2-scripts.md.")
    ns2.add_argument("--int32-counters", action="store_true",
                     help="wrap the counters ns-2 keeps in 32-bit ints (queue monitors' byte"
                     " counts, a sink's bytes_) at 2^31, as ns-2's own do")
    ns2.add_argument("--safe", action="store_true",
                     help="run the script under Tcl's safe-interpreter rules: no exec, no"
                     " sockets, files opened or sourced only inside the current folder"
                     " (without it a script can do anything, as under ns-2)")
    ns2.add_argument("script", metavar="SCRIPT.tcl", help="the ns-2 script")
    ns2.add_argument("script_args", nargs=argparse.REMAINDER, metavar="ARGS",
                     help="arguments passed to the script as $argv")
    ns2.set_defaults(func=_ns2)


def _add_seed(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    seed = sub.add_parser("seed", formatter_class=_Formatter,
                          help="run a seed study: every table beside the study's values, its"
                               " figures, report.md (examples/seeds/NNN/run.py)",
                          description="Runs seed study STUDY's runner, examples/seeds/STUDY/"
                          "run.py of ackclock's source checkout (looked for from the current"
                          " folder up), with the runner's own flags: --quick, --out DIR, and"
                          " the study's (`ackclock seed STUDY --help`). Without STUDY, lists"
                          " the studies. See docs/cli.md and docs/examples/.")
    seed.add_argument("study", nargs="?", metavar="STUDY", help="the study's number, e.g. 000")
    seed.add_argument("runner_args", nargs=argparse.REMAINDER, metavar="ARGS",
                      help="the runner's flags, e.g. --quick --out results/seeds/000")
    seed.set_defaults(func=_seed)


def _seed(args: argparse.Namespace) -> int:
    from .seed_runners import listing, run, runners_folder

    folder = runners_folder()
    if args.study is None:
        print(listing(folder))
        return 0
    return run(args.study, list(args.runner_args), folder)


def _run(args: argparse.Namespace) -> int:
    try:
        return _run_frozen(args)
    finally:
        # The objects resolving froze (load_resolved's freeze) are the garbage collector's
        # again: `main` may be called again in this process (tests, a notebook).
        import gc

        gc.unfreeze()


def _run_frozen(args: argparse.Namespace) -> int:
    from .atomic import StagedFolder
    from .results import is_results_folder
    from .run import explain_rejection, run_document
    from .toml_loader import load_resolved, loads_resolved

    progress = False if args.quiet else None
    _set_max_memory(args)
    note = ""
    explain: Callable[[str], ScenarioError] | None = None
    recheck: Callable[[], object] | None = None
    if args.replay is not None:
        from .run import load_replay

        if args.scenario is not None or args.set or args.seed is not None:
            raise ScenarioError("replays the recorded scenario as it is: give no SCENARIO,"
                                " --set or --seed with it", path="--replay")
        document = load_replay(args.replay)
        if args.check:
            run_table = document.get("run")
            document["run"] = {**(run_table if isinstance(run_table, dict) else {}),
                               "check": True}
        name = str(document.get("name", "scenario"))
        out = Path(args.out) if args.out else Path("results") / f"{_folder_name(name)}-replay"
        source = args.replay
    else:
        overrides = list(args.set)
        if args.seed is not None:
            overrides.append(f"run.seed={args.seed}")
        if args.check:
            overrides.append("run.check=true")
        # Resolved without the engine's rules: building the run checks them anyway (10 000
        # flows: 0.1 s less). A document the engine rejects is resolved again with them,
        # which names the mistake in the scenario's words as the Python API and sweeps do.
        if args.scenario is None:
            from importlib import resources

            text = resources.files("ackclock").joinpath("demo.toml").read_text(encoding="utf-8")
            scenario, document = loads_resolved(text, source="demo.toml", overrides=overrides,
                                                share=True, engine_rules=False, freeze=True)
            recheck = partial(loads_resolved, text, "demo.toml", overrides)
        else:
            scenario, document = load_resolved(args.scenario, overrides, share=True,
                                               engine_rules=False, freeze=True)
            recheck = partial(load_resolved, args.scenario, overrides)
        explain = partial(explain_rejection, recheck, scenario.source)
        out = Path(args.out) if args.out else Path("results") / _folder_name(scenario.name)
        source = scenario.source
        del scenario  # the model of every entry: not held through the run (10 000 flows: 30 MB)
        out, note = _unclaimed(out, document, explicit=args.out is not None)
    # The folder is built beside `out` (traces included) and swapped in whole at the end;
    # a failure or Ctrl-C before leaves `out` as it was.
    try:
        folder = StagedFolder(out, is_results_folder)
    except OSError:
        if recheck is not None:
            recheck()  # a mistake in the scenario is named before a problem with the folder
        raise
    with folder as staged:
        results = run_document(document, progress=progress, source=source,
                               trace_dir=staged.path, explain=explain)
        written = results.write_into(staged.path, plot=args.plot, keep_from=out)
        if args.report:
            from .report import REPORT, write_report

            write_report(results, staged.path / REPORT)
            written.append(REPORT)
        staged.commit()
    if note and not (args.quiet and args.out is not None):
        # After the run: a failed run prints its error alone, and replaced nothing.
        print(f"ackclock: note: {note}", file=sys.stderr)
    if args.quiet:
        return 0
    print(_flow_table(results))
    s = results.summary
    print(
        f"\n{s['name']}: {s['duration_s']:g} s simulated in {s['wall_s']:.2f} s"
        f" ({s['events']:,} events, {_rate(s.get('events_per_s'))} events/s)"
    )
    if args.plot and not any(name.endswith(".png") for name in written):
        print("no plots: the run has no time series (set run.sample_interval)")
    print(f"results in {out}{'' if str(out).endswith('/') else '/'}")
    return 0


def _sweep(args: argparse.Namespace) -> int:
    from .sweep import RUNS_DIR, load_sweep, run_sweep

    if args.jobs is not None and args.jobs < 1:
        raise ScenarioError(f"expected a number >= 1, got {args.jobs}", path="--jobs")
    _set_max_memory(args)
    spec = load_sweep(args.sweep)
    out = Path(args.out) if args.out else Path("results") / _folder_name(Path(args.sweep).stem)
    runs = run_sweep(spec.scenario, spec.grid, spec.replications, fixed=spec.fixed,
                 jobs=args.jobs, scheduler=args.scheduler, out=out)
    counts = runs.attrs
    print(f"{counts['runs']} runs: {counts['ran']} run now, {counts['cached']} already in"
          f" {out / RUNS_DIR}/")
    for name in ("runs.csv", "runs.parquet", "queues.csv", "aggregates.csv", "summary.csv"):
        if (out / name).is_file():
            print(out / name)
    return 0


def _plot(args: argparse.Namespace) -> int:
    from .plot import write_plots, write_sweep_plots
    from .sweep import TABLES_INCOMPLETE, is_sweep_folder

    if len(args.dir) > 1:
        return _overlay(args.dir, args.out)
    if args.out is not None:
        raise ScenarioError("is for overlaying several folders; one folder's plots go into"
                            " it", path="--out")
    args.dir = args.dir[0]
    d = Path(args.dir)
    sweep_dir = (is_sweep_folder(d) or (d / TABLES_INCOMPLETE).exists()) and not (
        d / "flows.csv").exists()
    if sweep_dir:
        from .inputs import read_bytes

        if (Path(args.dir) / TABLES_INCOMPLETE).exists():
            raise ScenarioError("the sweep's tables are incomplete (it was stopped while"
                                " writing them); run the sweep again: its cache rewrites them",
                                file=args.dir)
        read_bytes(Path(args.dir) / "summary.csv")  # a regular file of bounded size
        try:
            written = write_sweep_plots(args.dir)
        except (ValueError, KeyError, IndexError, UnicodeDecodeError) as e:
            first = (str(e).strip().splitlines() or [type(e).__name__])[0]
            raise ScenarioError(f"not a sweep summary written by ackclock ({first})",
                                file=str(Path(args.dir) / "summary.csv")) from None
    else:
        written = write_plots(args.dir)
    if not written:
        raise ScenarioError("no time series to plot (the run had no run.sample_interval)",
                            file=args.dir)
    for name in written:
        print(Path(args.dir) / name)
    return 0


def _report(args: argparse.Namespace) -> int:
    from .report import write_report

    print(write_report(args.dir))
    return 0


def _overlay(dirs: list[str], out: str | None) -> int:
    from .plot import write_overlay_plots

    target = Path(out) if out else Path("results") / "compare"
    for d in dirs:
        if not (Path(d) / "flows.csv").is_file():
            raise ScenarioError("not a run's results folder (no flows.csv): only runs can be"
                                " overlaid", file=d)
    written = write_overlay_plots(dirs, target)
    if not written:
        raise ScenarioError("no time series to plot (the runs had no run.sample_interval)",
                            file=dirs[0])
    for name in written:
        print(target / name)
    return 0


def _ns2(args: argparse.Namespace) -> int:
    import gc

    from .ns2 import run_script

    status = run_script(args.script, args.script_args, int32_counters=args.int32_counters,
                        safe=args.safe)
    # The command ends here: the script's objects (some ten per flow) need no last pass of
    # the cyclic garbage collector at exit (10 000 flows: about a second).
    gc.freeze()
    return status


def _unclaimed(out: Path, document: dict[str, Any], explicit: bool) -> tuple[Path, str]:
    """Where a run goes: ``out``, unless it holds a run of another scenario (other
    parameters, another seed) and was not named with --out; then the first free
    ``out-2``, ``out-3``, ... A folder named with --out is replaced. Returns the folder and
    a note for stderr when either happens (nothing is ever replaced silently)."""
    import json

    from .indented_json import dumps

    def other(folder: Path) -> bool:
        file = folder / "summary.json"
        try:
            same = _same_scenario(file, document)
            if same is not None and (same or file.stat().st_size > _PARSE_AT_MOST):
                return not same
            earlier = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False  # not a results folder: the run's own checks decide
        recorded = earlier.get("scenario") if isinstance(earlier, dict) else None
        return bool(json.loads(dumps(document)) != recorded)

    if not other(out):
        return out, ""
    if explicit:
        return out, f"replaced {out}, which held a run of other parameters"
    n = 2
    while other(candidate := out.with_name(f"{out.name}-{n}")):
        n += 1
    return candidate, (f"{out} holds a run of other parameters, so this one is in"
                       f" {candidate} (use --out to choose)")


# A summary.json this large whose scenario's text differs is taken for another scenario's
# without parsing it (a smaller one is parsed, in case only its layout differs): parsing
# takes several times the file's size (a 10 000-flow run's 50 MB took the command from 146
# to 229 MB).
_PARSE_AT_MOST = 4 << 20
_SCENARIO_KEY = b'\n  "scenario": '


def _same_scenario(file: Path, document: dict[str, Any]) -> bool | None:
    """Whether the text of ``file`` (a summary.json) from its top-level scenario key to its
    end is what a run of ``document`` writes there (results.summary_text writes the scenario
    last), compared piece by piece as it is written, so that neither text is ever held whole;
    None when the file has no such key."""
    from .results import write_summary_to

    with open(file, "rb") as f:
        tail = b""
        while True:
            piece = f.read(1 << 20)
            at = (tail + piece).find(_SCENARIO_KEY)
            if at >= 0:
                f.seek(f.tell() - len(piece) - len(tail) + at)
                break
            if not piece:
                return None
            tail = (tail + piece)[-len(_SCENARIO_KEY):]
        start = f.tell()
        # summary_text({"scenario": ...}) is "{" + the file's text from the key on.
        against = _Against(f, start)
        write_summary_to({"scenario": document}, cast("IO[str]", against))
        return against.same and f.read(1) == b""


class _Against(io.TextIOBase):
    """A text file that compares what is written to it with the bytes of ``f`` from
    ``start`` on, behind a "{". It claims to be seekable, as the binding's writer asks; a
    seek back (the binding giving up part way) starts the comparison again."""

    def __init__(self, f: IO[bytes], start: int) -> None:
        self._f, self._start = f, start
        self._prefix = b""
        self.same = True
        self.seek(0)

    def write(self, s: str) -> int:
        b = s.encode("utf-8")
        if self.same:
            got = self._prefix[:len(b)]
            self._prefix = self._prefix[len(got):]
            self.same = got + self._f.read(len(b) - len(got)) == b
        return len(s)

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return 0

    def seek(self, offset: int, whence: int = 0) -> int:
        self._f.seek(self._start)
        self._prefix = b"{"
        self.same = True
        return 0

    def truncate(self, size: int | None = None) -> int:
        return 0


def _folder_name(name: str) -> str:
    """The scenario name as one safe path component (a name is not a path)."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._")
    return safe or "scenario"


def _flow_table(results: Results) -> str:
    """The per-flow summary printed after a run, from the engine's columns (no pandas)."""
    flows = results.columns("flows")
    if flows is None:
        frame = results.flows
        flows = {c: list(frame[c]) for c in frame.columns}
    names = {"throughput_mbps": "throughput Mb/s", "goodput_mbps": "goodput Mb/s",
             "fast_retransmits": "fast rexmits"}
    cols = [c for c in ("flow", "kind", "from", "to", "throughput_mbps", "goodput_mbps",
                        "loss_rate", "timeouts", "fast_retransmits") if c in flows]

    def cell(v: object) -> str:
        if v is None or (isinstance(v, float) and v != v):
            return ""
        return f"{v:.4g}" if isinstance(v, float) else str(v)

    table = [[names.get(c, c) for c in cols]]
    table += [[cell(v) for v in row] for row in zip(*(flows[c] for c in cols), strict=True)]
    widths = [max(len(r[i]) for r in table) for i in range(len(cols))]
    return "\n".join("  ".join(x.rjust(w) for x, w in zip(r, widths, strict=True))
                     for r in table)


def _rate(per_s: float | None) -> str:
    if per_s is None:
        return "?"
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if per_s >= scale:
            return f"{per_s / scale:.1f} {unit}"
    return f"{per_s:.0f}"
