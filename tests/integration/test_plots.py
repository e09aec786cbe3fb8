"""The standard plots: what each figure draws (not how it looks)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import ackclock as ac
from ackclock.plot import cwnd_figure, queue_figure, rtt_figure, sweep_figure, throughput_figure

pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")


@pytest.fixture(scope="module")
def run() -> ac.Results:
    net = ac.Network("mixed", profile="linux")
    net.nodes("s", "r1", "r2", "d")
    net.link("s", "r1", rate="1Gb/s", delay="1ms")
    net.link("r1", "r2", rate="10Mb/s", delay="20ms", queue_limit=40)
    net.link("r2", "d", rate="1Gb/s", delay="1ms")
    net.tcp("cubic", "s", "d", cc="cubic")
    net.tcp("bbr", "s", "d", cc="bbr", start="0.5s")
    return net.run(duration="5s", sample_interval="0.05s", progress=False)


def labels(ax) -> list[str]:  # type: ignore[no-untyped-def]
    return [t.get_text() for t in ax.get_legend().get_texts()]


def test_cwnd_draws_ssthresh_only_where_it_means_something(run: ac.Results) -> None:
    ax = cwnd_figure([("mixed", run)]).axes[0]
    assert labels(ax) == ["cubic cwnd", "cubic ssthresh", "bbr cwnd"]
    assert ax.get_ylabel() == "congestion window (bytes)"  # linux profile: byte counting


def test_rtt_and_rto_on_their_own_axes(run: ac.Results) -> None:
    top, bottom = rtt_figure([("mixed", run)]).axes
    assert top.get_ylabel() == "RTT (ms)" and bottom.get_ylabel() == "RTO (s)"
    assert "cubic smoothed RTT" in labels(top) and labels(bottom) == ["cubic RTO", "bbr RTO"]
    # The RTT panel's scale is the RTT's (about 44 ms and up), not the RTO's (>= 200 ms).
    assert top.get_ylim()[1] < 200


def test_queue_has_its_buffer_limit_and_leaves_idle_links_out(run: ac.Results) -> None:
    ax = queue_figure([("mixed", run)]).axes[0]
    # The bottleneck first (the busiest), with its buffer limit; a link whose queue was empty
    # at every sample is left out (an access link may show a burst caught at a sample).
    assert labels(ax)[:2] == ["r1->r2", "r1->r2 buffer limit"]
    assert 40 in [line.get_ydata()[0] for line in ax.lines]
    peak = run.queue_timeseries.groupby("link")["queue_packets"].max()
    idle = set(peak[peak == 0].index)
    assert idle and not idle & set(labels(ax)), (idle, labels(ax))
    assert {"r2->d", "r2->r1"} <= idle


def test_throughput_is_smoothed_and_two_runs_overlay(run: ac.Results) -> None:
    ax = throughput_figure([("a", run), ("b", run)]).axes[0]
    assert labels(ax) == ["a: cubic", "a: bbr", "b: cubic", "b: bbr"]
    assert "moving average" in ax.get_title()
    raw = run.timeseries[run.timeseries["flow"] == "cubic"]["throughput_mbps"]
    assert ax.lines[0].get_ydata().std() < raw.std()


def test_sweep_figure_clips_intervals_and_logs_geometric_grids() -> None:
    summary = pd.DataFrame({"buffer": [10, 20, 40, 80], "flow": ["f"] * 4,
                            "loss_rate_mean": [0.01, 0.5, 0.95, 0.2],
                            "loss_rate_ci95": [0.05, 0.1, 0.2, 0.1]})
    fig = sweep_figure(summary, "buffer", "loss_rate", keys={"buffer": "link.a-b.queue.limit"})
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    assert ax.get_xlabel() == "buffer (link.a-b.queue.limit)"
    segments = ax.containers[0].lines[2][0].get_segments()  # the error bars
    bottoms = [s[0][1] for s in segments]
    tops = [s[1][1] for s in segments]
    assert min(bottoms) == 0 and max(tops) == 1  # cut at 0 and at 1, the loss rate's range
    assert tops[1] == pytest.approx(0.6)  # an interval inside the range is left whole


def test_sweep_figure_labels_only_values_that_keep_apart() -> None:
    rates = [0.25, 0.5, 0.6, 0.7, 0.725, 0.75, 0.8, 0.9, 1.0, 1.25, 1.5]  # seed 004's grid
    summary = pd.DataFrame({"rate": rates, "flow": ["f"] * len(rates),
                            "throughput_mbps_mean": [1.0] * len(rates)})
    ax = sweep_figure(summary, "rate", "throughput_mbps").axes[0]
    labelled = list(ax.get_xticks())
    # Every swept value has its tick (matplotlib leaves out a minor one under a major).
    assert sorted([*labelled, *ax.get_xticks(minor=True)]) == rates
    assert labelled[0] == 0.25 and labelled[-1] == 1.5
    assert min(b - a for a, b in zip(labelled, labelled[1:], strict=False)) >= 0.06 * 1.25
    assert 0.7 in labelled and 0.725 not in labelled


def test_plot_command_overlays_folders(run: ac.Results, tmp_path: Path) -> None:
    run.save(tmp_path / "a")
    run.save(tmp_path / "b")
    r = subprocess.run([sys.executable, "-m", "ackclock", "plot", str(tmp_path / "a"),
                        str(tmp_path / "b"), "--out", str(tmp_path / "cmp")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (tmp_path / "cmp").glob("*.png")) == [
        "cwnd.png", "queue.png", "rtt.png", "throughput.png"]
