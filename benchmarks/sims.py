"""The three simulators of benchmarks/compare.py: how each runs a case and what it reports.

Each simulator runs one case as one child process (the whole command, start-up included) and
reports the same four counters, from its own end-of-run counters:

- delivered_bytes: application payload delivered in order to the sinks;
- data_sent: data packets the senders put on their access links, retransmissions included;
- acks_received: ACKs that came back to the senders;
- hops_exact (ackclock and ns-3 only): packets that crossed a link, every link counted.

ns-2: the sinks' `bytes_` (in-order packets at their wire size), the senders' `ndatapack_` and
`nackpack_`. ns-3: the PacketSinks' `GetTotalRx()`, and the packets the device queues of each
sender's access link accepted, each way. ackclock: flows.csv's `bytes_delivered`,
`packets_sent` and `acks_sent - acks_dropped`; summary.json's `packet_hops`.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
NS3_VERSION = "3.44.post0"
NS3_MODULES = ("core", "network", "internet", "point-to-point", "applications", "traffic-control",
               "flow-monitor")
# The wheel's libraries are CMake "release" builds (-O3) that keep NS_LOG and NS_ASSERT compiled
# in (NS3_BUILD_PROFILE_RELEASE;NS3_LOG_ENABLE;NS3_ASSERT_ENABLE in its CMake targets); our
# programs are compiled with the same definitions and -O3.
NS3_FLAGS = ("-O3", "-std=c++20", "-DNS3_BUILD_PROFILE_RELEASE", "-DNS3_LOG_ENABLE",
             "-DNS3_ASSERT_ENABLE")


@dataclass(frozen=True)
class Case:
    """One benchmark case: a scenario with its parameters."""

    id: str            # e.g. "1-n10", "2-cubic", "4"
    scenario: str      # table heading, e.g. "2: 10 flows, 1 Gb/s"
    label: str         # e.g. "N=10 p=0.0001 bs=200 T=1500s"
    kind: str          # seed002 | dumbbell | seed000_topology2: the file names
    n: int             # number of TCP flows
    seconds: float     # simulated time
    variant: str = "newreno"
    p: float = 0.0
    bs: int = 0
    payload: int = 1448  # bytes of payload per data packet
    wire: int = 1500     # bytes of a data packet on the wire (IP and TCP headers included)
    hops: int = 3        # links a data packet crosses, and an ACK on the way back


@dataclass
class Counters:
    delivered_bytes: int
    data_sent: int
    acks_received: int
    hops_exact: int | None = None

    def hops(self, case: Case) -> int:
        """Every data packet sent and every ACK received, times the links of its path."""
        return case.hops * (self.data_sent + self.acks_received)


@dataclass
class Run:
    wall_s: float
    peak_mb: float
    counters: Counters


class Failed(Exception):
    pass


def timed(cmd: list[str], cwd: Path, timeout: float) -> tuple[float, float, str]:
    """Runs cmd; returns its wall time, its peak resident memory (MB, from the rusage of the
    child, its own children included) and its standard output."""
    out, err = cwd / "stdout.txt", cwd / "stderr.txt"
    with open(out, "wb") as fo, open(err, "wb") as fe:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=fo, stderr=fe, stdin=subprocess.DEVNULL)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                os.wait4(proc.pid, 0)
                proc.returncode = -9
                raise Failed(f"timed out after {timeout:.0f} s")
            time.sleep(0.002)
        wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        tail = err.read_text(errors="replace")[-1500:]
        raise Failed(f"exit status {proc.returncode}: {tail}")
    return wall, usage.ru_maxrss / 1024, out.read_text()


def parse_counters(text: str) -> Counters:
    """The "key value" lines the ns-2 and ns-3 programs print."""
    found = dict(re.findall(r"^(\w+) (\d+)\s*$", text, flags=re.M))
    try:
        return Counters(int(found["delivered_bytes"]), int(found["data_sent"]),
                        int(found["acks_received"]),
                        int(found["hops_exact"]) if "hops_exact" in found else None)
    except KeyError as e:
        raise Failed(f"no {e} in the output: {text[-500:]!r}") from None


class Simulator:
    name = ""

    def available(self) -> str | None:
        """None when it can run, else why not."""
        return None

    def command(self, case: Case, folder: Path) -> list[str]:
        raise NotImplementedError

    def counters(self, case: Case, folder: Path, stdout: str) -> Counters:
        return parse_counters(stdout)

    def run(self, case: Case, folder: Path, timeout: float) -> Run:
        wall, peak, stdout = timed(self.command(case, folder), folder, timeout)
        return Run(wall, peak, self.counters(case, folder, stdout))


class Ns2(Simulator):
    """ns-2.35 (Debian package ns2): the Tcl scripts in benchmarks/ns2/."""

    name = "ns-2"

    def available(self) -> str | None:
        return None if shutil.which("ns") else "`ns` is not on PATH (apt-get install ns2)"

    def command(self, case: Case, folder: Path) -> list[str]:
        script = str(HERE / "ns2" / f"{case.kind}.tcl")
        t = f"{case.seconds:g}"
        if case.kind == "seed002":
            return ["ns", script, t, f"{case.p:g}", str(case.n), str(case.bs)]
        if case.kind == "dumbbell":
            return ["ns", script, str(case.n), t, case.variant]
        return ["ns", script, t]


def compile_package() -> None:
    """Writes the bytecode cache of the ackclock package, as `pip install .` does. An editable
    install run with PYTHONDONTWRITEBYTECODE=1 (as on these machines) would otherwise compile
    its modules again at every start, some 30 ms that an installed copy never spends."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("ackclock")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        compileall.compile_dir(folder, quiet=1)


class Ackclock(Simulator):
    """The `ackclock run` command on the scenario files in benchmarks/ackclock/."""

    name = "ackclock"

    def __init__(self) -> None:
        scripts = Path(sysconfig.get_path("scripts"))
        exe = scripts / "ackclock"
        self.exe = str(exe) if exe.is_file() else shutil.which("ackclock")

    def available(self) -> str | None:
        if not self.exe:
            return "the `ackclock` command is not installed"
        compile_package()
        return None

    def command(self, case: Case, folder: Path) -> list[str]:
        assert self.exe is not None
        text = (HERE / "ackclock" / f"{case.kind}.toml").read_text()
        if case.kind in ("seed002", "dumbbell"):
            text, k = re.subn(r"^count = \d+$", f"count = {case.n}", text, flags=re.M)
            assert k > 0
        scenario = folder / f"{case.kind}.toml"
        scenario.write_text(text)
        sets = [f"run.duration={case.seconds:g}s"]
        if case.kind == "seed002":
            sets += [f"link.entry-exit.loss.p={case.p:g}", f"link.entry-exit.queue.limit={case.bs}"]
        if case.variant == "cubic":
            sets += ["defaults.tcp.variant=sack", "defaults.tcp.cc=cubic", "defaults.tcp.sink=sack"]
        cmd = [self.exe, "run", str(scenario), "--out", str(folder / "out"), "--quiet"]
        for s in sets:
            cmd += ["--set", s]
        return cmd

    def counters(self, case: Case, folder: Path, stdout: str) -> Counters:
        out = folder / "out"
        delivered = data = acks = 0
        with open(out / "flows.csv", newline="") as f:
            for row in csv.DictReader(f):
                delivered += int(row["bytes_delivered"])
                data += int(row["packets_sent"])
                acks += int(row["acks_sent"]) - int(row["acks_dropped"])
        summary = json.loads((out / "summary.json").read_text())
        return Counters(delivered, data, acks, int(summary["packet_hops"]))


class Ns3(Simulator):
    """ns-3.44 from the PyPI wheel `ns3`, installed into its own virtual environment; the
    C++ programs in benchmarks/ns3/ are compiled against the wheel's headers and libraries
    (the simulation is C++ only: no Python, no cppyy, in the timed command)."""

    name = "ns-3"

    def __init__(self, cache: Path, install: bool) -> None:
        self.cache = cache
        self.venv = cache / "ns3-venv"
        self.install = install
        self.why_not: str | None = None
        self.bins: dict[str, Path] = {}

    def prefix(self) -> Path | None:
        found = sorted(self.venv.glob("lib/python3*/site-packages/ns3/lib64"))
        return found[0].parent if found else None

    def setup(self) -> None:
        """Installs the wheel (once) and compiles the programs (when their source changed)."""
        if self.prefix() is None:
            if not self.install:
                self.why_not = f"no ns-3 virtual environment at {self.venv} (--no-install)"
                return
            print(f"installing ns3=={NS3_VERSION} from PyPI into {self.venv} ...", flush=True)
            try:
                subprocess.run([sys.executable, "-m", "venv", str(self.venv)], check=True)
                subprocess.run([str(self.venv / "bin" / "pip"), "install", "-q",
                                f"ns3=={NS3_VERSION}"], check=True)
            except (subprocess.CalledProcessError, OSError) as e:
                self.why_not = f"installing ns3 failed: {e}"
                return
        prefix = self.prefix()
        if prefix is None:
            self.why_not = f"the ns3 wheel in {self.venv} has no lib64 folder"
            return
        cxx = shutil.which("g++")
        if cxx is None:
            self.why_not = "no C++ compiler (g++) to build the ns-3 programs"
            return
        bin_dir = self.cache / "ns3-bin"
        bin_dir.mkdir(parents=True, exist_ok=True)
        common = (HERE / "ns3" / "common.h").read_bytes()
        for kind in ("seed002", "dumbbell", "seed000_topology2"):
            src = HERE / "ns3" / f"{kind}.cc"
            key = hashlib.sha256(common + src.read_bytes() + " ".join(NS3_FLAGS).encode()
                                 + str(prefix).encode()).hexdigest()[:12]
            exe = bin_dir / f"{kind}-{key}"
            if not exe.is_file():
                print(f"compiling {src.name} against ns-3 in {prefix} ...", flush=True)
                cmd = [cxx, *NS3_FLAGS, f"-I{prefix / 'include'}", f"-I{HERE / 'ns3'}",
                       str(src), "-o", str(exe), f"-L{prefix / 'lib64'}",
                       f"-Wl,-rpath,{prefix / 'lib64'}",
                       *(f"-lns3.44-{m}" for m in NS3_MODULES)]
                done = subprocess.run(cmd, capture_output=True, text=True, check=False)
                if done.returncode != 0:
                    self.why_not = f"compiling {src.name} failed: {done.stderr[-1500:]}"
                    return
            self.bins[kind] = exe

    def available(self) -> str | None:
        return self.why_not

    def command(self, case: Case, folder: Path) -> list[str]:
        t = f"{case.seconds:g}"
        if case.kind == "seed002":
            return [str(self.bins["seed002"]), t, f"{case.p:g}", str(case.n), str(case.bs)]
        if case.kind == "dumbbell":
            return [str(self.bins["dumbbell"]), str(case.n), t, case.variant]
        return [str(self.bins["seed000_topology2"]), t]
