"""ackclock: a fast packet-level discrete-event network simulator for TCP studies.

Describe a network with :class:`Network` or a TOML file (:func:`load_scenario`), run it with
:meth:`Network.run` or :func:`run_scenario`, and get :class:`Results` (pandas DataFrames).
:func:`run_sweep` runs a grid of parameters and replications (``ackclock.sweep`` is the module
it lives in, with the tables' helpers: ``from ackclock.sweep import summarize``).
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from . import sweep as sweep
    from .apps import Cbr, Ftp, OnOff, Poisson, Replay, Tmix
    from .custom import (
        Ack,
        CaEvent,
        CaState,
        CongestionControl,
        QueueDiscipline,
        QueuedPacket,
        QueueView,
        RateSample,
        Verdict,
    )
    from .errors import ScenarioError
    from .network import Network
    from .results import Results
    from .run import run_scenario
    from .scenario import Scenario, resolve
    from .sweep import Sweep, load_sweep, run_sweep
    from .toml_loader import load_scenario, loads_scenario

# The public names and the modules they live in. They are imported on first use (PEP 562), so
# that `ackclock run` does not pay for what it does not use (the Network builder, the sweep
# machinery...): every command starts by importing this package (benchmarks/startup.py).
_LAZY = {
    "Ftp": "apps",
    "Cbr": "apps",
    "OnOff": "apps",
    "Poisson": "apps",
    "Replay": "apps",
    "Tmix": "apps",
    "CongestionControl": "custom",
    "CaState": "custom",
    "CaEvent": "custom",
    "Ack": "custom",
    "RateSample": "custom",
    "QueueDiscipline": "custom",
    "Verdict": "custom",
    "QueuedPacket": "custom",
    "QueueView": "custom",
    "ScenarioError": "errors",
    "Network": "network",
    "Results": "results",
    "run_scenario": "run",
    "Scenario": "scenario",
    "resolve": "scenario",
    "Sweep": "sweep",
    "load_sweep": "sweep",
    "run_sweep": "sweep",
    "load_scenario": "toml_loader",
    "loads_scenario": "toml_loader",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if name == "sweep":  # the submodule (importing it binds it here)
        return import_module(f"{__name__}.sweep")
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


__all__ = [
    "Cbr",
    "Ftp",
    "OnOff",
    "Poisson",
    "Replay",
    "Tmix",
    "Ack",
    "RateSample",
    "CaEvent",
    "CaState",
    "CongestionControl",
    "QueueDiscipline",
    "QueuedPacket",
    "QueueView",
    "Verdict",
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
    "run_sweep",
]
