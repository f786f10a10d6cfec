"""The inputs two sides were both given, in order, and where the last one was given."""

from __future__ import annotations

from typing import Any

DEAL, MOVE = "deal", "move"
"""The two kinds of input: deal a round, take an action."""

Step = tuple[str, Any]
"""One input: `("deal", the deal)` or `("move", the action)`, each as the sides take it."""


class Trail:
    """Every input given so far (`steps`), and the place of the last: its `round` (1-based, 0
    before the first deal), its `step` within the round (0 for the deal) and the round's last
    `action` (None right after a deal)."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.round = 0
        self.step = 0
        self.action: Any = None

    def deal(self, deal: Any) -> None:
        """A round was dealt."""
        self.steps.append((DEAL, deal))
        self.round += 1
        self.step = 0
        self.action = None

    def move(self, action: Any) -> None:
        """An action was given."""
        self.steps.append((MOVE, action))
        self.step += 1
        self.action = action

    def rounds(self) -> list[tuple[Any, list[Any]]]:
        """Per round, its deal and the actions given in it, in order."""
        out: list[tuple[Any, list[Any]]] = []
        for kind, value in self.steps:
            if kind == DEAL:
                out.append((value, []))
            else:
                out[-1][1].append(value)
        return out
