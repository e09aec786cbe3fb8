"""Two-way TCP connections (docs/full-tcp.md): handshake and FINs in the traces, exact bytes
both ways, recovery under loss, piggy-backed ACKs, determinism, input errors."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import ackclock as ac
from ackclock import ScenarioError, loads_scenario, resolve
from ackclock.toml_loader import load_scenario

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "full_tcp.toml"


def network(loss: float = 0.0, profile: str = "linux") -> ac.Network:
    """client - r1 - r2 - server; with ``loss``, both directions of r1-r2 lose packets."""
    net = ac.Network("full", profile=profile)
    net.nodes("client", "r1", "r2", "server")
    net.link("client", "r1", rate="100Mb/s", delay="1ms")
    if loss:
        net.link("r1", "r2", rate="10Mb/s", delay="20ms", duplex=False,
                 loss={"kind": "bernoulli", "p": loss})
        net.link("r2", "r1", rate="10Mb/s", delay="20ms", duplex=False,
                 loss={"kind": "bernoulli", "p": loss})
    else:
        net.link("r1", "r2", rate="10Mb/s", delay="20ms")
    net.link("r2", "server", rate="100Mb/s", delay="1ms")
    return net


def rows(results: ac.Results) -> dict[str, dict[str, Any]]:
    return {r["flow"]: r for r in results.flows.to_dict("records")}


def tshark(pcap: Path, display_filter: str) -> list[str]:
    out = subprocess.run(["tshark", "-r", str(pcap), "-Y", display_filter],
                         capture_output=True, text=True, check=True).stdout
    return out.splitlines()


@pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark is not installed")
def test_handshake_and_fins_are_visible_to_tshark(tmp_path: Path) -> None:
    net = network()
    net.tcp("web", "client", "server", two_way=True, size=3000, reply_size=20_000)
    net.trace("pcap", "client.pcap", nodes=["client"])
    net.run("5s", out=tmp_path, progress=False)
    pcap = tmp_path / "client.pcap"
    syns = tshark(pcap, "tcp.flags.syn==1")
    assert len(syns) == 2
    assert "[SYN]" in syns[0] and "[SYN, ACK]" in syns[1]
    assert len(tshark(pcap, "tcp.flags.fin==1")) == 2
    # The third segment is the handshake's pure ACK: Seq=1 Ack=1, no payload.
    third = tshark(pcap, "frame.number==3")[0]
    assert "[ACK]" in third and "Seq=1 Ack=1" in third and "Len=0" in third
    # One clean stream: no retransmissions, gaps or out-of-order segments for tshark.
    assert tshark(pcap, "tcp.analysis.flags && !tcp.analysis.window_update") == []
    assert len(tshark(pcap, "tcp.stream==0")) == len(tshark(pcap, "tcp"))


@pytest.mark.parametrize("exchange", ["request-response", "concurrent"])
@pytest.mark.parametrize("sizes", [(1, 1), (1000, 0), (123_457, 2_000_001)])
def test_finite_transfers_deliver_exactly_their_bytes_and_close(
        exchange: str, sizes: tuple[int, int]) -> None:
    net = network()
    net.tcp("c", "client", "server", two_way=True, size=sizes[0], reply_size=sizes[1],
            exchange=exchange)
    res = net.run("20s", progress=False)
    flows = rows(res)
    assert flows["c"]["bytes_delivered"] == sizes[0]
    assert flows["c.reply"]["bytes_delivered"] == sizes[1]
    assert (flows["c.reply"]["from"], flows["c.reply"]["to"]) == ("server", "client")
    conn = res.connections.iloc[0]
    assert conn["finish_s"] > conn["setup_s"] > 0
    assert {conn["state_initiator"], conn["state_acceptor"]} <= {"CLOSED", "TIME-WAIT"}
    # The connection stops: nothing is sent after it closed.
    detail = res.flows_detail
    assert detail["last_tx_s"].max() <= conn["finish_s"]


@pytest.mark.parametrize("variant", ["newreno", "sack"])
def test_data_both_ways_under_loss_completes(variant: str) -> None:
    net = network(loss=0.01)
    net.tcp("bulk", "client", "server", two_way=True, size="3MB", reply_size="2MB",
            exchange="concurrent", variant=variant)
    res = net.run("60s", progress=False)
    flows = rows(res)
    assert flows["bulk"]["bytes_delivered"] == 3_000_000
    assert flows["bulk.reply"]["bytes_delivered"] == 2_000_000
    assert flows["bulk"]["fast_retransmits"] > 0 and flows["bulk.reply"]["fast_retransmits"] > 0
    assert res.connections["finish_s"].notna().all()


def test_piggybacking_sends_fewer_pure_acks_than_two_one_way_flows() -> None:
    # ns-2's initial window of 2 segments: the directions' bursts do not cross in lockstep
    # (with 10-segment bursts at once they do, and ACKs on data are then always stale).
    two = network(profile="ns2")
    two.tcp("x", "client", "server", two_way=True, size="1MB", reply_size="1MB",
            exchange="concurrent", sink="delack")
    one = network(profile="ns2")
    one.tcp("up", "client", "server", size="1MB", sink="delack")
    one.tcp("down", "server", "client", size="1MB", sink="delack")
    a, b = two.run("20s", progress=False), one.run("20s", progress=False)
    assert a.flows["bytes_delivered"].tolist() == [1_000_000, 1_000_000]
    assert b.flows["bytes_delivered"].tolist() == [1_000_000, 1_000_000]
    assert a.flows["acks_sent"].sum() < 0.2 * b.flows["acks_sent"].sum()


def test_runs_are_deterministic() -> None:
    def once() -> str:
        net = network(loss=0.02)
        net.tcp("x", "client", "server", two_way=True, size="1MB", reply_size="500KB",
                exchange="concurrent", variant="sack")
        res = net.run("30s", progress=False)
        return res.flows.to_csv() + res.connections.to_csv()

    assert once() == once()


def test_the_example_runs_and_every_connection_closes(tmp_path: Path) -> None:
    res = ac.run_scenario(load_scenario(EXAMPLE), progress=False, trace_dir=tmp_path)
    conns = res.connections
    assert len(conns) == 11
    assert conns["finish_s"].notna().all()
    flows = rows(res)
    assert flows["get3.reply"]["bytes_delivered"] == 50_000
    assert flows["sync"]["bytes_delivered"] == flows["sync.reply"]["bytes_delivered"] == 4_000_000
    assert (tmp_path / "client.pcap").stat().st_size > 0
    header = (tmp_path / "bottleneck.tr").read_text().splitlines()[0].split()
    assert header[4] == "tcp" and header[13] == "0xa", "the first SYN with its flags (SYN, PUSH)"


BASE = """
name = "t"
[run]
duration = "1s"
[[node]]
name = "a"
[[node]]
name = "b"
[[link]]
from = "a"
to = "b"
rate = "10Mb/s"
delay = "1ms"
"""


def error(flow: str) -> str:
    with pytest.raises(ScenarioError) as info:
        resolve(loads_scenario(BASE + flow, source="s.toml"))
    message = str(info.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(("flow", "expected"), [
    ('[[flow]]\nname = "u"\nkind = "udp"\nfrom = "a"\nto = "b"\ntwo_way = true\n'
     'app = { kind = "cbr", rate = "1Mb/s", packet_size = 100 }', "flow[0].two_way"),
    ('[[flow]]\nname = "t"\nkind = "tcp"\nfrom = "a"\nto = "b"\n'
     'app = { kind = "ftp", size = 10, reply_size = 10 }', "two_way = true"),
    ('[[flow]]\nname = "t"\nkind = "tcp"\nfrom = "a"\nto = "b"\ntwo_way = true\n'
     'app = { kind = "ftp", size = 10, exchange = "chat" }', "flow[0].app.exchange"),
    ('[[flow]]\nname = "t"\nkind = "tcp"\nfrom = "a"\nto = "b"\ntwo_way = true\n'
     'app = { kind = "ftp", exchange = "request-response" }', "finite request"),
    ('[[flow]]\nname = "t"\nkind = "tcp"\nfrom = "a"\nto = "b"\ntwo_way = true\nsyn = false\n'
     'app = { kind = "ftp", size = 10 }', "handshake"),
    ('[[flow]]\nname = "t"\nkind = "tcp"\nfrom = "a"\nto = "b"\ntwo_way = "yes"\n'
     'app = { kind = "ftp", size = 10 }', "expected true or false"),
    ('[[flow]]\nname = "t"\nkind = "tcp"\nfrom = "a"\nto = "b"\ntwo_way = true\n'
     'app = { kind = "ftp", size = 10, reply_size = "lots" }', "flow[0].app.reply_size"),
    ('[[flow]]\nname = "t"\nkind = "tcp"\nfrom = "a"\nto = "b"\ntwo_way = true\n'
     'app = { kind = "ftp", size = 10 }\n[[flow]]\nname = "t.reply"\nkind = "tcp"\n'
     'from = "a"\nto = "b"', "is taken by"),
])
def test_bad_input_is_a_one_line_error(flow: str, expected: str) -> None:
    assert expected in error(flow)


def test_resolved_document_pairs_the_two_directions() -> None:
    doc = resolve(loads_scenario(
        BASE + '[[flow]]\nname = "t"\nkind = "tcp"\nfrom = "a"\nto = "b"\ntwo_way = true\n'
        'app = { kind = "ftp", size = 10, reply_size = "endless" }\n'
        '[[flow]]\nname = "later"\nkind = "tcp"\nfrom = "a"\nto = "b"\n', source="s.toml"))
    names = [f["name"] for f in doc["flows"]]
    assert names == ["t", "later", "t.reply"], "reply directions come after the scenario's flows"
    t, reply = doc["flows"][0], doc["flows"][2]
    assert t["connection"] == {"peer": 2, "initiator": True, "exchange": "request-response"}
    assert reply["connection"] == {"peer": 0, "initiator": False,
                                   "exchange": "request-response"}
    assert (reply["from"], reply["to"]) == (t["to"], t["from"])
    assert reply["app"]["size_bytes"] is None and t["tcp"]["syn"] is True
