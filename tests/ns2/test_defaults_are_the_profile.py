"""ns-2.35's defaults have one owner on the engine side, the ``ns2`` profile
(python/ackclock/profiles.py): a script that sets no variable must give each flow the TCP the
profile gives a scenario file's flow with the same variant, congestion control and sink. The
script's agents read ns-2's own class defaults (python/ackclock/ns2/defaults.py, ns-2.35's
ns-default.tcl), so a profile value that departs from ns-2.35 fails here (the profile's
``delack_syn`` once did: ns-2.35's Agent/TCPSink SYN_immediate_ack_ is true)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import ackclock as ac
import ackclock.ns2.simulator as ns2_simulator
from ackclock.scenario import Scenario, resolve

SCRIPT = """
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms DropTail
set tcp [new {agent}]
set sink [new {sink}]
$ns attach-agent $n0 $tcp
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"
$ns at 0.05 "exit 0"
$ns run
"""


@pytest.mark.parametrize("agent,sink", [
    ("Agent/TCP", "Agent/TCPSink"),
    ("Agent/TCP/Reno", "Agent/TCPSink/DelAck"),
    ("Agent/TCP/Newreno", "Agent/TCPSink"),
    ("Agent/TCP/Newreno", "Agent/TCPSink/DelAck"),
    ("Agent/TCP/Sack1", "Agent/TCPSink/Sack1"),
    ("Agent/TCP/Sack1", "Agent/TCPSink/Sack1/DelAck"),
])
def test_a_script_without_settings_gets_the_ns2_profiles_tcp(
        ns2: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, agent: str,
        sink: str) -> None:
    built: list[Scenario] = []
    build = ns2_simulator.build_scenario

    def keep(sim: Any, name: str) -> Scenario:
        built.append(build(sim, name))
        return built[-1]

    monkeypatch.setattr(ns2_simulator, "build_scenario", keep)
    r = ns2(SCRIPT.format(agent=agent, sink=sink))
    assert r.code == 0, r.err
    flow = built[0].flows[0]
    script_tcp = resolve(built[0])["flows"][0]["tcp"]

    net = ac.Network("profile", profile="ns2")
    net.nodes("n0", "n1")
    net.link("n0", "n1", rate="10Mb/s", delay="10ms")
    # The sink class's own choice (Sack1/DelAck: a SACK sink that delays) is the script's.
    delayed = {"delayed_ack": True} if flow.tcp.get("delayed_ack") else {}
    net.tcp("f", "n0", "n1", variant=flow.variant, cc=flow.cc, sink=flow.sink, **delayed)
    profile_tcp = resolve(net.scenario(duration="1s"))["flows"][0]["tcp"]
    # ns2_boot_time is not a setting: each ns-2 agent draws its boot_time_ from $defaultRNG
    # (TcpAgent::reset), and the front end draws it so (ns2/rng.py); the profile's is 0.
    assert 0 <= script_tcp.pop("ns2_boot_time_ps") < script_tcp["timer_granularity_ps"]
    # The one known departure: ns-2.35's one-way agents keep their retransmission timer running
    # on an idle connection (TcpAgent::newtimer, TcpAgent::timeout), which the front end turns
    # on (`idle_rtx_timer`); the ns2 profile leaves it off for scenario files until its effect
    # on the seed studies' outputs (finished flows' cwnd) is measured.
    assert (script_tcp.pop("idle_rtx_timer"), profile_tcp.pop("idle_rtx_timer")) == (
        agent != "Agent/TCP/Linux", False)
    differ = {k: (script_tcp.get(k), profile_tcp.get(k))
              for k in sorted(set(script_tcp) | set(profile_tcp) - {"ns2_boot_time_ps"})
              if script_tcp.get(k) != profile_tcp.get(k)}
    assert differ == {}, f"{agent} into {sink}: (script, ns2 profile) {differ}"


QUEUE_SCRIPT = """
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms {queue}
set udp [new Agent/UDP]
set null [new Agent/Null]
$ns attach-agent $n0 $udp
$ns attach-agent $n1 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$ns at 0.0 "$cbr start"
$ns at 0.05 "exit 0"
$ns run
"""


# ns-2.35's queues (FQ_CoDel is not in ns-2.35: the front end's own extension, left out).
@pytest.mark.parametrize("queue,kind", [("DropTail", "droptail"), ("RED", "red"),
                                        ("SFQ", "sfq"), ("DRR", "drr")])
def test_a_script_without_settings_gets_the_ns2_profiles_queue(
        ns2: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, queue: str,
        kind: str) -> None:
    """A link's queue with ns-2.35's class defaults (Queue limit_ 50, Queue/RED's thresholds
    and weights, Queue/SFQ maxqueue_ 40...) resolves as the ns2 profile's queue of that kind."""
    built: list[Scenario] = []
    build = ns2_simulator.build_scenario

    def keep(sim: Any, name: str) -> Scenario:
        built.append(build(sim, name))
        return built[-1]

    monkeypatch.setattr(ns2_simulator, "build_scenario", keep)
    r = ns2(QUEUE_SCRIPT.format(queue=queue))
    assert r.code == 0, r.err
    script_doc = resolve(built[0])
    net = ac.Network("profile", profile="ns2")
    net.nodes("n0", "n1")
    net.link("n0", "n1", rate="10Mb/s", delay="10ms", queue=kind)
    net.udp("u", "n0", "n1", rate="1Mb/s", packet_size=100)
    profile_doc = resolve(net.scenario(duration="1s"))
    for direction in (0, 1):
        assert script_doc["links"][direction]["queue"] == profile_doc["links"][direction][
            "queue"], (queue, direction)
    assert script_doc["flows"][0]["header_size"] == profile_doc["flows"][0]["header_size"]
