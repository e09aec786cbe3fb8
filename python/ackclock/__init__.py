"""ackclock: a fast packet-level discrete-event network simulator for TCP studies.

Describe a network with :class:`Network` or a TOML file (:func:`load_scenario`), run it with
:meth:`Network.run` or :func:`run_scenario`, and get :class:`Results` (pandas DataFrames).
:func:`sweep` runs a grid of parameters and replications; the attribute ``ackclock.sweep`` is
that function, so import the module's other names with ``from ackclock.sweep import ...``.
"""

from typing import Any

from .errors import ScenarioError
from .network import Network
from .results import Results
from .run import run_scenario
from .scenario import Scenario, resolve
from .sweep import Sweep, load_sweep, sweep
from .toml_loader import load_scenario, loads_scenario


def __getattr__(name: str) -> Any:
    # The version is looked up on first use: importlib.metadata takes about 30 ms to import,
    # a fifth of the command line's start-up (benchmarks/startup.py).
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("ackclock")
        except PackageNotFoundError:  # running from a source tree that was never installed
            found = "0.1.0"
        globals()["__version__"] = found
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Network",
    "Results",
    "Scenario",
    "Sweep",
    "ScenarioError",
    "__version__",
    "load_scenario",
    "load_sweep",
    "loads_scenario",
    "resolve",
    "run_scenario",
    "sweep",
]
