"""Traffic sources and finite transfers in whole runs, against their definitions."""

from __future__ import annotations

from pathlib import Path

import pytest

import ackclock as ac
from ackclock.network import Network

ROOT = Path(__file__).resolve().parents[2]


def one_link(rate: str = "100Mb/s") -> Network:
    net = Network("traffic")
    net.nodes("a", "b")
    net.link("a", "b", rate=rate, delay="5ms", queue_limit=10_000)
    return net


def test_cbr_delivers_its_configured_rate_with_and_without_jitter() -> None:
    for random in (False, True):
        net = one_link()
        net.udp("u", "a", "b", packet_size=1000, rate="2Mb/s", random=random)
        f = net.run(duration="100s").flows.iloc[0]
        # Payload rate: 1000 B every 4 ms. Jitter keeps the mean interval.
        assert f.goodput_mbps == pytest.approx(2.0, rel=0.005 if random else 1e-3)


def test_onoff_averages_rate_times_on_fraction() -> None:
    net = one_link()
    net.udp("u", "a", "b", app="onoff", packet_size=500, rate="4Mb/s",
            on={"exponential": "100ms"}, off={"exponential": "300ms"})
    # 50 000 on-off cycles: the on fraction's relative standard deviation is about 0.5%.
    f = net.run(duration="20000s").flows.iloc[0]
    assert f.goodput_mbps == pytest.approx(4.0 * 1 / 4, rel=0.02)


def test_pareto_onoff_runs_and_poisson_keeps_its_mean_rate() -> None:
    net = one_link()
    net.udp("p", "a", "b", app="onoff", packet_size=500, rate="4Mb/s",
            on={"pareto": ["500ms", 1.5]}, off={"pareto": ["500ms", 1.5]})
    net.udp("x", "a", "b", app="poisson", packet_size=1000, rate="1Mb/s")
    flows = net.run(duration="1000s").flows.set_index("flow")
    assert 0.5 < flows.loc["p"].goodput_mbps < 3.5
    assert flows.loc["x"].goodput_mbps == pytest.approx(1.0, rel=0.02)


def test_a_finite_transfer_delivers_exactly_its_size_and_stops() -> None:
    for size in (1, 1000, 1_000_000, 1_234_567):
        net = one_link("10Mb/s")
        net.tcp("t", "a", "b", size=size, window=64)
        f = net.run(duration="30s").flows.iloc[0]
        assert f.bytes_delivered == size
        assert 0 < f.completion_s < 30
        # Nothing is sent after the transfer: at most the segments (and SYN) it needed.
        assert f.packets_sent == -(-size // 1000) + 1


def test_completion_time_of_a_short_transfer_follows_slow_start() -> None:
    net = one_link("100Mb/s")
    net.tcp("t", "a", "b", size=10 * 1000, window=64)
    f = net.run(duration="5s").flows.iloc[0]
    # SYN round trip (10 ms), then windows of 2, 3 and... with one ACK per segment: cwnd
    # 2 -> 4 -> 8 delivers 10 segments in 3 more round trips (plus serialisation).
    rtt = 0.010
    assert f.completion_s == pytest.approx(4 * rtt, abs=0.002)


def test_trace_replay_reproduces_the_file(tmp_path: Path) -> None:
    trace = ROOT / "examples" / "traces" / "video.txt"
    records = [line.split() for line in trace.read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    total = sum(int(size) for _, size in records)
    net = one_link()
    net.udp("v", "a", "b", app="trace", file=str(trace), start="1s")
    f = net.run(duration="20s").flows.iloc[0]
    assert f.packets_sent == len(records)
    assert f.bytes_delivered == total


def test_trace_file_mistakes_name_the_line(tmp_path: Path) -> None:
    from ackclock.errors import ScenarioError

    bad = tmp_path / "bad.txt"
    bad.write_text("0.1 100\n0.05 200\n")
    net = one_link()
    net.udp("v", "a", "b", app="trace", file=str(bad))
    with pytest.raises(ScenarioError, match=r"bad.txt line 2\): time goes backwards"):
        net.run(duration="1s")


def test_a_one_segment_receive_buffer_allows_one_segment_per_round_trip() -> None:
    net = Network("rwnd", profile="linux")
    net.nodes("a", "r", "b")
    net.link("a", "r", rate="10Mb/s", delay="10ms", queue_limit=100)
    net.link("r", "b", rate="1.5Mb/s", delay="10ms", queue_limit=100)
    net.tcp("t", "a", "b", packet_size=1200, rcv_buffer=1200)
    f = net.run(duration="20s", warmup="2s").flows.iloc[0]
    # One 1200-byte segment per measured round trip (which includes the delayed ACK).
    assert f.goodput_mbps == pytest.approx(1200 * 8 / f.mean_rtt_s / 1e6, rel=0.02)
    assert f.packets_dropped == 0


def test_out_of_order_data_do_not_shrink_the_receive_window(tmp_path: Path) -> None:
    # ns-3.44's TcpRxBuffer::MaxRxSequence (RFC 1122 4.2.2.16): with the application reading
    # at once, the window is the whole buffer from the hole, whatever the buffer holds above
    # it. So in recovery a sender goes on to the hole + 40 segments; when the held segments
    # were taken off the window (ackclock before 2026-11-27), every ACK after the third
    # duplicate moved its right edge left, three segments short of that at least.
    net = Network("rwnd-ooo", profile="ns3")
    net.nodes("a", "r", "b")
    net.link("a", "r", rate="100Mb/s", delay="1ms", queue="droptail", queue_limit=1000)
    net.link("r", "b", rate="10Mb/s", delay="10ms", queue="droptail", queue_limit=1000,
             loss={"kind": "drop_list", "flow": "t", "packets": [20]})
    net.tcp("t", "a", "b", packet_size=1000, rcv_buffer=40_000)
    net.trace("ns2", "out.tr", links=["a->r", "r->b"], events=None)
    net.run(duration="2s", out=tmp_path / "run")
    lines = [x.split() for x in (tmp_path / "run" / "out.tr").read_text().splitlines()]
    lost = next(int(x[10]) for x in lines if x[0] == "d")
    sends = [(float(x[1]), int(x[10])) for x in lines if x[0] == "+" and x[2] == "0"]
    resent = [t for t, seq in sends if seq == lost][1]
    healed = next(float(x[1]) for x in lines
                  if x[0] == "r" and x[3] == "2" and int(x[10]) == lost and float(x[1]) > resent)
    in_recovery = [seq for t, seq in sends if resent < t <= healed]
    assert max(in_recovery) == lost + 40 - 1


def test_a_slow_reader_sets_the_rate_and_nothing_stalls() -> None:
    net = one_link("10Mb/s")
    net.tcp("t", "a", "b", rcv_buffer="20KB", read_rate="1Mb/s", window=1000)
    f = net.run(duration="60s", warmup="10s").flows.iloc[0]
    assert f.goodput_mbps == pytest.approx(1.0, rel=0.01)
    assert f.timeouts == 0


def test_flow_control_mistakes() -> None:
    from ackclock.errors import ScenarioError

    net = one_link()
    net.tcp("t", "a", "b", read_rate="1Mb/s")
    with pytest.raises(ScenarioError, match="read_rate: needs a rcv_buffer"):
        net.run(duration="1s")


def test_a_receive_buffer_below_one_segment_stops_the_sender_as_ns3s_does() -> None:
    # Seed 004's receive window of 0.1 segment: never zero, so no window probes, and never a
    # whole segment, so a sender avoiding silly windows sends nothing (ns-3: the handshake).
    net = one_link()
    net.tcp("t", "a", "b", rcv_buffer=120, packet_size=1200)
    f = net.run(duration="20s").flows.iloc[0]
    assert (f.packets_sent, f.bytes_delivered, f.timeouts) == (0, 0, 0)
    # One byte more than a segment and the flow moves, a segment per round trip.
    net = one_link()
    net.tcp("t", "a", "b", rcv_buffer=1201, packet_size=1200)
    assert net.run(duration="20s").flows.iloc[0].bytes_delivered > 0


def test_changing_one_flow_never_changes_another_flows_randomness() -> None:
    def run(extra: bool) -> tuple[float, int]:
        net = one_link()
        net.udp("p", "a", "b", app="poisson", packet_size=100, rate="1Mb/s",
                start={"uniform": ["0s", "1s"]})
        if extra:
            # Another random flow, declared before and after: its draws are its own.
            net.udp("q", "a", "b", app="onoff", packet_size=100, rate="1Mb/s",
                    on={"exponential": "10ms"}, off={"exponential": "10ms"},
                    start={"uniform": ["0s", "1s"]})
        f = net.run(duration="10s").flows.set_index("flow").loc["p"]
        return f.start_s, f.packets_sent

    assert run(False) == run(True)


def test_cbr_over_tcp_is_paced_by_the_application_then_by_the_network() -> None:
    """A rate-limited writer (ns-3's MyApp): below the bottleneck the flow carries what the
    application writes; above it, what TCP can get through."""
    def goodput(rate: str) -> float:
        net = Network("paced")
        net.nodes("a", "r", "b")
        net.link("a", "r", rate="10Mb/s", delay="10ms")
        net.link("r", "b", rate="1.5Mb/s", delay="10ms", queue_limit=20)
        net.tcp("t", "a", "b", app="cbr", rate=rate)
        r = net.run("60s", warmup="10s")
        return float(r.flows.set_index("flow").loc["t", "goodput_mbps"])

    assert goodput("0.5Mb/s") == pytest.approx(0.5, rel=0.01)
    assert goodput("1Mb/s") == pytest.approx(1.0, rel=0.01)
    assert 1.3 < goodput("5Mb/s") < 1.5


def test_after_connect_writes_first_one_interval_after_the_connection_opens(
        tmp_path: Path) -> None:
    """ns-3's OnOffApplication over TCP (`ConnectionSucceeded`, `StartSending`,
    `ScheduleNextTx`): with ``after_connect`` the first write comes one interval after the
    SYN-ACK arrives, one segment at a time; without it the writes from the start wait in the
    buffer and leave together with the handshake's end (ns-3's MyApp)."""
    departures = {}
    for after in (False, True):
        net = ac.Network("after", profile="ns3")
        net.nodes("a", "b")
        net.link("a", "b", rate="100Mb/s", delay="10ms")
        # One 1000-byte write every 1 ms (8 Mb/s).
        net.tcp("f", "a", "b", app="cbr", rate="8Mb/s", write_size="1000B", packet_size=1000,
                after_connect=after)
        net.trace("ns2", "a.tr", links=["a->b"], events=["-"])
        net.run(duration="0.05s", out=tmp_path / str(after))
        lines = (tmp_path / str(after) / "a.tr").read_text().splitlines()
        departures[after] = [float(x.split()[1]) for x in lines if int(x.split()[5]) > 1000]
    syn_ack = 0.020  # two 10 ms crossings, the frames' times aside
    no_wait, waited = departures[False], departures[True]
    # Without: the writes made during the handshake go at once when it ends.
    assert no_wait[0] == pytest.approx(syn_ack, abs=1e-4)
    assert sum(1 for t in no_wait if t < syn_ack + 1e-4) >= 10
    # With: one write 1 ms after the connection opens, then one a millisecond.
    assert waited[0] == pytest.approx(syn_ack + 0.001, abs=1e-4)
    assert waited[1] - waited[0] == pytest.approx(0.001, abs=1e-6)


def test_restart_every_carries_whole_bits_as_ns3_onoff(tmp_path: Path) -> None:
    """ns-3.44's OnOffApplication with OnTime T and OffTime 0 (``restart_every``): at each
    restart `CancelEvents` keeps only the whole bits sent since the last write
    (`m_residualBits += bits.GetHigh()`), so a write interrupted part-way through a bit comes
    that fraction later. 125-byte writes at 100 kb/s (1000 bits, 10 ms; a bit is 10 us) and
    restarts every 25.005 ms: each restart finds half a bit pending and drops it, and the
    next gap is 10.005 ms, the others 10 ms. Restarts every 30 ms fall on the writes: the
    restart comes first and counts the whole interval's 1000 bits as 999 (ns-3's 64.64
    fixed-point product lands just below a whole number), so the write comes a bit time
    (10 us) later."""
    gaps = {}
    for every in (None, "25.005ms", "30ms"):
        net = ac.Network("restart", profile="ns3")
        net.nodes("a", "b")
        net.link("a", "b", rate="100Mb/s", delay="10ms")
        net.tcp("f", "a", "b", app="cbr", rate="100kb/s", write_size="125B", packet_size=125,
                after_connect=True, restart_every=every)
        net.trace("ns2", "a.tr", links=["a->b"], events=["-"])
        net.run(duration="0.11s", out=tmp_path / str(every))
        lines = (tmp_path / str(every) / "a.tr").read_text().splitlines()
        times = [float(x.split()[1]) for x in lines if int(x.split()[5]) > 100]
        gaps[every] = [round((b - a) * 1e6) for a, b in zip(times[:-1], times[1:], strict=True)]
    assert gaps[None][:7] == [10_000] * 7
    assert gaps["25.005ms"][:7] == [10_000, 10_005, 10_000, 10_000, 10_005, 10_000, 10_005]
    assert gaps["30ms"][:7] == [10_000, 10_010, 10_000, 10_000, 10_010, 10_000, 10_000]


def test_restart_every_needs_after_connect() -> None:
    net = ac.Network("restart-alone", profile="ns3")
    net.nodes("a", "b")
    net.link("a", "b", rate="1Mb/s", delay="1ms")
    net.tcp("f", "a", "b", app="cbr", rate="100kb/s", restart_every="1s")
    with pytest.raises(ac.ScenarioError, match=r"restart_every: .*needs after_connect = true"):
        net.run(duration="1s")


def test_after_connect_is_refused_on_udp() -> None:
    net = ac.Network("udp-after")
    net.nodes("a", "b")
    net.link("a", "b", rate="1Mb/s", delay="1ms")
    net.udp("u", "a", "b", app=ac.Cbr(rate="100kb/s", packet_size="100B", after_connect=True))
    with pytest.raises(ac.ScenarioError,
                       match=r"flow\[0\]\.app\.after_connect: only an application"):
        net.run(duration="1s")


def test_ns3_handshake_has_its_frames_and_third_segment() -> None:
    """The ns3 profile's handshake as ns-3.44 sends it on a point-to-point device: a 58-byte SYN
    (PPP 2, IPv4 20, TCP 36 with timestamp, window scale and SACK-permitted), an empty 54-byte
    ACK before the first data (`ProcessSynSent`'s `SendEmptyPacket(ACK)`), which the receiver
    does not answer; one 536-byte segment then makes a 590-byte frame."""
    forward = {}
    for third in (False, True):
        net = ac.Network("handshake", profile="ns3")
        net.nodes("a", "b")
        net.link("a", "b", rate="10Mb/s", delay="10ms")
        net.tcp("f", "a", "b", app=ac.Ftp(size="536B"), handshake_ack=third)
        r = net.run(duration="1s")
        q = r.queues.set_index("link").loc["a->b"]
        forward[third] = (int(q.arrived_packets), int(q.arrived_bytes))
        assert int(r.flows.iloc[0].acks_sent) == 2  # the SYN-ACK and the data's ACK
    assert forward == {False: (2, 58 + 590), True: (3, 58 + 54 + 590)}
