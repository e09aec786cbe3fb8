"""Adaptive RED as ns-2.35's `Queue/RED` runs it (queue/red.cc): `adaptive_ 1` moves max_p
by `REDQueue::updateMaxP` (AIMD with `alpha_`, `beta_`, `interval_`, `top_`, `bottom_`, the
automatic bottom from `REDQueue::initialize_params`), `feng_adaptive_ 1` by
`REDQueue::updateMaxPFeng`, and the experimental `cautious_` 1-3 change `REDQueue::drop_early`
and the idle decay of `REDQueue::enque`. Live against ns-2.35: the packet trace and the traced
`curq_`/`ave_` must be identical."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pytest

# Two Reno flows into a 1.5 Mb/s RED bottleneck for 6 s, max_p adapted from 0.1 while the
# average stays above the target band.
SCRIPT = """
    Queue/RED set bytes_ false
    Queue/RED set queue_in_bytes_ false
    Queue/RED set q_weight_ 0.002
    Queue/RED set thresh_ 5
    Queue/RED set maxthresh_ 15
    SETTINGS
    set ns [new Simulator]
    set tf [open out.tr w]
    $ns trace-all $tf
    set n0 [$ns node]
    set n1 [$ns node]
    set r1 [$ns node]
    set r2 [$ns node]
    $ns duplex-link $n0 $r1 10Mb 2ms DropTail
    $ns duplex-link $n1 $r1 10Mb 3ms DropTail
    $ns duplex-link $r1 $r2 1.5Mb 20ms RED
    $ns queue-limit $r1 $r2 25
    set q [[$ns link $r1 $r2] queue]
    QUEUE
    set qf [open all.q w]
    $q trace curq_
    $q trace ave_
    $q attach $qf
    foreach {n fid start} [list $n0 0 0.0 $n1 1 0.7] {
        set tcp [$ns create-connection TCP/Reno $n TCPSink $r2 $fid]
        $tcp set window_ 100
        set ftp [$tcp attach-app FTP]
        $ns at $start "$ftp start"
    }
    $ns at 6.0 "close $tf; close $qf; exit 0"
    $ns run
"""

ADAPTIVE = "Queue/RED set adaptive_ 1"
# Each case: class settings, the queue's own, and the case without what it tests (whose
# ns-2 trace must differ, so that ignoring it cannot pass).
CASES = {
    # The AIMD rule with its defaults.
    "aimd": (ADAPTIVE, "", "plain"),
    # Other steps, interval and top, and the automatic weight and thresholds, set on the
    # queue after the link was made (ns-2 fills in automatic values when the link tells RED
    # its bandwidth, and again at `$ns run`).
    "aimd_params": ("Queue/RED set alpha_ 0.02\nQueue/RED set beta_ 0.8\n"
                    "Queue/RED set interval_ 0.3\nQueue/RED set top_ 0.3",
                    "$q set adaptive_ 1\n$q set thresh_ 0\n$q set maxthresh_ 0\n"
                    "$q set q_weight_ 0", "aimd"),
    "feng": ("Queue/RED set alpha_ 3\nQueue/RED set beta_ 2\nQueue/RED set feng_adaptive_ 1",
             "$q set adaptive_ 1", "plain"),
    # `thresh` is no variable of ns-2's RED: setting it changes nothing.
    "cautious1": (f"{ADAPTIVE}\nQueue/RED set cautious_ 1\nQueue/RED set thresh 9", "",
                  "aimd"),
    "cautious2": (f"{ADAPTIVE}\nQueue/RED set cautious_ 2", "", "aimd"),
    "cautious3": (f"{ADAPTIVE}\nQueue/RED set cautious_ 3", "", "aimd"),
}
WITHOUT = {"plain": ("", ""), "aimd": (ADAPTIVE, "")}
_ns2_traces: dict[str, str] = {}


def script(settings: str, queue: str) -> str:
    return SCRIPT.replace("SETTINGS", settings).replace("QUEUE", queue)


def ns2_trace(name: str, folder: Path) -> str:
    """ns-2.35's packet trace of a case without the feature (run once per session)."""
    if name not in _ns2_traces:
        folder.mkdir()
        text = textwrap.dedent(script(*WITHOUT[name])).lstrip("\n")
        (folder / "s.tcl").write_text(text, encoding="utf-8")
        subprocess.run(["ns", "s.tcl"], cwd=folder, check=True, capture_output=True,
                       timeout=300, stdin=subprocess.DEVNULL)
        _ns2_traces[name] = (folder / "out.tr").read_text(encoding="utf-8")
    return _ns2_traces[name]


@pytest.mark.parametrize("case", CASES)
def test_adaptive_red_as_ns2(vs_ns2: Any, tmp_path: Path, case: str) -> None:
    settings, queue, without = CASES[case]
    want = vs_ns2(script(settings, queue)).same("out.tr", "all.q")
    assert ns2_trace(without, tmp_path / "without") != want["out.tr"]
