"""The standard plots of a run: cwnd, throughput and queue length against time.

Figures are drawn on matplotlib's Agg canvas directly, without pyplot, so plotting never
changes the backend of a notebook or script that imports ackclock.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .results import Results

if TYPE_CHECKING:
    from matplotlib.axes import Axes

MAX_QUEUES = 6  # more lines than this make the queue plot unreadable
_MAX_LEGEND = 12
_MAX_POINTS = 50_000  # per line; beyond this a plot only gets slower, not clearer


def write_plots(results: Results | str | os.PathLike[str],
                directory: str | os.PathLike[str] | None = None) -> list[str]:
    """Writes cwnd.png, throughput.png and queue.png; returns the names written.

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
    ]


def _tcp_flows(res: Results) -> list[str]:
    if "kind" in res.flows.columns:
        return [str(f) for f in res.flows.loc[res.flows["kind"] == "tcp", "flow"]]
    ts = res.timeseries
    return [str(f) for f in ts.loc[ts["cwnd"].notna(), "flow"].unique()]


def _cwnd(res: Results, name: str) -> Figure:
    tcp = set(_tcp_flows(res))
    series = [(f, g) for f, g in res.timeseries.groupby("flow", sort=False) if f in tcp]
    fig, ax = _figure(f"Congestion window: {name}", "cwnd (segments)")
    _lines(ax, ((str(f), g["time_s"], g["cwnd"]) for f, g in series), "no TCP flows")
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
    if n == 0:
        ax.text(0.5, 0.5, empty, transform=ax.transAxes, ha="center", va="center")
    elif n <= _MAX_LEGEND:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")


def _save(fig: Figure, path: Path) -> str:
    """Writes the PNG atomically: a temporary file beside it, then a rename."""
    # Not tempfile.mkstemp: its files are private (0600), and plots should get the same
    # permissions as the CSV files next to them.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        with open(tmp, "xb") as f:
            fig.savefig(f, format="png", dpi=120)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path.name
