"""The engine's TOML reader (`read_toml`, crates/ackclock-py/src/toml_reader.rs) against tomli,
the reader it stands in for: the same values (types, key order, floats to the bit) on every
TOML file of the repository and on edge cases, and None (tomli then reads the text and names
the mistake) on every text tomli refuses, on TOML 1.1's additions and on what it leaves to
tomli (dates, inf and nan, integers beyond 64 bits, deep nesting)."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest
import tomli

from ackclock import _core
from ackclock.errors import ScenarioError
from ackclock.toml_loader import MAX_DEPTH, parse_toml

ROOT = Path(__file__).resolve().parents[2]


def same(a: Any, b: Any) -> bool:
    """Equal with the same types throughout, keys in the same order, floats to the bit."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return math.copysign(1, a) == math.copysign(1, b) and (a == b or a != a and b != b)
    return bool(a == b)


def read(text: str) -> dict[str, Any] | None:
    return _core.read_toml(text, MAX_DEPTH)


def agrees(text: str) -> bool:
    """The reader gives tomli's values, or None where tomli refuses the text."""
    mine = read(text)
    try:
        theirs = tomli.loads(text)
    except (ValueError, RecursionError):  # TOMLDecodeError, or an int of over 4300 digits
        return mine is None
    return mine is None or same(mine, theirs)


def repository_toml() -> list[Path]:
    skip = {".git", "target", "node_modules", ".venv"}
    return sorted(p for p in ROOT.rglob("*.toml") if not skip & set(p.parts))


def test_every_toml_file_of_the_repository_reads_as_tomli_reads_it() -> None:
    files = repository_toml()
    assert len(files) > 20
    left = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert agrees(text), path
        if read(text) is None:
            try:
                tomli.loads(text)
                left.append(path.name)
            except (ValueError, RecursionError):  # the fuzz corpus's invalid files
                pass
    assert left == ["duration_beyond_u64.toml"]  # an integer beyond 64 bits


# Each read by both, to the same values.
TAKEN = [
    "",
    "# only a comment\n",
    "a = 1",
    "a = -0\nb = +7\nc = 1_000\nd = 0x1F\ne = 0o17\nf = 0b101\ng = 0xdead_BEEF",
    "a = 9223372036854775807\nb = -9223372036854775808",
    "a = 1.5\nb = -0.0\nc = 1e10\nd = 1E-5\ne = 6.02_2e2_3\nf = 0.1\ng = 1e400\nh = 0e0",
    "a = 5e+22\nb = -2E-2\nc = 3.141_592_653_589_793\nd = 1.7976931348623157e308",
    'a = "x\\ty\\u00e9\\U0001F600\\\\\\" \\b\\f\\n\\r"',
    "a = 'C:\\Users\\x'\nb = ''",
    'a = """\nfirst\\\n    second \\\n\n  third"""',
    'a = """one "quoted" two""""\nb = """x"""""\nc = """"""',
    "a = '''\nraw \\n text\n'''\nb = '''x''''\nc = '''x'''''",
    "a = true\nb = false",
    'a = [1, [2, "x"], {b = 1}, []]\nb = [ ]\nc = [\n  1, # one\n  2,\n]\n',
    "a = {}\nb = { c.d = 1, e = [1, 2], f = { g = 'h' } }",
    "\"quoted key\" = 1\n'literal key' = 2\n\"\" = 3\n\"a.b\" = 4\n\"\\u0041\" = 5",
    "a.b.c = 1\na.b.d = 2\na . e = 3",
    "[a]\nx = 1\n[a.b]\ny = 2\n[c . d]\n[ e ]",
    "[x.y.z]\n[x]\nw = 1",
    "[[t]]\nx = 1\n[[t]]\nx = 2\n[t.sub]\nz = 3\n[[t.list]]\n[[t]]",
    "[[a.b]]\n[[a.b]]\nc = 1\n[a]\nd = 2",
    "a = 1 # trailing\n\n\n[b] # header\nc = 'x'#no space\n",
    "a = 1\r\nb = \"x\"\r\n[c]\r\n",
    'name = "é ünïcode ✓"\n"ключ" = "значение"',
    "a = 1\t\n\tb = 2",
    "a = [[[[1]]]]",
    "a = " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1),
]


@pytest.mark.parametrize("text", TAKEN)
def test_edge_cases_read_as_tomli_reads_them(text: str) -> None:
    mine = read(text)
    assert mine is not None
    assert same(mine, tomli.loads(text))


# Valid TOML 1.0 left to tomli: dates and times, inf and nan, integers beyond 64 bits.
LEFT = [
    "d = 1979-05-27",
    "d = 1979-05-27T07:32:00Z",
    "t = 07:32:00",
    "f = inf",
    "f = -nan",
    "i = 9223372036854775808",
    "i = 0xFFFFFFFFFFFFFFFF",
    "a = " + "[" * MAX_DEPTH + "]" * MAX_DEPTH,
    "[" + ".".join("k" * MAX_DEPTH) + "]",
]

# Refused by tomli 2.2-2.3 (TOML 1.0): TOML 1.1's additions and mistakes.
REFUSED = [
    "a = { b = 1, }",  # TOML 1.1: a comma after the last pair
    "a = {\n b = 1 }",  # TOML 1.1: newlines in an inline table
    'a = "\\e"',  # TOML 1.1: \e
    'a = "\\x41"',  # TOML 1.1: \xHH
    "t = 07:32",  # TOML 1.1: a time without seconds
    "a = 1\na = 2",
    "[a]\n[a]",
    "a = {}\n[a]",
    "[[a]]\n[a]",
    "a = [1]\n[[a]]",
    "a.b = 1\n[a.b]",
    "[a.b]\n[a]\nb.c = 1",
    "a = { b = 1, b = 2 }",
    "a = { b = {}, b.c = 1 }",
    "a = 01",
    "a = 1__0",
    "a = 1_",
    "a = .5",
    "a = 5.",
    "a = 1e",
    "a = +0x10",
    "a = 0x",
    "a = [1 2]",
    "a = [1,,2]",
    'a = "unterminated',
    'a = "control \x01"',
    "a = 'line\nbreak'",
    "# delete \x7f",
    "a = 1 b = 2",
    "a = 1\rb = 2",
    "= 1",
    "a =",
    "a",
    "[a",
    "[[a]",
    "[a]]",
    "a = '''never closed",
    'a = """never closed',
    'a = "\\ud800"',
    'a = "\\uZZZZ"',
    'a = "\\U00110000"',
    'a = "\\q"',
    "a = truee",
    "a = tru",
    "a = True",
    "\ufeffa = 1",
    "a = {b = 1}\na.c = 2",
]


@pytest.mark.parametrize("text", LEFT + REFUSED)
def test_what_the_reader_leaves_to_tomli(text: str) -> None:
    assert read(text) is None
    if text in REFUSED:
        with pytest.raises(tomli.TOMLDecodeError):
            tomli.loads(text)


def test_mistakes_keep_tomli_messages() -> None:
    with pytest.raises(ScenarioError, match=r"^line 2, column 5: invalid TOML: Invalid value$"):
        parse_toml("a = 1\nb = \n")
    deep = "a = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(ScenarioError, match=f"nested more than {MAX_DEPTH} levels deep"):
        parse_toml(deep)


def test_mutated_files_read_as_tomli_reads_them() -> None:
    """Texts one or two characters away from valid ones (most of them invalid): the reader
    gives tomli's values or gives up, never accepts what tomli refuses."""
    seeds = [t for t in TAKEN if t] + [
        (ROOT / "examples" / "dumbbell.toml").read_text(encoding="utf-8")[:1500]]
    alphabet = "[]{}=,.\"'#\n \t\\_-+:exu019"
    rng = random.Random(31)
    taken = 0
    for _ in range(4000):
        text = rng.choice(seeds)
        for _ in range(rng.choice((1, 2))):
            i = rng.randrange(len(text) + 1)
            op = rng.randrange(3)
            if op == 0:
                text = text[:i] + text[i + 1:]
            elif op == 1:
                text = text[:i] + rng.choice(alphabet) + text[i:]
            else:
                text = text[:i] + rng.choice(alphabet) + text[i + 1:]
        assert agrees(text), repr(text)
        taken += read(text) is not None
    assert taken > 500  # the valid ones among them are read, not all given up
