"""Output paths stay inside the results folder (issue 32, item 1): packet trace names from a
scenario file, the Python API and an edited summary.json under --replay."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from _hostile import SMALL, TRACE, Cli, snapshot

import ackclock as ac
from ackclock.atomic import StagedFolder
from ackclock.results import is_results_folder

BAD_NAMES = [
    "/tmp/escape.tr", "../escape.tr", "a/../../escape.tr", "a/../b.tr", "./x.tr", ".", "..",
    "a//b.tr", "a/", "~/x.tr", "summary.json", "flows.csv", "queues.csv", "timeseries.csv",
    "queue_timeseries.csv", "tcp_trace.csv", "connections.csv", "flows_detail.csv",
    "cc_state.csv", "queue_flows.csv", "cwnd.png", "throughput.png", "queue.png", "rtt.png",
    "runs.csv", "runs.parquet", "summary.csv", "runs", "runs/x.json", "summary.json/x",
    "a\\b.tr", "x" * 256, "d/" + "y" * 300, ".x.ackclock-1-abcdef01.tmp", "",
]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_trace_name_outside_the_folder_or_on_a_results_file_is_refused(
        cli: Cli, earlier: object, tmp_path: Path, name: str) -> None:
    (tmp_path / "bad.toml").write_text(SMALL + TRACE.format(file=json.dumps(name)))
    line = cli.error("run", "bad.toml", "--out", "out")
    assert "bad.toml: trace[0].file: " in line
    earlier()  # type: ignore[operator]
    assert not (tmp_path / "escape.tr").exists() and not (tmp_path.parent / "escape.tr").exists()


@pytest.mark.parametrize("name", BAD_NAMES[:12])
def test_the_python_api_refuses_the_same_names(tmp_path: Path, name: str) -> None:
    net = ac.Network("n")
    net.nodes("a", "b")
    net.link("a", "b", rate="10Mb/s", delay="5ms")
    net.tcp("t", "a", "b")
    net.trace("ns2", name)
    with pytest.raises(ac.ScenarioError, match=r"^trace\[0\]\.file: "):
        net.run("0.1s", out=tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["../escape.tr", "/tmp/h32-escape.tr", "summary.json",
                                  "sub/../../escape.tr", "new-folder/../../x.tr", 5, None])
def test_an_edited_summary_under_replay_writes_nothing_outside(
        cli: Cli, earlier: object, tmp_path: Path, name: object) -> None:
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    summary["scenario"]["traces"][0]["path"] = name
    (tmp_path / "edited.json").write_text(json.dumps(summary))
    line = cli.error("run", "--replay", "edited.json", "--out", "out")
    assert "edited.json: traces[0].path: " in line
    earlier()  # type: ignore[operator]
    assert not (tmp_path / "escape.tr").exists() and not Path("/tmp/h32-escape.tr").exists()
    assert not (tmp_path / "new-folder").exists()


def test_a_trace_path_onto_a_special_file_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.tr")
    (tmp_path / "dir.tr").mkdir()
    os.symlink("/etc/hostname", tmp_path / "link.tr")
    for name in ("fifo.tr", "dir.tr", "link.tr"):
        net = ac.Network("n")
        net.nodes("a", "b")
        net.link("a", "b", rate="10Mb/s", delay="5ms")
        net.tcp("t", "a", "b")
        net.trace("ns2", name)
        # Without `out`, traces go to the current folder (here trace_dir): never onto
        # anything but a regular file.
        with pytest.raises(ac.ScenarioError, match=r"traces\[0\]\.path: .*not a regular file"):
            ac.run_scenario(net.scenario("0.1s"), trace_dir=tmp_path)
    assert (tmp_path / "fifo.tr").is_fifo() and (tmp_path / "dir.tr").is_dir()


@pytest.mark.parametrize("kind", ["file", "fifo", "symlink", "folder-of-mine", "devnull"])
def test_out_never_replaces_what_ackclock_did_not_write(cli: Cli, tmp_path: Path,
                                                         kind: str) -> None:
    (tmp_path / "ok.toml").write_text(SMALL)
    out = tmp_path / "out"
    if kind == "file":
        out.write_text("mine")
    elif kind == "fifo":
        os.mkfifo(out)
    elif kind == "symlink":
        (tmp_path / "elsewhere").mkdir()
        os.symlink(tmp_path / "elsewhere", out)
    elif kind == "folder-of-mine":
        out.mkdir()
        (out / "thesis.tex").write_text("mine")
    else:
        os.symlink("/dev/null", out)
    before = snapshot(tmp_path)
    line = cli.error("run", "ok.toml", "--out", "out")
    assert f"{out.name}: exists and is not an ackclock results folder" in line
    assert snapshot(tmp_path) == before


def test_a_rerun_replaces_the_folder_whole(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(SMALL + TRACE.format(file='"a.tr"'))
    (tmp_path / "b.toml").write_text(SMALL + TRACE.format(file='"sub/b.tr"'))
    assert cli("run", "a.toml", "--out", "out", "--quiet")[0] == 0
    assert (tmp_path / "out" / "a.tr").is_file()
    assert cli("run", "b.toml", "--out", "out", "--quiet")[0] == 0
    names = set(snapshot(tmp_path / "out"))
    assert "a.tr" not in names and "sub/b.tr" in names
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".")]


def test_leftovers_of_a_killed_run_are_removed_by_the_next(
        cli: Cli, tmp_path: Path, dead_pid: int) -> None:
    (tmp_path / "a.toml").write_text(SMALL)
    # What a SIGKILL mid-run leaves: a staging folder of a process that no longer runs.
    dead = dead_pid
    left = tmp_path / f".out.ackclock-{dead}-0123abcd.tmp"
    left.mkdir()
    (left / "big.tr").write_bytes(b"x" * 1000)
    alive = tmp_path / f".out.ackclock-{os.getpid()}-0123abcd.tmp"  # a live process's: kept
    alive.mkdir()
    assert cli("run", "a.toml", "--out", "out", "--quiet")[0] == 0
    assert not left.exists() and alive.exists()


def test_a_staged_folder_discarded_leaves_nothing(tmp_path: Path) -> None:
    with StagedFolder(tmp_path / "out", is_results_folder) as staged:
        (staged.path / "x").write_text("x")
    assert list(tmp_path.iterdir()) == []


def test_long_names_are_reported_by_their_real_path(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "ok.toml").write_text(SMALL)
    fits = "r" * 250  # its temporary name beside it must fit too
    assert cli("run", "ok.toml", "--out", fits, "--quiet")[0] == 0
    assert (tmp_path / fits / "summary.json").is_file()
    too_long = "q" * 256
    line = cli.error("run", "ok.toml", "--out", too_long)
    assert line == f"ackclock: error: {too_long}: File name too long"
    assert ".ackclock-" not in line and too_long not in os.listdir(tmp_path)
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".")]
