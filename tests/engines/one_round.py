"""The adapter of docs/adapter-tutorial.md's second example: one_round_game's `Match`, an engine
that deals itself, plays two players only, keeps no tokens and takes the Chancellor in one step,
under the suite (`--impl python:one_round:OneRound`, from this folder)."""

from __future__ import annotations

from collections.abc import Sequence

import one_round_game as game

from llcheck.engines import Engine, EngineFailure, Hello, Reply
from llcheck.engines.base import Json

EDITION = "z-man-2019"


class OneRound(Engine):
    """`Match` as an llcheck engine."""

    make = game.Match
    capabilities = frozenset({"legal_actions", "one_step_chancellor"})

    def __init__(self) -> None:
        self.hello = Hello("one-round", "1.0", (EDITION,), self.capabilities, capabilities_version=2,
                           players={EDITION: (2,)})
        self.match: game.Match | None = None

    def deal(self, edition: str, players: int, seed: int, first_player: int = 0,
             tokens: Sequence[int] | None = None) -> Reply:
        if (edition, players) != (EDITION, 2) or any(tokens or ()):
            return Reply(False, reason="z-man-2019 with 2 players, no tokens, only")
        self.match = self.make(seed, first_player)
        return Reply(True, [], self.state())

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        raise EngineFailure("this engine shuffles its own deck")

    def next_round(self, deck: Sequence[str]) -> Reply:
        raise EngineFailure("this engine plays one round")

    def legal_actions(self) -> list[Json]:
        return [_action(move) for move in self._match().moves()]

    def apply(self, action: Json) -> Reply:
        match = self._match()
        move = next((m for m in match.moves() if _action(m) == action), None)
        if move is None:
            return Reply(False, reason=f"not a legal action now: {action}")
        match.play(move)
        return Reply(True, [], self.state())

    def state(self) -> Json:
        m = self._match()
        hands = [sorted(hand, key=lambda card: (game.VALUES[card], card)) for hand in m.hands]
        phase = "play" if m.winners is None else "round_over"
        return {"edition": EDITION, "players": 2, "round": 1, "phase": phase,
                "turn": m.turn, "starter": m.starter, "deck": list(m.pile), "set_aside": list(m.aside),
                "face_up": list(m.shown), "hands": hands, "discards": [list(d) for d in m.discards],
                "eliminated": list(m.out), "protected": list(m.shielded), "tokens": [0, 0], "pending": None,
                "round_winners": m.winners, "game_winners": None}

    def view(self, player: int) -> Json:
        raise EngineFailure("this engine has no views")

    def _match(self) -> game.Match:
        if self.match is None:
            raise EngineFailure("no round has been dealt")
        return self.match


def _action(move: game.Move) -> Json:
    """A move in the form of docs/formats.md; a Chancellor's keep and return in the play itself."""
    fields = {"target": move.target, "guess": move.guess, "keep": move.keep}
    action = {"type": "play", "card": move.card, **{k: v for k, v in fields.items() if v is not None}}
    return {**action, "return": list(move.back)} if move.keep is not None else action
