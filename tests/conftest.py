"""Settings every test shares."""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest

# A shell starts a background job (`cmd &` without job control, as CI runners and nohup
# do) with SIGINT ignored, and the ignore is inherited across exec: the ackclock processes
# the Ctrl-C tests start would then never see the SIGINT those tests send, as no process in
# a terminal's foreground would miss it. Python turns an inherited ignore into no handler at
# all, so restore the default here; children then start with SIGINT at its default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def dead_pid() -> int:
    """A process id no process has now: what a killed run's leftovers are named with."""
    pid = 2**22 + 12345
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid += 1


# Where benchmarks/ns3 installs ns-3.44's wheel (benchmarks/sims.py's cache).
NS3_VENV = Path.home() / ".cache" / "ackclock-bench" / "ns3-venv"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "ns3_live: runs ns-3.44 itself; skipped where its wheel or g++ is missing")


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("ns3_live") is None:
        return
    if not NS3_VENV.is_dir() or shutil.which("g++") is None:
        pytest.skip("ns-3.44's wheel (benchmarks/ns3) or g++ is not installed")
