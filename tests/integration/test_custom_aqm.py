"""Queue disciplines written in Python (issue 35; docs/custom-algorithms.md):
byte-identical twins of the built-in ones, the user's traceback, one-line errors, TOML."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import traceback
from pathlib import Path

import pytest

import ackclock as ac

pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "custom_aqm.py"


def _small(queue: object, duration: str = "5s", ecn: bool = False) -> ac.Network:
    net = ac.Network("custom_aqm", profile="linux")
    net.nodes("s", "r", "d")
    net.link("s", "r", rate="100Mb/s", delay="1ms")
    net.link("r", "d", rate="10Mb/s", delay="20ms", queue=queue, queue_limit=30)
    net.tcp("t1", "s", "d", cc="cubic", ecn=ecn) if ecn else net.tcp("t1", "s", "d", cc="cubic")
    return net


def test_the_example_is_byte_identical_to_the_built_in_disciplines(tmp_path: Path) -> None:
    """examples/custom_aqm.py from the command line: DropTail and RED written in Python give
    every result table byte for byte, and RED really drops early."""
    done = subprocess.run([sys.executable, str(EXAMPLE), "--out", str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "all identical"
    compared = [line for line in lines[1:-1] if line.split()[-1] == "identical"]
    # 6 cases (DropTail, RED, CoDel and PIE, the last two also with ECN) x 9 tables.
    assert len(compared) == 54, done.stdout
    summary = (tmp_path / "red" / "python" / "summary.json").read_text()
    assert '"custom": "__main__:PyRed"' in summary
    queues = {}
    for case in ("droptail", "red"):
        rows = (tmp_path / case / "python" / "queues.csv").read_text().splitlines()
        row = next(r for r in rows if r.startswith("r1->r2,"))
        header = rows[0].split(",")
        queues[case] = dict(zip(header, row.split(","), strict=True))
    # RED keeps the queue well below DropTail's full buffer of 73.
    assert int(queues["red"]["max_queue_packets"]) < 40 < int(
        queues["droptail"]["max_queue_packets"])
    series = (tmp_path / "red" / "python" / "queue_timeseries.csv").read_text()
    assert any(line.startswith(tuple("0123456789")) and "r1->r2" in line
               and line.split(",")[4] not in ("", "0.0") for line in series.splitlines())
    for case in ("codel", "codel_ecn", "pie", "pie_ecn"):
        rows = (tmp_path / case / "python" / "queues.csv").read_text().splitlines()
        header = rows[0].split(",")
        row = dict(zip(header, next(r for r in rows if r.startswith("r1->r2,")).split(","),
                       strict=True))
        queues[case] = row
    # The comparisons are not vacuous: CoDel drops, and with ECN marks instead; PIE too. With
    # ECN, CoDel drops nothing itself: what it loses are arrivals to a full buffer (6 at 23-24
    # s, after the BBR flow's ProbeRTT at 21 s).
    assert int(queues["codel"]["dropped_packets"]) > 100
    assert int(queues["codel_ecn"]["marked_packets"]) > 1000
    assert (int(queues["codel_ecn"]["dropped_packets"]) == 0
            or int(queues["codel_ecn"]["max_queue_packets"]) == 73), queues["codel_ecn"]
    assert int(queues["pie"]["dropped_packets"]) > 100
    assert int(queues["pie_ecn"]["marked_packets"]) > 1000
    # CoDel's dropping state is in the queue time series (codel_dropping = 1 at samples).
    codel = (tmp_path / "codel" / "python" / "queue_timeseries.csv").read_text().splitlines()
    assert sum(1 for r in codel[1:] if r.split(",")[1] == "r1->r2" and r.endswith(",1.0")) > 10


class Raises(ac.QueueDiscipline):
    def admit(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> ac.Verdict:
        if pkt.now > 1.0:
            helper()
        return ac.Verdict.ADMIT


def helper() -> None:
    raise ZeroDivisionError("my queue bug")


def _in_ackclock(frame: traceback.FrameSummary) -> bool:
    return Path(frame.filename).resolve().is_relative_to(Path(ac.__file__).resolve().parent)


def test_an_exception_stops_the_run_with_the_users_traceback() -> None:
    """The traceback holds the user's frames only: this test's call, then the hook's."""
    with pytest.raises(ZeroDivisionError, match="my queue bug") as info:
        _small(Raises).run(duration="5s", sample_interval="0.1s")
    frames = traceback.extract_tb(info.value.__traceback__)
    names = [f.name for f in frames]
    assert names == ["test_an_exception_stops_the_run_with_the_users_traceback", "admit",
                     "helper"], frames
    assert not any(_in_ackclock(f) for f in frames)
    # The same through run_scenario.
    with pytest.raises(ZeroDivisionError) as info:
        ac.run_scenario(_small(Raises).scenario(duration="5s"), progress=False)
    frames = traceback.extract_tb(info.value.__traceback__)
    assert [f.name for f in frames][1:] == ["admit", "helper"]
    assert not any(_in_ackclock(f) for f in frames)
    note = info.value.__notes__[-1]
    # The link (either direction of r-d carries it: data one way, ACKs the other) and when.
    assert re.match(r"ackclock: in link (r->d|d->r) at simulated time 1\.0", note), note
    assert "Raises.admit raised ZeroDivisionError: my queue bug" in note


class Nonsense(ac.QueueDiscipline):
    def admit(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> ac.Verdict:
        return "drop" if pkt.now > 0.5 else ac.Verdict.ADMIT  # type: ignore[return-value]


class MarksEverything(ac.QueueDiscipline):
    def admit(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> ac.Verdict:
        return ac.Verdict.MARK


def test_nonsense_is_one_clear_error() -> None:
    from ackclock.run import UserCodeError

    with pytest.raises(UserCodeError) as info:
        _small(Nonsense).run(duration="5s", sample_interval="0.1s")
    message = str(info.value)
    assert "\n" not in message
    assert re.match(r"link (r->d|d->r) at t=0\.5", message), message
    assert message.endswith("Nonsense.admit returned 'drop'; expected ackclock.Verdict.ADMIT,"
                            " DROP or MARK")
    with pytest.raises(UserCodeError, match=r"MarksEverything.admit returned MARK for a packet"
                                            " that is not ECN-capable"):
        _small(MarksEverything).run(duration="5s")


def test_a_class_without_admit_or_not_importable_is_a_scenario_error() -> None:
    class NoAdmit(ac.QueueDiscipline):
        pass

    with pytest.raises(ac.ScenarioError, match="defines neither admit.* nor dequeue"):
        _small(NoAdmit).run(duration="1s")
    with pytest.raises(ac.ScenarioError, match="cannot import module"):
        _small("no_such_module_h35b:Aqm").run(duration="1s")


def test_a_toml_scenario_names_the_class(tmp_path: Path) -> None:
    (tmp_path / "myaqm_h35b.py").write_text(textwrap.dedent("""
        import ackclock as ac

        class Threshold(ac.QueueDiscipline):
            def __init__(self, k=10):
                self.k = k

            def admit(self, pkt, queue):
                return ac.Verdict.DROP if queue.packets >= self.k else ac.Verdict.ADMIT
    """))
    scenario = (ROOT / "examples" / "dumbbell.toml").read_text().replace(
        'queue = { kind = "droptail", limit = 73 }',
        'queue = { kind = "myaqm_h35b:Threshold", limit = 73, k = 12 }')
    assert "myaqm_h35b:Threshold" in scenario
    (tmp_path / "s.toml").write_text(scenario)
    done = subprocess.run([sys.executable, "-m", "ackclock", "run", "s.toml", "--out", "out",
                           "--set", "run.duration=5s", "--set", "run.warmup=1s", "--quiet"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = (tmp_path / "out" / "queues.csv").read_text().splitlines()
    header = rows[0].split(",")
    line = next(r for r in rows if r.startswith("r1->r2,"))
    row = dict(zip(header, line.split(","), strict=True))
    # The class's own threshold (k = 12 waiting packets), not the limit of 73.
    assert int(row["max_queue_packets"]) <= 12
    assert int(row["dropped_packets"]) > 0


class DequeueRaises(ac.QueueDiscipline):
    def dequeue(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> ac.Verdict:
        if pkt.now > 1.0:
            helper()
        return ac.Verdict.ADMIT


class DequeueMarksAll(ac.QueueDiscipline):
    def dequeue(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> ac.Verdict:
        return ac.Verdict.MARK


def test_dequeue_errors_are_the_users_traceback_or_one_line() -> None:
    from ackclock.run import UserCodeError

    with pytest.raises(ZeroDivisionError, match="my queue bug") as info:
        _small(DequeueRaises).run(duration="5s")
    frames = traceback.extract_tb(info.value.__traceback__)
    assert [f.name for f in frames][1:] == ["dequeue", "helper"]
    assert "DequeueRaises.dequeue raised ZeroDivisionError" in info.value.__notes__[-1]
    with pytest.raises(UserCodeError, match=r"^link (r->d|d->r) at t=[0-9.]+ s: "
                                            r"DequeueMarksAll.dequeue returned MARK for a packet"
                                            " that is not ECN-capable"):
        _small(DequeueMarksAll).run(duration="5s")


class Fifo(ac.QueueDiscipline):
    """Decides at dequeue: sends every head, counting what it sees (its declared state)."""

    state = {"fifo_seen": "seen", "fifo_max_sojourn": "max_sojourn", "fifo_data": "data",
             "fifo_acks": "acks", "fifo_udp": "udp", "fifo_bad": "bad"}

    def __init__(self) -> None:
        self.seen = self.data = self.acks = self.udp = self.bad = 0
        self.max_sojourn = 0.0

    def dequeue(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> ac.Verdict:
        self.seen += 1
        self.max_sojourn = max(self.max_sojourn, pkt.sojourn)
        expected = {("tcp1", 0, "data"), ("tcp1", 0, "ack"), ("udp1", 1, "udp")}
        ok = ((pkt.flow, pkt.flow_index, pkt.kind) in expected
              and pkt.sojourn_ps == pkt.now_ps - pkt.enqueued_ps >= 0
              and pkt.sent_ps <= pkt.enqueued_ps <= pkt.now_ps == queue.now_ps
              and not pkt.ect and not pkt.ce and pkt.ecn == 0
              and pkt.size >= (1000 if pkt.kind == "udp" else 40)
              and queue.packets <= 40 and pkt.id >= 0 and pkt.seq >= 0)
        self.bad += not ok
        if pkt.kind == "data":
            self.data += 1
        elif pkt.kind == "ack":
            self.acks += 1
        else:
            self.udp += 1
        return ac.Verdict.ADMIT


def _two_flows(queue: object) -> ac.Network:
    net = ac.Network("fifo", profile="linux")
    net.nodes("s", "r", "d")
    net.link("s", "r", rate="100Mb/s", delay="1ms")
    net.link("r", "d", rate="10Mb/s", delay="20ms", queue=queue, queue_limit=40)
    net.tcp("tcp1", "s", "d", cc="cubic")
    net.udp("udp1", "s", "d", rate="4Mb/s", packet_size=1000)
    return net


def test_a_dequeue_time_discipline_sees_each_packet_and_its_sojourn() -> None:
    """A FIFO deciding at dequeue: its view names each packet's flow and kind; the longest
    sojourn it saw is the link's own; its limit drops arrivals; its declared state is in the
    queue time series, NaN on the other links."""
    res = _two_flows(Fifo).run(duration="10s", sample_interval="0.5s")
    q = res.queues.set_index("link")
    assert q.loc["r->d", "dropped_packets"] > 0  # the 40-packet buffer overflows
    assert q.loc["r->d", "max_queue_packets"] <= 40
    series = res.queue_timeseries
    last = series.groupby("link").last()
    assert last.loc["r->d", "fifo_seen"] == q.loc["r->d", "departed_packets"]
    assert last.loc["r->d", "fifo_data"] > 0 and last.loc["r->d", "fifo_udp"] > 0
    assert last.loc["r->d", "fifo_acks"] == 0
    assert last.loc["d->r", "fifo_acks"] == q.loc["d->r", "departed_packets"] > 0
    assert last.loc["r->d", "fifo_bad"] == last.loc["d->r", "fifo_bad"] == 0
    assert last.loc["r->d", "fifo_max_sojourn"] == pytest.approx(
        q.loc["r->d", "max_sojourn_s"], abs=1e-12)
    assert series[series.link == "s->r"].fifo_seen.isna().all()
    assert list(series.columns[:7]) == ["time_s", "link", "queue_packets", "queue_bytes",
                                        "red_avg", "drop_prob", "codel_dropping"]


class SojournCap(ac.QueueDiscipline):
    """Drops a head that waited longer than ``cap`` seconds (a crude delay-based AQM)."""

    state = ("capped",)

    def __init__(self, cap: float = 0.01) -> None:
        self.cap_ps = round(cap * 1e12)
        self.capped = 0

    def dequeue(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> ac.Verdict:
        if pkt.sojourn_ps > self.cap_ps:
            self.capped += 1
            return ac.Verdict.DROP
        return ac.Verdict.ADMIT


def _sweep_point(queue: object) -> ac.Scenario:
    return _two_flows(queue).scenario(duration="3s")


GRID = {"queue": [SojournCap(cap=0.005), SojournCap(cap=0.02), "codel"]}


def test_a_sweep_on_local_processes_runs_python_and_built_in_disciplines() -> None:
    """Two workers run a Python discipline (twice, with different parameters) beside the
    built-in CoDel; a point is the run made alone."""
    runs = ac.run_sweep(_sweep_point, GRID, jobs=2, progress=False)
    assert runs.attrs["ran"] == 3
    tcp = runs[runs.flow == "tcp1"]
    assert list(tcp.iloc[:, 0]) == [f"{__name__}:SojournCap(cap=0.005)",
                                    f"{__name__}:SojournCap(cap=0.02)", "codel"]
    assert tcp.throughput_mbps.gt(0).all()
    # Each point is the run made alone (the parameter reached the worker).
    for cap in (0.005, 0.02):
        alone = _two_flows(SojournCap(cap=cap)).run(duration="3s")
        row = tcp[tcp.iloc[:, 0] == f"{__name__}:SojournCap(cap={cap})"]
        assert row.throughput_mbps.iloc[0] == alone.flows.set_index("flow").loc[
            "tcp1", "throughput_mbps"]
    assert len(set(tcp.throughput_mbps)) == 3


def test_a_sweep_on_a_local_dask_cluster_matches_local_processes() -> None:
    """The workers import the class by its module (this test file, on their path as on
    ours): the runs are those of local processes."""
    distributed = pytest.importorskip("distributed")
    local = ac.run_sweep(_sweep_point, GRID, jobs=2, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = ac.run_sweep(_sweep_point, GRID, scheduler=client, progress=False)
    assert remote.attrs["ran"] == 3
    assert local.equals(remote)
