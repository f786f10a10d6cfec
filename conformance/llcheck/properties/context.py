"""What properties share during one run: the engines, the capabilities, and what was exercised."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engines.base import Engine
from .failures import ShrinkSpent, Violation

SHRINK_EXAMPLES = 300
"""Examples hypothesis may play after a property first breaks, while it shrinks the failure: a
failure that takes several rounds to show can otherwise take thousands (minutes) to shrink little.
Counted, not timed, so that the same seed reports the same replay on every machine."""


@dataclass
class Counts:
    """What a property run exercised, for its report."""

    games: int = 0
    rounds: int = 0
    actions: int = 0
    resampled: int = 0
    """Deals played for the hidden-information property."""
    unchecked: dict[str, int] = field(default_factory=dict)
    """Rounds the hidden-information property could not check, by reason."""

    def note(self, reason: str) -> None:
        """Count a round left unchecked for `reason`."""
        self.unchecked[reason] = self.unchecked.get(reason, 0) + 1


@dataclass
class Context:
    """The engines a run talks to besides the one it plays, and the run's counters.

    `mirror` repeats every deal and action in lockstep (replay); `twin` plays resampled deals
    (hidden information). Both come from the same factory as the engine under test.
    """

    capabilities: frozenset[str]
    mirror: Engine | None = None
    twin: Engine | None = None
    counts: Counts = field(default_factory=Counts)
    best: Violation | None = None
    """The latest failure of the property that broke first: while hypothesis shrinks, each one it
    keeps is smaller than the one before."""
    shrunk: int = 0
    """Examples ended since the first failure."""

    def failed(self, error: Violation) -> None:
        """Note a failure (a later one of another property is not the one being shrunk)."""
        if self.best is None or type(error) is type(self.best):
            self.best = error

    def ended_example(self) -> None:
        """Count an example; ShrinkSpent once shrinking has had its SHRINK_EXAMPLES."""
        if self.best is not None:
            self.shrunk += 1
            if self.shrunk > SHRINK_EXAMPLES:
                raise ShrinkSpent
