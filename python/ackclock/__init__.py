"""ackclock: a fast packet-level discrete-event network simulator for TCP studies.

Describe a network with :class:`Network` or a TOML file (:func:`load_scenario`), run it with
:meth:`Network.run` or :func:`run_scenario`, and get :class:`Results` (pandas DataFrames).
:func:`sweep` runs a grid of parameters and replications; the attribute ``ackclock.sweep`` is
that function, so import the module's other names with ``from ackclock.sweep import ...``.
"""

from importlib.metadata import PackageNotFoundError, version

from .errors import ScenarioError
from .network import Network
from .results import Results
from .run import run_scenario
from .scenario import Scenario, resolve
from .sweep import Sweep, load_sweep, sweep
from .toml_loader import load_scenario, loads_scenario

try:
    __version__ = version("ackclock")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.1.0"

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
