"""Metrics computed from results tables: fairness, rates, loss and convergence.

Functions take the DataFrames of :class:`ackclock.Results` (or of a results folder) and
NumPy-compatible values; the arithmetic ones broadcast over arrays.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pandas as pd

FloatArray = npt.NDArray[np.float64]

# Sample times are decimal seconds stored as binary floats (0.30000000000000004); this slack
# keeps a sample that lies on a bin edge in the bin it closes.
_EDGE_SLACK = 1e-9


def jain(x: npt.ArrayLike, axis: int = -1) -> FloatArray | float:
    """Jain's fairness index (sum x)^2 / (n * sum x^2) along ``axis``.

    1 when every share is equal, 1/n when one takes all; NaN when every share is 0.
    """
    a = np.asarray(x, dtype=float)
    n = a.shape[axis]
    with np.errstate(invalid="ignore", divide="ignore"):
        index = a.sum(axis=axis) ** 2 / (n * (a**2).sum(axis=axis))
    return _scalar_or_array(index)


def asymmetry(t1: npt.ArrayLike, t2: npt.ArrayLike) -> FloatArray | float:
    """(t1 - t2) / (t1 + t2): 0 for equal shares, +1 / -1 when one flow takes everything."""
    a, b = np.asarray(t1, dtype=float), np.asarray(t2, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return _scalar_or_array((a - b) / (a + b))


def throughput_mbps(bytes_: npt.ArrayLike, seconds: npt.ArrayLike) -> FloatArray | float:
    """Bytes over seconds, in Mb/s (10^6 bit/s, as every *_mbps column)."""
    b, s = np.asarray(bytes_, dtype=float), np.asarray(seconds, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return _scalar_or_array(b * 8 / s / 1e6)


def utilization(queues_df: pd.DataFrame, link: str) -> float:
    """The utilization column of one link direction, named ``"r1->r2"`` (or ``"r1-r2"`` as
    in ``--set`` paths, when the node names contain no dash)."""
    name = link if "->" in link else link.replace("-", "->", 1)
    rows = queues_df.loc[queues_df["link"] == name, "utilization"]
    if rows.empty:
        known = ", ".join(map(str, queues_df["link"]))
        raise KeyError(f"no link direction {name!r} in the queues table (has: {known})")
    return float(rows.iloc[0])


def loss_rate(flows_df: pd.DataFrame) -> float:
    """The aggregate loss rate of the flows in ``flows_df``: packets dropped / packets sent
    (a packet-weighted mean, not the mean of per-flow rates); NaN if nothing was sent."""
    sent = float(flows_df["packets_sent"].sum())
    return float(flows_df["packets_dropped"].sum()) / sent if sent > 0 else math.nan


def per_interval_throughput(timeseries_df: pd.DataFrame, interval_s: float) -> pd.DataFrame:
    """Per-flow throughput in bins of ``interval_s`` seconds.

    Each sample's ``throughput_mbps`` covers the sampling interval ending at its time, so a
    bin (k*interval, (k+1)*interval] averages the samples in it, which is exact when
    ``interval_s`` is a multiple of the sampling interval. The sample at time 0 covers no
    time and is left out. Columns: time_s (the bin's end), flow, throughput_mbps.
    """
    if interval_s <= 0:
        raise ValueError(f"interval_s must be positive, got {interval_s}")
    ts = timeseries_df[timeseries_df["time_s"] > 0]
    k = np.ceil(ts["time_s"].to_numpy(dtype=float) / interval_s - _EDGE_SLACK) - 1
    binned = (
        ts.assign(_bin=k.astype(np.int64))
        .groupby(["_bin", "flow"], sort=True)["throughput_mbps"]
        .mean()
        .reset_index()
    )
    binned["time_s"] = (binned["_bin"] + 1) * interval_s
    return binned[["time_s", "flow", "throughput_mbps"]]


def convergence_time(
    timeseries_df: pd.DataFrame, flow_a: str, flow_b: str, tolerance: float = 0.1
) -> float | None:
    """The first sample time from which the two flows' throughputs stay within ``tolerance``
    of each other to the end of the run: |a - b| <= tolerance x max(a, b). None if they are
    apart at the last sample (or share no sample).

    Per-sample throughput is noisy; pass :func:`per_interval_throughput` output for a
    smoother criterion (it has the same columns).
    """
    wide = timeseries_df.pivot_table(index="time_s", columns="flow", values="throughput_mbps")
    if flow_a not in wide.columns or flow_b not in wide.columns:
        return None
    pair = wide[[flow_a, flow_b]].dropna()
    if pair.empty:
        return None
    a, b = pair[flow_a].to_numpy(), pair[flow_b].to_numpy()
    close = np.abs(a - b) <= tolerance * np.maximum(a, b)
    if not close[-1]:
        return None
    apart = np.flatnonzero(~close)
    first = 0 if apart.size == 0 else int(apart[-1]) + 1
    return float(pair.index[first])


def _scalar_or_array(x: FloatArray) -> FloatArray | float:
    # Scalars in, a float out: callers doing arithmetic on one value expect a number.
    return float(x) if np.ndim(x) == 0 else x
