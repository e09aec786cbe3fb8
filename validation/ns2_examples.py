"""ns-2 example scripts (a folder of `*.tcl`, e.g. ns-2.35's tcl/ex), each run under ns-2.35 and
under `ackclock ns2`, every file it writes and its printout compared.

ns-2's own test suites (validation/ns2_test_suites.py) compare one file per test; example
scripts write traces, nam files and printouts of their own choosing, so here each script runs
in its own empty folder (a copy of the script alone), once as `ns SCRIPT` and once as
`ackclock ns2 SCRIPT`, and is

- identical: both ended with status 0, printed the same and wrote the same files, byte for byte;
- different: both ran; the first file (or the printout) that differs and its first differing
  line are shown;
- not supported: ackclock stopped with status 2 and says what it does not support;
- failed: ackclock stopped with another status or timed out;
- ns-2 fails: ns-2 itself did not end with status 0 (not counted as run): scripts that need
  files beside them, command-line arguments, or a program ns-2's finish procs run.

Examples often end by running a viewer (`exec nam out.nam &`, `exec xgraph ...`): both
simulators run with a folder first on PATH in which `nam`, `xgraph`, `gnuplot`, `gv`,
`ghostview` and `xterm` do nothing and succeed, so that such a finish does not decide the
outcome. Nothing of the examples is kept or copied into the repository: pass the folder of
your ns-2 tree (`--dir ~/ns-allinone-2.35/ns-2.35/tcl/ex`).

    python validation/ns2_examples.py --dir PATH/tcl/ex                  # every *.tcl there
    python validation/ns2_examples.py --dir PATH/tcl/ex simple.tcl ss.tcl --details
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

VIEWERS = ("nam", "xgraph", "gnuplot", "gv", "ghostview", "xterm")


@dataclass
class Side:
    code: int | None  # None: timed out
    stdout: str
    stderr: str
    folder: Path


@dataclass
class Outcome:
    script: str
    state: str
    detail: str


def run(command: list[str], script: Path, folder: Path, viewers: Path, timeout: float) -> Side:
    folder.mkdir(parents=True)
    shutil.copy(script, folder / script.name)
    env = dict(os.environ, PATH=f"{viewers}{os.pathsep}{os.environ.get('PATH', '')}")
    try:
        p = subprocess.run([*command, script.name], cwd=folder, env=env, capture_output=True,
                           timeout=timeout, stdin=subprocess.DEVNULL)
        return Side(p.returncode, p.stdout.decode(errors="replace"),
                    p.stderr.decode(errors="replace"), folder)
    except subprocess.TimeoutExpired:
        return Side(None, "", "", folder)


def first_difference(a: str, b: str) -> str:
    la, lb = a.splitlines(), b.splitlines()
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else "(ends)"
        y = lb[i] if i < len(lb) else "(ends)"
        if x != y:
            return f"line {i + 1}: ns-2 {x[:120]!r}, ackclock {y[:120]!r}"
    return "line endings"


def last_line(text: str) -> str:
    lines = [s for s in text.strip().splitlines() if s.strip()]
    return lines[-1][:200] if lines else ""


def compare(name: str, ns: Side, ac: Side) -> Outcome:
    if ns.code != 0:
        why = "timed out" if ns.code is None else f"status {ns.code}"
        return Outcome(name, "ns-2 fails", f"{why}: {last_line(ns.stderr or ns.stdout)}")
    if ac.code is None:
        return Outcome(name, "failed", "timed out")
    if ac.code == 2:
        return Outcome(name, "not supported", last_line(ac.stderr))
    if ac.code != 0:
        return Outcome(name, "failed", f"status {ac.code}: {last_line(ac.stderr)}")
    if ns.stdout != ac.stdout:
        return Outcome(name, "different", "printout " + first_difference(ns.stdout, ac.stdout))
    written = sorted(p.name for p in ns.folder.iterdir() if p.is_file() and p.name != name)
    for f in written:
        mine = ac.folder / f
        if not mine.is_file():
            return Outcome(name, "different", f"{f}: not written")
        if not filecmp.cmp(ns.folder / f, mine, shallow=False):
            a = (ns.folder / f).read_text(errors="replace")
            b = mine.read_text(errors="replace")
            return Outcome(name, "different", f"{f} {first_difference(a, b)}")
    extra = sorted(p.name for p in ac.folder.iterdir() if p.is_file() and p.name != name
                   and p.name not in written)
    if extra:
        return Outcome(name, "different", f"ackclock also wrote {', '.join(extra)}")
    return Outcome(name, "identical", f"{len(written)} files")


def run_examples(scripts: list[Path], ns: str, ackclock: list[str],
                 timeout: float) -> list[Outcome]:
    out = []
    with tempfile.TemporaryDirectory(prefix="ns2-examples-") as tmp:
        work = Path(tmp)
        viewers = work / "viewers"
        viewers.mkdir()
        for v in VIEWERS:
            p = viewers / v
            p.write_text("#!/bin/sh\nexit 0\n")
            p.chmod(0o755)
        for k, script in enumerate(scripts):
            ns_side = run([ns], script, work / f"ns{k}", viewers, timeout)
            ac_side = run(ackclock, script, work / f"ac{k}", viewers, timeout)
            out.append(compare(script.name, ns_side, ac_side))
    return out


STATES = ("identical", "different", "not supported", "failed", "ns-2 fails")


def table(results: list[Outcome]) -> str:
    counts = {s: sum(o.state == s for o in results) for s in STATES}
    ran = len(results) - counts["ns-2 fails"]
    lines = ["| scripts | ns-2 ran | " + " | ".join(STATES[:-1]) + " |",
             "|---" * (len(STATES) + 1) + "|",
             f"| {len(results)} | {ran} | " + " | ".join(str(counts[s]) for s in STATES[:-1])
             + " |"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, required=True, help="a folder of ns-2 example scripts")
    ap.add_argument("scripts", nargs="*", help="only these scripts of the folder")
    ap.add_argument("--ns", default="ns")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--details", action="store_true", help="one line per script")
    args = ap.parse_args(argv)
    if shutil.which(args.ns) is None:
        print(f"error: ns-2 ({args.ns}) not found: install the Debian package ns2",
              file=sys.stderr)
        return 2
    if not args.dir.is_dir():
        print(f"error: --dir {args.dir}: not a folder", file=sys.stderr)
        return 2
    names = args.scripts or sorted(p.name for p in args.dir.glob("*.tcl"))
    missing = [n for n in names if not (args.dir / n).is_file()]
    if missing:
        print(f"error: not in {args.dir}: {', '.join(missing)}", file=sys.stderr)
        return 2
    results = run_examples([args.dir / n for n in names], args.ns,
                           [sys.executable, "-m", "ackclock", "ns2"], args.timeout)
    print(table(results))
    if args.details:
        print()
        for o in results:
            print(f"- {o.script}: {o.state}" + (f": {o.detail}" if o.detail else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
