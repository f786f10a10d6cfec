"""Deliberately broken engines written as subclasses of the reference `Game`.

Each class overrides one method so that exactly one rule bends. Like the reference engine, none
names a card: the card a mutation concerns is found by what its rules do (the card that trades
hands, the step that protects). The attributes they add are plain values, so `Game.clone()`
copies them correctly.
"""

from __future__ import annotations

from collections.abc import Sequence

from loveletter_ref import Game, Phase
from loveletter_ref.engine.actions import Event
from loveletter_ref.engine.effects import Play
from loveletter_ref.spec import Step


class HandmaidTooLong(Game):
    """Protection ends at the end of the protected player's next turn, not at its start."""

    expiring: int | None = None
    """The player on turn whose protection runs out when their turn ends."""

    def _begin_turn(self, player: int) -> None:
        shield = self.protected[player]
        self.protected[player] = None
        super()._begin_turn(player)
        self.protected[player] = shield
        self.expiring = player if shield is not None else None

    def step_protect(self, step: Step, play: Play) -> None:
        super().step_protect(step, play)
        self.expiring = None

    def _end_turn(self) -> None:
        seat, self.expiring = self.expiring, None
        if seat is not None and self.alive[seat] and self.protected[seat] is not None:
            self.protected[seat] = None
            self.log.append({"type": "unprotect", "player": seat})
        super()._end_turn()


class HandmaidTooShort(Game):
    """Protection ends as soon as the next player's turn is over (two turns early with 3+ players)."""

    def _begin_turn(self, player: int) -> None:
        previous = self.current
        for seat in range(self.players):
            if seat not in (player, previous) and self.protected[seat] is not None:
                self.protected[seat] = None
                self.log.append({"type": "unprotect", "player": seat})
        super()._begin_turn(player)


class CountessNotForced(Game):
    """Any card in hand may be played, even when a forcing card says otherwise."""

    def _playable(self) -> list[int]:
        return sorted(set(self.hands[self.current]))


class TradeIgnoresProtection(Game):
    """A card that trades hands may choose a protected player."""

    def targets(self, player: int, step: Step) -> list[int | None]:
        if not any(s is step for s in _trading_choices(self)):
            return super().targets(player, step)
        who = step.clause.need().get("who", "other")
        seats: list[int | None] = [s for s in range(self.players)
                                   if self.alive[s] and (s != player or who == "any")]
        return seats or super().targets(player, step)


def _trading_choices(game: Game) -> list[Step]:
    """The choose steps of cards whose effect trades hands."""
    tables = game.tables
    return [d.choose for card, d in enumerate(tables.decisions)
            if d.choose is not None and any(s.kind == "trade" for s in tables.programs[card])]


class BonusShared(Game):
    """The end-of-round bonus (the Spy's) goes to every player still in who qualifies, not only
    to a sole one."""

    def _finish_round(self, winners: list[int], reason: str) -> None:
        shared = []
        for card, clause in self.tables.bonuses:
            holders = [s for s in range(self.players) if self.alive[s] and card in self.discards[s]]
            if len(holders) > 1:
                shared.append((clause, holders))
        super()._finish_round(winners, reason)
        if self.phase is not Phase.ROUND_OVER:
            return
        for clause, holders in shared:
            for seat in holders:
                self.gain(seat, clause.need()["amount"], "bonus", clause)
        if shared:
            self.end_game_if_won()


class PrinceEmptyDeckDrawsNothing(Game):
    """With an empty deck, the discard-and-draw target draws nothing (the set-aside card stays
    aside) and, left without a card, is out of the round."""

    def step_discard_draw(self, step: Step, play: Play) -> None:
        if self.deck:
            super().step_discard_draw(step, play)
            return
        step.clause.need()
        target = play.target
        assert target is not None
        for card in list(self.hands[target]):
            self.hands[target].remove(card)
            self.discard(target, card)
        if self.alive[target]:
            self.eliminate(target, play.card, step.modifiers.get("empty_deck", step.clause))


class ShortDeckNoEffect(Game):
    """A draw-and-return card with fewer cards left than it draws has no effect."""

    def step_draw_return(self, step: Step, play: Play) -> None:
        rule = step.clause.need()
        if 0 < len(self.deck) < rule["draw"]:
            self.log.append({"type": "no_effect", "player": play.player,
                             "card": self.tables.names[play.card]})
            return
        super().step_draw_return(step, play)


class WrongNextStarter(Game):
    """The player after the round's winner starts the next round, instead of the winner."""

    def _next_starter(self) -> int:
        starter = super()._next_starter()
        if self.round and self.round_winners and len(self.round_winners) == 1:
            return (starter + (self.tables.order_step or 1)) % self.players
        return starter


class FirstPlayerIgnored(Game):
    """The first round always starts with seat 0, whoever was chosen to start."""

    def start_round(self, deck: Sequence[str] | None = None, *,
                    first_player: int | None = None) -> list[Event]:
        if self.round == 0 and first_player is None:
            first_player = 0
        return super().start_round(deck, first_player=first_player)


class EliminatedKeepsTurns(Game):
    """A player who is out still takes turns: they draw a card and discard it at once."""

    def _next_player(self, seat: int) -> int:
        return (seat + (self.tables.order_step or 1)) % self.players

    def _begin_turn(self, player: int) -> None:
        if self.alive[player]:
            super()._begin_turn(player)
            return
        self.current = player
        self.log.append({"type": "turn", "player": player})
        card = self.deck.pop()
        name = self.tables.names[card]
        self.log.append({"type": "draw", "player": player, "card": name, "from": "deck"})
        self.discards[player].append(card)
        self.log.append({"type": "discard", "player": player, "card": name})
        self._end_turn()
