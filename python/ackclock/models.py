"""Analytical models of steady-state TCP throughput, to compare with simulated runs.

Both models take NumPy arrays (or scalars) and broadcast them, so a whole sweep's predictions
come from one call. Sources and units: docs/models/analytical.md.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pandas as pd

if TYPE_CHECKING:
    from .results import Results

ArrayLike = npt.ArrayLike
FloatArray = npt.NDArray[np.float64]

# 1.5 * sqrt(2/3) = sqrt(3/2) ~= 1.22: the constant of formula (5).
MATHIS_C = math.sqrt(3.0 / 2.0)


def mathis(
    mss_bytes: ArrayLike, rtt_s: ArrayLike, p: ArrayLike, c: ArrayLike = MATHIS_C
) -> FloatArray | float:
    """Upper bound on a conformant TCP's sending rate, in bytes/s.

    Source: Mathis, Semke, Mahdavi, Ott, "The macroscopic behavior of the TCP congestion
    avoidance algorithm", CCR 1997; Floyd, Fall, "Promoting the use of end-to-end congestion
    control in the Internet", IEEE/ACM ToN 7(4), 1999 [F99]. Seed 001, formula (5)::

        T <= 1.5 * sqrt(2/3) * B / (R * sqrt(p))  ~=  1.22 * B / (R * sqrt(p))

    B is the packet size (bytes), R the round trip delay (s), p the steady-state packet drop
    rate; T is in bytes/s. p = 0 gives inf (the model has no bound without loss).
    """
    b, r, pp, cc = (np.asarray(v, dtype=float) for v in (mss_bytes, rtt_s, p, c))
    with np.errstate(divide="ignore"):
        t = cc * b / (r * np.sqrt(pp))
    return _scalar_or_array(t)


def pftk(
    mss_bytes: ArrayLike,
    rtt_s: ArrayLike,
    p: ArrayLike,
    rto_s: ArrayLike,
    wmax_packets: ArrayLike,
    b: ArrayLike = 2,
) -> FloatArray | float:
    """TCP Reno throughput with triple-duplicate and time-out losses, in bytes/s.

    Source: Padhye, Firoiu, Towsley, Kurose, "Modeling TCP Throughput: A Simple Model and its
    Empirical Validation", ACM SIGCOMM 1998 [PFTK98], full model approximation. Seed 001,
    formula (6), B(p) in packets/s, times the packet size B (bytes) here::

        B(p) ~= min( W_max / RTT,
                     1 / (RTT * sqrt(2bp/3) + T_0 * min(1, 3 * sqrt(3bp/8)) * p * (1 + 32p^2)) )

    W_max is the receiver's advertised window (packets), RTT the round trip time (s), p the
    loss indication rate, T_0 the average retransmission time-out (s) and b the number of
    packets acknowledged by each ACK. p = 0 gives the window limit W_max / RTT.
    """
    mss, rtt, pp, t0, wmax, bb = (
        np.asarray(v, dtype=float) for v in (mss_bytes, rtt_s, p, rto_s, wmax_packets, b)
    )
    # The first term of the denominator is due to triple-duplicate ACKs, the second to time-outs.
    denominator = rtt * np.sqrt(2 * bb * pp / 3) + t0 * np.minimum(
        1.0, 3 * np.sqrt(3 * bb * pp / 8)
    ) * pp * (1 + 32 * pp**2)
    with np.errstate(divide="ignore"):
        packets_per_s = np.minimum(wmax / rtt, 1.0 / denominator)
    return _scalar_or_array(packets_per_s * mss)


def predictions(results: Results) -> pd.DataFrame:
    """Formulas (5) and (6) for every TCP flow of a run, from what the run measured.

    Inputs per flow: ``loss_rate`` (p) and ``mean_rtt_s`` (R) from flows.csv, the packet size
    (B, payload bytes) and ``window`` (W_max) from the resolved scenario, b = 2 with delayed
    ACKs else 1, and T_0 = the flow's ``mean_rto_s`` (the engine's exact time average of the
    RTO over the measurement window), else the mean of the timeseries ``rto_s`` when the run
    was sampled, else 4 x mean RTT (a stand-in, as RTO = SRTT + 4 RTTVAR is rarely below it).
    Columns: flow, loss_rate, mean_rtt_s, rto_s, throughput_mbps, mathis_mbps, pftk_mbps.
    """
    columns = ["flow", "loss_rate", "mean_rtt_s", "rto_s", "throughput_mbps", "mathis_mbps",
               "pftk_mbps"]
    configs = {f["name"]: f["tcp"] for f in results.summary["scenario"]["flows"]
               if f.get("kind") == "tcp"}
    flows = results.flows[results.flows["flow"].isin(list(configs))]
    if flows.empty:
        return pd.DataFrame(columns=columns)

    names = flows["flow"].tolist()
    rtt = flows["mean_rtt_s"].to_numpy(dtype=float)
    p = flows["loss_rate"].to_numpy(dtype=float)
    mss = np.array([configs[n]["packet_size"] for n in names], dtype=float)
    wmax = np.array([configs[n]["window"] for n in names], dtype=float)
    acked = np.array([2.0 if configs[n].get("delayed_ack") else 1.0 for n in names])

    rto = 4 * rtt
    ts = results.timeseries
    if "mean_rto_s" in flows.columns:
        # The engine's exact time average of the RTO over the measurement window.
        measured = flows["mean_rto_s"].to_numpy(dtype=float)
        rto = np.where(np.isnan(measured), rto, measured)
    elif not ts.empty and "rto_s" in ts.columns:
        mean_rto = ts.groupby("flow")["rto_s"].mean()
        measured = mean_rto.reindex(names).to_numpy(dtype=float)
        rto = np.where(np.isnan(measured), rto, measured)

    to_mbps = 8 / 1e6
    return pd.DataFrame({
        "flow": names,
        "loss_rate": p,
        "mean_rtt_s": rtt,
        "rto_s": rto,
        "throughput_mbps": flows["throughput_mbps"].to_numpy(dtype=float),
        "mathis_mbps": np.asarray(mathis(mss, rtt, p)) * to_mbps,
        "pftk_mbps": np.asarray(pftk(mss, rtt, p, rto, wmax, acked)) * to_mbps,
    }, columns=columns)


def _scalar_or_array(x: FloatArray) -> FloatArray | float:
    # Scalars in, a float out: callers doing arithmetic on one value expect a number.
    return float(x) if x.ndim == 0 else x
