"""Where `ackclock run` puts a run: an earlier folder of the same scenario is reused, one of
another scenario is not replaced silently, and telling them apart never parses a large
summary.json (cli._unclaimed, cli._same_scenario)."""

from __future__ import annotations

import json
from array import array
from pathlib import Path
from typing import Any

import pytest

from ackclock import cli
from ackclock.results import write_summary


class Table(dict):  # type: ignore[type-arg]
    """A dict subclass: the binding's encoder gives up on it, and the text comes from Python."""


def scenario(seed: int = 1, tmix: bool = False, odd: bool = False) -> dict[str, Any]:
    app: dict[str, Any] = {"kind": "ftp"}
    if tmix:
        app = {"kind": "tmix", "connections": {"bytes": array("Q", [1, 2, 3]),
                                               "wait_ps": array("Q", [0, 5, 7])}}
    doc: dict[str, Any] = {"name": "s", "seed": seed,
                           "flows": [{"name": "f", "app": app, "tcp": {"cc": "reno"}}]}
    if odd:
        doc["flows"][0]["tcp"] = Table(cc="reno")
    return doc


def folder(tmp_path: Path, doc: dict[str, Any], name: str = "out") -> Path:
    out = tmp_path / name
    out.mkdir()
    write_summary({"name": doc["name"], "wall_s": 0.5, "version": "0.1.0", "scenario": doc},
                  out / "summary.json")
    return out


@pytest.mark.parametrize("kind", [{}, {"tmix": True}, {"odd": True}])
def test_the_same_scenario_is_recognised_and_another_seed_is_not(
        tmp_path: Path, kind: dict[str, bool]) -> None:
    out = folder(tmp_path, scenario(**kind))
    assert cli._same_scenario(out / "summary.json", scenario(**kind)) is True
    assert cli._same_scenario(out / "summary.json", scenario(seed=2, **kind)) is False


def test_a_scenario_that_is_a_prefix_of_the_recorded_one_is_another(tmp_path: Path) -> None:
    out = folder(tmp_path, scenario())
    with open(out / "summary.json", "a", encoding="utf-8") as f:
        f.write(" ")
    assert cli._same_scenario(out / "summary.json", scenario()) is False


def test_a_file_without_a_scenario_key_is_not_compared(tmp_path: Path) -> None:
    (tmp_path / "summary.json").write_text('{"name": "s"}\n')
    assert cli._same_scenario(tmp_path / "summary.json", scenario()) is None


def test_the_same_scenario_reuses_the_folder_and_another_goes_beside_it(tmp_path: Path) -> None:
    out = folder(tmp_path, scenario())
    assert cli._unclaimed(out, scenario(), explicit=False) == (out, "")
    where, note = cli._unclaimed(out, scenario(seed=2), explicit=False)
    assert where == tmp_path / "out-2" and "holds a run of other parameters" in note
    where, note = cli._unclaimed(out, scenario(seed=2), explicit=True)
    assert where == out and note.startswith("replaced")


def test_a_small_summary_in_another_layout_is_parsed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json").write_text(json.dumps({"scenario": scenario()}))  # one line
    assert cli._unclaimed(out, scenario(), explicit=False) == (out, "")
    assert cli._unclaimed(out, scenario(seed=2), explicit=True)[1].startswith("replaced")


def test_a_large_summary_of_another_scenario_is_never_parsed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = folder(tmp_path, scenario())
    monkeypatch.setattr(cli, "_PARSE_AT_MOST", 0)

    def no_parse(*_: Any, **__: Any) -> Any:
        raise AssertionError("summary.json parsed")

    monkeypatch.setattr(json, "loads", no_parse)
    assert cli._unclaimed(out, scenario(), explicit=False) == (out, "")
    assert cli._unclaimed(out, scenario(seed=2), explicit=True)[1].startswith("replaced")
