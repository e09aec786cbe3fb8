"""ns-2.35's own validation test suites, run under ns-2.35 and under `ackclock ns2`.

Every test of every suite in ../shared/ns2-2.35/tcl/test/ (each `test-suite-NAME.tcl` defines
its tests as OTcl classes `Test/TEST`; they are listed as ns-2's `test-all-template1` lists them,
by the lines that start with `Class Test/`) runs as ns-2's README runs it,

    cd tcl/test && ns test-suite-NAME.tcl TEST QUIET

once under ns-2.35 (Debian package ns2, command `ns`) and once as `ackclock ns2
test-suite-NAME.tcl TEST QUIET`, each in its own temporary copy of the ns-2.35 folder (the
tests pipe their traces through ../../bin's Perl tools, with PERL5LIB=../../perllib as the
folder's README says). The output compared is the one ns-2's own validation compares:
`temp.rands` (what the test's `finish` writes), or what it printed when it writes none.
Each test is one of

- identical: the same bytes;
- normalised: equal after a normalisation named in NORMALISATIONS (each one says why it is
  not a difference of the simulation);
- different: the first differing line is shown;
- not supported: ackclock stopped with status 2 (what it does not support, or a command it
  does not know) and says which;
- failed: ackclock stopped with another error or timed out (ns-2's own failures, status 2 for
  "Test not implemented" included, are listed apart and are not counted as run).

ns-2's outputs are cached in ~/.cache/ackclock/ns2-test-suites (keyed by the suite folder's
content and the ns binary), so a second run only runs ackclock.

    python validation/ns2_test_suites.py                     # every suite, a table per suite
    python validation/ns2_test_suites.py --suite tcp --suite red --details
    python validation/ns2_test_suites.py --markdown validation/ns2_test_suites_results.md
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# ../shared/ns2-2.35 next to the repository (or to the folder of its worktrees).
NS2_TREE = next((p / "shared" / "ns2-2.35" for p in ROOT.parents
                 if (p / "shared" / "ns2-2.35").is_dir()), ROOT.parent / "shared" / "ns2-2.35")
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ackclock" / \
    "ns2-test-suites"
OUTPUT = "temp.rands"
# Files a test leaves behind; removed before each test so that none is read from the one before.
LEFTOVERS = ("temp.rands", "out.tr", "all.tr", "all.nam", "temp.s", "temp1.rands", "temp2.rands")



def same_instant_order(text: str) -> str:
    """Sorts each run of consecutive lines that start with the same time."""
    out: list[str] = []
    run: list[str] = []
    key = None
    for line in text.splitlines():
        k = line.split(" ", 1)[0] if line[:1].isdigit() else None
        if k is None or k != key:
            out.extend(sorted(run))
            run = []
        key = k
        run.append(line)
    out.extend(sorted(run))
    return "\n".join(out)


# name -> (why it is not a difference of the simulation, the function applied to both outputs)
NORMALISATIONS: dict[str, tuple[str, Callable[[str], str]]] = {
    "order within an instant": (
        "the same lines, each run of lines with the same time sorted: ns-2 runs the events of "
        "one instant in the order they were scheduled, one per packet; the engine keeps one "
        "event per link (its head packet), so events of one instant that do not affect each "
        "other (a packet reaching a node, another leaving a queue elsewhere) may come out in "
        "another order. Every outcome (which packet is dropped, sent, when) is the same.",
        same_instant_order),
}

STATES = ("identical", "normalised", "different", "not supported", "failed")


@dataclass
class Outcome:
    test: str
    state: str
    detail: str = ""
    seconds: float = 0.0


@dataclass
class SuiteResult:
    suite: str
    outcomes: list[Outcome] = field(default_factory=list)
    ns2_failed: list[Outcome] = field(default_factory=list)

    def count(self, state: str) -> int:
        return sum(1 for o in self.outcomes if o.state == state)


def suites(tree: Path) -> list[str]:
    return sorted(p.name[len("test-suite-"):-len(".tcl")]
                  for p in (tree / "tcl" / "test").glob("test-suite-*.tcl"))


def tests_of(tree: Path, suite: str) -> list[str]:
    """As ns-2's test-all-template1 lists them: awk '/^Class Test\\//{...}'."""
    text = (tree / "tcl" / "test" / f"test-suite-{suite}.tcl").read_text(errors="replace")
    return [m.group(1) for m in re.finditer(r"^Class Test/(\S+)", text, re.M)]


def tree_key(tree: Path, ns: str) -> str:
    h = hashlib.sha256()
    for p in sorted((tree / "tcl").rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(tree)).encode())
            h.update(p.read_bytes())
    ns_path = shutil.which(ns) or ns
    try:
        h.update(Path(ns_path).read_bytes())
    except OSError:
        h.update(ns_path.encode())
    return h.hexdigest()[:16]


@dataclass
class Run:
    code: int | None  # None: timed out
    output: str  # temp.rands, or stdout when the test wrote none
    stdout: str
    stderr: str
    seconds: float


def run_test(command: list[str], work: Path, suite: str, test: str, timeout: float) -> Run:
    folder = work / "tcl" / "test"
    for name in LEFTOVERS:
        (folder / name).unlink(missing_ok=True)
    env = dict(os.environ, PERL5LIB=str(work / "perllib"))
    t0 = time.monotonic()
    try:
        p = subprocess.run([*command, f"test-suite-{suite}.tcl", test, "QUIET"], cwd=folder,
                           env=env, capture_output=True, timeout=timeout,
                           stdin=subprocess.DEVNULL)
        code: int | None = p.returncode
        stdout = p.stdout.decode(errors="replace")
        stderr = p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        code = None
        stdout = (e.stdout or b"").decode(errors="replace")
        stderr = (e.stderr or b"").decode(errors="replace")
    seconds = time.monotonic() - t0
    out = folder / OUTPUT
    output = out.read_text(errors="replace") if out.is_file() else stdout
    return Run(code, output, stdout, stderr, seconds)


def reference(ns: str, work: Path, key: str, suite: str, test: str, timeout: float) -> Run:
    cached = CACHE / key / suite / f"{test}.json"
    if cached.is_file():
        d = json.loads(cached.read_text())
        return Run(d["code"], d["output"], d["stdout"], d["stderr"], d["seconds"])
    r = run_test([ns], work, suite, test, timeout)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(r.__dict__))
    return r


def first_difference(a: str, b: str) -> str:
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb, strict=False)):
        if x != y:
            return f"line {i + 1}: ns-2 {x!r}, ackclock {y!r}"
    if len(la) != len(lb):
        i = min(len(la), len(lb))
        return (f"line {i + 1}: ns-2 {la[i] if i < len(la) else 'ends'!r}, "
                f"ackclock {lb[i] if i < len(lb) else 'ends'!r}")
    return "line endings"


def last_line(text: str) -> str:
    lines = [s for s in text.strip().splitlines() if s.strip()]
    return lines[-1][:200] if lines else ""


def compare(ref: Run, mine: Run) -> Outcome | None:
    """The outcome, or None when ns-2 itself did not run the test."""
    if ref.code != 0:
        return None
    if mine.code is None:
        return Outcome("", "failed", f"timed out after {mine.seconds:.0f} s", mine.seconds)
    if mine.code == 2:  # ackclock's status for what it does not support (or misreads)
        return Outcome("", "not supported", last_line(mine.stderr), mine.seconds)
    if mine.code != 0:
        return Outcome("", "failed", f"status {mine.code}: {last_line(mine.stderr)}",
                       mine.seconds)
    if mine.output == ref.output:
        return Outcome("", "identical", "", mine.seconds)
    for name, (_why, f) in NORMALISATIONS.items():
        if f(mine.output) == f(ref.output):
            return Outcome("", "normalised", name, mine.seconds)
    return Outcome("", "different", first_difference(ref.output, mine.output), mine.seconds)


def copy_tree(tree: Path, dest: Path) -> Path:
    shutil.copytree(tree, dest, symlinks=False)
    for p in dest.rglob("*"):  # shared/ is read-only: the copy must be writable
        p.chmod(p.stat().st_mode | 0o200)
    dest.chmod(dest.stat().st_mode | 0o200)
    return dest


def run_suites(names: Iterable[str], tree: Path, ns: str, ackclock: list[str],
               timeout: float, only: set[str] | None = None,
               progress: bool = True, ns2_only: bool = False) -> list[SuiteResult]:
    key = tree_key(tree, ns)
    results = []
    with tempfile.TemporaryDirectory(prefix="ns2-suites-") as tmp:
        ref_tree = copy_tree(tree, Path(tmp) / "ns2")
        my_tree = copy_tree(tree, Path(tmp) / "ackclock")
        for suite in names:
            res = SuiteResult(suite)
            for test in tests_of(tree, suite):
                if only and test not in only:
                    continue
                ref = reference(ns, ref_tree, key, suite, test, timeout)
                if ref.code != 0:
                    why = "timed out" if ref.code is None else \
                        f"status {ref.code}: {last_line(ref.stderr + ref.stdout)}"
                    res.ns2_failed.append(Outcome(test, "ns-2 failed", why))
                    continue
                if ns2_only:
                    continue
                mine = run_test(ackclock, my_tree, suite, test, timeout)
                o = compare(ref, mine)
                assert o is not None
                o.test = test
                res.outcomes.append(o)
                if progress:
                    print(f"  {suite} {test}: {o.state} {o.detail}"[:160], file=sys.stderr,
                          flush=True)
            results.append(res)
    return results


def table(results: list[SuiteResult]) -> str:
    head = ("| suite | tests | ns-2 ran | identical | normalised | different | not supported "
            "| failed |")
    rows = [head, "|" + "---|" * 8]
    tot = [0] * 7
    for r in results:
        n_all = len(r.outcomes) + len(r.ns2_failed)
        vals = [n_all, len(r.outcomes), *(r.count(s) for s in STATES)]
        tot = [a + b for a, b in zip(tot, vals, strict=True)]
        rows.append(f"| {r.suite} | " + " | ".join(str(v) for v in vals) + " |")
    rows.append("| **all** | " + " | ".join(f"**{v}**" for v in tot) + " |")
    n_all, ran = tot[0], tot[1]
    ran_ok = ran - tot[5] - tot[6]
    same = tot[2] + tot[3]
    rows.append("")
    rows.append(f"Of {n_all} tests, ns-2.35 runs {ran}; ackclock runs {ran_ok} of those to the "
                f"end ({pct(ran_ok, ran)}), {same} give ns-2's output identically or after a "
                f"named normalisation ({pct(same, ran)} of those ns-2 runs).")
    return "\n".join(rows)


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}%" if b else "-"


def details(results: list[SuiteResult]) -> str:
    lines = []
    for r in results:
        for o in r.outcomes:
            if o.state != "identical":
                lines.append(f"- {r.suite} {o.test}: {o.state}: {o.detail}")
        for o in r.ns2_failed:
            lines.append(f"- {r.suite} {o.test}: ns-2 itself fails ({o.detail})")
    return "\n".join(lines)


def causes(results: list[SuiteResult]) -> str:
    """The not-supported and failure messages, most frequent first."""
    counts: dict[str, int] = {}
    for r in results:
        for o in r.outcomes:
            if o.state in ("not supported", "failed"):
                msg = re.sub(r"^ackclock: error: [^:]+:\d+: ", "", o.detail)
                msg = re.sub(r"_o\d+", "_oN", msg)
                counts[msg] = counts.get(msg, 0) + 1
    return "\n".join(f"{n:4d}  {m}" for m, n in sorted(counts.items(), key=lambda x: -x[1]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", action="append", help="a suite (e.g. tcp); default: all")
    ap.add_argument("--test", action="append", help="only these tests")
    ap.add_argument("--tree", type=Path, default=NS2_TREE)
    ap.add_argument("--ns", default="ns")
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--details", action="store_true", help="list every test not identical")
    ap.add_argument("--causes", action="store_true", help="count failure messages")
    ap.add_argument("--markdown", type=Path, help="write the table and details here")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--ns2-only", action="store_true",
                    help="only run ns-2 (fill the cache of its outputs)")
    a = ap.parse_args(argv)
    if shutil.which(a.ns) is None:
        print(f"ns2_test_suites.py: `{a.ns}` not found (Debian package ns2)", file=sys.stderr)
        return 2
    names = a.suite or suites(a.tree)
    ackclock = [sys.executable, "-m", "ackclock", "ns2"]
    results = run_suites(names, a.tree, a.ns, ackclock, a.timeout,
                         set(a.test) if a.test else None, progress=not a.quiet,
                         ns2_only=a.ns2_only)
    text = table(results)
    print(text)
    if a.details:
        print(details(results))
    if a.causes:
        print(causes(results))
    if a.markdown:
        norm = "\n".join(f"- **{k}**: {why}" for k, (why, _) in NORMALISATIONS.items())
        a.markdown.write_text(
            "# ns-2.35's test suites under ackclock\n\n"
            "`python validation/ns2_test_suites.py` (see its docstring).\n\n"
            + text + "\n\n## Normalisations\n\n" + (norm or "none") + "\n\n"
            "## Every test not identical, with its cause\n\n" + details(results) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
