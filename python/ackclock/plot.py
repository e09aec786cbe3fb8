"""The standard plots of a run (cwnd and ssthresh, throughput, queue length, RTT/SRTT/RTO
against time) and of a sweep (each metric against a swept parameter, with 95% confidence
intervals, optionally with model curves).

Figures are drawn on matplotlib's Agg canvas directly, without pyplot, so plotting never
changes the backend of a notebook or script that imports ackclock.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .atomic import write_atomic
from .results import Results

if TYPE_CHECKING:
    from matplotlib.axes import Axes

MAX_QUEUES = 6  # more lines than this make the queue plot unreadable
MAX_FLOWS = 8  # flows drawn one line each; the others are summed up as one (see _capped)
_MAX_LEGEND = 12
_MAX_POINTS = 50_000  # per line; beyond this a plot only gets slower, not clearer
# Congestion controls whose ssthresh means nothing (BBR keeps none: its window comes from
# its model of the path).
_NO_SSTHRESH = ("bbr",)


def write_plots(results: Results | str | os.PathLike[str],
                directory: str | os.PathLike[str] | None = None) -> list[str]:
    """Writes cwnd.png, throughput.png, queue.png and rtt.png; returns the names written.

    ``results`` is a Results or a results folder; ``directory`` defaults to that folder.
    Nothing is written when the run has no time series (no ``run.sample_interval``).
    """
    if isinstance(results, Results):
        if directory is None:
            raise ValueError("write_plots needs a directory when given a Results")
        res = results
    else:
        directory = results if directory is None else directory
        res = Results.load(results)
    out = Path(directory)
    if res.timeseries.empty:
        return []
    runs = [(str(res.summary.get("name", "")), res)]
    return [
        _save(cwnd_figure(runs), out / "cwnd.png"),
        _save(throughput_figure(runs), out / "throughput.png"),
        _save(queue_figure(runs), out / "queue.png"),
        _save(rtt_figure(runs), out / "rtt.png"),
    ]


def write_overlay_plots(folders: Iterable[str | os.PathLike[str]],
                        directory: str | os.PathLike[str]) -> list[str]:
    """Overlays the runs of several results folders, each labelled by its folder's name:
    cwnd.png, throughput.png, queue.png and rtt.png in ``directory``. Returns the names."""
    runs = []
    for folder in folders:
        res = Results.load(folder)
        runs.append((Path(folder).name or str(folder), res))
    runs = [(label, res) for label, res in runs if not res.timeseries.empty]
    if not runs:
        return []
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    return [
        _save(cwnd_figure(runs), out / "cwnd.png"),
        _save(throughput_figure(runs), out / "throughput.png"),
        _save(queue_figure(runs), out / "queue.png"),
        _save(rtt_figure(runs), out / "rtt.png"),
    ]


Runs = list[tuple[str, Results]]


def _tcp_flows(res: Results) -> list[str]:
    if "kind" in res.flows.columns:
        return [str(f) for f in res.flows.loc[res.flows["kind"] == "tcp", "flow"]]
    ts = res.timeseries
    return [str(f) for f in ts.loc[ts["cwnd"].notna(), "flow"].unique()]


def _scenario_flows(res: Results) -> dict[str, dict[str, Any]]:
    flows = (res.summary or {}).get("scenario", {}).get("flows", [])
    return {str(f.get("name")): f for f in flows if isinstance(f, dict)}


def _window_unit(res: Results) -> str:
    flows = _scenario_flows(res).values()
    units = {f.get("tcp", {}).get("window_unit") for f in flows if f.get("kind") == "tcp"}
    return "bytes" if units == {"bytes"} else "segments"


def _label(run: str, name: str, runs: Runs) -> str:
    return name if len(runs) == 1 else f"{run}: {name}"


def _title(what: str, runs: Runs) -> str:
    return f"{what}: {runs[0][0]}" if len(runs) == 1 else f"{what}: " + " vs ".join(
        r for r, _ in runs)


def _capped(names: list[str], runs: Runs) -> tuple[list[str], str]:
    """The flows drawn one line each (at most MAX_FLOWS over all runs) and a note for the
    title when some are left out."""
    per_run = max(1, MAX_FLOWS // len(runs))
    shown = names[:per_run]
    note = f" ({len(shown)} of {len(names)} flows)" if len(names) > len(shown) else ""
    return shown, note


def _thin(x: Any, y: Any) -> tuple[Any, Any]:
    step = max(1, len(x) // _MAX_POINTS)
    return x[::step], y[::step]


def _smooth(g: pd.DataFrame, column: str, seconds: float) -> pd.Series:
    """``column`` averaged over a centred window of about ``seconds`` of samples."""
    t = g["time_s"].to_numpy()
    dt = float(t[1] - t[0]) if len(t) > 1 else 1.0
    width = max(1, int(round(seconds / dt))) if dt > 0 else 1
    return g[column].rolling(width, center=True, min_periods=1).mean()


def _robust_top(values: Iterable[Any]) -> float | None:
    """A y limit that a few spikes do not set: 1.1 x the 99th percentile, unless the data's
    maximum is within 1.5 x of it."""
    import numpy as np

    v = np.concatenate([np.asarray(x, dtype=float) for x in values]) if values else None
    if v is None:
        return None
    v = v[np.isfinite(v)]
    if not len(v):
        return None
    top, q = float(v.max()), float(np.percentile(v, 99))
    return 1.1 * q if q > 0 and top > 1.5 * q else None


def cwnd_figure(runs: Runs) -> Figure:
    """cwnd of each TCP flow against time, ssthresh dashed where the flow's congestion
    control has one (not BBR) and it has been set; at most MAX_FLOWS flows."""
    unit = _window_unit(runs[0][1])
    fig, ax = _figure("", f"congestion window ({unit})")
    n, notes, drawn = 0, "", []
    for run, res in runs:
        tcp = _tcp_flows(res)
        shown, note = _capped(tcp, runs)
        notes = notes or note
        cc = {name: str(f.get("tcp", {}).get("cc", "")) for name, f in
              _scenario_flows(res).items()}
        groups = dict(tuple(res.timeseries.groupby("flow", sort=False)))
        for f in shown:
            g = groups.get(f)
            if g is None:
                continue
            t, y = _thin(g["time_s"].to_numpy(), g["cwnd"].to_numpy())
            drawn.append(y)
            (line,) = ax.plot(t, y, label=_label(run, f"{f} cwnd", runs), linewidth=0.9)
            n += 1
            if cc.get(f) in _NO_SSTHRESH or len(shown) * len(runs) > MAX_FLOWS // 2:
                continue
            ssthresh = g["ssthresh"].replace([float("inf"), float("-inf")], float("nan"))
            if ssthresh.notna().any():
                t, y = _thin(g["time_s"].to_numpy(), ssthresh.to_numpy())
                ax.plot(t, y, label=_label(run, f"{f} ssthresh", runs), linewidth=0.7,
                        linestyle="--", color=line.get_color())
                n += 1
    top = _robust_top(drawn)
    if top is not None:
        ax.set_ylim(0, top)
        notes += " (y axis cut at 1.1 x the 99th percentile)"
    ax.set_title(_title("Congestion window", runs) + notes)
    ax.set_ylim(bottom=0)
    _legend(ax, n, "no TCP flows")
    return fig


def rtt_figure(runs: Runs) -> Figure:
    """Two panels against time: each TCP flow's RTT samples (thin) and smoothed RTT, and
    below, its retransmission timeout (which is often ten times the RTT and would flatten
    it on a shared axis)."""
    fig = Figure(figsize=(9, 6), layout="constrained")
    FigureCanvasAgg(fig)
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=[2, 1])
    fig.suptitle(_title("Round-trip time and retransmission timeout", runs))
    n = 0
    notes = ""
    for run, res in runs:
        tcp = _tcp_flows(res)
        shown, note = _capped(tcp, runs)
        notes = notes or note
        groups = dict(tuple(res.timeseries.groupby("flow", sort=False)))
        for f in shown:
            g = groups.get(f)
            if g is None:
                continue
            t = g["time_s"].to_numpy()
            color = None
            if "rtt_s" in g:
                (line,) = top.plot(*_thin(t, g["rtt_s"].to_numpy() * 1e3), linewidth=0.5,
                                   alpha=0.5, label=_label(run, f"{f} RTT sample", runs))
                color = line.get_color()
            if "srtt_s" in g:
                (line,) = top.plot(*_thin(t, g["srtt_s"].to_numpy() * 1e3), linewidth=1.1,
                                   color=color, label=_label(run, f"{f} smoothed RTT", runs))
                color = line.get_color()
            if "rto_s" in g:
                bottom.plot(*_thin(t, g["rto_s"].to_numpy()), linewidth=0.9, color=color,
                            label=_label(run, f"{f} RTO", runs))
            n += 1
    top.set_ylabel("RTT (ms)")
    bottom.set_ylabel("RTO (s)")
    bottom.set_xlabel("simulated time (s)")
    top.set_ylim(bottom=0)
    bottom.set_ylim(bottom=0)
    for ax in (top, bottom):
        ax.grid(True, alpha=0.3)
    if notes:
        fig.suptitle(_title("Round-trip time and retransmission timeout", runs) + notes)
    _legend(top, 2 * n, "no TCP flows")
    _legend(bottom, n, "no TCP flows")
    return fig


SMOOTH_S = 1.0  # throughput plots: a moving average over this much simulated time


def throughput_figure(runs: Runs) -> Figure:
    """Each flow's throughput against time, a SMOOTH_S moving average of the samples."""
    fig, ax = _figure(_title("Throughput", runs), "throughput (Mb/s)")
    n, notes = 0, ""
    for run, res in runs:
        names = [str(f) for f in res.timeseries["flow"].unique()]
        shown, note = _capped(names, runs)
        notes = notes or note
        groups = dict(tuple(res.timeseries.groupby("flow", sort=False)))
        for f in shown:
            g = groups[f]
            ax.plot(*_thin(g["time_s"].to_numpy(), _smooth(g, "throughput_mbps",
                                                            SMOOTH_S).to_numpy()),
                    label=_label(run, f, runs), linewidth=1.0)
            n += 1
    ax.set_title(_title("Throughput", runs) + f" ({SMOOTH_S:g} s moving average)" + notes)
    ax.set_ylim(bottom=0)
    _legend(ax, n, "no flows")
    return fig


def _limits(res: Results) -> dict[str, float]:
    """Each link direction's buffer limit in packets (from the resolved scenario)."""
    scenario = (res.summary or {}).get("scenario", {})
    nodes = scenario.get("nodes", [])
    limits: dict[str, float] = {}
    for link in scenario.get("links", []):
        q = link.get("queue") or {}
        limit = q.get("limit_packets")
        if limit is None or not isinstance(link.get("from"), int):
            continue
        a, b = nodes[link["from"]], nodes[link["to"]]
        limits[f"{a}->{b}"] = float(limit)
    return limits


def queue_figure(runs: Runs) -> Figure:
    """The backlog of the busiest link directions (at most MAX_QUEUES; links whose queue was
    empty at every sample are left out), each with its buffer limit as a dashed line."""
    fig, ax = _figure(_title("Queue length", runs), "queue (packets)")
    n = 0
    for run, res in runs:
        qs = res.queue_timeseries
        if qs.empty:
            continue
        stats = qs.groupby("link", sort=False)["queue_packets"].agg(["max", "mean"])
        stats = stats[stats["max"] > 0].sort_values("mean", ascending=False, kind="stable")
        busiest = [str(link) for link in stats.index[:max(1, MAX_QUEUES // len(runs))]]
        groups = dict(tuple(qs.groupby("link", sort=False)))
        limits = _limits(res)
        for link in busiest:
            g = groups[link]
            (line,) = ax.plot(*_thin(g["time_s"].to_numpy(), g["queue_packets"].to_numpy()),
                              label=_label(run, link, runs), linewidth=0.9)
            n += 1
            if link in limits:
                ax.axhline(limits[link], color=line.get_color(), linestyle="--",
                           linewidth=0.8, label=_label(run, f"{link} buffer limit", runs))
                n += 1
    ax.set_ylim(bottom=0)
    _legend(ax, n, "no packet ever waited in a queue at a sample instant")
    return fig


def _figure(title: str, ylabel: str) -> tuple[Figure, Axes]:
    fig = Figure(figsize=(9, 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_title(title)
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    return fig, ax


def _legend(ax: Axes, n: int, empty: str) -> None:
    if n == 0 or not ax.get_legend_handles_labels()[0]:
        ax.text(0.5, 0.5, empty, transform=ax.transAxes, ha="center", va="center")
    elif n <= _MAX_LEGEND * 2:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")


# --- sweeps --------------------------------------------------------------------------------

UNITS = {"throughput_mbps": "throughput (Mb/s)", "goodput_mbps": "goodput (Mb/s)",
         "loss_rate": "loss rate (drops / packets sent)", "mean_rtt_s": "mean RTT (s)",
         "timeouts": "timeouts (per run)"}
# The "all" rows' own metrics (per run, over all flows; docs/sweeps.md).
AGGREGATE_UNITS = {"throughput_mbps": "total throughput (Mb/s)",
                   "jain_index": "Jain's fairness index",
                   "utilization": "bottleneck utilisation",
                   "queue_delay_p95_s": "bottleneck queueing delay, 95th percentile (s)"}
# What each metric can be: a confidence interval is drawn inside it.
_RANGES = {"loss_rate": (0.0, 1.0), "jain_index": (0.0, 1.0), "utilization": (0.0, 1.0)}


def _spaced(values: list[float], log: bool, gap: float = 0.06) -> list[float]:
    """The sorted ``values`` that are at least ``gap`` of the axis apart, from the first on
    (log distances on a log axis); the last is kept in place of one too close to it."""
    import math

    def pos(v: float) -> float:
        return math.log10(v) if log else v

    if len(values) < 3:
        return values
    span = (pos(values[-1]) - pos(values[0])) or 1.0
    kept = [values[0]]
    for v in values[1:]:
        if pos(v) - pos(kept[-1]) >= gap * span:
            kept.append(v)
        elif v == values[-1] and len(kept) > 1:
            kept[-1] = v
    return kept


def _geometric(values: Iterable[Any]) -> bool:
    """Whether sorted values grow by a roughly constant factor (10, 20, 40, 80): a log
    axis shows them evenly."""
    import numpy as np

    try:
        v = np.unique(np.asarray(list(values), dtype=float))
    except (TypeError, ValueError):
        return False
    if len(v) < 3 or v[0] <= 0:
        return False
    ratios = v[1:] / v[:-1]
    return bool(v[-1] / v[0] >= 8 and ratios.max() / ratios.min() < 2.5)


def sweep_figure(summary: pd.DataFrame, x: str, metric: str, *,
                 by: str | None = None, flows: Iterable[str] | None = None,
                 models: dict[str, tuple[Iterable[float], Iterable[float]]] | None = None,
                 title: str | None = None, keys: dict[str, str] | None = None,
                 ylabel: str | None = None) -> Figure:
    """``metric``'s mean against the swept parameter ``x``, with 95% confidence intervals
    (summary.csv's ``<metric>_mean`` and ``<metric>_ci95``, cut to what the metric can be:
    no negative rates, no loss rate above 1), one line per flow and per value of another
    swept parameter ``by``, each line's error bars offset a little so that they do not hide
    each other. A log x axis when the values grow geometrically. ``models``: extra curves,
    label -> (xs, ys); ``keys``: each grid column's full key (grid.json), for the axis."""
    import numpy as np

    keys = keys or {}
    xlabel = x if keys.get(x, x) == x else f"{x} ({keys[x]})"
    what = ylabel or UNITS.get(metric, metric)
    fig, ax = _figure(title or f"{what[:1].upper()}{what[1:]} against {x}", what)
    ax.set_xlabel(xlabel)
    # The "all" rows (totals over the flows) only when asked for by name.
    data = summary[summary["flow"] != "all"] if flows is None \
        else summary[summary["flow"].isin(list(flows))]
    numeric = pd.api.types.is_numeric_dtype(data[x])
    log = numeric and _geometric(data[x])
    if log:
        ax.set_xscale("log")
    groups = list(data.groupby(["flow"] + ([by] if by else []), sort=False))
    lo, hi = _RANGES.get(metric, (0.0, float("inf")))
    for i, (key, g) in enumerate(groups):
        g = g.sort_values(x)
        parts = key if isinstance(key, tuple) else (key,)
        label = str(parts[0]) if len(parts) == 1 or flows is not None and str(parts[0]) == "all" \
            else f"{parts[0]}, {by}={parts[1]}"
        if len(parts) > 1 and str(parts[0]) == "all":
            label = f"{by}={parts[1]}"
        mean = g[f"{metric}_mean"].to_numpy(dtype=float)
        ci = g[f"{metric}_ci95"].fillna(0).to_numpy(dtype=float) \
            if f"{metric}_ci95" in g else np.zeros(len(g))
        lower = mean - np.maximum(mean - ci, lo)
        upper = np.minimum(mean + ci, hi) - mean
        xs = g[x].to_numpy()
        if numeric and len(groups) > 1:
            shift = (i - (len(groups) - 1) / 2) * 0.012
            xs = xs.astype(float)
            if log:
                xs = xs * 10 ** (shift * np.log10(xs.max() / xs.min() if xs.min() > 0 else 10))
            else:
                span = float(data[x].max() - data[x].min()) or 1.0
                xs = xs + shift * span
        ax.errorbar(xs, mean, yerr=[np.maximum(lower, 0), np.maximum(upper, 0)], marker="o",
                    markersize=4, capsize=3, label=label, linewidth=0.9)
    for label, (mx, my) in (models or {}).items():
        ax.plot(list(mx), list(my), linestyle="--", label=label)
    if numeric:
        from matplotlib.ticker import NullFormatter, ScalarFormatter

        # Every swept value gets a tick; a label only where it keeps clear of the last one
        # (0.7, 0.725 and 0.75 Mb/s side by side would print over each other).
        values = sorted(float(v) for v in data[x].unique())
        ax.set_xticks(values, minor=True)
        ax.set_xticks(_spaced(values, log))
        ax.xaxis.set_minor_formatter(NullFormatter())
        if log:
            ax.xaxis.set_major_formatter(ScalarFormatter())
    if lo == 0:
        ax.set_ylim(bottom=0)
    n = len(groups) + len(models or {})
    _legend(ax, n, "no runs")
    legend = ax.get_legend()
    if n and legend is not None and flows is None:
        legend.set_title("flow" + (f", {by}" if by else ""), prop={"size": "small"})  # type: ignore[arg-type]
    return fig


def _grid_keys(out: Path) -> dict[str, str]:
    import json

    try:
        return dict(json.loads((out / "grid.json").read_text(encoding="utf-8"))["columns"])
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def write_sweep_plots(directory: str | os.PathLike[str]) -> list[str]:
    """For a sweep's output folder (summary.csv): one PNG per metric against the first swept
    parameter, a line per flow and per value of the second; and for the "all" rows (over
    all flows) total throughput, Jain's index, bottleneck utilisation and queueing delay.
    Returns the names written."""
    out = Path(directory)
    summary = pd.read_csv(out / "summary.csv", keep_default_na=False, na_values=[""],
                          dtype={"flow": str})
    params = list(summary.columns[: list(summary.columns).index("flow")])
    if not params:
        return []
    keys = _grid_keys(out)
    x, by = params[0], (params[1] if len(params) > 1 else None)
    if not pd.api.types.is_numeric_dtype(summary[x]) and by is not None \
            and pd.api.types.is_numeric_dtype(summary[by]):
        x, by = by, x  # put a numeric parameter on the x axis
    flows = summary[summary["flow"] != "all"]
    written = []
    for metric in UNITS:
        if f"{metric}_mean" in flows.columns and flows[f"{metric}_mean"].notna().any():
            fig = sweep_figure(flows, x, metric, by=by, keys=keys)
            written.append(_save(fig, out / f"sweep_{metric}.png"))
    totals = summary[summary["flow"] == "all"]
    for metric, label in AGGREGATE_UNITS.items():
        if f"{metric}_mean" in totals.columns and totals[f"{metric}_mean"].notna().any():
            fig = sweep_figure(totals, x, metric, by=by, flows=["all"], keys=keys,
                               ylabel=label)
            name = "total_throughput_mbps" if metric == "throughput_mbps" else metric
            written.append(_save(fig, out / f"sweep_{name}.png"))
    return written


def _save(fig: Figure, path: Path) -> str:
    """Writes the PNG atomically: a temporary file beside it, then a rename."""
    write_atomic(path, lambda f: fig.savefig(f, format="png", dpi=120), binary=True)
    return path.name
