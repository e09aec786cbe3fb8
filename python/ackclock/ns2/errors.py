"""What can stop an ns-2 script: an unsupported or wrong command, or the script's own exit."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Location:
    """Where a command was written: the script file and line (line 0: unknown)."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


class Ns2Error(Exception):
    """One line for the user: ``file:line: message``. Exit status 2 (bad or unsupported input)
    unless ``status`` says otherwise (1: the script itself failed, as ns exits)."""

    def __init__(self, message: str, where: Location | None = None, status: int = 2):
        super().__init__(message)
        self.message = message
        self.where = where
        self.status = status

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class ScriptExit(Exception):
    """The script called ``exit`` (or the run ended); ``code`` is its exit status."""

    def __init__(self, code: int):
        super().__init__(f"exit {code}")
        self.code = code


def unsupported(what: str) -> str:
    """The wording for a feature ns-2 has and ackclock does not run yet."""
    return f"{what} is not supported by ackclock yet"
