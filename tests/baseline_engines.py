"""Engines for the baseline tests: the reference engine with one thing changed.

Each is usable as `--impl python:baseline_engines:NAME` when tests/ is on the import path.
"""

from __future__ import annotations

from broken_games import TieKnocksOutThePlayer

from llcheck.engines import CAPABILITIES, EngineFailure, Hello, ReferenceEngine


def tie_knocks_out() -> ReferenceEngine:
    """The reference engine playing by TieKnocksOutThePlayer."""
    return ReferenceEngine(game_class=TieKnocksOutThePlayer)


class LabelledViews(ReferenceEngine):
    """Conformant, and the same as recorded: the key it adds to every view is one the formats do
    not define, which baselines leave out."""

    def view(self, player: int) -> dict:
        return {**super().view(player), "label": f"seat {player}"}


class LastSeenChanged(ReferenceEngine):
    """Shows the last event of each view's log as a "pass" event: a change deep in a long log."""

    def view(self, player: int) -> dict:
        seen = super().view(player)
        if seen["log"]:
            seen["log"][-1] = {**seen["log"][-1], "type": "pass"}
        return seen


def _without(capability: str, name: str) -> type[ReferenceEngine]:
    class Less(ReferenceEngine):
        def __init__(self) -> None:
            super().__init__(name=name)
            self.hello = Hello(name, self.hello.version, self.hello.editions,
                               frozenset(CAPABILITIES) - {capability})

    Less.__name__ = Less.__qualname__ = name.title().replace("-", "")
    Less.__doc__ = f"The reference engine, not claiming {capability}."
    return Less


NoViews = _without("views", "no-views")
NoEvents = _without("events", "no-events")
NoLegalActions = _without("legal_actions", "no-legal-actions")
NoGames = _without("games", "no-games")


class ReversedLegalActions(ReferenceEngine):
    """Lists its legal actions in the opposite order (a set is a set)."""

    def legal_actions(self) -> list[dict]:
        return super().legal_actions()[::-1]


class BaronUnsupported(ReferenceEngine):
    """Answers an error to every Baron play (an engine that is not finished)."""

    def apply(self, action: dict):
        if action.get("card") == "Baron":
            raise EngineFailure("engine error on apply: the Baron is not implemented yet")
        return super().apply(action)


class InterruptedAfterFive(ReferenceEngine):
    """Stands for a user pressing Ctrl-C during the sixth action sent to it."""

    actions = 0

    def apply(self, action: dict):
        type(self).actions += 1
        if type(self).actions > 5:
            raise KeyboardInterrupt
        return super().apply(action)
