"""Formulas (5) and (6) of seed 001 against values worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ackclock.models import mathis, pftk, predictions
from ackclock.results import Results


def test_mathis_hand_value() -> None:
    # B = 1000 bytes, R = 0.1 s, p = 0.01: sqrt(3/2) * 1000 / (0.1 * 0.1) = 122474.487 B/s.
    assert mathis(1000, 0.1, 0.01) == pytest.approx(122474.4871391589, rel=1e-12)
    # The seed's rounded constant 1.22 gives 122000 B/s.
    assert mathis(1000, 0.1, 0.01, c=1.22) == pytest.approx(122000.0)


def test_mathis_is_vectorised_and_unbounded_without_loss() -> None:
    p = np.array([0.01, 0.04, 0.0])
    t = mathis(1460, np.array([0.1, 0.1, 0.1]), p)
    assert isinstance(t, np.ndarray) and t.shape == (3,)
    assert t[0] == pytest.approx(2 * t[1])  # 1/sqrt(p): 4x the loss, half the rate
    assert math.isinf(t[2])


def test_pftk_hand_value() -> None:
    # B = 1000, RTT = 0.1 s, p = 0.01, T_0 = 0.5 s, W_max = 100, b = 2:
    # RTT sqrt(2bp/3) = 0.1 * sqrt(0.04/3) = 0.0115470054
    # T_0 min(1, 3 sqrt(3bp/8)) p (1 + 32p^2) = 0.5 * 0.2598076 * 0.01 * 1.0032 = 0.0013032
    # 1 / 0.0128502 = 77.8198 packets/s < W_max / RTT = 1000, so 77819.8 B/s.
    rtt_term = 0.1 * math.sqrt(2 * 2 * 0.01 / 3)
    to_term = 0.5 * min(1.0, 3 * math.sqrt(3 * 2 * 0.01 / 8)) * 0.01 * (1 + 32 * 0.01**2)
    expected = 1000 / (rtt_term + to_term)
    assert expected == pytest.approx(77819.8, rel=1e-6)
    assert pftk(1000, 0.1, 0.01, 0.5, 100, b=2) == pytest.approx(expected, rel=1e-12)


def test_pftk_window_limit_and_heavy_loss() -> None:
    # No loss: the window bound W_max / RTT = 20 / 0.1 = 200 packets/s = 200000 B/s.
    assert pftk(1000, 0.1, 0.0, 0.5, 20) == pytest.approx(200000.0)
    # p = 0.5 with b = 1: min(1, 3 sqrt(3/16)) = 1, so the time-out term is
    # 1.0 * 0.5 * (1 + 8) = 4.5 s, plus 0.1 * sqrt(1/3).
    expected = 1000 / (0.1 * math.sqrt(1 / 3) + 4.5)
    assert pftk(1000, 0.1, 0.5, 1.0, 100, b=1) == pytest.approx(expected)


def test_pftk_is_vectorised_and_below_mathis() -> None:
    p = np.logspace(-4, -1, 7)
    t = pftk(1460, 0.08, p, 0.4, 10_000, b=1)
    m = mathis(1460, 0.08, p)
    assert isinstance(t, np.ndarray) and t.shape == p.shape
    assert np.all(np.diff(t) < 0)  # more loss, less throughput
    # (6) without time-outs and b = 1 is 1 / (RTT sqrt(2p/3)) = (5) exactly; time-outs only
    # lower it.
    assert np.all(t < m)


def test_predictions_per_tcp_flow() -> None:
    flows = pd.DataFrame({
        "flow": ["tcp1", "cbr"], "kind": ["tcp", "udp"], "throughput_mbps": [0.9, 7.0],
        "loss_rate": [0.01, 0.02], "mean_rtt_s": [0.1, math.nan],
    })
    timeseries = pd.DataFrame({
        "time_s": [0.1, 0.2, 0.1, 0.2], "flow": ["tcp1", "tcp1", "cbr", "cbr"],
        "rto_s": [0.4, 0.6, math.nan, math.nan],
    })
    scenario = {"flows": [
        {"name": "tcp1", "kind": "tcp",
         "tcp": {"packet_size": 1000, "window": 100, "delayed_ack": False}},
        {"name": "cbr", "kind": "udp"},
    ]}
    res = Results({"scenario": scenario}, flows, pd.DataFrame(), timeseries, pd.DataFrame(),
                  pd.DataFrame())
    pred = predictions(res)
    assert list(pred.columns) == ["flow", "loss_rate", "mean_rtt_s", "rto_s",
                                  "throughput_mbps", "mathis_mbps", "pftk_mbps"]
    assert pred["flow"].tolist() == ["tcp1"]
    row = pred.iloc[0]
    assert row.rto_s == pytest.approx(0.5)  # mean of the sampled rto_s
    assert row.mathis_mbps == pytest.approx(mathis(1000, 0.1, 0.01) * 8e-6)
    assert row.pftk_mbps == pytest.approx(pftk(1000, 0.1, 0.01, 0.5, 100, b=1) * 8e-6)

    # Without samples the time-out is estimated as 4 x the mean RTT.
    res.timeseries = pd.DataFrame()
    assert predictions(res).iloc[0].rto_s == pytest.approx(0.4)
    # The engine's time average wins over both.
    res.flows = flows.assign(mean_rto_s=[0.3, math.nan])
    assert predictions(res).iloc[0].rto_s == pytest.approx(0.3)


def test_engine_mean_rto_is_the_time_average_of_the_sampled_rto() -> None:
    from pathlib import Path

    import ackclock as ac

    root = Path(__file__).resolve().parents[2]
    res = ac.run_scenario(ac.load_scenario(
        root / "examples" / "seed001_scenario1.toml",
        ["run.sample_interval=5ms", "flow.cbr.app.rate=9Mb/s", "run.duration=100s",
         "run.warmup=20s"]), progress=False)
    tcp = res.flows.set_index("flow").loc["tcp"]
    ts = res.timeseries
    sampled = ts[(ts.flow == "tcp") & (ts.time_s >= 20)].rto_s.mean()
    assert tcp.mean_rto_s == pytest.approx(sampled, rel=0.01)
    assert tcp.timeouts > 0  # the RTO varied (backoff) during the run
