"""A logged game as an engine: it answers the inputs of its case with what the log recorded, in
order, so that the harness's runner compares the log with the reference as it compares an engine."""

from __future__ import annotations

from collections.abc import Sequence

from ..engines.base import Engine, EngineFailure, Hello, Json, Reply
from .expected import Expected


class Replayed(Engine):
    """The log of one game, answering its case's deals and actions in turn (`Expected.replies`)."""

    def __init__(self, found: Expected, tokens: bool = True):
        case = found.case
        capabilities = {"deck", "events", "legal_actions"} | ({"tokens"} if tokens else set())
        self.hello = Hello("game log", "", (case.edition,), frozenset(capabilities), capabilities_version=2)
        self.replies = list(found.replies)
        self.legal = list(found.legal)
        self.at = -1
        self.last: Json = {}

    def _next(self) -> Reply:
        self.at += 1
        if self.at >= len(self.replies):
            raise EngineFailure("the log ends here")
        reply = self.replies[self.at]
        self.last = reply.state or self.last
        return reply

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        return self._next()

    def next_round(self, deck: Sequence[str]) -> Reply:
        return self._next()

    def apply(self, action: Json) -> Reply:
        return self._next()

    def legal_actions(self) -> list[Json]:
        listed = self.legal[self.at] if 0 <= self.at < len(self.legal) else None
        if listed is None:
            raise EngineFailure("the log recorded no legal actions here")
        return listed

    def state(self) -> Json:
        return self.last

    def view(self, player: int) -> Json:
        raise EngineFailure("a log records no views")
