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
    @property
    def checking(self) -> bool:
        """Whether the invariant checker runs (debug builds, or ``run.check``)."""
    @property
    def stop_reason(self) -> dict[str, Any] | None:
        """Why the run stopped before its duration: kind ("invariant" or "limit"), key,
        component, time_s, message; None while it has not."""
    # Mid-run access (the ns-2 front end's `$ns at` scripts).
    def schedule_app(self, flow: int, t_ps: int, start: bool) -> None:
        """Starts (or stops) flow ``flow``'s application at ``t_ps`` (not before now)."""
    def flow_counters(self, flow: int) -> dict[str, int]:
        """The flow's counters since the start of the run."""
    def tcp_vars(self, flow: int) -> dict[str, float] | None:
        """cwnd, ssthresh, rtt, srtt, rttvar, rto, backoff, window now; None for UDP."""
    def queue_counters(self, link: int) -> dict[str, float]:
        """A link direction's queue counters since the start, brought up to now."""
    def take_tcp_trace(self) -> dict[str, list[Any]]:
        """Traced-variable rows recorded since the last call (time_s, flow, variable, value)."""
    def results(self) -> dict[str, Any]:
        """The result tables (see docs/engine-contract.md); RuntimeError before the run has
        reached its duration."""

def cc_registry() -> list[dict[str, Any]]:
    """The engine's congestion-control registry: per algorithm ``name`` and ``params``, each
    parameter a dict of name, default, min, min_inclusive, max, max_inclusive, integer,
    expected (the words an error uses), ns2 and ns3 (alias or None) and doc."""

def version() -> str:
    """The engine's version."""
