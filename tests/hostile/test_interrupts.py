"""Ctrl-C and SIGTERM stop a parallel sweep at once, keeping every finished run in the cache
(issue 32, item 6): "ackclock: interrupted" alone on stderr (no leaked-semaphore warnings),
exit status 130 (143 for SIGTERM), no worker left running, and a resumed sweep runs only
what was missing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _hostile import SMALL

# One run takes 2-10 s of wall time (0.25 s per 1000 simulated seconds on a quiet 2026 core,
# more under load): long enough that runs still under way 0.3 s after the first record appears
# cannot all finish before the signal arrives (at 400 s, a quiet machine did: 5 of 5 cached).
SLOW = (SMALL.replace('duration = "0.2s"', 'duration = "10000s"')
        .replace('sample_interval = "0.1s"\n', "")
        .replace('rate = "10Mb/s"', 'rate = "100Mb/s"'))


def _children(pid: int) -> list[int]:
    """Every process descending from ``pid`` (workers, the forkserver, the resource tracker)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            kids = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            continue
        found += [int(k) for k in kids]
        todo += [int(k) for k in kids]
    return found


@pytest.mark.parametrize("sig,status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_parallel_sweep_stops_within_a_second_keeping_finished_runs(
        tmp_path: Path, sig: signal.Signals, status: int) -> None:
    (tmp_path / "s.toml").write_text(SLOW)
    (tmp_path / "sw.toml").write_text('scenario = "s.toml"\nreplications = 5\n')
    p = subprocess.Popen([sys.executable, "-m", "ackclock", "sweep", "sw.toml", "--out", "o",
                          "--jobs", "2"], cwd=tmp_path, text=True, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    runs = tmp_path / "o" / "runs"
    deadline = time.monotonic() + 60
    while not (runs.is_dir() and any(runs.iterdir())) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert p.poll() is None, p.communicate()
    time.sleep(0.3)  # the next runs are under way
    family = _children(p.pid)
    assert len(family) >= 2
    start = time.monotonic()
    if sig == signal.SIGINT:
        os.killpg(p.pid, sig)  # as a terminal's Ctrl-C does: every process of the group
    else:
        p.send_signal(sig)  # as `kill` does: the sweep's process alone
    p.wait(timeout=30)
    took = time.monotonic() - start
    _, err = p.communicate()
    assert err == "ackclock: interrupted\n", err
    assert p.returncode == status
    print(f"stopped {took:.2f} s after the signal")
    assert took < 1.0, took
    cached = len(list(runs.iterdir()))
    assert 1 <= cached < 5
    time.sleep(0.6)
    assert [q for q in family if Path(f"/proc/{q}").exists()
            and "Z" not in Path(f"/proc/{q}/stat").read_text().rsplit(")", 1)[1][:3]] == []
    # Resumed: only the missing runs are run.
    done = subprocess.run([sys.executable, "-m", "ackclock", "sweep", "sw.toml", "--out", "o",
                           "--jobs", "2"], cwd=tmp_path, text=True, capture_output=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"5 runs: {5 - cached} run now, {cached} already in" in done.stdout
