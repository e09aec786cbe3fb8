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
    assert len(compared) == 18, done.stdout
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


class Raises(ac.QueueDiscipline):
    def admit(self, pkt: ac.QueuedPacket, queue: ac.QueueView) -> ac.Verdict:
        if pkt.now > 1.0:
            helper()
        return ac.Verdict.ADMIT


def helper() -> None:
    raise ZeroDivisionError("my queue bug")


def test_an_exception_stops_the_run_with_the_users_traceback() -> None:
    with pytest.raises(ZeroDivisionError, match="my queue bug") as info:
        _small(Raises).run(duration="5s", sample_interval="0.1s")
    frames = traceback.extract_tb(info.value.__traceback__)
    names = [f.name for f in frames]
    assert names[-2:] == ["admit", "helper"]
    assert all("ackclock" not in f.filename for f in frames[names.index("admit"):])
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

    with pytest.raises(ac.ScenarioError, match="does not define admit"):
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
