"""The engine's rules, asked through the binding: the one place a resolved scenario is checked.

The rules a resolved scenario must follow (positive durations, probabilities in [0, 1], a
link between two different nodes, a queue's limit and ECN, a TCP flow's windows and timers,
two-way connections, the resource guards ...) are written once, in the engine
(``crates/ackclock-core/src/scenario/validate.rs``); the front end reads the user's words into
the document (names to indices, units to integers, profile defaults filled in: scenario.py)
and then asks the engine (``ackclock._core.check_scenario``). The engine names a place in the
document's own indices (``link[3].loss.p``: the fourth link direction); :func:`engine_error`
turns it into the scenario's (``link[1].reverse_loss.p``, or the ``count = N`` copy
``flow[0]{i=7}``), so that the message still names the file, the entry and the key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import ScenarioError

if TYPE_CHECKING:
    from .scenario import Scenario

# An entry of the document, as the engine names it: `flow[3]`, `link[0]`, ...
_ENTRY = re.compile(r"\b(node|link|flow|trace)\[(\d+)\]")
# A place the engine names: an entry and its keys, or a key of the run.
_PLACE = re.compile(r"(?:(?:node|link|flow|trace)\[\d+\]|run\.)[\w.\[\]]*$")
# How the engine's reading of the document (serde) starts its messages.
_READING = "resolved scenario: "


def check(document: Mapping[str, Any], scenario: Scenario) -> None:
    """Checks ``document`` (resolved from ``scenario``) with the engine's rules; a
    ScenarioError naming the scenario's entry and key for the first rule it breaks."""
    try:
        from . import _core
    except ImportError:  # no engine built: running needs it, and it checks then
        return
    from .run import with_tcp_tables

    # The document itself: the binding writes its text as json.dumps would, but for Tmix
    # connection vectors, which it reads from their arrays (seed 003's study runs: some 2 GB
    # of text and parse spared); with shared TCP tables, as run.simulation builds a run (a
    # 10 000-flow dumbbell made with the Python API: 35 MB of text -> 9.5, 0.11 -> 0.07 s).
    doc = document if isinstance(document, dict) else dict(document)
    shared = with_tcp_tables(doc)
    try:
        _core.check_scenario(shared)
        return
    except ValueError as e:
        message = str(e)
    if shared is not doc:
        try:  # read again as given, so that the message names the flow, not its table
            _core.check_scenario(doc)
        except ValueError as e:
            message = str(e)
    raise engine_error(message, scenario) from None


def engine_error(message: str, scenario: Scenario) -> ScenarioError:
    """The engine's one-line ``place: what`` about a document resolved from ``scenario``,
    as a ScenarioError in the scenario's words: each entry it names (``flow[3]``) named as the
    scenario names it (its origin: ``flow[0]{i=3}``), a loss model on the reverse direction of
    a duplex link as that link's ``reverse_loss``."""
    text = message
    if text.startswith(_READING):
        # A mistake found in reading the document (serde: an unknown congestion control's
        # parameter), named at its key like a rule's, with serde's position dropped.
        text = re.sub(r" at line \d+ column \d+$", "", text[len(_READING):])
    place, sep, what = text.partition(": ")
    if not sep or not _PLACE.match(place):
        # Not a place the engine names (the document did not parse as a whole): the front end
        # wrote something the engine does not read, a bug to report as it is.
        return ScenarioError(f"the engine rejected the scenario: {message}")
    names = _Names(scenario)
    m = _ENTRY.match(place)
    if m is not None:
        head, rest = names.entry(m.group(1), int(m.group(2)), place[m.end():])
        place = head + rest
    return ScenarioError(_ENTRY.sub(lambda e: names.entry(e[1], int(e[2]), "")[0], what),
                         path=place)


class _Names:
    """The scenario's name for each entry of its document."""

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self._directions: list[tuple[int, bool]] | None = None

    def entry(self, kind: str, i: int, rest: str) -> tuple[str, str]:
        """(the entry's name, ``rest`` as the scenario says it) for the document's ``kind[i]``."""
        sc = self.scenario
        if kind == "link":
            if self._directions is None:  # link direction -> (link, is it the reverse)
                self._directions = [(j, back) for j, link in enumerate(sc.links)
                                    for back in ((False, True) if link.duplex else (False,))]
            if i >= len(self._directions):
                return f"link[{i}]", rest
            j, back = self._directions[i]
            if back and (rest == ".loss" or rest.startswith(".loss.")):
                rest = ".reverse_loss" + rest[len(".loss"):]
            return _origin(sc.links[j], "link", j), rest
        entries: list[Any] = (sc.nodes if kind == "node" else sc.flows if kind == "flow"
                              else sc.traces)
        if kind == "flow" and i >= len(entries):
            # A two-way connection's reply direction: its flow's keys are the initiator's.
            two_way = [j for j, f in enumerate(sc.flows) if f.two_way is True]
            k = i - len(entries)
            if k < len(two_way):
                j = two_way[k]
                return _origin(entries[j], kind, j), rest
        if i >= len(entries):
            return f"{kind}[{i}]", rest
        return _origin(entries[i], kind, i), rest


def _origin(entry: Any, kind: str, i: int) -> str:
    origin = getattr(entry, "origin", None)
    return origin if isinstance(origin, str) and origin else f"{kind}[{i}]"
