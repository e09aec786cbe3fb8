"""Scenario files and the Python API resolve into the engine's document
(docs/engine-contract.md); every mistake is a one-line ScenarioError naming its key."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from ackclock import Network, ScenarioError, load_scenario, loads_scenario, resolve
from ackclock.toml_loader import apply_overrides, parse_toml

MS = 10**9
S = 10**12

# SCENARIO_FORMAT.md's example, minus what the engine does not run yet (RED).
EXAMPLE = """
name = "reno-vs-cbr"
profile = "ns2"

[run]
duration = "250s"
warmup = "50s"
seed = 1
sample_interval = "0.1s"

[defaults.tcp]
packet_size = 1460
window = 100

[[node]]
name = "s1"
[[node]]
name = "r1"
[[node]]
name = "r2"
[[node]]
name = "d1"

[[link]]
from = "s1"
to = "r1"
rate = "100Mb/s"
delay = "1ms"
queue = { kind = "droptail", limit = 100 }

[[link]]
from = "r1"
to = "r2"
rate = "10Mb/s"
delay = "29ms"
queue = { kind = "droptail", limit = 100 }
loss = { kind = "bernoulli", p = 0.001 }        # optional, data direction only

[[link]]
from = "r2"
to = "d1"
rate = "100Mb/s"
delay = "1ms"

[[flow]]
name = "tcp1"
kind = "tcp"
from = "s1"
to = "d1"
variant = "reno"
cc = "reno"
sink = "ack-every"
app = { kind = "ftp", start = "0s" }

[[flow]]
name = "cbr"
kind = "udp"
from = "s1"
to = "d1"
app = { kind = "cbr", rate = "8Mb/s", packet_size = 1000, start = "0s" }
"""

# A small valid scenario that the error tests break one key at a time.
SMALL = """
name = "small"
[run]
duration = "10s"
[[node]]
name = "a"
[[node]]
name = "b"
[[link]]
from = "a"
to = "b"
rate = "10Mb/s"
delay = "1ms"
[[flow]]
name = "f"
kind = "tcp"
from = "a"
to = "b"
"""


def doc(text: str, overrides: list[str] | None = None) -> dict[str, Any]:
    return resolve(loads_scenario(text, source="scenario.toml", overrides=overrides or []))


def error(text: str, overrides: list[str] | None = None) -> str:
    with pytest.raises(ScenarioError) as info:
        doc(text, overrides)
    message = str(info.value)
    assert "\n" not in message
    return message


def flow(d: dict[str, Any], name: str) -> dict[str, Any]:
    return next(f for f in d["flows"] if f["name"] == name)


# --- the example -------------------------------------------------------------------------


def test_example_resolves_to_the_contract_document() -> None:
    d = doc(EXAMPLE)
    assert d["name"] == "reno-vs-cbr"
    assert d["profile"] == "ns2"
    assert d["run"] == {
        "duration_ps": 250 * S,
        "warmup_ps": 50 * S,
        "seed": 1,
        "sample_interval_ps": 100 * MS,
    }
    assert d["nodes"] == ["s1", "r1", "r2", "d1"]
    # Duplex links become two directions, a->b first.
    assert [(link["from"], link["to"]) for link in d["links"]] == [
        (0, 1), (1, 0), (1, 2), (2, 1), (2, 3), (3, 2)
    ]
    bottleneck = d["links"][2]
    assert bottleneck == {
        "from": 1,
        "to": 2,
        "rate_bps": 1e7,
        "delay_ps": 29 * MS,
        "queue": {"kind": "droptail", "limit_packets": 100, "limit_bytes": None, "ns2": True,
                  "ecn": False},
        "loss": {"kind": "bernoulli", "p": 0.001},
    }
    assert d["links"][3]["queue"] == bottleneck["queue"]
    assert d["links"][3]["loss"] is None  # the loss model is on the data direction only
    assert d["links"][0]["loss"] is None
    assert d["links"][4]["queue"]["limit_packets"] == 50  # no queue table: ns-2's default
    assert d["links"][0]["rate_bps"] == 1e8

    assert flow(d, "tcp1") == {
        "name": "tcp1",
        "kind": "tcp",
        "from": 0,
        "to": 3,
        "trace": [],
        "tcp": {
            "variant": "reno",
            "cc": "reno",
            "sink": "ack-every",
            "packet_size": 1460,  # [defaults.tcp]
            "header_size": 40,  # profile
            "ack_size": 40,
            "window": 100,  # [defaults.tcp]
            "window_init": 2,
            "window_init_by_size": False,  # ns-2 windowInitOption_ 1
            "ns2_first_loss": "bugfix_ss",  # ns-2 bugfix_ss_ 1
            "ns2_ecn": "ns2",  # ns-2 old_ecn_ 0
            "rtx_timer_before_sample": False,  # ns-2 timerfix_ true
            "sack_exit_clears_recover": True,  # ns-2 Sack1TcpAgent::recv
            "idle_rtx_timer": False,
            "idle_timeout_keeps_window": False,
            "ns2_qoption": "off",  # ns-2 QOption_ 0
            "ns2_rbp": "off",  # not an RBP agent
            "ns2_rbp_scale": 0.75,  # ns-2 rbp_scale_ 0.75
            "ns2_frto": "off",  # ns-2 frto_enabled_ 0
            "sack_partial_ack": False,  # ns-2 partial_ack_ false
            "ts_reset_rto": False,  # ns-2 ts_resetRTO_ false
            "syn_max_sends": 0,  # ns-2 max_connects_ -1
            "control_increase": False,  # ns-2 control_increase_ 0
            "max_cwnd": 0,  # ns-2 maxcwnd_ 0
            "ns2_first_decrease": False,
            "rfc793_fast_retransmit": False,
            "rfc793_slow_start": False,
            "rfc793_jacobson_rto": False,
            "rfc793_karn": True,
            "rfc793_backoff": True,
            "exit_recovery_fix": False,
            "recovery_exit_growth": True,
            "careful_after_fast_retransmit": True,
            "ssthresh_flight": False,
            "less_careful": False,
            "bugfix_ack": False,
            "bugfix_ts": False,
            "dupacks_always_inflate": False,
            "no_fast_retransmit": False,
            "old_ack_sends": True,
            "send_overhead_ps": 0,
            "quick_start": 0,  # ns-2 qs_enabled_ false
            "quick_start_rtt_ps": 50 * MS,  # ns-2 qs_rtt_ 50
            "quick_start_thresh": 4,  # ns-2 qs_thresh_ 4
            "quick_start_recovery": True,  # ns-2 tcp_qs_recovery_ true
            "dupack_cwnd_fraction": 0,
            "initial_ssthresh": 100,  # ns-2 starts ssthresh_ at window_
            "dupack_threshold": 3,
            "min_rto_ps": 200 * MS,
            "max_rto_ps": 60 * S,
            "initial_rto_ps": 3 * S,
            "timer_granularity_ps": 10 * MS,
            "segs_per_ack": 2,
            "ack_delay_ps": 100 * MS,
            "limited_transmit": True,  # ns-2 singledup_ 1
            "bug_fix": True,  # ns-2 bugFix_ true
            "ns2_full_tcp": False,  # one-way agents (FullTcp: true)
            "bare_first_segment": True,  # ns-2's TcpAgent::output (no effect with syn)
            "precision_reduce": True,  # ns-2 precisionReduce_ true
            "partial_deflation": True,  # ns-2 partial_window_deflation_ 1
            "slow_but_steady": False,  # ns-2 newreno_changes1_ 1
            "ns2_rtt_timer": True,  # ns-2's fixed-point TcpAgent::rtt_update
            "ns2_boot_time_ps": 0,
            "ns2_srtt_bits": 3,
            "ns2_rttvar_bits": 2,
            "ns2_rttvar_exp": 2,
            "syn": True,  # ns-2 syn_ true
            "delay_growth": True,
            "max_burst": 0,
            "max_ssthresh": 0,
            "delayed_ack": False,
            "delack_syn": False,  # ns-2's DelAck: SYN_immediate_ack_ true
            "delack_repeat": True,  # ns-2's DelAckSink::recv
            "delack_gap_fill": False,  # ns-2's RFC2581_immediate_ack_ true
            "delack_dup_at_once": False,
            "quick_acks": 0,
            "sack_block_bytes": 8,
            "syn_option_bytes": 0,
            "handshake_ack": False,
            "adaptive_ack_delay": False,
            "sack_compression": False,
            "timestamps": False,
            "ts_echo_rfc7323": True,
            "window_unit": "packets",
            "integer_cwnd": False,
            "ecn": False,
            "pacing": False,
            "psh": False,
            "hystart": "off",  # ns-2.35's CUBIC has no HyStart
            "rto_rule": "rfc6298",
            "prr": False,
            "rfc6675_recovery": False,
            "rack": False,
            "cwnd_validation": False,
            "rcv_buffer_bytes": None,
            "snd_buffer_bytes": None,
            "app_read_rate_bps": None,
            "cc_params": {},
            "ns3_newreno_growth": False,
            "ns3_cc_defaults": False,
            "growth_per_ack": False,
            "ns3_cwnd_limited": False,
            "ns3_srtt_samples": False,
            "ns3_ts_ms": False,
            "ns3_rate_sample": False,
        },
        "app": {"kind": "ftp", "start": {"constant": 0}, "stop_ps": None,
                "size_bytes": None},
    }
    assert flow(d, "cbr") == {
        "name": "cbr",
        "kind": "udp",
        "from": 0,
        "to": 3,
        "trace": [],
        "header_size": 0,  # ns-2's CBR packets are packet_size bytes on the wire
        "app": {
            "kind": "cbr",
            "start": {"constant": 0},
            "stop_ps": None,
            "interval_ps": 1 * MS,  # 1000 B x 8 / 8 Mb/s
            "packet_size": 1000,
            "random": False,
        },
    }
    json.dumps(d, allow_nan=False)  # the document is plain JSON


def test_example_files_in_the_repository_load() -> None:
    examples = Path(__file__).parents[2] / "examples"
    files = sorted(examples.glob("*.toml"))
    for path in files:
        resolve(load_scenario(path))


# --- defaults and profiles ---------------------------------------------------------------


def test_precedence_profile_then_defaults_then_flow() -> None:
    text = SMALL.replace(
        'name = "f"',
        'name = "f"\nwindow = 7\npacketSize_ = 512\ntcpTick_ = 0.5\nminrto_ = "1s"',
    ) + """
[[flow]]
name = "g"
kind = "tcp"
from = "b"
to = "a"
[defaults.tcp]
window = 50
timer_granularity = "100ms"
header_size = 60
"""
    d = doc(text)
    f, g = flow(d, "f")["tcp"], flow(d, "g")["tcp"]
    assert (f["window"], g["window"]) == (7, 50)
    assert (f["packet_size"], g["packet_size"]) == (512, 1000)
    assert (f["timer_granularity_ps"], g["timer_granularity_ps"]) == (500 * MS, 100 * MS)
    assert f["min_rto_ps"] == 1 * S and g["min_rto_ps"] == 200 * MS
    assert f["header_size"] == g["header_size"] == 60
    assert f["max_rto_ps"] == 60 * S  # profile


def test_linux_profile_defaults() -> None:
    text = SMALL.replace('name = "small"', 'name = "small"\nprofile = "linux"') + """
[[flow]]
name = "u"
kind = "udp"
from = "a"
to = "b"
app = { kind = "cbr", interval = "10ms", packet_size = "1KB" }
"""
    d = doc(text)
    tcp = flow(d, "f")["tcp"]
    # An Ethernet frame of 1514 bytes: 14 + 20 + 20 + 12 (timestamps) of headers.
    assert (tcp["packet_size"], tcp["header_size"], tcp["window_init"]) == (1448, 66, 10)
    assert (tcp["initial_rto_ps"], tcp["max_rto_ps"]) == (1 * S, 120 * S)
    assert tcp["timer_granularity_ps"] == 1 * MS
    # Linux's: SACK recovery, a SACK receiver delaying its ACKs 40 ms, CUBIC with HyStart.
    assert (tcp["variant"], tcp["sink"], tcp["delayed_ack"]) == ("sack", "sack", True)
    assert (tcp["cc"], tcp["hystart"], tcp["ack_delay_ps"]) == ("cubic", "linux", 40 * MS)
    assert tcp["rto_rule"] == "linux"  # RTO = SRTT + max(4 RTTVAR, 200 ms)
    assert tcp["prr"] is True and tcp["delack_syn"] is False and tcp["cwnd_validation"] is True
    assert tcp["rack"] is True  # RACK-TLP and Linux's recovery states
    assert tcp["quick_acks"] == 16
    assert flow(d, "u")["header_size"] == 28
    assert flow(d, "u")["app"]["interval_ps"] == 10 * MS
    assert flow(d, "u")["app"]["packet_size"] == 1000
    assert d["links"][0]["queue"]["ns2"] is False


def test_ns3_profile_defaults() -> None:
    # ns-3.44's TcpSocket / TcpSocketBase / TcpL4Protocol / TcpCubic attribute defaults.
    d = doc(SMALL.replace('name = "small"', 'name = "small"\nprofile = "ns3"'))
    tcp = flow(d, "f")["tcp"]
    assert (tcp["variant"], tcp["cc"], tcp["sink"], tcp["hystart"]) == ("sack", "cubic", "sack",
                                                                        "ns3")
    assert (tcp["packet_size"], tcp["window_init"], tcp["rcv_buffer_bytes"]) == (536, 10, 131072)
    assert (tcp["min_rto_ps"], tcp["initial_rto_ps"]) == (1 * S, 1 * S)
    assert (tcp["rto_rule"], tcp["prr"], tcp["cwnd_validation"]) == ("rfc6298", True, False)
    assert tcp["rack"] is False
    assert (tcp["delayed_ack"], tcp["segs_per_ack"], tcp["ack_delay_ps"]) == (True, 2, 200 * MS)
    assert tcp["timer_granularity_ps"] == 1 * MS
    # Frames as ns-3.44 sends them on a PointToPointNetDevice: PPP 2 + IPv4 20 + TCP 20 +
    # timestamp 12 (PppHeader, TcpHeader::CalculateHeaderLength), 8 bytes per SACK block
    # (TcpOptionSack), 4 more on SYNs (window scale and SACK-permitted, SendEmptyPacket).
    assert (tcp["header_size"], tcp["ack_size"]) == (54, 54)
    assert (tcp["sack_block_bytes"], tcp["syn_option_bytes"]) == (8, 4)
    # RedQueueDisc has no mark_p: every early decision marks an ECN-capable packet.
    red = doc(SMALL.replace('name = "small"', 'name = "small"\nprofile = "ns3"').replace(
        'delay = "1ms"', 'delay = "1ms"\nqueue = { kind = "red" }'))["links"][0]["queue"]
    assert red["red"]["use_mark_p"] is False
    # ns-3's default stack (docs/models/traffic-control.md): FqCoDel above the 100-packet
    # device queue of a point-to-point device.
    assert d["links"][0]["queue"]["device"] == {"limit_packets": 100, "bql": False,
                                                "ns3_run": True}
    assert d["links"][0]["queue"]["ns2"] is False
    # ns-3's Time resolution: serialisation times in whole nanoseconds
    # (DataRate::CalculateBytesTxTime), on every link of the ns3 profile only.
    assert all(link["tx_time_ns"] is True for link in d["links"])
    for profile in ("ns2", "linux", "ikr"):
        other = doc(SMALL.replace('name = "small"', f'name = "small"\nprofile = "{profile}"'))
        assert all("tx_time_ns" not in link for link in other["links"])


NS3 = SMALL.replace('name = "small"', 'name = "small"\nprofile = "ns3"')


def test_ns3_profile_puts_fq_codel_above_the_device_queue() -> None:
    # Ipv4AddressHelper::Assign installs TrafficControlHelper::Default, an FqCoDelQueueDisc
    # with its attribute defaults (MaxSize 10240p, Flows 1024, Target 5 ms, Interval 100 ms,
    # UseEcn true, the quantum the device's 1500-byte MTU), above the device's DropTailQueue.
    q = doc(NS3)["links"][0]["queue"]
    assert (q["kind"], q["limit_packets"], q["ecn"]) == ("fq_codel", 10240, True)
    assert q["codel"] == {"target_ps": 5 * MS, "interval_ps": 100 * MS, "mtu": 1500,
                          "flows": 1024, "quantum": 1500}
    # `limit` without a kind is the device queue's size, as PointToPointNetDevice's queue.
    limited = NS3.replace('delay = "1ms"', 'delay = "1ms"\nqueue = { limit = 7, bql = true,'
                                           ' ecn = false }')
    q = doc(limited)["links"][0]["queue"]
    assert (q["kind"], q["limit_packets"], q["ecn"]) == ("fq_codel", 10240, False)
    # The loop above the device queue is ns-3.44's (QueueDisc::Run / Transmit, Wake) unless
    # the table says otherwise; needs a device queue.
    assert q["device"] == {"limit_packets": 7, "bql": True, "ns3_run": True}
    off = limited.replace("bql = true,", "bql = true, ns3_run = false,")
    assert doc(off)["links"][0]["queue"]["device"] == {"limit_packets": 7, "bql": True}
    alone = NS3.replace('delay = "1ms"', 'delay = "1ms"\nqueue = { kind = "codel",'
                                         ' ns3_run = true }')
    assert "ns3_run is the loop above a device queue: give device_limit" in error(alone)
    assert "expected true or false" in error(off.replace("ns3_run = false", "ns3_run = 1"))
    # BQL's hold time (ns-3's DynamicQueueLimits HoldTime, 1 s by default), in picoseconds.
    held = limited.replace("bql = true,", 'bql = true, bql_hold_time = "1ms",')
    assert doc(held)["links"][0]["queue"]["device"] == {"limit_packets": 7, "bql": True,
                                                        "bql_hold_time_ps": 1 * MS,
                                                        "ns3_run": True}
    assert "needs bql = true" in error(held.replace("bql = true,", "bql = false,"))
    # A named kind overrides the stack, droptail included: no device queue.
    for kind in ("droptail", "red", "fq_codel"):
        q = doc(NS3.replace('delay = "1ms"', f'delay = "1ms"\nqueue = {{ kind = "{kind}" }}')
                )["links"][0]["queue"]
        assert q["kind"] == kind and "device" not in q
    # Every other profile: a DropTail of `limit` packets.
    for profile in ("ns2", "linux"):
        q = doc(NS3.replace('"ns3"', f'"{profile}"'))["links"][0]["queue"]
        assert q["kind"] == "droptail" and "device" not in q


def test_ns3_default_stack_refuses_what_it_cannot_mean() -> None:
    def given(table: str) -> str:
        return error(NS3.replace('delay = "1ms"', f'delay = "1ms"\nqueue = {{ {table} }}'))
    assert "give kind = \"droptail\"" in given('limit_bytes = "64KB"')
    assert "limit is the device queue" in given("device_limit = 5")
    python = Network("n", profile="ns3")
    python.nodes("a", "b")
    python.link("a", "b", rate="1Mb/s", delay="1ms", target="10ms")
    with pytest.raises(ScenarioError, match="without a kind"):
        resolve(python.scenario("1s"))


def test_queue_accounting_can_be_set_per_link() -> None:
    d = doc(SMALL.replace('delay = "1ms"', 'delay = "1ms"\nqueue = { limit_bytes = "64KB",'
                                            ' ns2 = false }'))
    assert d["links"][0]["queue"] == {
        "kind": "droptail", "limit_packets": None, "limit_bytes": 64000, "ns2": False,
        "ecn": False,
    }


def test_simplex_link_and_initial_ssthresh() -> None:
    d = doc(SMALL.replace('delay = "1ms"', 'delay = "1ms"\nduplex = false')
            .replace('name = "f"', 'name = "f"\ninitial_ssthresh = 64') + """
[[link]]
from = "b"
to = "a"
rate = "1Mb/s"
delay = "5ms"
duplex = false
""")
    assert [(x["from"], x["to"], x["rate_bps"]) for x in d["links"]] == [(0, 1, 1e7), (1, 0, 1e6)]
    assert flow(d, "f")["tcp"]["initial_ssthresh"] == 64


def test_start_distributions_and_stop() -> None:
    d = doc(SMALL + 'app = { kind = "ftp", start = { uniform = ["0s", "1s"] }, stop = "9s" }')
    assert flow(d, "f")["app"] == {
        "kind": "ftp", "start": {"uniform": [0, 1 * S]}, "stop_ps": 9 * S,
        "size_bytes": None,
    }
    d = doc(SMALL + 'app = { kind = "ftp", start = { constant = "2.5s" } }')
    assert flow(d, "f")["app"]["start"] == {"constant": 2_500 * MS}


# --- count and {i} -----------------------------------------------------------------------


COUNTED = """
name = "counted"
[run]
duration = "10s"
[[node]]
count = 3
name = "s{i}"
[[node]]
name = "r"
[[node]]
count = 3
name = "d{i}"
[[link]]
count = 3
from = "s{i}"
to = "r"
rate = "{i}0Mb/s"
delay = "1ms"
[[link]]
count = 3
from = "r"
to = "d{i}"
rate = "100Mb/s"
delay = "1ms"
[[flow]]
count = 3
name = "tcp{i}"
kind = "tcp"
from = "s{i}"
to = "d{i}"
app = { kind = "ftp", start = { uniform = ["0s", "{i}s"] }, stop = "{i}9s" }
"""


def test_count_expands_with_i_substituted_everywhere() -> None:
    d = doc(COUNTED.replace('rate = "{i}0Mb/s"', 'rate = "1{i}Mb/s"'))
    assert d["nodes"] == ["s0", "s1", "s2", "r", "d0", "d1", "d2"]
    assert [x["name"] for x in d["flows"]] == ["tcp0", "tcp1", "tcp2"]
    assert [(x["from"], x["to"]) for x in d["flows"]] == [(0, 4), (1, 5), (2, 6)]
    assert [x["rate_bps"] for x in d["links"][:6:2]] == [10e6, 11e6, 12e6]
    assert [x["app"]["start"] for x in d["flows"]] == [
        {"uniform": [0, 0]}, {"uniform": [0, 1 * S]}, {"uniform": [0, 2 * S]}
    ]
    assert [x["app"]["stop_ps"] for x in d["flows"]] == [9 * S, 19 * S, 29 * S]


def test_errors_in_copies_name_the_table_and_copy() -> None:
    # "{i}0Mb/s" is "00Mb/s" for the first copy: zero.
    assert error(COUNTED) == (
        'scenario.toml: link[0]{i=0}.rate: expected a positive rate like "10Mb/s", got "00Mb/s"'
    )
    text = COUNTED.replace('name = "tcp{i}"', 'name = "tcp"').replace('"{i}0Mb/s"', '"1Mb/s"')
    assert error(text) == (
        'scenario.toml: flow[0]{i=1}.name: duplicate flow name "tcp" (also flow[0]{i=0})'
    )
    assert "node[0].count: expected a number of copies" in error(
        COUNTED.replace("count = 3\nname = \"s{i}\"", 'count = "3"\nname = "s{i}"')
    )


# --- overrides ---------------------------------------------------------------------------


def test_overrides_address_links_nodes_flows_and_tables() -> None:
    d = doc(
        EXAMPLE,
        [
            "link.r1-r2.queue.limit=50",
            "flow.cbr.app.rate=4Mb/s",  # not TOML: a bare string
            "run.seed=3",
            "defaults.tcp.window=30",
            "flow.tcp1.min_rto=\"1s\"",
            "link.d1-r2.queue.limit=10",  # a duplex link from its other end; creates the table
            "name=renamed",
            "flow.tcp1.app.start={ uniform = [\"0s\", \"2s\"] }",
        ],
    )
    assert d["links"][2]["queue"]["limit_packets"] == 50
    assert d["links"][3]["queue"]["limit_packets"] == 50
    assert d["links"][4]["queue"]["limit_packets"] == 10
    assert flow(d, "cbr")["app"]["interval_ps"] == 2 * MS
    assert d["run"]["seed"] == 3
    assert flow(d, "tcp1")["tcp"]["window"] == 30
    assert flow(d, "tcp1")["tcp"]["min_rto_ps"] == 1 * S
    assert flow(d, "tcp1")["app"]["start"] == {"uniform": [0, 2 * S]}
    assert d["name"] == "renamed"


def test_overrides_apply_after_count_expansion() -> None:
    d = doc(COUNTED.replace('"{i}0Mb/s"', '"1Mb/s"'),
            ["flow.tcp2.window=5", "link.s1-r.rate=2Mb/s", "defaults.tcp.window=7"])
    assert [f["tcp"]["window"] for f in d["flows"]] == [7, 7, 5]  # [defaults] was created
    assert d["links"][2]["rate_bps"] == 2e6


def test_later_overrides_win_and_flow_keys_beat_defaults() -> None:
    d = doc(EXAMPLE, ["flow.tcp1.window=64", "defaults.tcp.window=10", "run.seed=2",
                      "run.seed=9"])
    assert flow(d, "tcp1")["tcp"]["window"] == 64
    assert d["run"]["seed"] == 9


def test_apply_overrides_leaves_the_raw_dict_alone() -> None:
    raw = parse_toml(EXAMPLE)
    before = copy.deepcopy(raw)
    out = apply_overrides(raw, ["link.r1-r2.queue.limit=7", "run.seed=4"])
    assert raw == before
    assert out["link"][1]["queue"]["limit"] == 7
    assert out["run"]["seed"] == 4


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("flow.tcp9.variant=sack", '--set flow.tcp9.variant=sack: no flow named "tcp9"'),
        ("link.r1-d1.rate=1Mb/s", '--set link.r1-d1.rate=1Mb/s: no link FROM-TO "r1-d1"'),
        ("node.zz.name=a", '--set node.zz.name=a: no node named "zz"'),
        ("bogus.x=1", "--set bogus.x=1: unknown key; expected name, profile, run.KEY"),
        ("run.seed", "--set run.seed: expected KEY=VALUE"),
        ("flow.tcp1=3", "--set flow.tcp1=3: expected flow.tcp1.KEY"),
        ("run..seed=3", "--set run..seed=3: empty key in the dotted path"),
        ("run=3", "--set run=3: unknown key; expected name, profile, run.KEY"),
        ("flow.tcp1.name.x=3", '--set flow.tcp1.name.x=3: flow[0].name is "tcp1", not a table'),
    ],
)
def test_bad_overrides_name_the_override(override: str, message: str) -> None:
    assert error(EXAMPLE, [override]).startswith(message)


def test_errors_from_overridden_values_say_so() -> None:
    assert error(EXAMPLE, ["link.r1-r2.rate=10Mbs"]) == (
        'scenario.toml: link[1].rate: expected a rate like "10Mb/s", "10Mbps" or 2.5e6'
        ' (bit/s), got "10Mbs" (set by --set link.r1-r2.rate=10Mbs)'
    )
    assert "flow[0].vairant: unknown key" in error(EXAMPLE, ["flow.tcp1.vairant=sack"])


# --- errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('to = "b"\nrate', 'to = "c"\nrate',
         'scenario.toml: link[0].to: unknown node "c"; nodes are a, b'),
        ('rate = "10Mb/s"', 'rate = "10Mbs"',
         'scenario.toml: link[0].rate: expected a rate like "10Mb/s"'),
        ('rate = "10Mb/s"', 'rate = "-10Mb/s"',
         'scenario.toml: link[0].rate: expected a positive rate like "10Mb/s", got "-10Mb/s"'),
        ('rate = "10Mb/s"', 'rate = 0',
         'scenario.toml: link[0].rate: expected a positive rate like "10Mb/s", got 0'),
        ('delay = "1ms"', 'delay = "fast"', "scenario.toml: link[0].delay: expected a time like"),
        ('delay = "1ms"', "", "scenario.toml: link[0].delay: missing required key"),
        ('kind = "tcp"\nfrom = "a"', 'kind = "tcp"', "scenario.toml: flow[0].from: missing"),
        ('duration = "10s"', 'warmup = "1s"', "scenario.toml: run.duration: missing"),
        ('name = "b"', 'name = "a"', 'scenario.toml: node[1].name: duplicate node name "a"'
                                     " (also node[0])"),
        ('to = "b"\n', 'to = "a"\n',
         'scenario.toml: link[0]: a link must join two different nodes, got from = to = "a"'),
        ('duration = "10s"', 'duration = "10s"\nwarmup = "10s"',
         'scenario.toml: run.warmup: must be shorter than run.duration (10s), got 10s'),
        ('duration = "10s"', 'duration = "0s"', "scenario.toml: run.duration: expected a"
                                                 " positive time"),
        ('duration = "10s"', 'duration = "10s"\nseed = -1', "scenario.toml: run.seed: expected"),
        ('duration = "10s"', 'duration = "10s"\nsample_interval = 0',
         "scenario.toml: run.sample_interval: expected a positive time"),
        ('duration = "10s"', 'duration = "10s"\nspeed = 1',
         "scenario.toml: run.speed: unknown key (did you mean \"seed\"?); expected one of"
         " duration, warmup, seed, sample_interval"),
        ('name = "small"', 'name = "small"\nprofile = "ns-3"',
         'scenario.toml: profile: expected one of "ns2", "linux", "ns3", "ikr", got "ns-3"'),
        ('name = "small"', 'name = "small"\ntitle = "x"', "scenario.toml: title: unknown key"),
        ('kind = "tcp"', 'kind = "sctp"', 'scenario.toml: flow[0].kind: expected one of "tcp",'
                                          ' "udp", "tfrc", "rap", got "sctp"'),
        ('kind = "tcp"', 'kind = "tcp"\nwindow = 0', "scenario.toml: flow[0].window: expected"
                                                     " a whole number >= 1, got 0"),
        ('kind = "tcp"', 'kind = "tcp"\npacket_size = "1.5B"',
         "scenario.toml: flow[0].packet_size: expected a whole number of bytes"),
        ('kind = "tcp"', 'kind = "tcp"\nmin_rto = "2min"', "scenario.toml: flow[0].min_rto:"),
        ('kind = "tcp"', 'kind = "tcp"\nmin_rto = "70s"',
         'scenario.toml: flow[0].min_rto: larger than max_rto (60s), got 70s'),
        ('kind = "tcp"', 'kind = "tcp"\nvariant = "vegas"', 'scenario.toml: flow[0].variant:'
                                                            ' expected one of "tahoe", "reno"'),
        ('kind = "tcp"', 'kind = "tcp"\ninitial_ssthresh = "big"',
         "scenario.toml: flow[0].initial_ssthresh: expected a number of packets or"
         ' "unbounded"'),
        ('[[flow]]\nname = "f"', '[[flow]]\nname = "f"\nwindow = 3\nwindow_ = 4',
         "scenario.toml: flow[0].window_: given twice, as window and as window_"),
        ('delay = "1ms"', 'delay = "1ms"\nqueue = 100',
         "scenario.toml: link[0].queue: expected a table, got 100"),
        ('delay = "1ms"', 'delay = "1ms"\nqueue = { limit = 10, limit_bytes = 1000 }',
         "scenario.toml: link[0].queue: give limit or limit_bytes, not both"),
        ('delay = "1ms"', 'delay = "1ms"\nqueue = { limit = 10, size = 1000 }',
         "scenario.toml: link[0].queue.size: unknown key; expected one of kind, limit,"
         " limit_bytes, ns2"),
        ('delay = "1ms"', 'delay = "1ms"\nqueue = { kind = "fifo" }',
         'scenario.toml: link[0].queue.kind: expected one of "droptail", "red"'),
        ('delay = "1ms"', 'delay = "1ms"\nduplex = "yes"',
         'scenario.toml: link[0].duplex: expected true or false, got "yes"'),
    ],
)
def test_mistakes_name_file_key_and_expectation(old: str, new: str, message: str) -> None:
    assert old in SMALL
    assert error(SMALL.replace(old, new, 1)).startswith(message)


def test_repeated_tables_must_be_arrays_of_tables() -> None:
    text = 'name = "x"\nnode = "a"\n[run]\nduration = "1s"\n'
    assert error(text) == "scenario.toml: node: expected an array of tables ([[node]])"


def test_unknown_key_suggests_and_lists() -> None:
    message = error(SMALL.replace('kind = "tcp"', 'kind = "tcp"\nvairant = "reno"'))
    assert message.startswith(
        'scenario.toml: flow[0].vairant: unknown key (did you mean "variant"?); expected one of'
        " name, kind, from, to, app"
    )


def test_unknown_node_suggests_a_close_name() -> None:
    text = EXAMPLE.replace('to = "d1"\nvariant', 'to = "dd1"\nvariant')
    assert error(text) == (
        'scenario.toml: flow[0].to: unknown node "dd1" (did you mean "d1"?); nodes are s1, r1,'
        " r2, d1"
    )


def test_duplicate_flow_and_link() -> None:
    text = SMALL + SMALL[SMALL.index("[[flow]]"):]
    assert error(text) == 'scenario.toml: flow[1].name: duplicate flow name "f" (also flow[0])'
    link = SMALL[SMALL.index("[[link]]"):SMALL.index("[[flow]]")]
    reverse = link.replace('from = "a"\nto = "b"', 'from = "b"\nto = "a"')
    assert error(SMALL + reverse) == (
        "scenario.toml: link[1]: duplicate link b->a (already given by link[0])"
    )
    assert error(SMALL + link.replace("[[link]]", "[[link]]\nduplex = false")) == (
        "scenario.toml: link[1]: duplicate link a->b (already given by link[0])"
    )


def test_flow_between_one_node() -> None:
    text = SMALL.replace('from = "a"\nto = "b"\n', 'from = "a"\nto = "a"\n').replace(
        '[[link]]\nfrom = "a"\nto = "a"', '[[link]]\nfrom = "a"\nto = "b"'
    )
    assert error(text) == 'scenario.toml: flow[0]: from and to are the same node "a"'


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('variant = "vegas"', 'flow[0].variant: expected one of "tahoe", "reno", "newreno",'
                                ' "sack", "rfc793", "fack", "sack_rh", got "vegas"'),
        ('rfc793_karn = false', 'flow[0]: rfc793_fast_retransmit, rfc793_slow_start,'
                                ' rfc793_jacobson_rto, rfc793_karn and rfc793_backoff are the'
                                ' rfc793 variant\'s (variant = "reno")'),
        ('variant = "sack"\nsink = "delack"\nprr = true',
         'flow[0].sink: the sack variant with rack, rfc6675_recovery or prr needs'
         ' sink = "sack", got "delack"'),
        ('cc = "bbr3"', 'flow[0].cc: expected one of "reno", "highspeed"'),
        ('sink = "delack"\nsegs_per_ack = 0', "flow[0].segs_per_ack: expected a whole number"
                                                " >= 1, got 0"),
        ('app = { kind = "ftp", size = 0 }', "flow[0].app.size: expected a positive size"),
        ('app = { kind = "onoff", rate = "1Mb/s" }',
         'flow[0].app.on: missing: the on times'),
        ('app = { kind = "tmix", file = "no-such.vec" }',
         'flow[0].app.file: cannot read'),
        ('app = { kind = "ftp", start = { exponential = "0s" } }',
         'flow[0].app.start.exponential: expected a positive mean time'),
        ('app = { kind = "ftp", start = { pareto = ["1s", 1.0] } }',
         'flow[0].app.start.pareto[1]: expected a shape above 1, got 1.0'),
        ('app = { kind = "ftp", start = { weibull = 1 } }',
         'flow[0].app.start.weibull: expected one of "constant", "uniform"'),
        ('app = { kind = "ftp", start = { uniform = ["2s", "1s"] } }',
         'flow[0].app.start.uniform: bounds out of order: "2s" > "1s"'),
        ('app = { kind = "ftp", start = { uniform = ["1s"] } }',
         'flow[0].app.start.uniform: expected [A, B], got ["1s"]'),
        ('app = { kind = "ftp", rate = "1Mb/s" }',
         "flow[0].app.rate: unknown key; expected one of kind, start, stop, size"),
        ('app = { kind = "ftp", start = "2s", stop = "1s" }',
         'flow[0].app.stop: earlier than start ("2s"), got "1s"'),
    ],
)
def test_tcp_flow_features_not_supported_yet(extra: str, message: str) -> None:
    assert error(SMALL + extra).startswith(f"scenario.toml: {message}")


def test_a_paced_application_writes_into_a_tcp_flow() -> None:
    d = doc(SMALL + 'packet_size = 500\napp = { kind = "cbr", rate = "1Mb/s" }')
    app = flow(d, "f")["app"]
    # One segment's payload per write by default.
    assert app["packet_size"] == 500 and app["interval_ps"] == 4 * MS


UDP = SMALL.replace('kind = "tcp"', 'kind = "udp"')


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('app = { kind = "cbr", rate = "1Mb/s" }', "flow[0].app.packet_size: missing"),
        ('app = { kind = "cbr", packet_size = 100 }',
         "flow[0].app: give exactly one of rate and interval"),
        ('app = { kind = "cbr", rate = "1Mb/s", interval = "1ms", packet_size = 100 }',
         "flow[0].app: give exactly one of rate and interval"),
        ('app = { kind = "cbr", rate = "1Mbs", packet_size = 100 }',
         'flow[0].app.rate: expected a rate like "10Mb/s"'),
        ('app = { kind = "cbr", rate = "1Mb/s", packet_size = 0 }',
         "flow[0].app.packet_size: expected a positive size, got 0"),
        ('app = { kind = "cbr", rate = "1Mb/s", packet_size = 100, random = "yes" }',
         'flow[0].app.random: expected true or false, got "yes"'),
        ('app = { kind = "ftp" }',
         'flow[0].app.kind: a UDP flow needs a cbr, onoff, poisson or trace app'),
        ('window = 3\napp = { kind = "cbr", rate = "1Mb/s", packet_size = 100 }',
         "flow[0].window: only TCP flows take TCP parameters"),
        ('variant = "reno"\napp = { kind = "cbr", rate = "1Mb/s", packet_size = 100 }',
         "flow[0].variant: only TCP flows take this key"),
        ("", "flow[0].app: missing table"),
    ],
)
def test_udp_flow_mistakes(extra: str, message: str) -> None:
    assert error(UDP + extra).startswith(f"scenario.toml: {message}")


def test_udp_header_size_from_the_flow() -> None:
    d = doc(UDP + 'header_size = 8\napp = { kind = "cbr", rate = "1Mb/s", packet_size = 125 }')
    assert flow(d, "f")["header_size"] == 8
    assert flow(d, "f")["app"]["interval_ps"] == 1 * MS


def test_packet_traces_resolve_link_names_to_indices() -> None:
    d = doc(SMALL + '[[trace]]\nformat = "pcap"\nfile = "x.pcap"\nnodes = ["b"]\n'
            '[[trace]]\nfile = "x.tr"\n')
    assert d["traces"][0] == {"format": "pcap", "path": "x.pcap", "links": [], "nodes": [1]}
    assert d["traces"][1]["format"] == "ns2"
    assert error(SMALL + '[[trace]]\nfile = "a.tr"\n[[trace]]\nfile = "a.tr"\n') == (
        'scenario.toml: trace[1].file: "a.tr" is already written by trace[0]')


def test_variants_sinks_and_their_parameters() -> None:
    text = SMALL.replace('name = "f"', 'name = "f"\nvariant = "newreno"\nsink = "delack"\n'
                                       'segs_per_ack = 3\nack_delay = "200ms"') + """
[[flow]]
name = "g"
kind = "tcp"
from = "b"
to = "a"
variant = "tahoe"
"""
    d = doc(text)
    f, g = flow(d, "f")["tcp"], flow(d, "g")["tcp"]
    assert (f["variant"], f["sink"], f["segs_per_ack"], f["ack_delay_ps"]) == (
        "newreno", "delack", 3, 200 * MS
    )
    assert (g["variant"], g["sink"], g["segs_per_ack"], g["ack_delay_ps"]) == (
        "tahoe", "ack-every", 2, 100 * MS
    )


LOSSY = SMALL.replace('delay = "1ms"', 'delay = "1ms"\nloss = LOSS')


def test_loss_models() -> None:
    d = doc(LOSSY.replace("LOSS", '{ kind = "drop_list", flow = "f", packets = [30, 32] }'))
    assert [link["loss"] for link in d["links"]] == [
        {"kind": "drop_list", "flow": 0, "packets": [30, 32]}, None
    ]
    d = doc(LOSSY.replace("LOSS", '{ kind = "bernoulli", p = 0 }'))
    assert d["links"][0]["loss"] == {"kind": "bernoulli", "p": 0.0}


def test_reverse_loss_sits_on_the_ack_direction() -> None:
    text = SMALL.replace('delay = "1ms"',
                         'delay = "1ms"\nreverse_loss = { kind = "bernoulli", p = 0.2 }')
    d = doc(text)
    assert [link["loss"] for link in d["links"]] == [None, {"kind": "bernoulli", "p": 0.2}]
    message = error(text.replace('delay = "1ms"', 'delay = "1ms"\nduplex = false'))
    assert message.startswith(
        "scenario.toml: link[0].reverse_loss: a link with duplex = false has no reverse direction")


@pytest.mark.parametrize(
    ("loss", "message"),
    [
        ('{ kind = "bernoulli", p = 1.5 }', "link[0].loss.p: expected a probability in [0, 1],"
                                            " got 1.5"),
        ('{ kind = "bernoulli", p = "1%" }', 'link[0].loss.p: expected a probability in [0, 1],'
                                             ' got "1%"'),
        ('{ kind = "bernoulli" }', "link[0].loss.p: expected a probability"),
        ('{ kind = "bernoulli", p = 0.1, flow = "f" }',
         "link[0].loss.flow: unknown key; expected one of kind, p"),
        ('{ kind = "drop_list", flow = "g", packets = [1] }',
         'link[0].loss.flow: unknown flow "g"; flows are f'),
        ('{ kind = "drop_list", packets = [1] }', "link[0].loss.flow: missing"),
        ('{ kind = "drop_list", flow = "f", packets = [0] }',
         "link[0].loss.packets[0]: expected a transmission number >= 1, got 0"),
        ('{ kind = "drop_list", flow = "f", packets = [4294967296] }',
         "link[0].loss.packets: 4294967296 is above the largest transmission number, 4294967295"),
        ('{ kind = "drop_list", flow = "f", packets = 3 }',
         "link[0].loss.packets: expected a list of transmission numbers like [30, 32], got 3"),
        ('{ p = 0.1 }', "link[0].loss.kind: missing required key"),
        ('0.1', "link[0].loss: expected a table, got 0.1"),
        ('{ kind = "lossy" }', 'link[0].loss.kind: expected one of "bernoulli"'),
    ],
)
def test_loss_model_mistakes(loss: str, message: str) -> None:
    assert error(LOSSY.replace("LOSS", loss)).startswith(f"scenario.toml: {message}")


def test_toml_syntax_error_names_file_and_line() -> None:
    message = error(SMALL.replace('delay = "1ms"', "delay = "))
    assert message.startswith("scenario.toml: line 13, column 9: invalid TOML: ")


def test_load_scenario_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(SMALL.replace('"10Mb/s"', '"10Mbs"'))
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert str(info.value).startswith(f"{path}: link[0].rate: expected a rate like")
    with pytest.raises(ScenarioError, match="No such file"):
        load_scenario(tmp_path / "missing.toml")


def test_name_defaults_to_the_file_stem(tmp_path: Path) -> None:
    path = tmp_path / "my-run.toml"
    path.write_text(SMALL.replace('name = "small"\n', "", 1))
    assert load_scenario(path).name == "my-run"


# --- the Python API builds the same document ---------------------------------------------


def test_network_api_matches_the_toml_example() -> None:
    net = Network("reno-vs-cbr", profile="ns2")
    net.nodes("s1", "r1", "r2", "d1")
    net.link("s1", "r1", rate="100Mb/s", delay="1ms", queue_limit=100)
    net.link("r1", "r2", rate="10Mb/s", delay="29ms", queue_limit=100,
             loss={"kind": "bernoulli", "p": 0.001})
    net.link("r2", "d1", rate="100Mb/s", delay="1ms")
    net.defaults(packet_size=1460, window=100)
    net.tcp("tcp1", "s1", "d1", variant="reno", cc="reno", sink="ack-every")
    net.udp("cbr", "s1", "d1", rate="8Mb/s", packet_size=1000)
    sc = net.scenario(duration="250s", warmup="50s", seed=1, sample_interval="0.1s")
    assert resolve(sc) == doc(EXAMPLE)


def test_network_api_takes_the_other_run_keys() -> None:
    """routing, ties, check, max_events and max_packets: the same document as a scenario
    file's [run] table with them; a misspelt key is named, not ignored."""
    text = EXAMPLE.replace(
        "[run]\n", '[run]\nrouting = "ecmp"\nties = "ns2"\ncheck = true\nmax_events = 7\n'
        "max_packets = 9\n", 1)
    assert "max_packets = 9" in text
    net = Network("reno-vs-cbr", profile="ns2")
    net.nodes("s1", "r1", "r2", "d1")
    net.link("s1", "r1", rate="100Mb/s", delay="1ms", queue_limit=100)
    net.link("r1", "r2", rate="10Mb/s", delay="29ms", queue_limit=100,
             loss={"kind": "bernoulli", "p": 0.001})
    net.link("r2", "d1", rate="100Mb/s", delay="1ms")
    net.defaults(packet_size=1460, window=100)
    net.tcp("tcp1", "s1", "d1", variant="reno", cc="reno", sink="ack-every")
    net.udp("cbr", "s1", "d1", rate="8Mb/s", packet_size=1000)
    sc = net.scenario(duration="250s", warmup="50s", seed=1, sample_interval="0.1s",
                      routing="ecmp", ties="ns2", check=True, max_events=7, max_packets=9)
    assert resolve(sc) == resolve(loads_scenario(text))
    assert resolve(sc)["run"]["ties"] == "ns2" and resolve(sc)["run"]["max_events"] == 7
    with pytest.raises(ScenarioError, match=r"^run\.tie: unknown key \"tie\""):
        net.scenario(duration="1s", tie="ns2")
    with pytest.raises(ScenarioError, match=r"^run\.ties: expected \"insertion\" or \"ns2\""):
        net.run(duration="1s", ties="ns-2")


def test_network_api_errors_name_the_entry() -> None:
    net = Network("x")
    net.nodes("a", "b")
    net.link("a", "b", rate="10Mbs", delay="1ms")
    with pytest.raises(ScenarioError) as info:
        net.scenario(duration="1s")
    assert str(info.value).startswith('link[0].rate: expected a rate like "10Mb/s"')
    with pytest.raises(ScenarioError, match=r"^flow\[0\]\.windw: unknown TCP parameter"):
        net.tcp("t", "a", "b", windw=3)


def test_dumbbell() -> None:
    net = Network.dumbbell(3, rate="20Mb/s", queue_limit=50, window=64,
                           start={"uniform": ["0s", "1s"]})
    d = resolve(net.scenario(duration="5s"))
    assert d["nodes"][:2] == ["r1", "r2"]
    assert len(d["links"]) == 2 * (1 + 2 * 3)
    assert d["links"][0]["rate_bps"] == 20e6
    assert d["links"][0]["queue"]["limit_packets"] == 50
    assert [f["tcp"]["window"] for f in d["flows"]] == [64, 64, 64]
    assert d["flows"][2]["app"]["start"] == {"uniform": [0, 1 * S]}


def test_ns2_parameter_names_are_aliases() -> None:
    import ackclock as ac

    net = ac.Network("aliases")
    net.nodes("a", "b")
    net.link("a", "b", rate="10Mb", delay="1ms")
    net.tcp("t", "a", "b", sink="delack", numdupacks_=4, rtxcur_init_=1.5, interval_="50ms",
            maxburst_=3, max_ssthresh_=100, timestamps_=1, singledup_=0, windowInit_=4)
    tcp = ac.resolve(net.scenario(duration="1s"))["flows"][0]["tcp"]
    assert (tcp["dupack_threshold"], tcp["initial_rto_ps"], tcp["ack_delay_ps"]) == (
        4, 1_500_000_000_000, 50_000_000_000)
    assert (tcp["max_burst"], tcp["max_ssthresh"], tcp["window_init"]) == (3, 100, 4)
    assert tcp["timestamps"] is True and tcp["limited_transmit"] is False


SHARED_COPIES = """
name = "counted"
[run]
duration = "1s"
[[node]]
name = "left"
[[node]]
count = 3
name = "s{i}"
[[link]]
count = 3
from = "s{i}"
to = "left"
rate = "10Mb/s"
delay = "1ms"
queue = { kind = "droptail", limit = 20 }
[[flow]]
count = 3
name = "f{i}"
kind = "tcp"
from = "s{i}"
to = "left"
window = 30
app = { kind = "ftp", start = { uniform = ["0s", "10ms"] } }
"""


@pytest.mark.parametrize("share", [False, True])
def test_a_set_on_one_copy_of_a_counted_table_changes_that_copy_alone(share: bool) -> None:
    """The command line's documents share the tables the copies of a `count = N` table have
    in common (memory at 100 000 flows); an override on one copy's nested table copies it
    first, and the result is the document of copies of their own."""
    from ackclock.toml_loader import loads_resolved

    overrides = ["link.s1-left.queue.limit=7", "flow.f2.app.start.uniform=['1s', '2s']",
                 "flow.f0.window=9"]
    _, doc = loads_resolved(SHARED_COPIES, overrides=overrides, share=share)
    _, separate = loads_resolved(SHARED_COPIES, overrides=overrides)
    assert doc == separate
    assert [x["queue"]["limit_packets"] for x in doc["links"][::2]] == [20, 7, 20]
    assert [f["app"]["start"] for f in doc["flows"]] == [
        {"uniform": [0, 10 * MS]}, {"uniform": [0, 10 * MS]}, {"uniform": [S, 2 * S]}]
    assert [f["tcp"]["window"] for f in doc["flows"]] == [9, 30, 30]
    if share:  # the unchanged copies' tables are one object
        assert doc["flows"][1]["tcp"] is doc["flows"][2]["tcp"]
        assert doc["links"][0]["queue"] is doc["links"][4]["queue"]
        assert doc["flows"][0]["app"] is doc["flows"][1]["app"]
    else:
        assert doc["flows"][1]["tcp"] is not doc["flows"][2]["tcp"]


def _loaded(text: str, share: bool, overrides: list[str] | None = None) -> Any:
    """The scenario model (origins included) and document, or the error's line."""
    from ackclock.toml_loader import loads_resolved

    try:
        sc, d = loads_resolved(text, "s.toml", overrides=overrides or [], share=share)
    except ScenarioError as e:
        return str(e)
    origins = [x.origin for x in (*sc.nodes, *sc.links, *sc.flows)]
    return sc, origins, d


@pytest.mark.parametrize(("old", "new"), [
    ("", ""),
    ('name = "f{i}"', 'name = "f"'),  # a duplicate name, named at its copy
    ('from = "s{i}"\nto = "left"\nrate', 'from = "s{i}"\nto = "x"\nrate'),  # unknown node
    ("limit = 20", "limt = 20"),  # the first copy's queue, named at copy 0
    ('delay = "1ms"', 'delay = "1ms"\nbogus = 1'),
    ('window = 30', 'window = 30\nfid = 4\nheader_size = 40\ntrace = ["cwnd"]'),
    ('kind = "tcp"', 'kind = "udp"'),  # the first copy's missing app... none: ftp is given
    ('kind = "tcp"\n', 'kind = "udp"\nheader_size = 20\n'),
    ('delay = "1ms"', 'delay = "1ms"\nloss = { kind = "bernoulli", p = 0.1 }'),
    ('start = { uniform = ["0s", "10ms"] }', 'start = "{i}ms"'),  # varies: copies as before
    ('count = 3\nname = "s{i}"', 'count = 0\nname = "s{i}"'),
])
def test_counted_tables_built_without_their_copies_are_the_copies(old: str, new: str) -> None:
    """The command line (``share``, no override on an entry) builds a `count = N` table whose
    copies differ only in their names from its first copy's model (`_Repeat`): the same
    models with the same origins, the same document, or the same error as copy by copy."""
    text = SHARED_COPIES.replace(old, new)
    assert _loaded(text, True) == _loaded(text, False)
    # An override on an entry makes the copies first, as before.
    assert (_loaded(text, True, ["flow.f1.window=9"])
            == _loaded(text, False, ["flow.f1.window=9"]))


@pytest.mark.parametrize("share", [False, True])
def test_shared_tables_are_still_checked_per_entry(share: bool) -> None:
    """Loaded with ``share``, entries with one app or queue table are checked once: a flow
    whose application is missing is still named after TCP flows that need none, and a copy
    whose own values are wrong is named itself."""
    from ackclock.toml_loader import loads_resolved

    text = SHARED_COPIES.replace('app = { kind = "ftp", start = { uniform = ["0s", "10ms"] } }',
                                 "")
    udp = '[[flow]]\nname = "u"\nkind = "udp"\nfrom = "s0"\nto = "left"\n'
    with pytest.raises(ScenarioError, match=r"flow\[1\]\.app: missing table"):
        loads_resolved(text + udp, share=share)
    bad_rate = text.replace('rate = "10Mb/s"', 'rate = "{i}Mb/s"')
    with pytest.raises(ScenarioError, match=r"link\[0\]\{i=0\}\.rate: expected a positive"):
        loads_resolved(bad_rate, share=share)
    _, doc = loads_resolved(bad_rate.replace('"{i}Mb/s"', '"1{i}Mb/s"'), share=share)
    assert [x["rate_bps"] for x in doc["links"][::2]] == [10e6, 11e6, 12e6]


def test_each_loss_model_class_has_its_kinds_keys_of_the_schema() -> None:
    """A link's loss model is one class per kind (scenario.LOSS_BY_KIND) with exactly the keys
    schema.LOSS gives that kind, so the file's table and the model say one thing."""
    from dataclasses import fields

    from ackclock import schema
    from ackclock.scenario import LOSS_BY_KIND, Bernoulli, DropList
    from ackclock.toml_loader import loss_model

    assert set(LOSS_BY_KIND) == set(schema.LOSS_KINDS)
    for kind, cls in LOSS_BY_KIND.items():
        assert {f.name for f in fields(cls)} == set(schema.LOSS[kind]), kind
    assert loss_model({"kind": "bernoulli", "p": 0.1}, "loss") == Bernoulli(p=0.1)
    assert loss_model({"kind": "drop_list", "flow": "f", "packets": [3]}, "loss") == DropList(
        flow="f", packets=[3])


def test_the_command_lines_document_leaves_the_collector_until_the_command_returns(
        tmp_path: Path) -> None:
    """``freeze``: the objects alive once the document is resolved leave the cyclic garbage
    collector (10 000 flows: 130 000 objects it would walk again and again); `ackclock run`
    gives them back when it returns, so that calling it again in one process leaks nothing."""
    import gc

    from ackclock.cli import main
    from ackclock.toml_loader import load_resolved

    path = tmp_path / "s.toml"
    path.write_text(SHARED_COPIES)
    gc.unfreeze()
    try:
        _, frozen = load_resolved(path, share=True, engine_rules=False, freeze=True)
        assert gc.get_freeze_count() > 0
        assert all(o is not frozen for o in gc.get_objects())  # the young and old ones
    finally:
        gc.unfreeze()
    _, plain = load_resolved(path, share=True, engine_rules=False)
    assert plain == frozen and gc.get_freeze_count() == 0
    assert main(["run", str(path), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert gc.get_freeze_count() == 0
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["scenario"] == plain


@pytest.mark.parametrize("copier", ["deepcopy", "copy_entries"])
def test_entries_deep_copy_as_the_standard_library_does(copier: str) -> None:
    """Node, Link, Flow and QueueConfig copy themselves (scenario._deepcopy_slots, and the
    engine's copier behind scenario.copy_entries, for Network.scenario's speed): the same copy
    as copy's generic path, shared objects still shared within one copy, nothing mutable
    shared with the original (a node is frozen: its own copy)."""
    from ackclock.scenario import _ATOMIC, Flow, Link, Node, QueueConfig, copy_entries

    net = Network("copies", profile="ns2")
    net.nodes("a", "b", "c")
    net.link("a", "b", rate="10Mb/s", delay="5ms", queue_limit=20,
             loss={"kind": "drop_list", "flow": "f", "packets": [3, 5]})
    net.link("b", "c", rate="1Mb/s", delay="1ms", queue="red", queue_limit=30)
    net.tcp("f", "a", "c", window=40, start={"uniform": ["0s", "0.1s"]}, trace=["cwnd"])
    sc = net.scenario(duration="1s")
    assert resolve(copy.deepcopy(sc)) == resolve(sc)
    shared = {"x": [1, 2]}
    sc.flows[0].tcp["shared_a"] = shared
    sc.links[1].queue.params["shared_b"] = shared
    # Held by the two entries alone (the engine's copier leaves what one place holds out of
    # the memo: this is held in two).
    sc.flows[0].tcp["only_entries"] = sc.links[0].queue.params["only_entries"] = [3]
    entries: list[Any] = [*sc.nodes, *sc.links, *sc.flows, sc.links[1].queue]
    fast = copy.deepcopy(entries) if copier == "deepcopy" else copy_entries(entries, {})
    assert {type(x) for x in entries} == {Node, Link, Flow, QueueConfig}
    assert fast == entries
    assert [type(x) for x in fast] == [type(x) for x in entries]
    for new, old in zip(fast, entries, strict=True):
        assert (new is old) == (type(old) is Node)
        for name in type(old).__slots__:
            value = getattr(old, name)
            if type(value) not in _ATOMIC:
                assert getattr(new, name) is not value, name
    # One copy keeps what the original shared (the memo): the flow's table and the queue's
    # params hold one dict, and the queue entry is the second link's queue.
    assert fast[-2].tcp["shared_a"] is fast[4].queue.params["shared_b"]
    assert fast[-1] is fast[4].queue
    assert fast[-2].tcp["only_entries"] is fast[3].queue.params["only_entries"]
    assert fast[-2].tcp["only_entries"] is not sc.flows[0].tcp["only_entries"]
    assert fast[-2].tcp["shared_a"] is not shared


def test_a_network_changed_after_a_snapshot_or_a_run_leaves_them_alone() -> None:
    """Network.scenario hands out a copy (its nodes and immutable applications shared, being
    immutable) and Network.run records its own document: changing the network afterwards
    through the handles its calls returned, inside and out, changes neither."""
    net = Network("handles", profile="ns2")
    net.nodes("a", "b", "c")
    link = net.link("a", "b", rate="10Mb/s", delay="5ms", queue_limit=20,
                    loss={"kind": "drop_list", "flow": "f", "packets": [3, 5]})
    red = net.link("b", "c", rate="10Mb/s", delay="1ms", queue="red", max_thresh=10)
    flow = net.tcp("f", "a", "c", window=40, start={"uniform": ["0s", "0.1s"]})
    sc = net.scenario(duration="1s")
    before = resolve(sc)
    res = net.run(duration="1s")
    recorded = json.dumps(res.summary["scenario"])
    link.rate = "1Mb/s"
    link.loss_at_entry = True
    link.queue.limit = 5
    red.queue.params["max_thresh"] = 15
    flow.tcp["window"] = 7
    flow.trace = ["cwnd"]
    flow.app.start["uniform"][1] = "0.5s"  # a frozen application's mutable table
    assert resolve(sc) == before
    assert json.dumps(res.summary["scenario"]) == recorded
    after = resolve(net.scenario(duration="1s"))  # the network itself did change
    assert after["links"][0]["rate_bps"] == 1_000_000
    assert after != before


def test_links_whose_queues_differ_in_one_field_resolve_apart() -> None:
    """Queues that differ only in BQL's hold time, or in a flag written 1 for true, are each
    resolved on their own: scenario._queue_cached's key once left both out, and the second
    link took the first one's hold time, or its flag unchecked."""
    net = Network("bql", profile="ns3")
    net.nodes("a", "b", "c")
    for a, b, hold in (("a", "b", "1s"), ("b", "c", "2s")):
        net.link(a, b, rate="10Mb/s", delay="1ms", queue="fq_codel", device_limit=100,
                 bql=True, bql_hold_time=hold)
    net.tcp("f", "a", "c")
    doc = resolve(net.scenario(duration="1s"))
    assert [d["queue"]["device"]["bql_hold_time_ps"] for d in doc["links"]] == [
        10**12, 10**12, 2 * 10**12, 2 * 10**12]
    net.link("c", "a", rate="10Mb/s", delay="1ms", queue_limit=10, ns2_queue=True)
    net.link("a", "c", rate="10Mb/s", delay="1ms", queue_limit=10, ns2_queue=1)  # not a bool
    with pytest.raises(ScenarioError, match=r"^link\[3\]\.queue\.ns2: expected true or false"):
        net.scenario(duration="1s")


def test_flows_whose_tcp_values_differ_only_in_type_resolve_apart() -> None:
    """A window of 2.0 beside one of 2 (equal keys) is refused, not given the first flow's
    resolved table: scenario._tcp_cached's key and _tcp_over's values are typed."""
    net = Network("typed", profile="ns2")
    net.nodes("a", "b")
    net.link("a", "b", rate="10Mb/s", delay="1ms")
    net.tcp("f", "a", "b", window=2)
    g = net.tcp("g", "a", "b", window=2.0)
    with pytest.raises(ScenarioError, match=r"^flow\[1\]\.window: expected a whole number"):
        net.scenario(duration="1s")
    g.tcp.update(window=3, segs_per_ack=2)
    net.tcp("h", "a", "b", window=4, segs_per_ack=2.0)  # another table: from the values seen
    with pytest.raises(ScenarioError, match=r"^flow\[2\]\.segs_per_ack: expected a whole"):
        net.scenario(duration="1s")


@pytest.mark.parametrize("profile", ["ns2", "linux", "ns3"])
def test_a_flows_tcp_table_from_the_parameters_before_its_own(profile: str) -> None:
    """_tcp_over resolves only what a flow's own TCP keys change, from the table of the
    parameters before them (_tcp_base): on random flows over random defaults, the same table
    as _tcp's whole resolution, or the same first mistake (message and key path)."""
    import random

    from ackclock.scenario import Flow, _tcp, _tcp_base, _tcp_over, get_profile

    rng = random.Random(31)
    own_values: dict[str, list[Any]] = {
        "window": [20, 64, 1, 1.0, 0, -1, "x", True],
        "initial_ssthresh": ["window", 30, "unbounded", 0],
        "hystart": [True, False, "linux", "ns3", "x"],
        "cc_params": [{"beta": 0.7}, {"beta": -1.0}, {"alpha": 2}, {"beta": "x"}, 3],
        "min_rto": ["200ms", "0s", 0.2, "x"],
        "packet_size": [1000, "1KB", 0, -5],
        "sack": [True, 1, 2],
        "segs_per_ack": [1, 2, 0],
        "read_rate": [None, "10Mb/s", "x"],
        "rcv_buffer": [None, "64KB", -1],
        "window_unit": ["packets", "bytes", "x"],
    }
    names = list(own_values)
    p = get_profile(profile)
    for _ in range(300):
        defaults = {k: rng.choice(own_values[k]) for k in rng.sample(names, rng.randint(0, 3))}
        if rng.random() < 0.3:
            defaults["variant"] = rng.choice(["sack", "newreno", "fack"])
        tmix = rng.random() < 0.2
        base = _tcp_base(p, defaults, tmix)
        for _ in range(5):
            flow = Flow(name="f", from_="a", to="b",
                        variant=rng.choice([None, None, "reno", "sack", "newreno", "x"]),
                        cc=rng.choice([None, None, "reno", "cubic", "bbr", "vegas", "x"]),
                        sink=rng.choice([None, None, None, "sack", "delack"]),
                        tcp={k: rng.choice(own_values[k])
                             for k in rng.sample(names, rng.randint(0, 4))})
            outcomes = []
            for way in ("whole", "over"):
                try:
                    outcomes.append(_tcp(flow, "flow[3]", p, defaults, tmix) if way == "whole"
                                    or base is None else _tcp_over(base, flow, "flow[3]"))
                except ScenarioError as e:
                    outcomes.append((e.path, e.message))
            assert outcomes[0] == outcomes[1], (defaults, flow)
            if isinstance(outcomes[0], dict):
                assert list(outcomes[0]) == list(outcomes[1])  # the order summary.json keeps
