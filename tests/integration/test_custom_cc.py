"""Congestion control written in Python (issue 35, docs/custom-algorithms.md): byte-identical
to the built-in twins, parameters, only the defined hooks called, errors in user code, TOML
names, cc_state.csv, determinism and sweeps."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
import traceback
from pathlib import Path

import pytest

import ackclock as ac

pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "custom_cc.py"


def _small(cc: object, profile: str = "ns2", duration: str = "5s", **tcp: object) -> ac.Network:
    net = ac.Network("custom", profile=profile)
    net.nodes("s", "r", "d")
    net.link("s", "r", rate="100Mb/s", delay="1ms")
    net.link("r", "d", rate="10Mb/s", delay="20ms", queue_limit=30)
    net.tcp("t1", "s", "d", cc=cc, window=200, **tcp)
    net.tcp("t2", "s", "d", cc="reno", window=200, start="0.3s")
    return net


def test_the_example_is_byte_identical_to_the_built_in_algorithms(tmp_path: Path) -> None:
    """examples/custom_cc.py from the command line: Reno and CUBIC (ns-2 and Linux profiles,
    the latter beside BBR) written in Python give every result table byte for byte."""
    done = subprocess.run([sys.executable, str(EXAMPLE), "--out", str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "all identical"
    compared = [line for line in lines[1:-1] if line.split()[-1] == "identical"]
    assert len(compared) == 27, done.stdout
    # The comparison is real: the two folders exist and hold the same flows.
    a = (tmp_path / "cubic_vs_bbr" / "builtin" / "timeseries.csv").read_bytes()
    b = (tmp_path / "cubic_vs_bbr" / "python" / "timeseries.csv").read_bytes()
    assert a == b and len(a) > 10_000
    flows = (tmp_path / "cubic_vs_bbr" / "python" / "flows.csv").read_text()
    assert "__main__:PyCubic" in flows


class Counting(ac.CongestionControl):
    """Reno that counts the hooks the engine calls."""

    state = ("acks",)

    def __init__(self, gain: float = 1.0) -> None:
        self.gain = gain
        self.acks = 0
        self.losses = 0

    def cong_avoid(self, ack: ac.Ack) -> None:
        self.acks += 1
        if self.cwnd < self.snd_ssthresh:
            self.cwnd += min(ack.credit, 2.0)
        else:
            self.cwnd += self.gain * ack.credit / self.cwnd

    def ssthresh(self) -> float:
        self.losses += 1
        return max(self.cwnd / 2.0, 2.0)


def test_a_class_an_instance_and_a_name_give_the_same_run() -> None:
    by_class = _small(Counting).run(duration="5s", sample_interval="0.1s")
    by_instance = _small(Counting()).run(duration="5s", sample_interval="0.1s")
    by_name = _small(f"{__name__}:Counting").run(duration="5s", sample_interval="0.1s")
    for res in (by_instance, by_name):
        assert res.flows.equals(by_class.flows)
        assert res.timeseries.equals(by_class.timeseries)
    assert by_class.flows.cc.iloc[0] == f"{__name__}:Counting"


def test_parameters_reach_the_instance_and_are_recorded() -> None:
    slow = _small(Counting(gain=0.25)).run(duration="5s", sample_interval="0.1s")
    normal = _small(Counting(gain=1.0)).run(duration="5s", sample_interval="0.1s")
    tcp = slow.summary["scenario"]["flows"][0]["tcp"]
    assert tcp["cc"] == f"{__name__}:Counting"
    assert tcp["cc_params"] == {"gain": 0.25}
    assert not slow.timeseries.equals(normal.timeseries)
    with pytest.raises(ac.ScenarioError, match="by name"):
        _small(Counting(0.5)).run(duration="1s")


def test_declared_state_is_in_cc_state() -> None:
    res = _small(Counting).run(duration="5s", sample_interval="1s")
    rows = res.cc_state[res.cc_state.flow == "t1"]
    assert set(rows.variable) == {"acks"}
    acks = rows.value.to_numpy()
    assert (acks[1:] >= acks[:-1]).all() and acks[-1] > 100


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    for i in range(2):
        res = _small(Counting, "linux").run(duration="5s", seed=7, sample_interval="0.1s")
        res.save(tmp_path / str(i))
    for name in ("flows.csv", "timeseries.csv", "cc_state.csv"):
        assert (tmp_path / "0" / name).read_bytes() == (tmp_path / "1" / name).read_bytes()


class Undoing(ac.CongestionControl):
    """Reno counting the times its reduction is undone (Linux's tcp_reno_undo_cwnd)."""

    undos = 0

    def cong_avoid(self, ack: ac.Ack) -> None:
        if self.cwnd < self.snd_ssthresh:
            self.cwnd += ack.acked
        else:
            self.cwnd += ack.acked / self.cwnd

    def ssthresh(self) -> float:
        return max(self.cwnd / 2, 2.0)

    def undo_cwnd(self, prior_cwnd: float) -> float:
        type(self).undos += 1
        return max(self.cwnd, prior_cwnd)


@pytest.mark.parametrize(("profile", "undone"), [("linux", True), ("ns2", False)])
def test_undo_cwnd_is_called_when_a_timeout_proves_spurious(profile: str, undone: bool) -> None:
    # 20 ms of 100 Mb/s into a 2 Mb/s link: a second of queue in front of the TCP flow's next
    # segments, longer than its RTO. The linux profile's sender sees the original's timestamp
    # echoed after it resent (tcp_packet_delayed) and undoes the reduction through the class's
    # undo_cwnd (tcp_try_undo_loss); ns-2's TCP has no undo.
    Undoing.undos = 0
    net = ac.Network("undo", profile=profile)
    net.nodes("s", "d")
    net.link("s", "d", rate="2Mb/s", delay="20ms", queue_limit=2000)
    net.tcp("t", "s", "d", cc=Undoing, window=4)
    net.udp("burst", "s", "d", rate="100Mb/s", packet_size=1000, start="3s", stop="3.02s")
    flows = net.run(duration="8s").flows.set_index("flow")
    assert flows.loc["t", "timeouts"] >= 1
    assert (Undoing.undos >= 1) == undone, Undoing.undos


class OnlyAvoid(ac.CongestionControl):
    def cong_avoid(self, ack: ac.Ack) -> None:
        self.cwnd += 1.0 / self.cwnd

    def ssthresh(self) -> float:
        return self.cwnd / 2.0


def test_only_the_defined_hooks_are_looked_up() -> None:
    from ackclock.custom import hooks_of

    assert set(hooks_of(OnlyAvoid)) == {"cong_avoid", "ssthresh"}
    assert set(hooks_of(ac.CongestionControl)) == set()


class Raises(ac.CongestionControl):
    def cong_avoid(self, ack: ac.Ack) -> None:
        if self.now > 1.0:
            self.helper()
        self.cwnd += 1.0 / self.cwnd

    def helper(self) -> None:
        raise ZeroDivisionError("my bug")

    def ssthresh(self) -> float:
        return self.cwnd / 2.0


def test_an_exception_stops_the_run_with_the_users_traceback() -> None:
    with pytest.raises(ZeroDivisionError, match="my bug") as info:
        _small(Raises).run(duration="5s", sample_interval="0.1s")
    frames = traceback.extract_tb(info.value.__traceback__)
    names = [f.name for f in frames]
    # This test's call, then the hook's frames: none of ackclock's.
    assert names == ["test_an_exception_stops_the_run_with_the_users_traceback", "cong_avoid",
                     "helper"], frames
    package = Path(ac.__file__).resolve().parent
    assert not any(Path(f.filename).resolve().is_relative_to(package) for f in frames)
    note = info.value.__notes__[-1]
    assert note.startswith("ackclock: in flow t1 at simulated time 1.0")
    assert "Raises.cong_avoid raised ZeroDivisionError: my bug" in note


class Negative(ac.CongestionControl):
    def cong_avoid(self, ack: ac.Ack) -> None:
        self.cwnd = -3.0 if self.now > 0.5 else self.cwnd + 1.0 / self.cwnd

    def ssthresh(self) -> float:
        return self.cwnd / 2.0


class NanThreshold(ac.CongestionControl):
    def cong_avoid(self, ack: ac.Ack) -> None:
        self.cwnd += 1.0 / self.cwnd

    def ssthresh(self) -> float:
        return math.nan


def test_nonsense_is_one_clear_error() -> None:
    from ackclock.run import UserCodeError

    with pytest.raises(UserCodeError) as info:
        _small(Negative).run(duration="5s", sample_interval="0.1s")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("flow t1 at t=0.5")
    assert message.endswith("Negative.cong_avoid set cwnd to -3; expected a finite number of"
                            " segments > 0")
    with pytest.raises(UserCodeError, match=r"NanThreshold.ssthresh returned NaN; expected a"
                                            " finite number of segments > 0"):
        _small(NanThreshold).run(duration="5s", sample_interval="0.1s")


def test_a_class_without_ssthresh_or_not_importable_is_a_scenario_error() -> None:
    class NoLoss(ac.CongestionControl):
        def cong_avoid(self, ack: ac.Ack) -> None:
            pass

    with pytest.raises(ac.ScenarioError, match="does not define ssthresh"):
        _small(NoLoss).run(duration="1s")
    with pytest.raises(ac.ScenarioError, match="cannot import module"):
        _small("no_such_module_h35:Cc").run(duration="1s")


def test_a_toml_scenario_names_the_class(tmp_path: Path) -> None:
    (tmp_path / "mycc_h35.py").write_text(textwrap.dedent("""
        import ackclock as ac

        class Halving(ac.CongestionControl):
            state = ("w",)

            def __init__(self, beta=0.5):
                self.beta = beta
                self.w = 0.0

            def cong_avoid(self, ack):
                self.cwnd += ack.credit / self.cwnd
                self.w = self.cwnd

            def ssthresh(self):
                return self.cwnd * self.beta
    """))
    scenario = (ROOT / "examples" / "single_reno.toml").read_text().replace(
        'cc = "reno"', 'cc = "mycc_h35:Halving"\ncc_params = { beta = 0.6 }')
    assert "mycc_h35:Halving" in scenario
    (tmp_path / "s.toml").write_text(scenario)
    done = subprocess.run([sys.executable, "-m", "ackclock", "run", "s.toml", "--out", "out",
                           "--set", "run.duration=5s", "--quiet"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    flows = (tmp_path / "out" / "flows.csv").read_text()
    assert "mycc_h35:Halving" in flows
    assert ",w," in (tmp_path / "out" / "cc_state.csv").read_text()


def _sweep_point(gain: float) -> ac.Scenario:
    return _small(Counting(gain=gain)).scenario(duration="3s")


def test_a_sweep_on_local_processes() -> None:
    runs = ac.run_sweep(_sweep_point, {"gain": [0.5, 1.0]}, jobs=2, progress=False)
    assert runs.attrs["ran"] == 2
    t1 = runs[runs.flow == "t1"]
    assert len(t1) == 2 and t1.throughput_mbps.gt(0).all()
    alone = _small(Counting(gain=0.5)).run(duration="3s")
    assert t1[t1.gain == 0.5].throughput_mbps.iloc[0] == alone.flows.throughput_mbps.iloc[0]


def test_a_sweep_on_a_local_dask_cluster_matches_local_processes() -> None:
    """The workers import the class by its module (this test file, on their path as on
    ours): the runs are those of local processes."""
    distributed = pytest.importorskip("distributed")
    grid = {"gain": [0.5, 1.0]}
    local = ac.run_sweep(_sweep_point, grid, jobs=2, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = ac.run_sweep(_sweep_point, grid, scheduler=client, progress=False)
    assert remote.attrs["ran"] == 2
    assert local.equals(remote)


def _cc_point(cc: object) -> ac.Scenario:
    return _small(cc).scenario(duration="2s")


def test_a_sweep_runs_python_and_built_in_algorithms_side_by_side() -> None:
    runs = ac.run_sweep(_cc_point, {"cc": [Counting, Counting(gain=0.5), "reno"]}, jobs=1,
                        progress=False)
    t1 = runs[runs.flow == "t1"]
    assert list(t1.iloc[:, 0]) == [f"{__name__}:Counting", f"{__name__}:Counting(gain=0.5)",
                                   "reno"]
    assert t1.throughput_mbps.gt(0).all()


def test_the_command_line_shows_only_the_users_frames(tmp_path: Path) -> None:
    (tmp_path / "badcc_h35.py").write_text(textwrap.dedent("""
        import ackclock as ac

        class Bad(ac.CongestionControl):
            def cong_avoid(self, ack):
                if self.now > 1.0:
                    self.cwnd += ack.credit / (self.cwnd - self.cwnd)
                self.cwnd += 1 / self.cwnd

            def ssthresh(self):
                return self.cwnd / 2
    """))
    scenario = (ROOT / "examples" / "single_reno.toml").read_text().replace(
        'cc = "reno"', 'cc = "badcc_h35:Bad"')
    (tmp_path / "s.toml").write_text(scenario)
    done = subprocess.run([sys.executable, "-m", "ackclock", "run", "s.toml", "--out", "out",
                           "--quiet"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1].endswith("badcc_h35.py\", line 7, in cong_avoid")
    assert "ackclock" not in "".join(lines[1:-2])
    assert lines[-2] == "ZeroDivisionError: float division by zero"
    assert lines[-1].startswith("ackclock: in flow tcp1 at simulated time 1.0")
    assert not (tmp_path / "out").exists()
