"""The compiled engine (crates/ackclock-py). See docs/engine-contract.md."""

from typing import Any

class Simulation:
    """One simulation run, built from a resolved scenario document (JSON)."""

    def __init__(self, scenario_json: str) -> None:
        """Raises ValueError with a one-line message for a document the engine rejects."""

    def run_until(self, t_ps: int) -> None:
        """Runs every event up to and including ``t_ps`` (capped at the duration); releases
        the GIL."""

    @property
    def now_ps(self) -> int: ...
    @property
    def duration_ps(self) -> int: ...
    @property
    def events(self) -> int: ...
    @property
    def packet_hops(self) -> int: ...
    def results(self) -> dict[str, Any]:
        """The result tables (see docs/engine-contract.md); RuntimeError before the run has
        reached its duration."""

def version() -> str:
    """The engine's version."""
