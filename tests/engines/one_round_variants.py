"""The one-round engine (one_round.py) as the tests also need it: dealt given decks (so that the
corpus cases apply to it), and with one setup bug or one rule bug."""

from __future__ import annotations

from collections.abc import Sequence

import one_round_game as game
from one_round import EDITION, OneRound

from llcheck.engines import Reply


class GivenDecks(OneRound):
    """The same engine, which can also be dealt a given deck."""

    capabilities = OneRound.capabilities | {"deck"}

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        if (edition, players) != (EDITION, 2) or sorted(deck) != sorted(game.CARDS) or any(tokens or ()):
            return Reply(False, reason="not a z-man-2019 deck for 2 players without tokens")
        self.match = self.make(0, first_player, list(deck))
        return Reply(True, [], self.state())


class FaceUpShort(OneRound):
    """Two cards face up with two players (the rules say three)."""

    make = game.FaceUpShort


class BaronTieOut(OneRound):
    """A Baron tie knocks both players out (the rules say nothing happens)."""

    make = game.BaronTieOut
