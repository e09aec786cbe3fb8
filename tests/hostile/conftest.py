"""Fixtures of the hostile-input suite; helpers in _hostile.py."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _hostile import SMALL, TRACE, Cli, snapshot


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> Cli:
    return Cli(capsys, monkeypatch, tmp_path)


@pytest.fixture
def earlier(cli: Cli, tmp_path: Path) -> Iterator[Callable[[], None]]:
    """An earlier results folder ``tmp_path/out`` (with a trace); yields a check that it is
    byte for byte as it was and that nothing else appeared beside it but the scenario files."""
    (tmp_path / "ok.toml").write_text(SMALL + TRACE.format(file='"old.tr"'))
    status, lines = cli("run", "ok.toml", "--out", "out", "--quiet")
    assert status == 0, lines
    before = snapshot(tmp_path / "out")
    assert "old.tr" in before
    names = set(os.listdir(tmp_path))

    def untouched() -> None:
        assert snapshot(tmp_path / "out") == before
        assert not [n for n in set(os.listdir(tmp_path)) - names if n.startswith(".")]

    yield untouched
