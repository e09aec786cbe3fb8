"""Tmix connection vectors: reading, synthesizing and replaying them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ackclock as ac
from ackclock.errors import ScenarioError
from ackclock.tmix import as_connections, read_vectors, synthesize

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "tmix" / "sample.vec"


def replay(vectors: Path, rate: str = "100Mb/s", duration: str = "60s",
           queue_limit: int = 10_000, warmup: str | None = None) -> ac.Results:
    net = ac.Network("tmix")
    net.nodes("i", "r1", "r2", "a")
    net.link("i", "r1", rate="1Gb/s", delay="1ms", queue_limit=10_000)
    net.link("r1", "r2", rate=rate, delay="5ms", queue_limit=queue_limit)
    net.link("r2", "a", rate="1Gb/s", delay="1ms", queue_limit=10_000)
    net.tcp("bg", "i", "a", tmix=str(vectors), window=1000)
    return net.run(duration=duration, **({"warmup": warmup} if warmup else {}))


def one_link(name: str = "tmix", rate: str = "100Mb/s", tmix: Path | None = SAMPLE) -> ac.Network:
    """Two nodes, one 5 ms link, and a Tmix replay of ``tmix`` (or one FTP flow)."""
    net = ac.Network(name)
    net.nodes("i", "a")
    net.link("i", "a", rate=rate, delay="5ms")
    if tmix is None:
        net.tcp("f", "i", "a")
    else:
        net.tcp("bg", "i", "a", tmix=str(tmix))
    return net


def test_sample_file_is_read_as_written() -> None:
    conns = as_connections(read_vectors(SAMPLE, "app.file"))
    assert [c["concurrent"] for c in conns] == [False, False, True]
    first = conns[0]
    assert first["start_ps"] == 0 and first["rtt_ps"] == 50_000 * 10**6
    assert [(a["side"], a["bytes"], a["wait_ps"]) for a in first["adus"]] == [
        (0, 350, 0), (1, 12000, 5000 * 10**6), (0, 420, 500_000 * 10**6),
        (1, 85000, 3000 * 10**6)]
    conc = conns[2]
    assert [(a["side"], a["bytes"], a["wait_ps"]) for a in conc["adus"]] == [
        (0, 5000, 0), (0, 7000, 100_000 * 10**6), (1, 64000, 0)]


def test_replay_completes_every_connection_with_exact_byte_totals() -> None:
    res = replay(SAMPLE)
    c = res.connections
    assert len(c) == 3 and c.finish_s.notna().all()
    assert (c.adus_delivered == c.adus).all()
    assert (c.delivered_initiator == c.bytes_initiator).all()
    assert (c.delivered_acceptor == c.bytes_acceptor).all()
    flow = res.flows.iloc[0]
    assert flow.bytes_delivered == c.bytes_initiator.sum() + c.bytes_acceptor.sum()


def test_connection_rtt_follows_the_vector_min_rtt() -> None:
    # The first connection's first epoch: SYN round trip, a 350-byte request, a 5 ms server
    # wait, a 12 000-byte response in the first window: about 3 minimum RTTs of 50 ms.
    res = replay(SAMPLE)
    c = res.connections.iloc[2]  # CONC: 30 ms, each side's data in one window or two
    assert c.duration_s >= 0.03
    seq = res.connections.iloc[0]
    # 4 ADUs in two epochs with a 500 ms think time: at least 2 x 2 RTTs + 0.5 s.
    assert seq.duration_s > 0.5 + 4 * 0.05


def test_synthetic_vectors_replay_completely(tmp_path: Path) -> None:
    vectors = tmp_path / "syn.vec"
    synthesize(vectors, 100, seed=3, rate_per_s=50)
    conns = as_connections(read_vectors(vectors, "app.file"))
    assert len(conns) == 100
    res = replay(vectors, duration="120s")
    c = res.connections
    assert c.finish_s.notna().all()
    assert (c.delivered_acceptor == c.bytes_acceptor).all()
    # Heavy tails: the largest response carries far more than the median one.
    sizes = [a["bytes"] for conn in conns for a in conn["adus"] if a["side"] == 1]
    assert max(sizes) > 20 * sorted(sizes)[len(sizes) // 2]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("> 100\n", "before the first SEQ or CONC header"),
        ("SEQ 0 1\nr fast\n", "expected numbers after"),
        ("SEQ 0 1\nl 0.1\n", "l needs two loss rates"),
        ("SEQ 0 1\nc> 100\n", "unknown or misplaced line"),
        ("SEQ 0 0\nr 100\n", "has no ADUs"),
        ("SEQ 0 1\n> -100\n", "expected one non-negative number"),
        ("SEQ 0 1\n> 1.5\n", "expected a whole number of bytes"),
        ("SEQ 0 1\n> 10 20\n", "expected one non-negative number"),
        ("SEQ 0 1\n> many\n", "expected numbers after"),
        ("SEQ 0 1\n> 10\nt -1\n< 10\n", "expected one non-negative number"),
        ("SEQ 0 1\n> 10\nt nan\n< 10\n", "expected one non-negative number"),
        ("SEQ 0 1\n> 10\nt inf\n< 10\n", "expected one non-negative number"),
        ("SEQ nan 1\n> 10\n", "SEQ needs a start time in microseconds"),
        ("SEQ 0 1\nw -1 5\n> 10\n", "w needs two windows"),
        ("CONC inf 1 0\nc> 10\n", "CONC needs a start time in microseconds"),
    ],
)
def test_vector_mistakes_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    bad = tmp_path / "bad.vec"
    bad.write_text(text)
    with pytest.raises(ScenarioError, match=message):
        read_vectors(bad, "app.file")


def test_without_the_delay_box_connections_run_on_the_path_rtt(tmp_path: Path) -> None:
    def first_duration(**app: bool) -> float:
        # Not the ns2 profile, whose connections close 1 s after their last write (fin_wait).
        net = ac.Network("tmix", profile="linux")
        net.nodes("i", "a")
        net.link("i", "a", rate="1Gb/s", delay="1ms", queue_limit=10_000)
        net.tcp("bg", "i", "a", tmix=str(SAMPLE), window=1000, **app)
        return float(net.run(duration="10s").connections.iloc[1].duration_s)

    # Connection 2: SYN, a 200 B request, 1 ms wait, 1.5 MB response: a handful of its
    # vector's 120 ms RTTs with the delay box, a handful of 2 ms path RTTs without.
    assert first_duration() > 0.4
    assert first_duration(tmix_delay_box=False) < 0.1


def test_losses_false_ignores_the_vectors_loss_rates(tmp_path: Path) -> None:
    lossy = tmp_path / "lossy.vec"
    lossy.write_text(SAMPLE.read_text().replace("l 0.000000 0.000000", "l 0.200000 0.200000"))

    def retransmitted(**app: bool) -> int:
        net = ac.Network("tmix")
        net.nodes("i", "a")
        net.link("i", "a", rate="100Mb/s", delay="1ms", queue_limit=10_000)
        net.tcp("bg", "i", "a", tmix=str(lossy), window=1000, **app)
        return int(net.run(duration="60s").flows.iloc[0].packets_retransmitted)

    assert retransmitted() > 0
    assert retransmitted(tmix_losses=False) == 0


def test_unusual_but_valid_lines_read_as_their_numbers(tmp_path: Path) -> None:
    # The engine's reader declines these lines; the Python reader must read their numbers.
    vec = tmp_path / "odd.vec"
    vec.write_text("SEQ 0 3 0 1  # a comment\n>  1e3\nt 2.5 # comment\n< 40.0\nt 1\nt 7\n> 0\n"
                   "t 9\n")
    [conn] = as_connections(read_vectors(vec, "app.file"))
    assert [(a["side"], a["bytes"], a["wait_ps"]) for a in conn["adus"]] == [
        (0, 1000, 0), (1, 40, 2_500_000), (0, 0, 7_000_000)]
    assert conn["fin_wait_ps"] == 9_000_000  # the trailing t: its closing write's wait


def test_summary_json_lists_each_vector_column_on_one_line(tmp_path: Path) -> None:
    import json
    from array import array

    from ackclock.indented_json import dumps

    net = one_link()
    res = net.run(duration="2s", out=tmp_path / "out")
    text = (tmp_path / "out" / "summary.json").read_text()
    assert json.loads(text) == json.loads(dumps(res.summary))
    columns = res.summary["scenario"]["flows"][0]["app"]["connections"]
    assert isinstance(columns["adu_bytes"], array)  # written as the list of its numbers
    lines = [line.strip() for line in text.splitlines()]
    for key, values in columns.items():
        assert f"{json.dumps(key)}: {json.dumps(list(values), separators=(',', ':'))}" in {
            line.rstrip(",") for line in lines}
    # Without connection vectors the file is plain indented JSON.
    net = one_link("plain", tmix=None)
    res = net.run(duration="1s", out=tmp_path / "plain")
    assert (tmp_path / "plain" / "summary.json").read_text() == json.dumps(
        res.summary, indent=2) + "\n"


def test_replay_of_a_tmix_run_gives_the_same_connections(tmp_path: Path) -> None:
    from ackclock.run import load_replay, run_document

    net = one_link(rate="10Mb/s")
    first = net.run(duration="3s", out=tmp_path / "out")
    again = run_document(load_replay(tmp_path / "out" / "summary.json"))
    assert again.connections.equals(first.connections)


def test_engine_rejects_vector_columns_of_unequal_length() -> None:
    from ackclock.run import engine

    net = one_link(rate="10Mb/s")
    from ackclock.scenario import resolve

    doc = resolve(net.scenario("1s"))
    doc["flows"][0]["app"]["connections"]["adu_bytes"].pop()
    with pytest.raises(ValueError, match="adu_bytes: 8 values for 9 ADUs"):
        engine().Simulation(doc)


def test_engine_reads_vector_arrays_as_it_reads_their_text(tmp_path: Path) -> None:
    # The binding reads a dict's vector columns from their arrays (or lists), without JSON
    # text (crates/ackclock-py/src/tmix_arrays.rs): the same run as the document's text gives.
    import json
    from array import array

    from ackclock import _core
    from ackclock.indented_json import dumps
    from ackclock.results import _frame_of
    from ackclock.scenario import resolve

    vec = tmp_path / "syn.vec"
    synthesize(vec, 200, seed=5, rate_per_s=60, concurrent_fraction=0.3)
    doc = resolve(one_link(rate="10Mb/s", tmix=vec).scenario("4s"))
    conns = doc["flows"][0]["app"]["connections"]
    # Some connections' acceptors with windows of their own (the vectors' `w` lines).
    conns["window_initiator"] = array("Q", bytes(8 * 200))
    conns["window_acceptor"] = array("Q", [3000 if i % 3 else 0 for i in range(200)])
    as_lists = {**doc, "flows": [{**doc["flows"][0], "app": {
        **doc["flows"][0]["app"], "connections": {k: list(v) for k, v in conns.items()}}}]}
    runs = []
    for given in (doc, as_lists, dumps(doc)):
        _core.check_scenario(given)
        sim = _core.Simulation(given)
        sim.run_until(sim.duration_ps)
        runs.append(sim.results())
    first = _frame_of(runs[0]["connections"])
    assert len(first) == 200 and first.adus_delivered.sum() > 0
    for other in runs[1:]:
        assert _frame_of(other["connections"]).equals(first)
        assert _frame_of(other["flows"]).equals(_frame_of(runs[0]["flows"]))
    # The engine's reading of the document writes the columns back as they were given.
    back = json.loads(_core.read_scenario(dumps(doc)))["flows"][0]["app"]["connections"]
    assert back == {k: list(v) for k, v in conns.items()}


def test_vector_columns_the_arrays_cannot_give_are_read_from_the_text() -> None:
    from ackclock.run import engine
    from ackclock.scenario import resolve

    doc = resolve(one_link(rate="10Mb/s").scenario("1s"))
    conns = doc["flows"][0]["app"]["connections"]
    conns["adu_bytes"] = [float(x) for x in conns["adu_bytes"]]
    with pytest.raises(ValueError, match=r"^resolved scenario: flow\[0\]: invalid type: floating"):
        engine().Simulation(doc)
    conns["adu_bytes"] = [1, 2]
    conns["adu_side"][0] = 2
    with pytest.raises(ValueError, match=r"^flow\[0\]\.app\.connections\.adu_bytes: 2 values"):
        engine().Simulation(doc)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_engine_reader_and_python_reader_agree(tmp_path: Path, seed: int) -> None:
    # read_vectors takes the engine's reader (traffic/tmix/vectors.rs) for plain files and its own
    # otherwise: both must give the same columns, to the last picosecond.
    from ackclock import _core
    from ackclock.tmix import _parse_vectors

    vec = tmp_path / "syn.vec"
    synthesize(vec, 300, seed=seed, rate_per_s=100)
    text = vec.read_text()
    fast = _core.read_tmix_vectors(text)
    assert fast is not None
    assert fast == _parse_vectors(text, vec, "app.file")
    # Unusual but valid: the engine's reader declines, the result is the same file's.
    odd = text.replace("\n> ", "\n>  1_0#\n> ", 1)
    assert _core.read_tmix_vectors(odd) is None
    (tmp_path / "odd.vec").write_text(odd)
    assert read_vectors(tmp_path / "odd.vec", "app.file") == _parse_vectors(
        odd, tmp_path / "odd.vec", "app.file")
    for sample in (SAMPLE, ROOT / "examples" / "tmix" / "synthetic.vec"):
        assert _core.read_tmix_vectors(sample.read_text()) == _parse_vectors(
            sample.read_text(), sample, "app.file")


def test_closed_connections_give_back_their_endpoints() -> None:
    # A connection's two endpoints exist from its start until it is closed and quiet
    # (sim/tmix.rs); the engine reports TCP variables only for endpoints that exist. Its
    # half-connections take the first free slots: here those after the scenario's flow.
    from ackclock.run import engine
    from ackclock.scenario import resolve

    net = one_link()
    sim = engine().Simulation(resolve(net.scenario("30s", seed=1)))
    halves = range(1, 7)  # the scenario's one flow, then two halves per connection
    assert all(sim.tcp_vars(h) is None for h in halves)  # nothing started yet
    sim.run_until(int(0.2e12))  # connection 1 open; 2 and 3 start at 0.25 and 0.4 s
    assert sim.tcp_vars(1) is not None and sim.tcp_vars(2) is not None
    assert sim.tcp_vars(3) is None and sim.tcp_vars(5) is None
    sim.run_until(sim.duration_ps)
    res = sim.results()
    assert all(f is not None for f in res["connections"].to_dict()["finish_s"])
    assert all(sim.tcp_vars(h) is None for h in halves)


def test_closed_connections_slots_serve_later_ones(tmp_path: Path) -> None:
    """A connection's two half-connection flow entries are taken as it starts and go back to
    its application once it is closed and quiet (sim/tmix.rs; a stale timer event of the old
    connection finds the slot's generation moved on): 400 connections over 10 s, at most 55
    open at a time, hold about a pair for each connection open at once, not 800 entries, and
    every table is as in the run where each connection keeps its own pair (a packet trace
    keeps them: it numbers each half-connection's ports)."""
    import math

    from ackclock.run import engine
    from ackclock.scenario import resolve

    vectors = tmp_path / "v.vec"
    synthesize(vectors, 400, seed=3, rate_per_s=40.0)

    def run(trace: bool) -> tuple[int, str]:
        net = ac.Network("tmix")
        net.nodes("i", "r1", "r2", "a")
        net.link("i", "r1", rate="1Gb/s", delay="1ms", queue_limit=10_000)
        net.link("r1", "r2", rate="4Mb/s", delay="5ms", queue_limit=20, monitor_flows=True)
        net.link("r2", "a", rate="1Gb/s", delay="1ms", queue_limit=10_000)
        net.tcp("bg", "i", "a", tmix=str(vectors), window=1000)
        if trace:
            net.trace("ns2", "t.tr", links=["r1->r2"], events=["d"])
        doc = resolve(net.scenario("10s", warmup="3s"))
        if trace:
            doc["traces"][0]["path"] = str(tmp_path / "t.tr")
        sim = engine().Simulation(doc)
        sim.run_until(sim.duration_ps)
        res = sim.results()
        tables = ("flows", "connections", "flows_detail", "queue_flows")
        conns = res["connections"].to_dict()
        # The most connections open at once (a connection still open at the end: to the end).
        started = [(s, f) for s, f in zip(conns["start_s"], conns["finish_s"], strict=True)
                   if not math.isnan(s)]
        edges = sorted([(s, 1) for s, _ in started]
                       + [(math.inf if math.isnan(f) else f, -1) for _, f in started])
        most = open_now = 0
        for _, d in edges:
            open_now += d
            most = max(most, open_now)
        return sim.flow_entries, most, repr([res[t].to_dict() for t in tables])

    (reused, most, tables), (own, _, expected) = run(trace=False), run(trace=True)
    assert own == 1 + 2 * 400
    # Some 100 open at once, far fewer than the 400 that keep their own pairs; a few closed
    # ones wait for their last timers before their slots are freed. (Under the ns2 profile a
    # connection closes 1 s after its last write, fin_wait: 104 open at most and 107 pairs,
    # where closing at the last delivery gave fewer than 100 and at most 2 more pairs.)
    assert 40 < most < 200 and reused <= 1 + 2 * (most + 4), (reused, most)
    assert tables == expected


def _second_connection_duration(tmp_path: Path, vector_text: str, **app: bool) -> float:
    """Connection 2 of a vector file (a 200 B request, a 1.5 MB response) on a 100 ms path
    (2 x 25 ms each way) with ample queues."""
    from ackclock.apps import Tmix

    vec = tmp_path / "v.vec"
    vec.write_text(vector_text)
    net = ac.Network("tmix")
    net.nodes("i", "r", "a")
    net.link("i", "r", rate="1Gb/s", delay="25ms", queue_limit=10_000)
    net.link("r", "a", rate="1Gb/s", delay="25ms", queue_limit=10_000)
    net.tcp("bg", "i", "a", app=Tmix(file=str(vec), **app), window=1000, packet_size=1460)
    return float(net.run(duration="30s").connections.iloc[1].duration_s)


def test_rtt_added_holds_each_packet_half_the_vector_rtt_on_top_of_the_path(
        tmp_path: Path) -> None:
    # ns-2.35's Tmix_DelayBoxClassifier (create_flow_table, recv) holds every packet r / 2 in
    # each direction whatever the path's delay. Connection 2's r is 120 ms: by default its
    # base RTT is max(100 ms path, 120 ms) = 120 ms; with rtt_added 220 ms. Its handshake,
    # request and about ten window-growing rounds of the response scale with that RTT.
    text = SAMPLE.read_text()
    base = _second_connection_duration(tmp_path, text)
    added = _second_connection_duration(tmp_path, text, rtt_added=True)
    assert 1.6 < added / base < 2.0, (base, added)
    # With r below the path's RTT the default adds nothing, rtt_added still r.
    short = text.replace("r 120000", "r 60000")
    assert _second_connection_duration(tmp_path, short) == pytest.approx(
        _second_connection_duration(tmp_path, short, delay_box=False), rel=0.01)
    assert _second_connection_duration(tmp_path, short, rtt_added=True) > 1.4 * (
        _second_connection_duration(tmp_path, short))


def test_windows_cap_each_side_at_its_w_line(tmp_path: Path) -> None:
    # ns-2.35's Tmix sets each FullTcp agent's window_ to its side's w over the MSS
    # (ConnVector::set_init_win, Tmix instproc setup-tcp). The acceptor's w of 14 600 bytes
    # is 10 segments of 1460: its 1.5 MB response (1028 segments) then takes at least 103
    # round trips of 120 ms; with the flow's window of 1000 it takes about ten.
    text = SAMPLE.read_text().replace("SEQ 250000 2 0 2\nw 65535 65535",
                                      "SEQ 250000 2 0 2\nw 65535 14600")
    [_, conn, _] = as_connections(read_vectors(_write(tmp_path, text), "app.file"))
    assert conn["window"] == [65535, 14600]
    free = _second_connection_duration(tmp_path, text)
    capped = _second_connection_duration(tmp_path, text, windows=True)
    assert free < 3.0
    assert capped > 103 * 0.12, (free, capped)


def test_windows_travel_to_the_engine_only_when_asked(tmp_path: Path) -> None:
    from ackclock.apps import Tmix
    from ackclock.scenario import resolve

    def columns(**app: bool) -> dict[str, list[object]]:
        net = ac.Network("tmix")
        net.nodes("i", "a")
        net.link("i", "a", rate="1Gb/s", delay="1ms")
        net.tcp("bg", "i", "a", app=Tmix(file=str(SAMPLE), **app))
        return resolve(net.scenario("1s"))["flows"][0]["app"]["connections"]

    assert "window_initiator" not in columns()
    assert list(columns(windows=True)["window_acceptor"]) == [65535, 65535, 65535]


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "w.vec"
    p.write_text(text)
    return p


def test_a_tmix_flow_counts_from_the_warm_up_as_its_half_connections_do(tmp_path: Path) -> None:
    """The counters over [warm-up, end] are those of the whole run less those of a run that
    stops at the warm-up: the Tmix flow's sum of its half-connections, kept at the warm-up as
    one sum (not per half-connection), subtracts as each half-connection's would."""
    vectors = tmp_path / "v.vec"
    synthesize(vectors, 400, seed=3, rate_per_s=40.0)

    def flow(duration: str, warmup: str | None = None) -> dict[str, float]:
        res = replay(vectors, "4Mb/s", duration, queue_limit=20, warmup=warmup)
        return dict(res.flows.iloc[0])

    whole, first, window = flow("10s"), flow("4s"), flow("10s", "4s")
    counted = ["packets_sent", "packets_dropped", "packets_retransmitted", "acks_sent",
               "timeouts", "bytes_delivered"]
    assert first["packets_dropped"] > 0 and first["packets_sent"] > 1000
    for key in counted:
        assert window[key] == whole[key] - first[key], key


def test_fin_wait_closes_from_the_last_writer_a_wait_after_its_last_write(
        tmp_path: Path) -> None:
    # ns-2.35's Tmix closes a connection fin_time_ after the last write (Tmix::read_one_cvec's
    # closing ADU, TmixApp::timeout): connection 2's last ADU, its 1.5 MB response, is
    # written 5 ms after its request's delivery (one 120 ms round trip and the handshake's
    # after the start); with fin_wait 3s the connection ends 3 s after that write, plus the
    # closing segment's way there and the initiator's FIN back (the 120 ms round trip),
    # rather than once the response is in (about ten round trips).
    text = SAMPLE.read_text()
    base = _second_connection_duration(tmp_path, text)
    closed = _second_connection_duration(tmp_path, text, fin_wait="3s")  # type: ignore[arg-type]
    assert base < 2.0
    assert closed == pytest.approx(0.12 + 0.06 + 0.005 + 3.0 + 0.12, abs=0.01), (base, closed)


@pytest.mark.parametrize("value, message", [
    ("0s", 'flow[0].app.fin_wait: expected a positive time, got "0s"'),
    ("soon", "flow[0].app.fin_wait: expected a time like"),
])
def test_a_bad_fin_wait_is_named(value: str, message: str) -> None:
    from ackclock.apps import Tmix
    from ackclock.scenario import resolve

    net = ac.Network("tmix")
    net.nodes("i", "a")
    net.link("i", "a", rate="1Gb/s", delay="1ms")
    net.tcp("bg", "i", "a", app=Tmix(file=str(SAMPLE), fin_wait=value))
    with pytest.raises(ac.ScenarioError) as e:
        resolve(net.scenario("1s"))
    assert str(e.value).startswith(message), str(e.value)


def test_under_the_ns2_profile_a_tmix_flow_is_ns2_35s_fulltcp_and_closes_as_its_tmix() -> None:
    """ns-2.35's Tmix runs each side on a FullTcp agent (Tmix instproc alloc-tcp) and closes a
    connection fin_time_ (1 s) after its last write: under profile = "ns2" a Tmix flow gets
    FullTcpAgent's rules and fin_wait = "1s" without naming them (profiles.Profile.tmix_tcp,
    tmix_fin_wait); a flow's own keys win; other profiles and other applications are as
    before."""
    from ackclock.apps import Tmix
    from ackclock.scenario import resolve

    def flows(profile: str, **keys: object) -> dict[str, dict[str, Any]]:
        net = ac.Network("tmix", profile=profile)
        net.nodes("i", "a")
        net.link("i", "a", rate="1Gb/s", delay="1ms")
        net.tcp("bg", "i", "a", tmix=str(SAMPLE), **keys)
        net.tcp("ftp", "i", "a")
        return {f["name"]: f for f in resolve(net.scenario("1s"))["flows"]}

    ns2 = flows("ns2")
    assert ns2["bg"]["app"]["fin_wait_ps"] == 10**12
    full = {"ns2_full_tcp": True, "limited_transmit": False, "ns2_first_loss": "off",
            "sack_exit_clears_recover": False}
    assert {k: ns2["bg"]["tcp"][k] for k in full} == full
    assert {k: ns2["ftp"]["tcp"][k] for k in full} == {
        "ns2_full_tcp": False, "limited_transmit": True, "ns2_first_loss": "bugfix_ss",
        "sack_exit_clears_recover": True}
    own = flows("ns2", ns2_full_tcp=False, limited_transmit=True)["bg"]["tcp"]
    assert (own["ns2_full_tcp"], own["limited_transmit"]) == (False, True)
    net = ac.Network("tmix")
    net.nodes("i", "a")
    net.link("i", "a", rate="1Gb/s", delay="1ms")
    net.tcp("bg", "i", "a", app=Tmix(file=str(SAMPLE), fin_wait="300ms"))
    assert resolve(net.scenario("1s"))["flows"][0]["app"]["fin_wait_ps"] == 3 * 10**11
    linux = flows("linux")["bg"]
    assert "fin_wait_ps" not in linux["app"] and not linux["tcp"]["ns2_full_tcp"]


def test_a_seq_vectors_trailing_think_time_is_its_own_closing_wait(tmp_path: Path) -> None:
    """ns-2.35's Tmix::read_one_cvec makes a SEQ vector's trailing `t` its closing ADU's wait,
    in place of fin_time_: the connection closes that long after its last write. Where
    connections do not close as ns-2.35's (no fin_wait), it changes nothing."""
    from ackclock.apps import Tmix

    def finish(text: str, profile: str = "ns2") -> float:
        vec = tmp_path / "v.vec"
        vec.write_text(text)
        net = ac.Network("tmix", profile=profile)
        net.nodes("i", "a")
        net.link("i", "a", rate="1Gb/s", delay="10ms", queue_limit=10_000)
        net.tcp("bg", "i", "a", app=Tmix(file=str(vec)), packet_size=1460)
        return float(net.run(duration="10s").connections.iloc[0].finish_s)

    plain = "SEQ 0 2\n> 300\nt 1000\n< 5000\n"
    # The response's last write comes about 2 round trips in (SYN, request): the closing
    # write 1 s after it by default, 0.3 s with the trailing t, 2.5 s with a long one.
    default, short = finish(plain), finish(plain + "t 300000\n")
    assert default - short == pytest.approx(0.7, abs=1e-9)
    assert finish(plain + "t 2500000\n") - default == pytest.approx(1.5, abs=1e-9)
    assert finish(plain + "t 300000\n", "linux") == finish(plain, "linux")


def test_delay_boxes_holds_each_packet_at_every_box(tmp_path: Path) -> None:
    """ns-2.35's Tmix_DelayBoxClassifier::recv: each box holding a connection's file holds its
    packets r / 2 and drops them at the vector's rates; two boxes on the path, twice."""
    from ackclock.apps import Tmix
    from ackclock.scenario import resolve

    vec = tmp_path / "v.vec"
    vec.write_text("SEQ 0 1\nr 50000\nl 0.1 0.2\n> 300\n")

    def conns(**app: Any) -> dict[str, Any]:
        net = ac.Network("tmix")
        net.nodes("i", "a")
        net.link("i", "a", rate="1Gb/s", delay="1ms")
        net.tcp("bg", "i", "a", app=Tmix(file=str(vec), **app))
        return dict(resolve(net.scenario("1s"))["flows"][0]["app"]["connections"])

    one, two = conns(rtt_added=True), conns(rtt_added=True, delay_boxes=2)
    assert list(one["rtt_ps"]) == [50_000_000_000] and list(two["rtt_ps"]) == [100_000_000_000]
    assert list(two["loss_initiator"]) == pytest.approx([1 - 0.9**2])
    assert list(two["loss_acceptor"]) == pytest.approx([1 - 0.8**2])
    with pytest.raises(ScenarioError, match="only with rtt_added"):
        conns(delay_boxes=2)
    with pytest.raises(ScenarioError, match="delay_boxes"):
        conns(rtt_added=True, delay_boxes=0)
