"""Every TOML block of README.md and docs/ is a scenario, a sweep file or a piece of a
scenario, and loads (pytest-codeblocks runs the Python and shell blocks; see conftest.py).

A piece ([[flow]], [[link]], [[trace]] tables) is checked inside a small network that has
the nodes the docs' pieces use; a complete scenario (it has [run]) is checked alone; a sweep
file (it has `scenario`) is read relative to examples/sweeps/, as the docs' example is.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pytest_codeblocks import extract_from_file

import ackclock as ac
from ackclock.sweep import load_sweep

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCKS = [pytest.param(page, block.code, id=f"{page.relative_to(ROOT)}:{block.lineno}")
          for page in PAGES for block in extract_from_file(page) if block.syntax == "toml"]

_NODES = ("s", "d", "s1", "d1", "r1", "r2", "client", "server")
_BASE = """
name = "docs-piece"
[run]
duration = "1s"
""" + "".join(f'[[node]]\nname = "{n}"\n' for n in _NODES) + "".join(
    f'[[link]]\nfrom = "{a}"\nto = "{b}"\nrate = "100Mb/s"\ndelay = "1ms"\n'
    for a, b in (("s", "r1"), ("s1", "r1"), ("client", "r1"), ("r2", "d"), ("r2", "d1"),
                 ("r2", "server")))
_BOTTLENECK = '[[link]]\nfrom = "r1"\nto = "r2"\nrate = "10Mb/s"\ndelay = "20ms"\n'
_FLOW = '[[flow]]\nname = "tcp1"\nkind = "tcp"\nfrom = "s1"\nto = "d1"\n'


def test_blocks_found() -> None:
    assert len(BLOCKS) >= 9


@pytest.mark.parametrize(("page", "code"), BLOCKS)
def test_toml_block(page: Path, code: str, tmp_path: Path) -> None:
    doc = tomllib.loads(code)
    if "rule" in doc:  # taplo's configuration: the repository's own
        assert doc == tomllib.loads((ROOT / ".taplo.toml").read_text(encoding="utf-8"))
        return
    if "scenario" in doc:
        sweep_file = ROOT / "examples" / "sweeps" / "docs_block.toml"
        spec_path = tmp_path / "sweeps" / "s.toml"
        spec_path.parent.mkdir()
        spec_path.write_text(code, encoding="utf-8")
        spec = load_sweep(spec_path)
        scenario = sweep_file.parent / Path(spec.scenario).relative_to(spec_path.parent)
        assert scenario.is_file(), f"{page.name}: the sweep's scenario {scenario} is missing"
        for key, values in spec.grid.items():
            for v in values:
                ac.load_scenario(scenario, [f"{key}={v}"])
        return
    if "run" in doc:
        ac.loads_scenario(code, source=str(page))
        _schema_accepts(doc)
        return
    links = doc.get("link", [])
    own_bottleneck = any({link.get("from"), link.get("to")} == {"r1", "r2"} for link in links)
    flows = doc.get("flow", [])
    # The piece's relative files (traces/video.txt) are those of examples/.
    text = _BASE + ("" if own_bottleneck else _BOTTLENECK) + ("" if flows else _FLOW) + code
    scenario = ac.loads_scenario(text, source=str(ROOT / "examples" / "piece.toml"))
    ac.resolve(scenario)
    _schema_accepts(tomllib.loads(text))


def _schema_accepts(doc: dict[str, object]) -> None:
    """The published scenario schema (docs/scenario.schema.json) accepts what the loader did."""
    import jsonschema

    from ackclock.schema import json_schema

    errors = [f"{list(e.absolute_path)}: {e.message}"
              for e in jsonschema.Draft7Validator(json_schema()).iter_errors(doc)]
    assert errors == []


_ROOTS = ("crates/", "examples/", "python/", "benchmarks/", "docs/", "tests/", "validation/",
          "scripts/")


def test_cited_files_exist() -> None:
    """Every repository path a page cites in backquotes (`examples/x.toml`) exists."""
    import re

    missing = []
    for page in PAGES:
        for m in re.finditer(r"`([A-Za-z0-9_./{}-]+)`", page.read_text(encoding="utf-8")):
            path = m.group(1).rstrip(".")
            if path.startswith(_ROOTS) and "{" not in path and "<" not in path:
                if not (ROOT / path).exists():
                    missing.append(f"{page.relative_to(ROOT)}: {path}")
    assert not missing, "\n".join(missing)


def test_architecture_page_names_every_engine_module() -> None:
    """docs/architecture.md's table of the engine's modules names each file and folder of
    crates/ackclock-core/src and of its sim/ (the layers, issue 27), and every file it names
    in backquotes (`sim/build.rs`, `sender/sack.rs`) is one of the repository's: the page
    fails here when a module is added, moved or renamed without it."""
    import re

    text = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    cited = {p for tok in re.findall(r"`([^`]+)`", text)
             for p in re.split(r"[\s,()]+", tok) if p}
    src = ROOT / "crates/ackclock-core/src"
    unnamed = []
    for entry in [*src.iterdir(), *(src / "sim").iterdir()]:
        rel = entry.relative_to(src).as_posix()
        if rel == "lib.rs":
            continue
        names = {f"{rel}/"} if entry.is_dir() else {rel, rel.removeprefix("sim/")}
        if entry.is_dir() and not any(c.startswith(f"{rel}/") for c in cited):
            unnamed.append(rel + "/")
        elif entry.is_file() and not names & cited:
            unnamed.append(rel)
    assert unnamed == [], f"docs/architecture.md's module table lacks {unnamed}"
    files = [p.relative_to(ROOT).as_posix() for top in ("crates", "python", "tests", "benchmarks")
             for p in (ROOT / top).rglob("*.*") if p.suffix in (".rs", ".py", ".pyi")]
    missing = [c for c in cited if re.fullmatch(r"[\w/.-]+\.(rs|py|pyi)", c)
               and not any(f == c or f.endswith("/" + c) for f in files)]
    assert missing == [], f"docs/architecture.md names files that do not exist: {missing}"
