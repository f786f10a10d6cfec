"""Exceptions raised by spec loading and by the reference engine."""

from __future__ import annotations

import re
from dataclasses import dataclass

_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Control characters, and the bidirectional controls that reorder what a terminal shows."""


def escape_controls(text: str) -> str:
    """`text` with every control character written as an escape (`\\x1b`), so that printing it
    cannot move the cursor, clear the screen or reorder a line."""
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def with_article(word: str) -> str:
    """The word with its indefinite article (`an int`, `a tuple`), for messages."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, located as FILE:LINE:COL (1-based)."""

    file: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        """`FILE:LINE:COL: message`, control characters escaped (a file name may hold any)."""
        return escape_controls(f"{self.file}:{self.line}:{self.col}: {self.message}")


class SpecError(Exception):
    """A spec (or any YAML/JSON data file) is unusable; holds every problem found."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


class EngineError(Exception):
    """Base class of errors raised while playing."""


class DeckError(EngineError, ValueError):
    """An explicit deck is not a valid deal for this edition and player count.

    `clause`, when a rule forbids the deal, is its full id (e.g. ``classic.setup.deck``).
    """

    def __init__(self, message: str, clause: str | None = None):
        super().__init__(message if clause is None else f"{message} [{clause}]")
        self.clause = clause


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
