"""The one exception users see for a bad scenario, override or results folder."""

from __future__ import annotations

import json
from json.encoder import encode_basestring


class ScenarioError(Exception):
    """A mistake in a scenario, reported as one line: ``file: key.path: what was expected``.

    ``file`` and ``path`` are optional because a check deep in the code often knows the key
    but not the file; the caller that knows the file fills it in with :meth:`in_file`.
    """

    def __init__(self, message: str, *, path: str | None = None, file: str | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.file = file

    def in_file(self, file: str | None) -> ScenarioError:
        """Returns self with ``file`` set, unless a file is already named."""
        if self.file is None:
            self.file = file
        return self

    def __str__(self) -> str:
        return ": ".join(p for p in (self.file, self.path, self.message) if p)


def quote(value: object) -> str:
    """Shows a user's value the way they wrote it in TOML: strings in double quotes."""
    if isinstance(value, str):
        # What json.dumps(value, ensure_ascii=False) returns, without building an encoder:
        # the scenario model quotes names on every run, not only in messages.
        return encode_basestring(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value.bit_length() > 300:
        # Python refuses to write integers of more than 4300 digits as text.
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, (list, tuple, dict)):
        try:
            text = json.dumps(value, ensure_ascii=False, default=str)
        except (ValueError, TypeError, RecursionError):
            text = f"a {type(value).__name__} of {len(value)} items"
        return text if len(text) <= 1000 else text[:997] + "..."
    try:
        text = repr(value)
    except Exception:  # a user's object whose repr fails
        text = f"a {type(value).__name__}"
    return text if len(text) <= 1000 else text[:997] + "..."


class InvariantViolation(RuntimeError):
    """The engine's invariant checker (``run.check``, docs/reliability.md) found an accounting
    or sanity rule broken: a bug in ackclock, not in the scenario. The message names the
    simulated time, the component and the rule."""


class EngineUnavailable(RuntimeError):
    """The compiled engine (``ackclock._core``) cannot be imported: the package was not built."""
