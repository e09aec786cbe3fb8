"""Seed 000 (TCP over switch buffer sizes): every table and figure of the study, one command.

The study ran six ns-2 simulations (Sections 7.1-7.6) from its two Appendix A scripts, "a few
parameters modified" per section. The scripts as printed (examples/ns2/seed000_topology*.tcl)
run 500 s with the FTPs from 0 s and a 1 Gb/s uplink, which match none of the tables; this
runner applies what the text gives for each section to those scripts and runs them unchanged
otherwise, through `ackclock ns2` (and, with --ns2, through ns-2.35's `ns` as well):

- 1000 s, the concurrent flow from 0 s, the four FTPs from 500 s (Sections 7.1, 7.3);
- topology 1: the 1 Gb/s switch linked to the 10 Gb/s switch at 10 Gb/s (Section 6.1; the
  printed script has 1000Mb), its buffer (the hosts' and the switch's queues,
  `tcpSourceQueueLimit` and `switch1GbpsQueueLimit`) 1000, 50 or 10000 packets;
- Section 7.2: the concurrent flow's packets 8000 bytes (`packetSize_ 8000`), 3000 s;
- topology 2: 50 packets everywhere (7.3) or 1000 in the 10 Gb/s switch (7.6).

Each table is per-sink throughput "as measured at the arrival queues of the sink nodes over
500 seconds": the sink queue monitor's arrived packets x 1040 bytes x 8 / 500 s, which gives
Table 5 to within 31 packets in 43 million (718.8005 against 718.8000 Mb/s). The monitor's
byte count would give the same, but ns-2 keeps it in a 32-bit int, which wraps after 2 GiB
(ns-2's own queueStats.csv prints negative byte counts here; `ackclock ns2 --int32-counters`
does the same); the packet count does not wrap.

Writes, into --out: one folder per section with the script and its output files, tables.csv
and tables.md (every sink: ackclock, the study, the difference; with --ns2 also ns-2.35, and
how far the two throughputs.csv agree line for line), and figure_3.png ... figure_8.png
(throughput at the sinks against time, as the study plots them), and report.md: the tables
and figures on one page.

    python examples/seeds/000/run.py [--quick] [--ns2] [--ns2-seconds T] [--out results/seeds/000]

--ns2-seconds T runs ns-2.35 only up to T s of simulated time (the same script with MAX_TIME T;
every event before T is the same) and compares that part: Section 7.2's 3000 s take ns-2.35
about six hours, ackclock a fraction of it.

--quick runs every section for 30 s of simulated time with the FTPs from 15 s (the same
shapes, not the study's numbers); the full run takes about an hour of CPU time.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _wrap import QUICK_NOTE, parser, write_report  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = ROOT / "examples" / "ns2"


@dataclass(frozen=True)
class Section:
    name: str  # "7.1"
    table: int
    figure: int
    topology: int
    title: str
    queues: dict[str, int]
    seconds: float = 1000.0
    ftp_start: float = 500.0
    concur_packet: int | None = None
    study: tuple[float, float, float, float] = field(default=(0.0, 0.0, 0.0, 0.0))


SECTIONS = (
    Section("7.1", 2, 3, 1, "topology 1, 1 Gb/s switch with a 1000-packet buffer",
            {"tcpSourceQueueLimit": 1000, "switch1GbpsQueueLimit": 1000},
            study=(857.3466477, 857.3466477, 857.346631, 857.3006214)),
    Section("7.2", 3, 4, 1, "topology 1, 1000-packet buffer, concurrent flow 8000-byte packets",
            {"tcpSourceQueueLimit": 1000, "switch1GbpsQueueLimit": 1000},
            seconds=3000.0, concur_packet=8000,
            study=(553.6858963, 544.0242065, 559.1622102, 543.6314026)),
    Section("7.3", 4, 5, 2, "topology 2, 10 Gb/s switch only, 50-packet buffers",
            {"switch10GbpsQueueLimit": 50},
            study=(877.4849248, 745.1676218, 631.2969069, 502.6122323)),
    Section("7.4", 5, 6, 1, "topology 1, 1 Gb/s switch with a 50-packet buffer",
            {"tcpSourceQueueLimit": 50, "switch1GbpsQueueLimit": 50},
            study=(718.8000275, 718.8000275, 718.8000275, 718.8000109)),
    Section("7.5", 6, 7, 1, "topology 1, 1 Gb/s switch with a 10,000-packet buffer",
            {"tcpSourceQueueLimit": 10000, "switch1GbpsQueueLimit": 10000},
            study=(923.3922221, 923.3922054, 923.3921888, 923.3459296)),
    Section("7.6", 7, 8, 2, "topology 2, 10 Gb/s switch with a 1000-packet buffer",
            {"tcpSourceQueueLimit": 1000, "switch10GbpsQueueLimit": 1000},
            study=(2214.591276, 1779.878132, 1340.549451, 2102.94666)),
)
SINKS = ("tcpSink(0)", "tcpSink(1)", "tcpSink(2)", "tcpSink(3)")
WIRE = 1040  # the FTPs' packets on the wire: packetSize_ 1000 + 40 bytes of header


def _sub(text: str, old: str, new: str) -> str:
    if old not in text:
        raise SystemExit(f"seed 000 script changed: {old!r} not found")
    return text.replace(old, new)


def section_script(s: Section, seconds: float, ftp_start: float) -> str:
    """The appendix script for section ``s``, with the parameters its text gives."""
    text = (SCRIPTS / f"seed000_topology{s.topology}.tcl").read_text()
    text = _sub(text, "set MAX_TIME 500.0;", f"set MAX_TIME {seconds:.1f};")
    text = _sub(text, '$ns at [expr 0.0 + $i] "$ftp($i) start"', f'$ns at {ftp_start:.1f} '
                '"$ftp($i) start"')
    text = _sub(text, '    $ns at 0.0 "$ftp($i) start"', f'    $ns at {ftp_start:.1f} '
                '"$ftp($i) start"')
    for var, value in s.queues.items():
        text, n = re.subn(rf"^set {var} \d+$", f"set {var} {value}", text, flags=re.M)
        if n != 1:
            raise SystemExit(f"seed 000 script changed: no `set {var}` line")
    if s.topology == 1:
        text = _sub(text, "$ns duplex-link $switch1Gbps $switch10Gbps 1000Mb",
                    "$ns duplex-link $switch1Gbps $switch10Gbps 10000Mb")
    if s.concur_packet:
        text = _sub(text, "#$tcpConcurTraffic set packetSize_ 8000",
                    f"$tcpConcurTraffic set packetSize_ {s.concur_packet}")
    return text


def run_one(cmd: list[str], folder: Path, script: str) -> float:
    """Runs ``cmd script.tcl`` in ``folder``; returns its wall time."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "script.tcl").write_text(script)
    t0 = time.perf_counter()
    with open(folder / "stdout.txt", "w") as out:
        r = subprocess.run([*cmd, "script.tcl"], cwd=folder, stdout=out, stderr=subprocess.PIPE,
                           text=True)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed in {folder}: {r.stderr.strip()}")
    return time.perf_counter() - t0


def parity(ours: Path, theirs: Path) -> tuple[int, int, float | None]:
    """ackclock's and ns-2.35's throughputs.csv over the time both cover: (lines compared,
    lines identical, the time of the first line that differs, or None)."""
    a = (ours / "throughputs.csv").read_text().splitlines()[2:]
    b = (theirs / "throughputs.csv").read_text().splitlines()[2:]
    n = min(len(a), len(b))
    first = next((i for i in range(n) if a[i] != b[i]), None)
    same = sum(a[i] == b[i] for i in range(n))
    return n, same, None if first is None else float(a[first].split(";")[0])


def read_throughputs(folder: Path) -> pd.DataFrame:
    t = pd.read_csv(folder / "throughputs.csv", sep=";", skiprows=1)
    return t.dropna(axis=1, how="all")


def table(folder: Path, ftp_start: float, seconds: float) -> list[float]:
    """Each sink's Mb/s over the FTPs' time, as the study measured it at the sink's arrival
    queue: the queue monitor's arrived packets (a count that does not wrap) x 1040 bytes (1000
    + 40 of header) x 8, over the time the FTPs ran."""
    q = pd.read_csv(folder / "queueStats.csv", sep=";", skiprows=1).set_index("node")
    return [float(q.loc[f"qmonSink({i})", "arrived_packets"]) * WIRE * 8
            / (seconds - ftp_start) / 1e6 for i in range(4)]


def figure(folder: Path, s: Section, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = read_throughputs(folder)
    fig, ax = plt.subplots(figsize=(8, 4))
    for col in [*SINKS, "tcpSinkConcurTraffic"]:
        ax.plot(t["time"], t[col], lw=0.8, label=col)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("throughput at the sink (Mb/s)")
    ax.set_title(f"Figure {s.figure} (Section {s.name}): {s.title}", fontsize=9)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--quick", action="store_true", help="30 s runs, FTPs from 15 s")
    ap.add_argument("--ns2", action="store_true", help="also run ns-2.35 (`ns`) on each script")
    ap.add_argument("--ns2-seconds", type=float, default=None,
                    help="with --ns2: run ns-2.35 only this far and compare that part")
    ap.add_argument("--only", default="", help="comma-separated sections, e.g. 7.3,7.6")
    ap.add_argument("--out", type=Path, default=Path("results/seeds/000"))
    args = ap.parse_args(argv)
    if args.ns2 and shutil.which("ns") is None:
        ap.error("--ns2: no `ns` on PATH (Debian package ns2)")
    ackclock = [sys.executable, "-m", "ackclock", "ns2"]
    wanted = {x.strip() for x in args.only.split(",") if x.strip()}
    unknown = sorted(wanted - {s.name for s in SECTIONS})
    if unknown:
        ap.error(f"--only: no section {', '.join(unknown)}; the sections are "
                 f"{', '.join(s.name for s in SECTIONS)}")
    if args.ns2_seconds is not None and (not args.ns2 or args.ns2_seconds <= 0):
        ap.error("--ns2-seconds: expected a time in seconds above 0, with --ns2")
    rows = []
    checks: list[str] = []
    for s in SECTIONS:
        if wanted and s.name not in wanted:
            continue
        seconds, start = (30.0, 15.0) if args.quick else (s.seconds, s.ftp_start)
        script = section_script(s, seconds, start)
        folder = args.out / f"section_{s.name}"
        wall = run_one(ackclock, folder / "ackclock", script)
        ours = table(folder / "ackclock", start, seconds)
        theirs = [float("nan")] * 4
        ns_wall = float("nan")
        if args.ns2:
            ns_seconds = min(seconds, args.ns2_seconds or seconds)
            ns_wall = run_one(["ns"], folder / "ns2", section_script(s, ns_seconds, start))
            if ns_seconds == seconds:
                theirs = table(folder / "ns2", start, seconds)
            n, same, first = parity(folder / "ackclock", folder / "ns2")
            checks.append(f"| {s.name} | {ns_seconds:g} | {n} | {same} | "
                          f"{'none' if first is None else f'{first:g} s'} |")
        figure(folder / "ackclock", s, args.out / f"figure_{s.figure}.png")
        for name, a, b, st in zip([*SINKS], ours, theirs, s.study, strict=True):
            rows.append({"section": s.name, "table": s.table, "sink": name, "ackclock": a,
                         "ns2": b, "study": st, "diff_vs_study": a / st - 1.0,
                         "ackclock_wall_s": wall, "ns2_wall_s": ns_wall})
        avg = sum(ours) / 4
        rows.append({"section": s.name, "table": s.table, "sink": "average", "ackclock": avg,
                     "ns2": sum(theirs) / 4, "study": sum(s.study) / 4,
                     "diff_vs_study": avg / (sum(s.study) / 4) - 1.0,
                     "ackclock_wall_s": wall, "ns2_wall_s": ns_wall})
        print(f"section {s.name} (Table {s.table}): average {avg:.4f} Mb/s, study "
              f"{sum(s.study) / 4:.4f}, {wall:.0f} s", flush=True)
    df = pd.DataFrame(rows)
    args.out.mkdir(parents=True, exist_ok=True)
    df.to_csv(args.out / "tables.csv", index=False)
    lines = ["| section | table | sink | ackclock Mb/s | ns-2.35 Mb/s | study Mb/s | vs study |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        ns = "" if r["ns2"] != r["ns2"] else f"{r['ns2']:.4f}"
        lines.append(f"| {r['section']} | {r['table']} | {r['sink']} | {r['ackclock']:.4f} | "
                     f"{ns} | {r['study']:.4f} | {r['diff_vs_study']:+.1%} |")
    if checks:
        lines += ["", "ackclock against ns-2.35, throughputs.csv line by line:", "",
                  "| section | ns-2.35 ran to (s) | lines | identical | first difference |",
                  "|---|---|---|---|---|", *checks]
    (args.out / "tables.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    write_report(args.out, __doc__.splitlines()[0] + (QUICK_NOTE if args.quick else ""))
    print(f"wrote {args.out}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
