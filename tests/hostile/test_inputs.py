"""Input files must be regular files of bounded size, checked before reading (issue 32,
item 4): a scenario, sweep file, Tmix vector file, trace to replay or summary.json that is
/dev/zero, /dev/urandom, a FIFO, a folder or too large is one line naming it, at once."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from _hostile import SMALL, Cli

import ackclock as ac
from ackclock.inputs import MAX_DATA_BYTES, MAX_TEXT_BYTES


def _fifo(p: Path) -> None:
    os.mkfifo(p)


def _zero(p: Path) -> None:
    os.symlink("/dev/zero", p)


def _urandom(p: Path) -> None:
    os.symlink("/dev/urandom", p)


def _folder(p: Path) -> None:
    p.mkdir()


def _huge_text(p: Path) -> None:
    with open(p, "wb") as f:
        f.truncate(MAX_TEXT_BYTES + 1)  # sparse: no disk used


def _huge_data(p: Path) -> None:
    with open(p, "wb") as f:
        f.truncate(MAX_DATA_BYTES + 1)


def _missing(p: Path) -> None:
    pass


KINDS: dict[str, tuple[Callable[[Path], None], str]] = {
    "fifo": (_fifo, "is a FIFO, not a regular file"),
    "dev-zero": (_zero, "is a device, not a regular file"),
    "dev-urandom": (_urandom, "is a device, not a regular file"),
    "folder": (_folder, "is a folder, not a regular file"),
    "missing": (_missing, "No such file or directory"),
}


@pytest.mark.parametrize("kind", [*KINDS, "huge"])
def test_a_scenario_file(cli: Cli, earlier: Callable[[], None], tmp_path: Path,
                         kind: str) -> None:
    make, expected = KINDS.get(kind, (_huge_text, "more than the limit"))
    make(tmp_path / "bad.toml")
    start = time.monotonic()
    line = cli.error("run", "bad.toml", "--out", "out")
    assert time.monotonic() - start < 2
    assert line.startswith("ackclock: error: bad.toml: ") and expected in line, line
    earlier()


@pytest.mark.parametrize("kind", [*KINDS, "huge"])
def test_a_sweep_file(cli: Cli, tmp_path: Path, kind: str) -> None:
    make, expected = KINDS.get(kind, (_huge_text, "more than the limit"))
    make(tmp_path / "bad.toml")
    line = cli.error("sweep", "bad.toml", "--out", "out")
    assert line.startswith("ackclock: error: bad.toml: ") and expected in line, line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("kind", [*KINDS, "huge"])
def test_a_summary_to_replay(cli: Cli, earlier: Callable[[], None], tmp_path: Path,
                             kind: str) -> None:
    make, expected = KINDS.get(kind, (_huge_data, "more than the limit"))
    make(tmp_path / "summary.json")
    line = cli.error("run", "--replay", "summary.json", "--out", "out")
    assert line.startswith("ackclock: error: summary.json: ") and expected in line, line
    earlier()


TMIX = SMALL.replace('to = "b"\n[[', 'to = "b"\n[[').replace(
    'kind = "tcp"\n', 'kind = "tcp"\napp = { kind = "tmix", file = "FILE" }\n')
TRACE_APP = SMALL + """
[[flow]]
name = "u"
kind = "udp"
from = "a"
to = "b"
app = { kind = "trace", file = "FILE" }
"""


@pytest.mark.parametrize("template,key", [(TMIX, "flow[0].app.file"),
                                          (TRACE_APP, "flow[1].app.file")])
@pytest.mark.parametrize("kind", [*KINDS, "huge"])
def test_a_data_file_a_scenario_names(cli: Cli, earlier: Callable[[], None], tmp_path: Path,
                                      template: str, key: str, kind: str) -> None:
    make, expected = KINDS.get(kind, (_huge_data, "more than the limit"))
    make(tmp_path / "data.txt")
    (tmp_path / "bad.toml").write_text(template.replace("FILE", "data.txt"))
    start = time.monotonic()
    line = cli.error("run", "bad.toml", "--out", "out")
    assert time.monotonic() - start < 2
    assert line.startswith(f"ackclock: error: bad.toml: {key}: ") and expected in line, line
    earlier()


@pytest.mark.parametrize("content", ["{", "[]", "null", '"x"', "\xff", '{"a": ' * 100000])
def test_results_load_and_plot_of_a_corrupt_summary(cli: Cli, earlier: Callable[[], None],
                                                    tmp_path: Path, content: str) -> None:
    (tmp_path / "out" / "summary.json").write_bytes(content.encode("utf-8", "surrogateescape")
                                                    if content != "\xff" else b"\xff")
    with pytest.raises(ac.ScenarioError, match="summary.json: "):
        ac.Results.load(tmp_path / "out")
    line = cli.error("plot", "out")
    assert "out/summary.json: " in line, line
    line = cli.error("run", "--replay", "out/summary.json", "--out", "again")
    assert "out/summary.json: " in line, line


@pytest.mark.parametrize("table", ["flows.csv", "timeseries.csv"])
@pytest.mark.parametrize("content", [b"\xff\xfe\x00", b'a,b\n"1,2\n'])
def test_a_corrupt_table(tmp_path: Path, cli: Cli, earlier: Callable[[], None],
                         table: str, content: bytes) -> None:
    (tmp_path / "out" / table).write_bytes(content)
    with pytest.raises(ac.ScenarioError, match=f"out/{table}: not a table written by ackclock"):
        ac.Results.load(tmp_path / "out")


def test_a_summary_recording_a_broken_scenario(cli: Cli, earlier: Callable[[], None],
                                               tmp_path: Path) -> None:
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    for scenario, expected in ((5, "scenario: records no resolved scenario"),
                               ({"run": 5}, "the engine rejected the scenario"),
                               ({**summary["scenario"], "traces": 5}, "scenario.traces"),
                               ({**summary["scenario"], "traces": [5]}, "traces[0]")):
        (tmp_path / "edited.json").write_text(json.dumps({**summary, "scenario": scenario}))
        line = cli.error("run", "--replay", "edited.json", "--out", "out")
        assert line.startswith("ackclock: error: edited.json: ") and expected in line, line
        earlier()
