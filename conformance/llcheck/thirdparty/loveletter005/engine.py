"""loveletter 0.0.5 behind the adapter interface
(`--impl python:llcheck.thirdparty.loveletter005:Loveletter005`).

What the adapter claims, and why:

- editions: `classic` only (the package has one deck, the classic one);
- capabilities: `legal_actions` only. The package lists no moves, but its bot accepts or ignores
  each chat text; the legal actions are the protocol actions whose texts it accepts, found by
  trying each on a copy of the game. It keeps no per-event record (no `events`), no per-player
  view (no `views`) and plays one round per game with no favour tokens (no `games`);
- an action is tried on a copy and kept only when the engine took all of it, so a refused
  action leaves the game as it was, as the protocol requires;
- the state is read from the engine's objects: per-player discard piles are rebuilt from its
  single pile by each card's owner, the winner from its end-of-game message, and tokens are
  reported as given since it awards none.

Any exception the package raises is reported as an engine failure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar

from loveletter_ref.spec import load_spec

from ...engines.base import Engine, EngineFailure, Hello, Json, Reply
from .loader import VERSION, NotInstalled, load
from .table import Table, spec_name

EDITION = "classic"
DOUBLE_DECK = 6
"""The bot adds a second deck when the sixth player joins (bot.py, join_user)."""
T = TypeVar("T")


class Loveletter005(Engine):
    """The PyPI package loveletter 0.0.5, driven through a stand-in for its Telegram bot."""

    def __init__(self) -> None:
        try:
            self.package = load()
        except NotInstalled as exc:
            raise EngineFailure(str(exc)) from None
        self.hello = Hello("loveletter (PyPI)", VERSION, (EDITION,), frozenset({"legal_actions"}))
        classic = load_spec(EDITION)
        self.cards = classic.names
        self.table: Table | None = None
        self.tokens: list[int] = []

    def _table(self) -> Table:
        if self.table is None:
            raise EngineFailure("no game has been started")
        return self.table

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        if edition != EDITION:
            return Reply(False, reason=f"loveletter 0.0.5 plays {EDITION} only")
        if tokens is not None and any(tokens):
            return Reply(False, reason="loveletter 0.0.5 keeps no favour tokens")
        if players < 2:
            return Reply(False, reason="the bot starts no game with fewer than 2 players")
        if Counter(deck) != self._deck(players):
            return Reply(False, reason="not a shuffle of the deck loveletter 0.0.5 builds "
                                       "(Game.generate_deck, doubled from 6 players)")
        if not 0 <= first_player < players:
            return Reply(False, reason=f"there is no seat {first_player}")
        self.table = _engine_call(lambda: Table(self.package, players, list(deck), first_player))
        self.tokens = [0] * players
        return Reply(True, [], self.state())

    def _deck(self, players: int) -> Counter[str]:
        """The cards the engine plays with: its own deck, twice when the bot doubles it."""
        one = Counter(spec_name(card.name) for card in self.package.game.Game.generate_deck())
        return one + one if players >= DOUBLE_DECK else one

    def next_round(self, deck: Sequence[str]) -> Reply:
        return Reply(False, reason="loveletter 0.0.5 plays one round per game")

    def legal_actions(self) -> list[Json]:
        table = self._table()
        if table.over:
            return []
        return _engine_call(lambda: [action for card in dict.fromkeys(table.hand(table.turn()))
                                     for action in self._plays(table, card)])

    def _plays(self, table: Table, card: str) -> list[Json]:
        """Every play of `card` the engine takes, tried stage by stage on copies."""
        chosen = table.clone()
        if chosen.choose_card(card):
            return []
        if not chosen.asks_target:
            return [{"type": "play", "card": card}]
        out: list[Json] = []
        for seat in range(len(table.seats)):
            aimed = chosen.clone()
            if aimed.choose_target(seat):
                continue
            if not aimed.asks_guess:
                out.append({"type": "play", "card": card, "target": seat})
                continue
            out += [{"type": "play", "card": card, "target": seat, "guess": guess}
                    for guess in self.cards if not aimed.clone().choose_guess(guess)]
        return out

    def apply(self, action: Json) -> Reply:
        table = self._table()
        trial = _engine_call(table.clone)
        refused = _engine_call(lambda: trial.act(action))
        if refused:
            return Reply(False, reason=refused)
        self.table = trial
        return Reply(True, [], self.state())

    def state(self) -> Json:
        table = self._table()
        return _engine_call(lambda: table.state(self.tokens))

    def view(self, player: int) -> Json:
        raise EngineFailure("loveletter 0.0.5 keeps no per-player views (capability views not claimed)")


def _engine_call(call: Callable[[], T]) -> T:
    """Run package code; its exceptions become engine failures."""
    try:
        return call()
    except EngineFailure:
        raise
    except Exception as exc:  # the package's own crash, reported as the engine failing
        raise EngineFailure(f"loveletter 0.0.5 raised {type(exc).__name__}: {exc}") from None


__all__ = ["Loveletter005"]
