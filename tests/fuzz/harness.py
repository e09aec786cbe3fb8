"""The fuzz target shared by the fuzzer (scripts/fuzz.py), the regression corpus test and the
Hypothesis property tests: any input is either a scenario or a one-line ScenarioError, and the
engine either rejects a resolved scenario with a one-line ValueError or runs it without
panicking (bounded by run.max_events, so no input can hang or exhaust memory).

The engine may reject only what it finds in building the network (no route between a flow's
ends: the front end does not route): a document the front end resolves must pass the engine's
own checks (crates/ackclock-core/src/scenario/validate.rs, through ``_core.read_scenario``),
which the front end asked in resolving (python/ackclock/rules.py); one that does not is a
finding (the front end changed the document after asking, or the engine's reading of it
differs), as a panic is.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ackclock.errors import ScenarioError
from ackclock.indented_json import dumps
from ackclock.scenario import resolve
from ackclock.toml_loader import loads_scenario

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"
CRASHERS = HERE / "crashers"
ROOT = HERE.parents[1]
# The engine runs at most this many events / holds this many packets per input.
MAX_EVENTS = 20_000
MAX_PACKETS = 100_000


def seeds() -> list[tuple[str, str]]:
    """(source, text) of the scenario files to mutate: the examples, the demo, the corpus.
    The source is the file's path, so files a scenario names (traces) resolve."""
    paths = sorted((ROOT / "examples").glob("*.toml")) + [ROOT / "python/ackclock/demo.toml"]
    paths += sorted(CORPUS.glob("*.toml"))
    return [(str(p), p.read_text(encoding="utf-8")) for p in paths]


def check(text: str, source: str = "fuzz.toml", engine: bool = True) -> str:
    """Loads ``text`` as a scenario file and, with ``engine``, builds and runs it briefly.

    Returns "rejected" (a one-line ScenarioError), "engine-rejected" (a one-line ValueError
    from the engine) or "ran"; raises AssertionError, or lets any other exception (a Rust
    panic included) escape, for a bug.
    """
    try:
        scenario = loads_scenario(text, source=source)
    except ScenarioError as e:
        message = str(e)
        assert message and "\n" not in message, f"not one line: {message!r}"
        return "rejected"
    document = resolve(scenario)
    if not engine:
        return "loaded"
    from ackclock import _core

    run = dict(document["run"])
    run["max_events"] = min(run.get("max_events", MAX_EVENTS), MAX_EVENTS)
    run["max_packets"] = min(run.get("max_packets", MAX_PACKETS), MAX_PACKETS)
    run["check"] = True
    document = {**document, "run": run}
    # Packet traces go to a folder of their own, never the current one (a run stopped by
    # max_events leaves its unfinished `.part` files behind).
    with tempfile.TemporaryDirectory() as folder:
        traces = [{**t, "path": str(Path(folder) / f"{i}-{Path(str(t['path'])).name}")}
                  for i, t in enumerate(document.get("traces") or [])]
        document = {**document, "traces": traces}
        try:
            # json.dumps' text; a Tmix flow's vector columns are arrays (ackclock.tmix).
            sim = _core.Simulation(dumps(document))
        except ValueError as e:
            message = str(e)
            assert message and "\n" not in message, f"not one line: {message!r}"
            try:
                _core.read_scenario(dumps(document))
            except ValueError as checks:
                raise AssertionError("the front end accepted a document the engine's checks"
                                     f" reject: {checks}") from None
            return "engine-rejected"
        sim.run_until(sim.duration_ps)
        reason = sim.stop_reason
        if reason is None:
            sim.results()
        else:
            assert reason["kind"] == "limit", reason["message"]
        del sim  # closes its trace files before the folder goes
    return "ran"
