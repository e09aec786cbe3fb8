"""ackclock's `linux` profile against real Linux TCP on the namespace testbed (validation/linux/).

Needs root, network namespaces, iperf3, ethtool and gcc; skipped without them. One short case
(cubic, 20 Mb/s, 20 ms, 40-packet buffer, 4 s) runs live: goodput within 5% of Linux's and
mean smoothed RTT within 10%, the issue's bars. The emulator is timing-sensitive: on a loaded
machine it wakes up late, and one stall of a few milliseconds costs Linux's 4-s flow several
percent (measured under load 28: 17.41 and 17.94 Mb/s with 25 and 57 packets over 1 ms late,
up to 18.7 ms; 18.70 Mb/s with none). So a run with any packet over 1 ms late is no reference:
it is run again, up to three times, and the test is skipped if every run was late. Both iperf3
endpoints run at real-time priority 40 where the machine allows it, as the reference tables
were taken (`compare.py --endpoint-priority 40`): at normal priority the machine's other work
stalls the receiver and the sender (docs/validation.md); where it does not, at normal priority.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def _compare() -> ModuleType:
    spec = importlib.util.spec_from_file_location("linux_compare",
                                                  ROOT / "validation" / "linux" / "compare.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["linux_compare"] = mod
    spec.loader.exec_module(mod)
    return mod


cmp = _compare()


def _namespaces_work() -> str | None:
    why: str | None = cmp.testbed_ready()
    if why:
        return why
    try:
        cmp.setup_namespaces(wait=False)
    except cmp.TestbedBusy as e:
        return str(e)
    except subprocess.CalledProcessError as e:
        cmp.teardown_namespaces()
        return f"cannot make network namespaces ({e})"
    return None


@pytest.fixture(scope="module")
def testbed():  # type: ignore[no-untyped-def]
    why = _namespaces_work()
    if why:
        pytest.skip(f"Linux testbed unavailable: {why}")
    yield
    cmp.teardown_namespaces()


# Linux runs of the short case tried before giving up on a quiet one.
ATTEMPTS = 3


def test_a_short_cubic_flow_matches_linux(testbed: None, tmp_path: Path) -> None:
    case = cmp.quick_case()
    priority = cmp.REFERENCE_PRIORITY if cmp.realtime_allowed() else 0
    late = []
    for attempt in range(ATTEMPTS):
        out = tmp_path / f"run{attempt}"
        cmp.run_linux(case, out, priority=priority)
        assert json.loads((out / "case.json").read_text())["endpoint_priority"] == priority
        lx = cmp.linux_metrics(case, out)
        if lx["late"] == 0:
            break
        late.append(f"{lx['late'] * 100:.2f}%")
    else:
        pytest.skip(f"the link emulator served packets over 1 ms late in each of {ATTEMPTS} "
                    f"runs ({', '.join(late)} of them): the machine is too loaded for a "
                    "reference")
    ak = cmp.run_ackclock(case)
    rows = cmp.table_rows(case, lx, ak)
    print(f"endpoints at real-time priority {priority}" if priority
          else "endpoints at normal priority (real-time not allowed here)")
    print("\n".join([cmp.HEADER, *rows]))
    lf, af = lx["flows"][0], ak["flows"][0]
    assert lf["goodput"] > 0.8 * case.rate_mbps, rows
    assert abs(af["goodput"] / lf["goodput"] - 1) <= 0.05, rows
    assert abs(af["rtt"] / lf["rtt"] - 1) <= 0.10, rows
