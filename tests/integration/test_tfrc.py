"""TFRC flows in scenario files and the Python API (docs/tfrc.md): examples/tfrc.toml runs,
the parameters reach the engine, mistakes are one-line errors. The model itself is checked
against RFC 5348's equations in crates/ackclock-core/src/tfrc/ and against live ns-2.35 in
tests/ns2/test_tfrc_vs_ns2.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ackclock as ac
from ackclock import ScenarioError, resolve
from ackclock.toml_loader import load_scenario

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tfrc.toml"


def rows(results: ac.Results) -> dict[str, dict[str, Any]]:
    return {r["flow"]: r for r in results.flows.to_dict("records")}


def test_the_example_runs_and_tfrc_takes_its_equation_rate(tmp_path: Path) -> None:
    res = ac.run_scenario(load_scenario(EXAMPLE), trace_dir=tmp_path)
    r = rows(res)
    assert r["tfrc"]["kind"] == "tfrc" and r["reno"]["kind"] == "tcp"
    tfrc, reno = r["tfrc"], r["reno"]
    # Both send; together they fill most of the 1.5 Mb/s bottleneck.
    assert tfrc["throughput_mbps"] > 0.3 and reno["throughput_mbps"] > 0.05
    assert 1.2 < tfrc["throughput_mbps"] + reno["throughput_mbps"] <= 1.5
    assert tfrc["rtt_samples"] > 0 and tfrc["mean_rtt_s"] > 0.052  # one per feedback
    # TFRC sees losses (it left slow start) and reports its feedback as the ACK direction.
    assert tfrc["packets_dropped"] > 0
    again = ac.run_scenario(load_scenario(EXAMPLE), trace_dir=tmp_path)
    assert rows(again)["tfrc"]["packets_sent"] == tfrc["packets_sent"]  # deterministic


def network(**params: Any) -> ac.Network:
    net = ac.Network("tfrc", profile="ns2")
    net.nodes("a", "r", "b")
    net.link("a", "r", rate="10Mb/s", delay="2ms")
    net.link("r", "b", rate="1Mb/s", delay="20ms", queue_limit=10)
    net.tfrc("t", "a", "b", **params)
    return net


def test_python_api_parameters_reach_the_engine(tmp_path: Path) -> None:
    small = rows(network(packet_size=500).run(duration="10s"))["t"]
    large = rows(network().run(duration="10s"))["t"]
    # Smaller packets: more of them for about the same rate (32-byte headers each).
    assert small["packets_sent"] > 1.5 * large["packets_sent"]
    sized = rows(network(size=100_000).run(duration="10s"))["t"]
    assert sized["packets_sent"] == 100  # 100 000 bytes in 1000-byte packets


@pytest.mark.parametrize(("flow", "path", "says"), [
    ({"tfrc": {"packet_sise": 1000}}, "flow[0].tfrc.packet_sise", "unknown key"),
    ({"tfrc": {"ca": 1}}, "flow[0].tfrc.ca", "true or false"),
    ({"tfrc": {"df": 1.5}}, "flow[0].tfrc.df", "0 <= df < 1"),
    ({"tfrc": {"algo": 3}}, "flow[0].tfrc.algo", "expected 1"),
    ({"window": 20}, "flow[0].window", "no TCP parameters"),
    ({"app": {"kind": "cbr", "rate": "1Mb/s"}}, "flow[0].app.kind", '"ftp"'),
])
def test_mistakes_are_one_line_errors(flow: dict[str, Any], path: str, says: str) -> None:
    text = EXAMPLE.read_text()
    sc = load_scenario(EXAMPLE)
    f = sc.flows[0]
    if "tfrc" in flow:
        f.tfrc = flow["tfrc"]
    if "window" in flow:
        f.tcp = {"window": 20}
    if "app" in flow:
        f.app = ac.apps.from_table(flow["app"]["kind"],
                                   {k: v for k, v in flow["app"].items() if k != "kind"})
    with pytest.raises(ScenarioError) as e:
        resolve(sc)
        ac.run_scenario(sc)
    assert says in str(e.value) and path in str(e.value), str(e.value)
    assert "\n" not in str(e.value)
    assert text  # the file itself is unchanged
