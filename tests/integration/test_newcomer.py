"""A newcomer's first hour (issue 33): the tutorial notebook runs, a Results shows itself in
a notebook, and `ackclock ... | head` exits quietly."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ackclock as ac

pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")
ROOT = Path(__file__).resolve().parents[2]


def test_tutorial_notebook_is_the_page_and_runs(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "tutorial_notebook.py"),
                        "--check"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    nb = nbformat.read(ROOT / "examples" / "tutorial.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                      for o in c.get("outputs", []))
    assert "30 runs" in outputs and "BDP = 110000 bytes" in outputs
    assert (tmp_path / "results" / "tutorial-sweep" / "sweep_jain_index.png").is_file()
    # In a notebook a Results shows its tables and plots.
    html = [o for c in nb.cells for o in c.get("outputs", [])
            if "text/html" in o.get("data", {})]
    assert not html or "<table" in html[0]["data"]["text/html"]


def test_results_repr_html_has_tables_and_plots() -> None:
    net = ac.Network.dumbbell(2, window=50)
    res = net.run(duration="3s", sample_interval="0.1s", progress=False)
    page = res._repr_html_()
    assert page.count("<table") == 2  # flows, and the links that carried packets
    assert "tcp0" in page and "r1-&gt;r2" in page
    assert page.count('<img src="data:image/png;base64,') == 2  # throughput and cwnd
    without = net.run(duration="1s", progress=False)._repr_html_()
    assert "<img" not in without  # no time series, no plots


@pytest.mark.skipif(shutil.which("head") is None, reason="needs head")
@pytest.mark.parametrize("command", [
    "{ackclock} ns2 {root}/examples/ns2/seed002.tcl 30.0 0.01 5 200 | head -1",
    "{ackclock} run {root}/examples/many_flows.toml --out out | head -1",
])
def test_a_closed_pipe_exits_quietly(command: str, tmp_path: Path) -> None:
    ackclock = f"{sys.executable} -m ackclock"
    script = command.format(ackclock=ackclock, root=ROOT)
    r = subprocess.run(["bash", "-c", f"set -o pipefail; {script}; echo status $? >&2"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "PYTHONUNBUFFERED": "0"})
    status = int(r.stderr.strip().splitlines()[-1].split()[-1])
    assert status in (0, 141), r.stderr
    assert "Broken pipe" not in r.stderr and "broken pipe" not in r.stderr
    assert "Traceback" not in r.stderr
