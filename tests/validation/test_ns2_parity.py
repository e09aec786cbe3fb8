"""ackclock's `ns2` profile against ns-2.35 itself, run live on the same scenarios.

The ns-2 scripts live in validation/ns2/. These tests need `ns` (Debian package ns2); CI
installs it (scripts/test.sh). On these deterministic scenarios the two simulators agree
packet for packet, so the counters must match exactly.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import ackclock as ac

pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")
pytestmark = pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (ns) is not installed")

ROOT = Path(__file__).resolve().parents[2]
NS2 = ROOT / "validation" / "ns2"
EXAMPLES = ROOT / "examples"


def ns2(script: str, *args: str) -> dict[str, int]:
    out = subprocess.run(
        ["ns", str(NS2 / script), *args], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    return {k: int(v) for k, v in re.findall(r"^(\w+) (\d+)$", out, flags=re.M)}


def test_single_reno_matches_ns2_packet_for_packet() -> None:
    ref = ns2("single_reno.tcl")
    res = ac.run_scenario(ac.load_scenario(EXAMPLES / "single_reno.toml"))
    f = res.flows.iloc[0]
    q = res.queues.set_index("link").loc["r1->r2"]
    assert f.packets_sent == ref["packets_sent"]
    assert f.packets_retransmitted == ref["packets_retransmitted"]
    assert f.timeouts == ref["timeouts"]
    assert f.timeouts + f.fast_retransmits == ref["window_cuts"]
    assert q.dropped_packets == ref["queue_drops"]
    # ns-2's TCPSink counts in-order bytes with their headers: 1040 per segment, and 40 for
    # the SYN that opened the connection.
    assert f.bytes_delivered * 1040 // 1000 + 40 == ref["sink_bytes"]


@pytest.mark.parametrize("variant", ["tahoe", "reno", "newreno", "sack"])
@pytest.mark.parametrize("drops", [[100], [100, 102], [100, 102, 104], [100, 102, 104, 106]],
                         ids=lambda d: f"{len(d)}drops")
def test_fall_floyd_drops_match_ns2(variant: str, drops: list[int]) -> None:
    agent = {"tahoe": "TCP", "reno": "Reno", "newreno": "Newreno", "sack": "Sack1"}[variant]
    ref = ns2("fall_floyd.tcl", agent, *map(str, drops))
    net = ac.Network("fall-floyd", profile="ns2")
    net.nodes("s", "r", "k")
    net.link("s", "r", rate="8Mb/s", delay="0.1ms", queue_limit=100)
    net.link("r", "k", rate="0.8Mb/s", delay="100ms", queue_limit=100,
             loss={"kind": "drop_list", "flow": "tcp", "packets": drops})
    net.tcp("tcp", "s", "k", variant=variant, window=20, min_rto="1s")
    f = net.run(duration="10s").flows.iloc[0]
    assert f.packets_sent == ref["packets_sent"]
    assert f.packets_retransmitted == ref["packets_retransmitted"]
    assert f.timeouts == ref["timeouts"]
    assert f.timeouts + f.fast_retransmits == ref["window_cuts"]


def test_single_reno_with_timestamps_matches_ns2(tmp_path: Path) -> None:
    script = (NS2 / "single_reno.tcl").read_text()
    script = script.replace("set tcp [new Agent/TCP/Reno]",
                            "Agent/TCP set timestamps_ true\nset tcp [new Agent/TCP/Reno]")
    (tmp_path / "ts.tcl").write_text(script)
    out = subprocess.run(["ns", str(tmp_path / "ts.tcl")], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    ref = {k: int(v) for k, v in re.findall(r"^(\w+) (\d+)$", out, flags=re.M)}
    # ns-2 puts a 10-byte timestamp option on every data packet.
    sc = ac.load_scenario(EXAMPLES / "single_reno.toml",
                          ["defaults.tcp.timestamps=true", "defaults.tcp.header_size=50"])
    f = ac.run_scenario(sc).flows.iloc[0]
    assert f.packets_retransmitted == ref["packets_retransmitted"]
    assert f.timeouts == ref["timeouts"]
    assert f.timeouts + f.fast_retransmits == ref["window_cuts"]
    assert f.packets_dropped == ref["queue_drops"]
    # ns-2 keeps srtt and rttvar in whole ticks of tcpTick_ (and scaled by 8 and 4); with a
    # sample on every ACK that rounding moves the RTO, and with it the timeout's end, by a
    # few milliseconds: within 0.1% of the packets.
    assert f.packets_sent == pytest.approx(ref["packets_sent"], rel=1e-3)
