"""The effect vocabulary: one small method per rule kind a card may carry.

Each `step_<kind>` method interprets one compiled `Step` of the card being played. None of them
knows a card by name: everything they need comes from the step's clause and modifiers. A
variant (or a deliberately broken engine) changes behaviour by overriding one method.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import RuleGapError
from ..spec import Clause, Step
from ..spec.model import STEP_KINDS
from .actions import DECIDING, Event, Phase
from .state import State


@dataclass(slots=True)
class Play:
    """The card being resolved: who plays it, what they chose, how resolution is going."""

    player: int
    card: int
    target: int | None
    guess: str | int | None
    targets: tuple[int, ...] = ()
    look: int | None = None
    stopped: bool = False
    hit: bool = False


class Effects(State):
    """Interpreters of card steps; mixed into `Game`, whose round state they read and change."""

    __slots__ = ()

    interpreters: ClassVar[dict[str, Callable[[Effects, Step, Play], None]]] = {}
    """Each step kind's `step_<kind>` method, looked up once per class (a variant's overrides included)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.interpreters = {kind: getattr(cls, f"step_{kind}") for kind in STEP_KINDS}

    def step_choose(self, step: Step, play: Play) -> None:
        """Bind the chosen players; with nobody to choose, apply the no-valid-target rule.

        A chosen player holding a card that counters the played card reacts instead (see
        `counter`), and the played card's effect stops.
        """
        if play.target is None and not play.targets:
            fallback = step.modifiers.get("no_target") or self.tables.general["no_valid_target"]
            if fallback.need() == "no_effect":
                self.log.append({"type": "no_effect", "player": play.player,
                                 "card": self.tables.names[play.card], "clause": fallback.id})
                play.stopped = True
            return
        if not self.tables.countered[play.card]:
            return
        for seat in (play.target,) if play.target is not None else play.targets:
            if seat != play.player and self.counter(seat, play):
                play.stopped = True
                return

    def step_guess(self, step: Step, play: Play) -> None:
        """Name a card (or value); a correct guess knocks the target out or scores a token."""
        rule = step.clause.need()
        target = play.target
        assert target is not None
        held = self.hands[target][0]
        if rule["by"] == "value":
            correct = self.tables.values[held] == play.guess
        else:
            correct = self.tables.names[held] == play.guess
        self.log.append({"type": "guess", "player": play.player, "target": target, "guess": play.guess,
                         "correct": correct})
        play.hit = correct
        if not correct:
            return
        if rule["on_hit"] == "eliminate":
            self.eliminate(target, play.card, step.clause)
        else:
            self.gain(play.player, 1, "bonus", step.clause)

    def step_look(self, step: Step, play: Play) -> None:
        """The player privately sees the hand of the target (or of each, or of the one named)."""
        rule = step.clause.need()
        if rule == "target":
            seats = [play.target]
        elif rule == "targets":
            seats = list(play.targets)
        else:
            seats = [play.look]
        for seat in seats:
            assert seat is not None
            for card in self.hands[seat]:
                self.log.append({"type": "look", "player": play.player, "target": seat,
                                 "card": self.tables.names[card]})

    def step_compare(self, step: Step, play: Play) -> None:
        """Compare hand values privately; the loser named by the rule (or the tie rule) is out."""
        rule = step.clause.need()
        player, target = play.player, play.target
        assert target is not None
        mine, theirs = self.hands[player][0], self.hands[target][0]
        a, b = self.tables.values[mine], self.tables.values[theirs]
        losers: list[int]
        if a == b:
            tie = step.modifiers["on_tie"]
            losers = [player, target] if tie.need() == "both_out" else []
            deciding = tie
        else:
            lower = player if a < b else target
            higher = target if lower == player else player
            losers = [lower if rule["loser"] == "lower" else higher]
            deciding = step.clause
        self.log.append({"type": "compare", "player": player, "target": target,
                         "cards": [self.tables.names[mine], self.tables.names[theirs]],
                         "loser": losers[0] if len(losers) == 1 else None})
        for loser in losers:
            self.eliminate(loser, play.card, deciding)

    def step_protect(self, step: Step, play: Play) -> None:
        """Protect the player until the start of their next turn, or to the end of the round
        (`until`; the protection ends at the start of their turn, `_begin_turn`)."""
        step.clause.need()
        self.protected[play.player] = step.clause
        self.log.append({"type": "protect", "player": play.player})

    def step_discard_draw(self, step: Step, play: Play) -> None:
        """The target discards their hand (without its effect) and draws a new card."""
        step.clause.need()
        assert play.target is not None
        empty = step.modifiers.get("empty_deck")
        if not self.deck and empty is not None and empty.need() == "no_effect":
            self.log.append({"type": "no_effect", "player": play.player,
                             "card": self.tables.names[play.card], "clause": empty.id})
            return
        self.discard_and_draw(play.target, empty)

    def step_draw_return(self, step: Step, play: Play) -> None:
        """Draw cards into hand, then wait for the player to keep one and return the rest."""
        rule = step.clause.need()
        available = len(self.deck)
        if available == 0:
            empty = step.modifiers["empty_deck"]
            if empty.need() == "no_effect":
                self.log.append({"type": "no_effect", "player": play.player,
                                 "card": self.tables.names[play.card], "clause": empty.id})
                return
        if available < rule["draw"]:
            step.modifiers["short_deck"].need()
        for _ in range(min(available, rule["draw"])):
            self.draw(play.player, None, step.clause.id)
            if not self.alive[play.player]:
                return
        self.pending = step
        self.phase = Phase.KEEP
        play.stopped = True

    def step_trade(self, step: Step, play: Play) -> None:
        """Two players exchange hands: the player and the target, or the two chosen players."""
        rule = step.clause.need()
        if rule == "target":
            assert play.target is not None
            first, second = play.player, play.target
        else:
            first, second = play.targets
        mine, theirs = self.hands[first], self.hands[second]
        event: Event = {"type": "trade", "player": play.player}
        if rule == "target":
            event["target"] = second
        else:
            event["targets"] = [first, second]
        event["cards"] = [self.tables.names[c] for c in mine + theirs]
        self.log.append(event)
        self.hands[first], self.hands[second] = theirs, mine

    def step_predict(self, step: Step, play: Play) -> None:
        """Mark the target: if they win the round, the player gains tokens."""
        step.clause.need()
        assert play.target is not None
        self.predictions.append((play.player, play.target, step.clause))
        self.log.append({"type": "predict", "player": play.player, "target": play.target})

    def step_force_next_target(self, step: Step, play: Play) -> None:
        """Mark the target: the next card played must choose them if it can."""
        step.clause.need()
        assert play.target is not None
        self.forced = (play.target, step.clause)
        self.log.append({"type": "force_target", "player": play.player, "target": play.target})

    def step_offer_redraw(self, step: Step, play: Play) -> None:
        """Offer the target to discard their hand and draw (after a correct guess, if so ruled)."""
        rule = step.clause.need()
        target = play.target
        if target is None or not self.alive[target] or (rule["when"] == "hit" and not play.hit):
            return
        empty = step.modifiers.get("empty_deck")
        if not self.deck and empty is not None and empty.need() == "no_effect":  # nothing to redraw
            self.log.append({"type": "no_effect", "player": play.player,
                             "card": self.tables.names[play.card], "clause": empty.id})
            return
        self.pending = step
        self.responder = target
        self.phase = Phase.RESPOND
        play.stopped = True

    # -- shared mechanics used by several steps ----------------------------------------------

    def counter(self, seat: int, play: Play) -> bool:
        """If `seat` holds a card that counters the played card, react and return True.

        The card's player is knocked out instead; the holder reveals and discards the counter
        card and draws a new one.
        """
        for card in self.hands[seat]:
            clause = self.tables.edition.cards[card].counter
            if clause is None or play.card not in self.tables.edition.cards[card].counters:
                continue
            rule = clause.need()
            self.log.append({"type": "counter", "player": seat, "target": play.player,
                             "card": self.tables.names[card]})
            self.eliminate(play.player, card, clause)
            self.hands[seat].remove(card)
            self.discard(seat, card)
            if self.alive[seat]:
                self.draw(seat, clause if rule["empty_deck"] == "set_aside" else None, clause.id)
            return True
        return False

    def discard_and_draw(self, seat: int, empty_deck: Clause | None) -> None:
        """`seat` discards their hand without its effect, then draws unless that knocked them out."""
        for card in list(self.hands[seat]):
            self.hands[seat].remove(card)
            self.discard(seat, card)
            if not self.alive[seat]:
                return
        fallback = None
        if empty_deck is not None and not self.deck and empty_deck.need() == "set_aside":
            fallback = empty_deck
        self.draw(seat, fallback, empty_deck.id if empty_deck else self.tables.general["turn_draw"].id)

    def discard(self, player: int, card: int) -> None:
        """Put a card from `player`'s hand on their discard pile; it may knock them out."""
        self.discards[player].append(card)
        self.log.append({"type": "discard", "player": player, "card": self.tables.names[card]})
        out = self.tables.discard_out[card]
        if out is not None and out.need() == "any_reason" and self.alive[player]:
            self.eliminate(player, card, out)

    def draw(self, player: int, set_aside_rule: Clause | None, clause_id: str) -> None:
        """Draw the top card of the deck; when it is empty, the set-aside card if a rule allows it.

        With nothing to draw, the rules are silent: RuleGapError names `clause_id`.
        """
        if self.deck:
            card = self.deck.pop()
            source = "deck"
        elif set_aside_rule is not None and self.set_aside:
            card = self.set_aside.pop()
            source = "set_aside"
        else:
            raise RuleGapError(clause_id, f"player {player} must draw but no card is left to draw")
        self.hands[player].append(card)
        self.log.append({"type": "draw", "player": player, "card": self.tables.names[card], "from": source})
        if self.tables.hand_limits:
            self.check_hand_total(player)

    def check_hand_total(self, seat: int) -> None:
        """Knock `seat` out if they hold a card whose limit the values in their hand reach."""
        hand, values = self.hands[seat], self.tables.values
        for card, limit in self.tables.hand_limits:
            if card in hand and self.alive[seat] and sum(values[c] for c in hand) >= limit.need():
                self.eliminate(seat, card, limit)

    def eliminate(self, player: int, by_card: int, clause: Clause) -> None:
        """Knock `player` out: their hand is discarded face up without effect.

        A card in their discard pile that pays a token on elimination pays it (and that token
        may end the game at once).
        """
        tables, log, discards = self.tables, self.log, self.discards[player]
        tables.general["elimination"].need()
        self.alive[player] = False
        self.protected[player] = None
        log.append({"type": "eliminate", "player": player, "by": tables.names[by_card], "clause": clause.id})
        tokens = tables.eliminated_token
        paying = dict.fromkeys(token for token in map(tokens.__getitem__, discards) if token is not None)
        hand = self.hands[player]
        while hand:
            card = hand.pop(0)
            discards.append(card)
            log.append({"type": "discard", "player": player, "card": tables.names[card]})
        for token in paying:
            self.gain(player, token.need(), "bonus", token)

    def gain(self, seat: int, amount: int, reason: str, clause: Clause) -> None:
        """Give `seat` favour tokens; during a round, reaching the target may end the game at once."""
        self.tokens[seat] += amount
        self.log.append({"type": "token", "player": seat, "amount": amount, "reason": reason,
                         "clause": clause.id})
        in_round = self.phase in DECIDING
        if in_round and self.tables.general["game_end"].need().get("mid_round") == "ends_game":
            self.end_game_if_won()

    def end_game_if_won(self) -> bool:
        """End the game if someone has reached the token target; True when it ended."""
        target = self.tables.number("tokens_to_win")
        if max(self.tokens) < target:
            return False
        reached = [seat for seat in self.tables.seats if self.tokens[seat] >= target]
        if len(reached) > 1:
            self.tables.general["game_end"].need()
        self.game_winners = reached
        self.phase = Phase.GAME_OVER
        self.pending = None
        self.log.append({"type": "game_end", "winners": reached})
        return True
