"""Exceptions raised by spec loading and by the reference engine."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, located as FILE:LINE:COL (1-based)."""

    file: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.message}"


class SpecError(Exception):
    """A spec (or any YAML/JSON data file) is unusable; holds every problem found."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


class EngineError(Exception):
    """Base class of errors raised while playing."""


class DeckError(EngineError, ValueError):
    """An explicit deck is not a valid deal for this edition and player count."""


class IllegalActionError(EngineError):
    """An action breaks a rule; the state is left unchanged.

    `clause` is the full id of the clause the action breaks (e.g. ``z19.turn.play``).
    """

    def __init__(self, clause: str, message: str):
        super().__init__(f"{message} [{clause}]")
        self.clause = clause
        self.reason = message


class RuleGapError(EngineError):
    """The game reached a point the rules do not decide (a silent or missing clause)."""

    def __init__(self, clause: str, message: str):
        super().__init__(f"{message} [{clause}]")
        self.clause = clause
        self.reason = message
