"""The interactive report, opened in a real headless Chromium (Debian's chromium and
chromium-driver, driven by selenium): it loads offline with no console errors, its plots
render and the expected series are in them."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ackclock as ac

pytest.importorskip("ackclock._core", reason="the compiled engine is not installed")
webdriver = pytest.importorskip("selenium.webdriver")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(CHROMIUM is None or DRIVER is None,
                                reason="needs Debian's chromium and chromium-driver")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                # Offline: a page that fetched anything from the network would fail here.
                "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def ackclock(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ackclock", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def load(browser: Any, page: Path) -> dict[str, list[str]]:
    """Opens the page; returns each plot's div id -> its trace names, once every plot has
    drawn its SVG; fails on any console message of level SEVERE (errors)."""
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(page.as_uri())
    WebDriverWait(browser, 60).until(lambda d: d.execute_script(
        "const g = document.querySelectorAll('.js-plotly-plot');"
        "return g.length > 0 && Array.from(g).every(x => x.querySelector('.main-svg'));"))
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    return dict(browser.execute_script(
        "return Array.from(document.querySelectorAll('.js-plotly-plot'))"
        ".map(g => [g.id, (g.data || []).map(t => t.name || '')]);"))


def test_run_report_renders_offline_with_every_series(browser: Any, tmp_path: Path) -> None:
    r = ackclock("run", str(ROOT / "examples" / "dumbbell.toml"), "--out", "out",
                 "--set", "run.duration=5s", "--set", "run.warmup=1s", "--report", "--quiet",
                 cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    page = tmp_path / "out" / "report.html"
    assert "<script src=" not in page.read_text(encoding="utf-8")  # plotly.js inlined
    plots = load(browser, page)
    assert list(plots) == ["topology", "cwnd", "throughput", "rtt", "queues"]
    assert {"cubic cwnd", "cubic ssthresh", "bbr cwnd"} == set(plots["cwnd"])  # no BBR ssthresh
    assert {"cubic", "bbr"} <= set(plots["throughput"])
    assert {"cubic smoothed RTT", "bbr RTO"} <= set(plots["rtt"])
    # Links whose queue held packets at a sample: the bottleneck with its buffer limit (the
    # access link s->r1 may show a burst caught at a sample), never an idle one.
    queues = plots["queues"]
    assert queues[queues.index("r1->r2"):][:2] == ["r1->r2", "r1->r2 buffer limit"]
    assert not {"r2->d", "r2->r1", "r1->s", "d->r2"} & set(queues), queues
    assert "nodes" in plots["topology"]
    text = browser.find_element("tag name", "body").text
    assert "Flows" in text and "cubic" in text and "r1->r2" in text


def test_report_of_a_sweep_folder(browser: Any, tmp_path: Path) -> None:
    scenario = ac.Network.dumbbell(2, window=50, start={"uniform": ["0s", "0.5s"]})
    ac.run_sweep(scenario.scenario(duration="3s"), {"link.r1-r2.queue.limit": [10, 20, 40]}, 2,
             jobs=1, out=tmp_path / "sw", progress=False)
    r = ackclock("report", str(tmp_path / "sw"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    plots = load(browser, tmp_path / "sw" / "report.html")
    names = {n for traces in plots.values() for n in traces}
    assert {"tcp0", "tcp1", "all flows"} <= names
    assert "queue_limit = link.r1-r2.queue.limit" in browser.find_element(
        "tag name", "body").text


def test_report_of_something_else_is_one_line(tmp_path: Path) -> None:
    r = ackclock("report", str(tmp_path), cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert "not a results folder" in r.stderr


def test_a_run_of_other_parameters_never_silently_replaces_a_folder(tmp_path: Path) -> None:
    scenario = str(ROOT / "examples" / "single_reno.toml")
    assert ackclock("run", scenario, "--quiet", cwd=tmp_path).returncode == 0
    first = (tmp_path / "results" / "single-reno" / "flows.csv").read_text()
    r = ackclock("run", scenario, "--seed", "5", "--quiet", cwd=tmp_path)
    assert r.returncode == 0
    assert "so this one is in results/single-reno-2" in r.stderr
    assert (tmp_path / "results" / "single-reno" / "flows.csv").read_text() == first
    assert (tmp_path / "results" / "single-reno-2" / "summary.json").is_file()
    # The same parameters again: the same folder, no note.
    r = ackclock("run", scenario, "--quiet", cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == ""
    # --out names the folder: replaced, and said so.
    r = ackclock("run", scenario, "--seed", "5", "--out", "results/single-reno", cwd=tmp_path)
    assert r.returncode == 0 and "replaced results/single-reno" in r.stderr
