"""Fairness, rates, loss and convergence metrics on hand-made tables."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ackclock.metrics import (
    asymmetry,
    convergence_time,
    jain,
    loss_rate,
    per_interval_throughput,
    throughput_mbps,
    utilization,
)


def test_jain_bounds() -> None:
    assert jain([3.0, 3.0, 3.0, 3.0]) == pytest.approx(1.0)
    assert jain([5.0, 0.0, 0.0, 0.0]) == pytest.approx(1 / 4)
    assert jain([1.0, 3.0]) == pytest.approx(16 / 20)
    rows = jain(np.array([[1.0, 1.0], [2.0, 0.0]]))  # one index per row
    assert np.allclose(rows, [1.0, 0.5])
    assert math.isnan(jain([0.0, 0.0]))


def test_asymmetry() -> None:
    assert asymmetry(3.0, 1.0) == pytest.approx(0.5)
    assert asymmetry(2.0, 2.0) == 0.0
    assert np.allclose(asymmetry(np.array([1.0, 0.0]), np.array([0.0, 1.0])), [1.0, -1.0])


def test_throughput_loss_and_utilization() -> None:
    assert throughput_mbps(1_250_000, 1.0) == pytest.approx(10.0)
    flows = pd.DataFrame({"packets_sent": [100, 300], "packets_dropped": [10, 10]})
    assert loss_rate(flows) == pytest.approx(20 / 400)
    queues = pd.DataFrame({"link": ["r1->r2", "r2->r1"], "utilization": [0.9, 0.05]})
    assert utilization(queues, "r1->r2") == pytest.approx(0.9)
    assert utilization(queues, "r2-r1") == pytest.approx(0.05)
    with pytest.raises(KeyError):
        utilization(queues, "a->b")


def _frame(times: np.ndarray, a: np.ndarray, b: np.ndarray) -> pd.DataFrame:
    return pd.concat([
        pd.DataFrame({"time_s": times, "flow": "a", "throughput_mbps": a}),
        pd.DataFrame({"time_s": times, "flow": "b", "throughput_mbps": b}),
    ], ignore_index=True)


def test_convergence_time_on_a_synthetic_frame() -> None:
    t = np.round(np.arange(1, 101) * 0.1, 10)  # 0.1 .. 10 s
    a = np.where(t < 4.0, 8.0, 5.0)
    b = np.where(t < 4.0, 2.0, 4.8)
    b[t == 6.0] = 3.0  # one more excursion: converged only after it
    ts = _frame(t, a, b)
    assert convergence_time(ts, "a", "b", tolerance=0.1) == pytest.approx(6.1)
    assert convergence_time(ts, "a", "b", tolerance=0.5) == pytest.approx(4.0)
    assert convergence_time(ts, "a", "b", tolerance=0.8) == pytest.approx(0.1)
    # Apart at the end: never converged.
    assert convergence_time(_frame(t, a, np.full_like(a, 1.0)), "a", "b") is None
    assert convergence_time(ts, "a", "nope") is None


def test_per_interval_throughput_averages_samples_per_bin() -> None:
    t = np.round(np.arange(0, 11) * 0.1, 10)  # 0 .. 1 s; the sample at 0 covers nothing
    ts = _frame(t, np.arange(11, dtype=float), np.ones(11))
    bins = per_interval_throughput(ts, 0.5)
    a = bins[bins.flow == "a"]
    assert a["time_s"].tolist() == pytest.approx([0.5, 1.0])
    assert a["throughput_mbps"].tolist() == pytest.approx([3.0, 8.0])  # mean of 1..5, 6..10
    assert bins[bins.flow == "b"]["throughput_mbps"].tolist() == pytest.approx([1.0, 1.0])
