"""ackclock: a fast packet-level discrete-event network simulator for TCP studies.

Describe a network with :class:`Network` or a TOML file (:func:`load_scenario`), run it with
:meth:`Network.run` or :func:`run_scenario`, and get :class:`Results` (pandas DataFrames).
:func:`sweep` runs a grid of parameters and replications; the attribute ``ackclock.sweep`` is
that function, so import the module's other names with ``from ackclock.sweep import ...``.
"""

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import ScenarioError
    from .network import Network
    from .results import Results
    from .run import run_scenario
    from .scenario import Scenario, resolve
    from .sweep import Sweep, load_sweep, sweep
    from .toml_loader import load_scenario, loads_scenario

# The public names and the modules they live in. They are imported on first use (PEP 562), so
# that `ackclock run` does not pay for what it does not use (the Network builder, the sweep
# machinery...): every command starts by importing this package (benchmarks/startup.py).
_LAZY = {
    "ScenarioError": "errors",
    "Network": "network",
    "Results": "results",
    "run_scenario": "run",
    "Scenario": "scenario",
    "resolve": "scenario",
    "Sweep": "sweep",
    "load_sweep": "sweep",
    "sweep": "sweep",
    "load_scenario": "toml_loader",
    "loads_scenario": "toml_loader",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is not None:
        value = getattr(import_module(f"{__name__}.{module}"), name)
        globals()[name] = value
        return value
    # The version is looked up on first use, from the engine, which is built from the same
    # version number (tests/unit/test_version.py checks the installed package's metadata
    # against it): importlib.metadata takes 30-45 ms to import, more than the rest of
    # `ackclock --version`.
    if name == "__version__":
        try:
            from ._core import version as engine_version

            found = engine_version()
        except ImportError:  # a source tree whose engine was never built
            from importlib.metadata import PackageNotFoundError, version

            try:
                found = version("ackclock")
            except PackageNotFoundError:
                found = "0.1.0"
        globals()["__version__"] = found
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(ModuleType):
    """This package's module type: importing the submodule ``ackclock.sweep`` binds it to the
    package's attribute ``sweep``, which stays the function :func:`ackclock.sweep.sweep`."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "sweep" and isinstance(value, ModuleType):
            value = value.sweep
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

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
