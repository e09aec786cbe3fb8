"""`ackclock seed`: the seed studies' one-command runners (examples/seeds/NNN/run.py), run by
the study's number with the runner's own flags (docs/cli.md, docs/examples/).

The runners are examples of ackclock's source checkout, not part of the installed package:
they are looked for in the current folder and the folders above it, then in the checkout an
editable install (``pip install -e .``) runs from.
"""

from __future__ import annotations

import ast
import importlib.util
import runpy
import sys
from pathlib import Path
from typing import Any

from .errors import ScenarioError

_WHERE = Path("examples") / "seeds"


def runners_folder(start: Path | None = None, package_checkout: Path | None = None) -> Path:
    """examples/seeds/ of the checkout around ``start`` (default: the current folder), else
    of the checkout this package is installed from; one line naming where it looked if none."""
    here = (start or Path.cwd()).resolve()
    if package_checkout is None:
        package_checkout = Path(__file__).resolve().parents[2]
    for place in (here, *here.parents, package_checkout):
        folder = place / _WHERE
        if (folder / "_wrap.py").is_file():
            return folder
    raise ScenarioError(f"no {_WHERE.as_posix()}/ in {here} or the folders above it: the seed"
                        " studies' runners come with ackclock's source checkout; run this"
                        " inside one", path="seed")


def studies(folder: Path) -> dict[str, Path]:
    """Each study's number and its runner, in order."""
    return {p.parent.name: p for p in sorted(folder.glob("*/run.py"))}


def title(runner: Path) -> str:
    """A runner's study in a few words: its docstring up to the first closing parenthesis
    ("Seed 000 (TCP over switch buffer sizes)"), else its first line."""
    doc = ast.get_docstring(ast.parse(runner.read_text(encoding="utf-8"))) or ""
    text = " ".join(doc.split())
    end = text.find(")")
    if 0 <= end < 200:
        return text[:end + 1]
    return doc.splitlines()[0] if doc else runner.parent.name


def listing(folder: Path) -> str:
    rows = [f"{number}  {title(path)}" for number, path in studies(folder).items()]
    return "\n".join([*rows, f"(runners in {folder}; `ackclock seed STUDY --help` gives a"
                      " study's flags)"])


def run(study: str, argv: list[str], folder: Path) -> int:
    """Runs study ``study``'s runner with ``argv`` in this process; a mistake in ``argv``
    raises ScenarioError (one line) where the runner alone would print argparse's usage."""
    known = studies(folder)
    study = study.zfill(3) if study.isdigit() else study  # `ackclock seed 4` is study 004
    if study not in known:
        raise ScenarioError(f"no such study; the studies are {', '.join(known)}"
                            f" ({folder})", path=f"seed {study}")
    wrap = _wrap_module(folder)
    # The runners' parsers come from _wrap.parser(): named after this command, and raising
    # one line for a bad flag (a runner's own checks of its flags included).
    wrap.PROG = f"ackclock seed {study}"
    wrap.ON_ERROR = lambda message: ScenarioError(message, path=f"seed {study}")
    try:
        main = runpy.run_path(str(known[study]), run_name=f"ackclock_seed_{study}")["main"]
        return int(main(argv))
    finally:
        wrap.PROG = None
        wrap.ON_ERROR = None


def _wrap_module(folder: Path) -> Any:
    """The runners' helper, examples/seeds/_wrap.py, as the runners import it (``from _wrap
    import ...`` with their folder first on sys.path): the same module object, so that what
    is set on it here reaches their parsers."""
    path = folder / "_wrap.py"
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    loaded = sys.modules.get("_wrap")
    if loaded is not None and Path(getattr(loaded, "__file__", "") or "").resolve() == path:
        return loaded
    spec = importlib.util.spec_from_file_location("_wrap", path)
    if spec is None or spec.loader is None:
        raise ScenarioError("cannot be loaded", file=str(path))
    module = importlib.util.module_from_spec(spec)
    sys.modules["_wrap"] = module
    spec.loader.exec_module(module)
    return module
