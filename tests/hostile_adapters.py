"""In-process adapters that misbehave the way Python code can: `sys.exit()`, a stray
KeyboardInterrupt or GeneratorExit, a missing or wrong hello, answers of the wrong type, endless
recursion. Each is usable as `--impl python:hostile_adapters:NAME` when tests/ is on the import path.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from llcheck.engines import ReferenceEngine, Reply


class Exits(ReferenceEngine):
    """Calls sys.exit(5) on every action."""

    def apply(self, action: dict) -> Reply:
        sys.exit(5)


class ExitsOnPrince(ReferenceEngine):
    """Calls sys.exit(0) when a Prince is played, else plays as the reference."""

    def apply(self, action: dict) -> Reply:
        if action.get("card") == "Prince":
            sys.exit(0)
        return super().apply(action)


class Interrupts(ReferenceEngine):
    """Raises KeyboardInterrupt (its own: no signal was sent) on every action."""

    def apply(self, action: dict) -> Reply:
        raise KeyboardInterrupt


class GeneratorExits(ReferenceEngine):
    """Raises GeneratorExit on every action."""

    def apply(self, action: dict) -> Reply:
        raise GeneratorExit


class ExitsWhenBuilt(ReferenceEngine):
    """Calls sys.exit(3) as it is created."""

    def __init__(self) -> None:
        sys.exit(3)


class BadHello(ReferenceEngine):
    """Its hello is a string."""

    def __init__(self) -> None:
        super().__init__()
        self.hello = "nonsense"  # type: ignore[assignment]


class NoHello(ReferenceEngine):
    """Has no hello at all."""

    def __init__(self) -> None:
        super().__init__()
        del self.hello


class WrongTypes(ReferenceEngine):
    """Answers with values of the wrong types."""

    def legal_actions(self) -> Any:
        return 42

    def state(self) -> Any:
        return "not a dict"

    def apply(self, action: dict) -> Any:
        return {"accepted": True}


class Recurse(ReferenceEngine):
    """Recurses until Python stops it."""

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        return self.start(edition, players, deck, first_player, tokens)


class EndsItsProcessWithThreePlayers(ReferenceEngine):
    """Ends the whole process at once (os._exit) when a three-player game starts."""

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        if players == 3:
            os._exit(9)
        return super().start(edition, players, deck, first_player, tokens)


class HangsWithTwoPlayers(ReferenceEngine):
    """Hangs for an hour when a two-player game starts, else plays as the reference."""

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        if players == 2:
            time.sleep(3600)
        return super().start(edition, players, deck, first_player, tokens)
