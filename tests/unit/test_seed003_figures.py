"""examples/seed003.py's figures (docs/examples/seed003.md): the study's run graphs of each pair
(Figs. 11-42) and its forced-drop cwnd graphs (Figs. 2-5), drawn from what a run records, on
short runs without background."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "seed003.py"


@pytest.fixture(scope="module")
def seed003() -> dict[str, Any]:
    return runpy.run_path(str(SCRIPT), run_name="seed003")


def test_every_pair_has_the_studys_two_figure_numbers(seed003: dict[str, Any]) -> None:
    figures = seed003["FIGURES"]
    assert set(figures) == set(seed003["STUDY"])
    assert sorted(n for pair in figures.values() for n in pair) == list(range(11, 43))
    # without background the odd number, with it the even one (the study's Figs. 11-42)
    assert all(b == a + 1 and a % 2 for a, b in figures.values())
    assert sorted(seed003["FORCED_DROP_FIGURES"].values()) == [2, 3, 4, 5]


def test_pair_figure_draws_each_flows_samples(seed003: dict[str, Any], tmp_path: Path) -> None:
    args = seed003["parser"]().parse_args(["--seconds-without", "56", "--out", str(tmp_path)])
    r = seed003["run"]((("Scalable", "HS"), None, args))
    s = r["flow_series"]
    assert set(s.flow) == {"flow1", "flow2"} and s.time_s.max() == 56
    path = tmp_path / seed003["figure_name"](r)
    assert path.name == "fig11_Scalable-HS_without_background.png"
    fig = seed003["pair_figure"](r, path)
    assert path.stat().st_size > 10_000
    top, bottom = fig.axes
    for i, flow in enumerate(("flow1", "flow2")):
        part = s[s.flow == flow]
        np.testing.assert_array_equal(top.lines[i].get_ydata(), part.throughput_mbps)
        np.testing.assert_array_equal(bottom.lines[i].get_ydata(), part.cwnd)
    # flow 2 starts at 50 s: nothing of it before
    assert s[(s.flow == "flow2") & (s.time_s < 50)].throughput_mbps.max() == 0
    title = top.get_title()
    assert title.startswith("Fig. 11: Scalable - HS without background")
    assert f"A = {r['asymmetry']:.3f}" in title and "the study: A = 0.996" in title


def test_forced_drop_runs_and_figure(seed003: dict[str, Any], tmp_path: Path) -> None:
    """Figs. 2-5: each flow alone loses the one packet dropped for it (30 s are too short for
    its window to fill the path and the buffer) and HS-TCP's window then outgrows Reno's (the
    study's "how fast HS-TCP gained the available bandwidth after a packet drop")."""
    args = seed003["parser"]().parse_args(["--seconds-without", "30", "--out", str(tmp_path)])
    reno = seed003["forced_drop_run"](("Reno", args))
    hs = seed003["forced_drop_run"](("HS", args))
    assert reno["drops"] == hs["drops"] == 1
    r, h = reno["series"].set_index("time_s").cwnd, hs["series"].set_index("time_s").cwnd
    assert h[30] > 2 * r[30]
    # Reno's growth after the drop: about one segment a round trip (100 ms), 10 a second
    assert 8 < (r[30] - r[20]) / 10 < 11
    path = tmp_path / "fig02_HS_vs_Reno.png"
    fig = seed003["forced_drop_figure"](hs, reno, path)
    assert path.stat().st_size > 10_000
    (ax,) = fig.axes
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), hs["series"].cwnd)
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), reno["series"].cwnd)
    assert ax.get_title().startswith("Fig. 2: cwnd of HS vs TCP Reno")


def test_background_figure_adds_each_directions_flows(seed003: dict[str, Any],
                                                      tmp_path: Path) -> None:
    """Figs. 8-9: a direction's web-like and long Tmix flows added, the other direction's left
    out, alone and with the pair."""
    import pandas as pd

    def series(scale: float) -> pd.DataFrame:
        rows = [(t, f, scale * v) for t in (1.0, 2.0, 3.0)
                for f, v in (("inbound", 100.0), ("inbound_long", 10.0), ("outbound", 1.0))]
        return pd.DataFrame(rows, columns=["time_s", "flow", "throughput_mbps"])

    path = tmp_path / "background_inbound.png"
    fig = seed003["background_figure"]("inbound", series(1.0), series(0.5), "with CUBIC-FAST",
                                       2.0, path)
    assert path.stat().st_size > 10_000
    (ax,) = fig.axes
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), [110.0] * 3)
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), [55.0] * 3)
    assert [line.get_label() for line in ax.lines[:2]] == ["without high-speed flows",
                                                           "with CUBIC-FAST"]


def test_table_gives_each_cell_its_difference_from_the_study(seed003: dict[str, Any]) -> None:
    """asymmetry.md (the runner's report): A's difference from the study and the loss rate's
    relative difference from its Appendix B, empty where the study gives no loss."""
    nan = float("nan")
    table = seed003["differences"](pd.DataFrame([
        {"flow1-flow2": "Scalable-FAST", "A without": 0.630, "study without": 0.488,
         "A with": 0.175, "study with": 0.932, "loss without (%)": 0.0367,
         "study loss without (%)": 0.043, "loss with (%)": 0.195, "study loss with (%)": 0.153},
        {"flow1-flow2": "CUBIC-FAST", "A without": 0.678, "study without": 0.489,
         "A with": -0.187, "study with": 0.889, "loss without (%)": 0.0003,
         "study loss without (%)": nan, "loss with (%)": 0.016, "study loss with (%)": nan}]))
    assert table["A with - study"].tolist() == pytest.approx([-0.757, -1.076])
    assert table["loss with - study (%)"].iloc[0] == pytest.approx(100 * (0.195 / 0.153 - 1))
    assert np.isnan(table["loss without - study (%)"].iloc[1])
    lines = seed003["markdown"](table).splitlines()
    assert lines[0].count("difference") == 4 and lines[1].count("---") == 13
    first = [c.strip() for c in lines[2].strip("|").split("|")]
    assert first == ["Scalable-FAST", "0.630", "0.488", "+0.142", "0.175", "0.932", "-0.757",
                     "0.0367", "0.043", "-15%", "0.1950", "0.153", "+27%"]
    second = [c.strip() for c in lines[3].strip("|").split("|")]
    assert second[8:10] == ["", ""] and second[11:] == ["", ""]
