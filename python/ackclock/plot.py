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
from typing import TYPE_CHECKING

import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .atomic import write_atomic
from .results import Results

if TYPE_CHECKING:
    from matplotlib.axes import Axes

MAX_QUEUES = 6  # more lines than this make the queue plot unreadable
_MAX_LEGEND = 12
_MAX_POINTS = 50_000  # per line; beyond this a plot only gets slower, not clearer


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
    name = str(res.summary.get("name", ""))
    return [
        _save(_cwnd(res, name), out / "cwnd.png"),
        _save(_throughput(res, name), out / "throughput.png"),
        _save(_queue(res, name), out / "queue.png"),
        _save(_rtt(res, name), out / "rtt.png"),
    ]


def _tcp_flows(res: Results) -> list[str]:
    if "kind" in res.flows.columns:
        return [str(f) for f in res.flows.loc[res.flows["kind"] == "tcp", "flow"]]
    ts = res.timeseries
    return [str(f) for f in ts.loc[ts["cwnd"].notna(), "flow"].unique()]


def _window_unit(res: Results) -> str:
    flows = res.summary.get("scenario", {}).get("flows", []) if res.summary else []
    units = {f.get("tcp", {}).get("window_unit") for f in flows if f.get("kind") == "tcp"}
    return "bytes" if units == {"bytes"} else "segments"


def _cwnd(res: Results, name: str) -> Figure:
    tcp = set(_tcp_flows(res))
    series = [(f, g) for f, g in res.timeseries.groupby("flow", sort=False) if f in tcp]
    fig, ax = _figure(f"Congestion window and ssthresh: {name}",
                      f"window ({_window_unit(res)})")
    for f, g in series:
        step = max(1, len(g) // _MAX_POINTS)
        (line,) = ax.plot(g["time_s"].to_numpy()[::step], g["cwnd"].to_numpy()[::step],
                          label=f"{f} cwnd", linewidth=0.9)
        ssthresh = g["ssthresh"].replace(float("inf"), float("nan"))
        if ssthresh.notna().any():
            ax.plot(g["time_s"].to_numpy()[::step], ssthresh.to_numpy()[::step],
                    label=f"{f} ssthresh", linewidth=0.8, linestyle="--",
                    color=line.get_color())
    _legend(ax, 2 * len(series), "no TCP flows")
    return fig


def _rtt(res: Results, name: str) -> Figure:
    tcp = set(_tcp_flows(res))
    series = [(f, g) for f, g in res.timeseries.groupby("flow", sort=False) if f in tcp]
    fig, ax = _figure(f"RTT, smoothed RTT and retransmission timeout: {name}", "time (s)")
    styles = (("rtt_s", "rtt", {"linewidth": 0.6, "alpha": 0.6}),
              ("srtt_s", "srtt", {"linewidth": 1.0}),
              ("rto_s", "rto", {"linewidth": 0.9, "linestyle": "--"}))
    n = 0
    for f, g in series[:MAX_QUEUES]:
        step = max(1, len(g) // _MAX_POINTS)
        t = g["time_s"].to_numpy()[::step]
        color = None
        for column, label, style in styles:
            if column not in g.columns:
                continue
            (line,) = ax.plot(t, g[column].to_numpy()[::step], label=f"{f} {label}",
                              color=color, **style)
            color = line.get_color()
            n += 1
    ax.set_xlabel("simulated time (s)")
    _legend(ax, n, "no TCP flows")
    return fig


def _throughput(res: Results, name: str) -> Figure:
    series = res.timeseries.groupby("flow", sort=False)
    fig, ax = _figure(f"Throughput per flow: {name}", "throughput (Mb/s)")
    _lines(ax, ((str(f), g["time_s"], g["throughput_mbps"]) for f, g in series), "no flows")
    return fig


def _queue(res: Results, name: str) -> Figure:
    qs = res.queue_timeseries
    busiest: list[str] = []
    if not qs.empty:
        stats = qs.groupby("link", sort=False)["queue_packets"].agg(["max", "mean"])
        stats = stats[stats["max"] > 0].sort_values("mean", ascending=False, kind="stable")
        busiest = [str(link) for link in stats.index[:MAX_QUEUES]]
    title = f"Queue length: {name}"
    if len(busiest) == MAX_QUEUES:
        title += f" ({MAX_QUEUES} busiest link directions)"
    fig, ax = _figure(title, "queue (packets)")
    groups = dict(tuple(qs.groupby("link", sort=False))) if busiest else {}
    _lines(
        ax,
        ((link, groups[link]["time_s"], groups[link]["queue_packets"]) for link in busiest),
        "no packet ever waited in a queue at a sample instant",
    )
    return fig


def _figure(title: str, ylabel: str) -> tuple[Figure, Axes]:
    fig = Figure(figsize=(9, 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_title(title)
    ax.set_xlabel("time (s)")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    return fig, ax


def _lines(ax: Axes, series: Iterable[tuple[str, pd.Series, pd.Series]], empty: str) -> None:
    n = 0
    for label, x, y in series:
        step = max(1, len(x) // _MAX_POINTS)
        ax.plot(x.to_numpy()[::step], y.to_numpy()[::step], label=label, linewidth=0.9)
        n += 1
    _legend(ax, n, empty)


def _legend(ax: Axes, n: int, empty: str) -> None:
    if n == 0:
        ax.text(0.5, 0.5, empty, transform=ax.transAxes, ha="center", va="center")
    elif n <= _MAX_LEGEND:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")


# --- sweeps --------------------------------------------------------------------------------

UNITS = {"throughput_mbps": "throughput (Mb/s)", "goodput_mbps": "goodput (Mb/s)",
         "loss_rate": "loss rate", "mean_rtt_s": "mean RTT (s)", "timeouts": "timeouts"}


def sweep_figure(summary: pd.DataFrame, x: str, metric: str, *,
                 by: str | None = None, flows: Iterable[str] | None = None,
                 models: dict[str, tuple[Iterable[float], Iterable[float]]] | None = None,
                 title: str | None = None) -> Figure:
    """``metric``'s mean against the swept parameter ``x``, with 95% confidence intervals
    (summary.csv's ``<metric>_mean`` and ``<metric>_ci95``), one line per flow and per value
    of another swept parameter ``by``. ``models``: extra curves, label -> (xs, ys)."""
    fig, ax = _figure(title or f"{metric} against {x}", UNITS.get(metric, metric))
    ax.set_xlabel(x)
    # The "all" rows (totals over the flows) only when asked for by name.
    data = summary[summary["flow"] != "all"] if flows is None \
        else summary[summary["flow"].isin(list(flows))]
    keys = ["flow"] + ([by] if by else [])
    n = 0
    for key, g in data.groupby(keys, sort=False):
        g = g.sort_values(x)
        label = " ".join(str(k) for k in (key if isinstance(key, tuple) else (key,)))
        yerr = g[f"{metric}_ci95"].fillna(0) if f"{metric}_ci95" in g else None
        ax.errorbar(g[x], g[f"{metric}_mean"], yerr=yerr, marker="o", capsize=3, label=label,
                    linewidth=0.9)
        n += 1
    for label, (xs, ys) in (models or {}).items():
        ax.plot(list(xs), list(ys), linestyle="--", label=label)
        n += 1
    _legend(ax, n, "no runs")
    return fig


def write_sweep_plots(directory: str | os.PathLike[str]) -> list[str]:
    """For a sweep's output folder (summary.csv): one PNG per metric against the first swept
    parameter, a line per flow and per value of the second. Returns the names written."""
    out = Path(directory)
    summary = pd.read_csv(out / "summary.csv", keep_default_na=False, na_values=[""],
                          dtype={"flow": str})
    summary = summary[summary["flow"] != "all"]
    params = list(summary.columns[: list(summary.columns).index("flow")])
    if not params:
        return []
    x, by = params[0], (params[1] if len(params) > 1 else None)
    if not pd.api.types.is_numeric_dtype(summary[x]) and by is not None \
            and pd.api.types.is_numeric_dtype(summary[by]):
        x, by = by, x  # put a numeric parameter on the x axis
    written = []
    for metric in UNITS:
        if f"{metric}_mean" in summary.columns and summary[f"{metric}_mean"].notna().any():
            fig = sweep_figure(summary, x, metric, by=by)
            written.append(_save(fig, out / f"sweep_{metric}.png"))
    return written


def _save(fig: Figure, path: Path) -> str:
    """Writes the PNG atomically: a temporary file beside it, then a rename."""
    write_atomic(path, lambda f: fig.savefig(f, format="png", dpi=120), binary=True)
    return path.name
