"""What properties share during one run: the engines, the capabilities, and what was exercised."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engines.base import Engine


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
