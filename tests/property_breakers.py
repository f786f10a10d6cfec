"""Deliberately broken engines, each bending one rule, for the property tests to catch.

Each is a small subclass of the reference `Game` (or of its adapter), driven through
`ReferenceEngine(game_class=...)`. Tests may name cards; these engines do only where a rule is
about a card.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from llcheck.engines import ReferenceEngine
from llcheck.engines.base import Json
from loveletter_ref import Action, Game, Phase
from loveletter_ref.spec import Clause, Step


class LosesEliminatedHand(Game):
    """An eliminated player's hand vanishes instead of going to their discards."""

    def eliminate(self, player: int, by_card: int, clause: Clause) -> None:
        self.hands[player].clear()
        super().eliminate(player, by_card, clause)


class PrinceDrawsTwo(Game):
    """The player a Prince makes discard draws one card too many."""

    def discard_and_draw(self, seat: int, empty_deck: Clause | None) -> None:
        super().discard_and_draw(seat, empty_deck)
        if self.alive[seat] and self.deck:
            self.hands[seat].append(self.deck.pop())


class ProtectionOutlastsOwnTurn(Game):
    """The Handmaid's protection does not end when its owner's next turn starts."""

    def _begin_turn(self, player: int) -> None:
        shield = self.protected[player]
        super()._begin_turn(player)
        self.protected[player] = shield


class ChoosesProtectedPlayers(Game):
    """Cards may choose players the Handmaid protects."""

    def targets(self, player: int, step: Step) -> list[int | None]:
        shields, self.protected = self.protected, [None] * self.players
        try:
            return super().targets(player, step)
        finally:
            self.protected = shields


class CountessNotForced(Game):
    """The Countess may be kept with the King or a Prince."""

    def _playable(self) -> list[int]:
        return sorted(set(self.hands[self.current]))


class PrincessSurvivesDiscard(Game):
    """A Princess discarded by a Prince's effect does not knock its holder out."""

    def discard(self, player: int, card: int) -> None:
        self.discards[player].append(card)
        self.log.append({"type": "discard", "player": player, "card": self.tables.names[card]})


class LastStandingPlaysOn(Game):
    """The round goes on while cards are left to draw, even with one player still in."""

    def _end_turn(self) -> None:
        if self.deck and self.alive.count(True) == 1:
            self.turns += 1
            self._begin_turn(self._next_player(self.current))
            return
        super()._end_turn()


class ExtraTokenForLastStanding(Game):
    """The last player standing gains one token more than the rules give."""

    def _finish_round(self, winners: list[int], reason: str) -> None:
        if reason == "last_standing":
            self.tokens[winners[0]] += 1
        super()._finish_round(winners, reason)


class TargetPlusOne(Game):
    """The game ends only when someone passes the token target, not when they reach it."""

    def end_game_if_won(self) -> bool:
        target = self.edition.player_table("tokens_to_win", self.players)
        if max(self.tokens) <= target:
            return False
        return super().end_game_if_won()


class DealsAfterGameOver(Game):
    """A game that is over accepts another round."""

    def start_round(self, deck: Any = None, *, first_player: int | None = None) -> list[dict[str, Any]]:
        if self.phase is Phase.GAME_OVER:
            self.phase = Phase.ROUND_OVER
        return super().start_round(deck, first_player=first_player)


class WrongGuessShowsCard(Game):
    """A wrong Guard guess tells everybody which card the target really holds."""

    def step_guess(self, step: Step, play: Any) -> None:
        super().step_guess(step, play)
        event = next(e for e in reversed(self.log) if e["type"] == "guess")
        if not event["correct"]:
            event["held"] = self.tables.names[self.hands[play.target][0]]


class SetAsideShown(Game):
    """The round's opening event names the set-aside card."""

    def _setup(self, order: list[int], starter: int) -> None:
        super()._setup(order, starter)
        self.log[0]["set_aside"] = [self.tables.names[c] for c in self.set_aside]


class DealsNoFaceUp(Game):
    """The cards the rules lay face up stay at the bottom of the draw pile instead."""

    def _setup(self, order: list[int], starter: int) -> None:
        super()._setup(order, starter)
        self.deck[:0] = self.face_up
        self.face_up = []
        self.log[0]["face_up"] = []


class ShowsEveryHand(ReferenceEngine):
    """An adapter whose views include every player's hand."""

    def view(self, player: int) -> Json:
        return {**super().view(player), "hands": self.state()["hands"]}


_COINS = itertools.count()


class PrinceDrawsFromEitherEnd(Game):
    """A Prince's target draws from the top or the bottom of the deck, at random (unseeded)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.coin = random.Random(next(_COINS))

    def discard_and_draw(self, seat: int, empty_deck: Clause | None) -> None:
        if len(self.deck) > 1 and self.coin.random() < 0.5:
            self.deck.append(self.deck.pop(0))
        super().discard_and_draw(seat, empty_deck)


class ListsGuardNamingGuard(Game):
    """The legal actions include a Guard naming a Guard, which `apply` refuses."""

    def legal_actions(self) -> list[Action]:
        actions = super().legal_actions()
        extra = [a._replace(guess="Guard") for a in actions if a.card == "Guard" and a.guess is not None]
        return actions + extra[:1]


class CrashesOnKing(Game):
    """The engine crashes whenever a King is played."""

    def step_trade(self, step: Step, play: Any) -> None:
        raise RuntimeError("segmentation fault (simulated)")


class RedrawWithoutDrawing(Game):
    """A player who accepts the Bishop's offer discards their hand and draws nothing."""

    skipping = False

    def _respond(self, action: Action) -> None:
        self.skipping = bool(action.redraw)
        try:
            super()._respond(action)
        finally:
            self.skipping = False

    def draw(self, player: int, set_aside_rule: Clause | None, clause_id: str) -> None:
        if not self.skipping:
            super().draw(player, set_aside_rule, clause_id)


class EliminationPaysNothing(Game):
    """A card that pays a player knocked out with it in their discards (the Constable) pays nothing."""

    def gain(self, seat: int, amount: int, reason: str, clause: Clause) -> None:
        if clause.kind != "token_if_eliminated":
            super().gain(seat, amount, reason, clause)


class PredictionsPayTheLoser(Game):
    """A prediction (the Jester's) pays when the marked player does not win the round."""

    def _finish_round(self, winners: list[int], reason: str) -> None:
        self.predictions = [(seat, -1 if target in winners else winners[0] if winners else -1, clause)
                            for seat, target, clause in self.predictions]
        super()._finish_round(winners, reason)


class MidRoundTargetWaits(Game):
    """A token gained during a round that reaches the target does not end the game at once."""

    def end_game_if_won(self) -> bool:
        if self.phase in (Phase.PLAY, Phase.KEEP, Phase.RESPOND):
            return False
        return super().end_game_if_won()


class ShowdownBonusIgnored(Game):
    """Discards that add to a hand at the showdown (the Count's) add nothing."""

    def showdown_value(self, seat: int) -> int:
        return self.tables.values[self.hands[seat][0]]


class LooksAtBothTargets(Game):
    """A player who may look at one of two chosen hands (the Cardinal) sees both."""

    def step_look(self, step: Step, play: Any) -> None:
        if step.clause.rule == "one_of_targets":
            for seat in play.targets:
                for card in self.hands[seat]:
                    self.log.append({"type": "look", "player": play.player, "target": seat,
                                     "card": self.tables.names[card]})
            return
        super().step_look(step, play)


class MarkIgnored(Game):
    """The Sycophant's mark is announced but binds nobody."""

    def step_force_next_target(self, step: Step, play: Any) -> None:
        super().step_force_next_target(step, play)
        self.forced = None


def engine(game_class: type[Game] = Game) -> ReferenceEngine:
    """The reference adapter around a (broken) Game class."""
    return ReferenceEngine(game_class=game_class)


class TieShowsBothCards(Game):
    """A comparison that ties (a Baron's) shows both compared cards to every player."""

    def step_compare(self, step: Step, play: Any) -> None:
        super().step_compare(step, play)
        event = next(e for e in reversed(self.log) if e["type"] == "compare")
        if event["loser"] is None:
            event["shown"] = list(event["cards"])
