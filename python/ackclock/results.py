"""A run's results as pandas DataFrames, and the results folder they are saved in.

The folder's files and columns are described in docs/results.md.
"""

from __future__ import annotations

import csv
import json
import math
import os
from array import array
from collections.abc import Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

from .atomic import StagedFolder, fault_point
from .errors import ScenarioError

TABLES = ("flows", "queues", "timeseries", "queue_timeseries", "tcp_trace", "connections",
          "flows_detail", "cc_state", "queue_flows")

# summary.json keys in the order docs/results.md lists them; any others follow.
_SUMMARY_ORDER = (
    "name",
    "profile",
    "seed",
    "duration_s",
    "warmup_s",
    "wall_s",
    "events",
    "events_per_s",
    "packet_hops",
    "packet_hops_per_s",
    "packets_delivered",
    "version",
)

# Text columns; read back as text even when every value is empty (variant of UDP flows).
_TEXT_COLUMNS = ("flow", "kind", "variant", "cc", "from", "to", "link", "variable",
                 "direction")


class Results:
    """A run's results: ``summary`` (a dict) and one pandas DataFrame per table of
    ``TABLES`` (``flows``, ``queues``, ...). Tables come from the engine as Arrow tables
    (``ackclock._core.Table``: its float and integer columns are the engine's own buffers)
    and become DataFrames when first read, through pyarrow; a command-line run that only
    writes its CSV files takes their columns as Python lists instead and never imports pandas
    or pyarrow (which take longer to import than a small run takes to simulate)."""

    def __init__(self, summary: dict[str, Any], *tables: Any, **named: Any) -> None:
        if len(tables) > len(TABLES):
            raise TypeError(f"Results takes at most {len(TABLES)} tables")
        self.summary = summary
        given = dict(zip(TABLES, tables, strict=False)) | named
        unknown = set(given) - set(TABLES)
        if unknown:
            raise TypeError(f"unknown tables: {', '.join(sorted(unknown))}")
        # Each table: a DataFrame, or not converted yet: the engine's Arrow table or a dict
        # of columns (lists).
        self._tables: dict[str, Any] = {t: given.get(t) for t in TABLES}
        # Packet trace files the run wrote (absolute paths), kept by save().
        self.trace_paths: list[str] = []

    def __getstate__(self) -> dict[str, Any]:
        # The engine's tables do not pickle: their columns as lists do (sweeps, copies).
        from ._core import Table

        state = dict(self.__dict__)
        state["_tables"] = {k: v.to_dict() if isinstance(v, Table) else v
                            for k, v in self._tables.items()}
        return state

    def _frame(self, name: str) -> pd.DataFrame:
        import pandas as pd

        t = self._tables[name]
        if not isinstance(t, pd.DataFrame):
            t = _frame_of(t)
            self._tables[name] = t
        return t

    def _set(self, name: str, value: pd.DataFrame) -> None:
        self._tables[name] = value

    flows = property(lambda self: self._frame("flows"),
                     lambda self, v: self._set("flows", v))
    queues = property(lambda self: self._frame("queues"),
                      lambda self, v: self._set("queues", v))
    timeseries = property(lambda self: self._frame("timeseries"),
                          lambda self, v: self._set("timeseries", v))
    queue_timeseries = property(lambda self: self._frame("queue_timeseries"),
                                lambda self, v: self._set("queue_timeseries", v))
    tcp_trace = property(lambda self: self._frame("tcp_trace"),
                         lambda self, v: self._set("tcp_trace", v))
    # One row per Tmix connection (docs/traffic.md); empty without Tmix traffic.
    connections = property(lambda self: self._frame("connections"),
                           lambda self, v: self._set("connections", v))
    # Per flow and direction, like ns-3's FlowMonitor (docs/traces.md).
    flows_detail = property(lambda self: self._frame("flows_detail"),
                            lambda self, v: self._set("flows_detail", v))
    # Congestion-control state at each sample time (docs/models/congestion-control.md).
    cc_state = property(lambda self: self._frame("cc_state"),
                        lambda self, v: self._set("cc_state", v))
    # Per-flow queue monitors of links with monitor_flows (docs/traces.md).
    queue_flows = property(lambda self: self._frame("queue_flows"),
                           lambda self, v: self._set("queue_flows", v))

    def columns(self, name: str) -> dict[str, list[Any]] | None:
        """Table ``name``'s columns as Python lists, if it has not become a DataFrame yet."""
        t = self._tables[name]
        if t is None or isinstance(t, dict):
            return t
        from ._core import Table

        return t.to_dict() if isinstance(t, Table) else None

    @classmethod
    def from_engine(cls, raw: Mapping[str, Any], **summary: Any) -> Results:
        """From the dict ``ackclock._core.Simulation.results()`` returns; ``summary`` adds keys
        (``wall_s``...) to the engine's summary."""
        merged = {**raw["summary"], **summary}
        return cls(_ordered_summary(merged), *(raw.get(t, {}) for t in TABLES))

    def __repr__(self) -> str:
        s = self.summary
        return (
            f"Results(name={s.get('name')!r}, duration_s={s.get('duration_s')!r},"
            f" flows={len(self.flows)}, links={len(self.queues)},"
            f" samples={len(self.timeseries)})"
        )

    def _repr_html_(self) -> str:
        """What a notebook shows for a Results: the run's facts, the flows table, the links
        that carried packets and, with time series, the throughput and cwnd plots inline."""
        import base64
        import html
        import io

        s = self.summary
        facts = ", ".join(f"{k} {s[k]}" for k in ("profile", "seed", "duration_s", "warmup_s",
                                                   "wall_s") if k in s)
        parts = [f"<p><b>{html.escape(str(s.get('name', 'run')))}</b>"
                 f" ({html.escape(facts)})</p>"]
        flow_cols = [c for c in ("flow", "kind", "cc", "from", "to", "throughput_mbps",
                                 "goodput_mbps", "loss_rate", "mean_rtt_s", "timeouts",
                                 "fast_retransmits") if c in self.flows.columns]
        parts.append(self.flows[flow_cols].to_html(index=False, float_format="{:.4g}".format))
        q = self.queues
        if not q.empty and "departed_packets" in q:
            q = q[q["departed_packets"] > 0]
            cols = [c for c in ("link", "utilization", "mean_queue_packets",
                                "max_queue_packets", "dropped_packets", "p95_sojourn_s")
                    if c in q.columns]
            parts.append(q[cols].to_html(index=False, float_format="{:.4g}".format))
        if not self.timeseries.empty:
            from .plot import cwnd_figure, throughput_figure

            runs = [(str(s.get("name", "")), self)]
            for fig in (throughput_figure(runs), cwnd_figure(runs)):
                buf = io.BytesIO()
                fig.savefig(buf, format="png", dpi=80)
                data = base64.b64encode(buf.getvalue()).decode("ascii")
                parts.append(f'<img src="data:image/png;base64,{data}"'
                             ' style="max-width: 100%">')
        return "\n".join(parts)

    def save(self, directory: str | os.PathLike[str], plot: bool = False) -> list[str]:
        """Writes the results folder; returns the names of the files written.

        The folder is built whole beside ``directory`` and then swapped in, so that
        ``directory`` holds either its earlier results or these, never a mix, whatever fails
        or is interrupted meanwhile (docs/reliability.md). ``directory`` must be absent, an
        empty folder or an earlier results folder (it has a summary.json), which is replaced
        whole. Packet traces this run wrote inside ``directory`` are kept.
        """
        with StagedFolder(directory, is_results_folder) as staged:
            written = self.write_into(staged.path, plot=plot,
                                      keep_from=Path(directory))
            staged.commit()
        return written

    def write_into(self, folder: Path, plot: bool = False,
                   keep_from: Path | None = None) -> list[str]:
        """Writes the tables (and plots) into ``folder``, a staging folder; packet traces of
        this run found under ``keep_from`` are linked in at the same relative paths."""
        if keep_from is not None:
            self._keep_traces(keep_from, folder)
        try:
            written = self._write(folder)
            if plot:
                from .plot import write_plots  # matplotlib is slow to import; only when asked

                written += write_plots(self, folder)
        except OSError as e:
            # Named by its place in the results folder, not the staging folder's.
            if e.filename and keep_from is not None and str(e.filename).startswith(str(folder)):
                name = os.path.relpath(e.filename, folder)
                raise OSError(e.errno, e.strerror, str(keep_from / name)) from None
            raise
        return written

    def _keep_traces(self, source: Path, folder: Path) -> None:
        base = source.absolute()
        for trace in self.trace_paths:
            p = Path(trace)
            try:
                rel = p.relative_to(base)
            except ValueError:
                continue
            if p.is_file() and not p.is_symlink() and not (folder / rel).exists():
                (folder / rel).parent.mkdir(parents=True, exist_ok=True)
                try:
                    os.link(p, folder / rel)
                except OSError:
                    import shutil

                    shutil.copyfile(p, folder / rel)

    def _write(self, directory: Path) -> list[str]:
        fault_point("write", directory / "summary.json")
        write_summary(self.summary, directory / "summary.json")
        for table in TABLES:
            fault_point("write", directory / f"{table}.csv")
            if _write_engine_table(self._tables[table], directory / f"{table}.csv"):
                continue
            raw = self.columns(table)
            if raw is not None:
                _write_columns(raw, directory / f"{table}.csv")
                continue
            # pandas writes floats as their shortest round-trip repr: full precision, and the
            # same bytes for the same numbers. NaN (no value) becomes an empty field.
            getattr(self, table).to_csv(
                directory / f"{table}.csv", index=False, lineterminator="\n", na_rep=""
            )
        return ["summary.json", *(f"{t}.csv" for t in TABLES)]

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> Results:
        """Reads a results folder written by :meth:`save`.

        Raises ScenarioError naming the file when the folder is not one, or a file of it is
        not what :meth:`save` writes."""
        from .inputs import MAX_DATA_BYTES, check_path_argument, read_text

        d = check_path_argument(directory, "results folder")
        if not (d / "summary.json").is_file():
            raise ScenarioError("not a results folder (it has no summary.json)", file=str(d))
        text = read_text(d / "summary.json", MAX_DATA_BYTES)
        try:
            summary = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise ScenarioError(f"not a summary.json written by ackclock ({e})",
                                file=str(d / "summary.json")) from None
        if not isinstance(summary, dict):
            raise ScenarioError("not a summary.json written by ackclock (expected an object)",
                                file=str(d / "summary.json"))
        return cls(summary, *(_read_table(d / f"{t}.csv") for t in TABLES))


def is_results_folder(path: Path) -> bool:
    """Whether ``path`` looks like a folder :meth:`Results.save` wrote (it may be replaced)."""
    return (path / "summary.json").is_file() and not (path / "summary.json").is_symlink()


def _ordered_summary(summary: Mapping[str, Any]) -> dict[str, Any]:
    known = {k: summary[k] for k in _SUMMARY_ORDER if k in summary}
    return {**known, **{k: v for k, v in summary.items() if k not in known}}


def write_summary(summary: Mapping[str, Any], path: Path) -> None:
    """Writes :func:`summary_text` into ``path``."""
    with open(path, "w", encoding="utf-8") as f:
        write_summary_to(summary, f)


def write_summary_to(summary: Mapping[str, Any], f: IO[str]) -> None:
    """Writes :func:`summary_text` to ``f``, piece by piece when it can (a 10 000-flow
    scenario's text is 30 MB)."""
    if _tmix_vectors(summary):
        f.write(summary_text(summary))
        return
    from .indented_json import dump_indented

    dump_indented(summary, f)
    f.write("\n")


def _tmix_vectors(summary: Mapping[str, Any]) -> bool:
    scenario = summary.get("scenario")
    flows = scenario.get("flows") if isinstance(scenario, Mapping) else None
    return isinstance(flows, list) and any(_vectors(f) is not None for f in flows)


def _vectors(f: object) -> Mapping[str, Any] | None:
    app = f.get("app") if isinstance(f, Mapping) else None
    conns = app.get("connections") if isinstance(app, Mapping) else None
    return conns if isinstance(conns, Mapping) else None


def summary_text(summary: Mapping[str, Any]) -> str:
    """summary.json's text: indented, except that a Tmix application's connection vectors
    (``scenario.flows[i].app.connections``, one list per field, often of hundreds of
    thousands of values) take one line per list rather than one line per value."""
    from .indented_json import dumps_indented

    scenario = summary.get("scenario")
    flows = scenario.get("flows") if isinstance(scenario, Mapping) else None
    if not isinstance(flows, list) or not _tmix_vectors(summary):
        return dumps_indented(summary) + "\n"
    # Each table of vectors is swapped for a marker string (its NUL cannot come from the
    # scenario unescaped), the rest indented as usual, and the markers replaced.
    tables: dict[str, Mapping[str, Any]] = {}
    new_flows = []
    for i, f in enumerate(flows):
        conns = _vectors(f)
        if conns is not None:
            marker = f"\0connections {i} {os.urandom(8).hex()}"
            tables[json.dumps(marker)] = conns
            f = {**f, "app": {**f["app"], "connections": marker}}
        new_flows.append(f)
    assert isinstance(scenario, Mapping)  # flows came from it
    text = dumps_indented({**summary, "scenario": {**scenario, "flows": new_flows}})
    for marker, conns in tables.items():
        at = text.index(marker)
        line = text[text.rindex("\n", 0, at) + 1:at]
        indent = line[:len(line) - len(line.lstrip())]
        rows = f",\n{indent}  ".join(f"{json.dumps(k)}: {_one_line(v)}"
                                     for k, v in conns.items())
        text = text.replace(marker, f"{{\n{indent}  {rows}\n{indent}}}" if conns else "{}", 1)
    return text + "\n"


def _one_line(column: Any) -> str:
    """A column of connection vectors as ``json.dumps(column, separators=(',', ':'))`` writes
    its list: an ``array.array`` (python/ackclock/tmix.py) through the binding's encoder, which
    takes arrays, with its separators' spaces taken out (numbers hold none)."""
    if isinstance(column, array):
        from .indented_json import dumps

        return dumps(column).replace(", ", ",")
    return json.dumps(column, separators=(",", ":"))


def _frame_of(table: Any) -> pd.DataFrame:
    """A table not converted yet as a DataFrame: the engine's Arrow table through pyarrow,
    a dict of columns directly. A table without rows is built from its (empty) lists, as
    before tables crossed as Arrow: pandas types empty columns by its own rule (float64), not
    by the engine's column types."""
    import pandas as pd

    from ._core import Table

    if isinstance(table, Table):
        if table.num_rows == 0:
            return pd.DataFrame(table.to_dict())
        import pyarrow as pa

        return pa.record_batch(table).to_pandas()
    return pd.DataFrame(dict(table or {}))


def _write_engine_table(table: Any, path: Path) -> bool:
    """Writes an engine table (``ackclock._core.Table``) straight from its columns, as
    :func:`_write_columns` would (crates/ackclock-py/src/csv_text.rs: a sampled run's time
    series are millions of cells); False for anything else, or a table the binding leaves to
    Python (a text field that needs quoting)."""
    write = getattr(table, "write_csv", None)
    if write is None:
        return False
    try:
        return bool(write(str(path)))
    except OSError as e:
        raise OSError(e.errno, e.strerror, str(path)) from None


def _write_columns(columns: Mapping[str, list[Any]], path: Path) -> None:
    """Writes a table of columns as pandas' ``to_csv(index=False, na_rep="")`` would: the
    same header, minimal quoting, floats as their shortest round-trip repr, NaN and None as
    empty fields (tests/unit/test_results.py compares the bytes)."""
    names = list(columns)
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        if not names:
            f.write("\n")
            return
        w.writerow(names)
        # Converted a column at a time and written in one call: a Tmix run's
        # connections.csv has hundreds of thousands of rows.
        cells = [[_cell(v) if v is None or type(v) is float else v for v in columns[n]]
                 for n in names]
        w.writerows(zip(*cells, strict=True))


def _cell(v: float | None) -> str:
    if v is None or math.isnan(v):
        return ""
    return repr(v)


def _read_table(path: Path) -> pd.DataFrame:
    import pandas as pd

    from .inputs import MAX_DATA_BYTES, read_bytes

    if not path.is_file() and path.name in ("tcp_trace.csv", "connections.csv",
                                            "flows_detail.csv", "cc_state.csv",
                                            "queue_flows.csv"):
        return pd.DataFrame()  # a folder written before traces existed
    data = read_bytes(path, MAX_DATA_BYTES)
    if len(data) <= 1:
        return pd.DataFrame()  # a table with no columns at all (no such rows in this run)
    import io

    try:
        df = pd.read_csv(
            io.BytesIO(data),
            keep_default_na=False,  # a flow named "NA" stays "NA"
            na_values=[""],
            dtype={c: str for c in _TEXT_COLUMNS},
        )
    except (ValueError, UnicodeDecodeError) as e:  # pandas' ParserError is a ValueError
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ScenarioError(f"not a table written by ackclock ({first})",
                            file=str(path)) from None
    for c in _TEXT_COLUMNS:
        if c in df.columns:
            df[c] = df[c].fillna("")
    return df
