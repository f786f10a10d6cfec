"""The effect vocabulary: one small method per rule kind a card may carry.

Each `step_<kind>` method interprets one compiled `Step` of the card being played. None of them
knows a card by name: everything they need comes from the step's clause and modifiers. A
variant (or a deliberately broken engine) changes behaviour by overriding one method.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import RuleGapError
from ..spec import Clause, Step
from .actions import Event, Phase

if TYPE_CHECKING:
    from .tables import Tables


@dataclass(slots=True)
class Play:
    """The card being resolved: who plays it, what they chose, whether resolution stopped."""

    player: int
    card: int
    target: int | None
    guess: str | int | None
    stopped: bool = False


class Effects:
    """Interpreters of card steps; mixed into `Game`, whose round state they read and change."""

    tables: Tables
    players: int
    phase: Phase
    deck: list[int]
    set_aside: list[int]
    hands: list[list[int]]
    discards: list[list[int]]
    alive: list[bool]
    protected: list[Clause | None]
    pending: Step | None
    log: list[Event]

    def emit(self, event: Event) -> None:
        """Record one event of the current round."""
        self.log.append(event)

    def step_choose(self, step: Step, play: Play) -> None:
        """Bind the chosen player; with nobody to choose, apply the no-valid-target rule."""
        if play.target is not None:
            return
        fallback = step.modifiers.get("no_target") or self.tables.clause("no_valid_target")
        if fallback.need() == "no_effect":
            self.emit({"type": "no_effect", "player": play.player,
                       "card": self.tables.names[play.card], "clause": fallback.id})
            play.stopped = True

    def step_guess(self, step: Step, play: Play) -> None:
        """Name a card (or value); a correct guess applies the on-hit result to the target."""
        rule = step.clause.need()
        target = play.target
        assert target is not None
        held = self.hands[target][0]
        if rule["by"] == "value":
            correct = self.tables.values[held] == play.guess
        else:
            correct = self.tables.names[held] == play.guess
        self.emit({"type": "guess", "player": play.player, "target": target, "guess": play.guess,
                   "correct": correct})
        if correct:
            self.eliminate(target, play.card, step.clause)

    def step_look(self, step: Step, play: Play) -> None:
        """The player privately sees the target's hand."""
        step.clause.need()
        target = play.target
        assert target is not None
        for card in self.hands[target]:
            self.emit({"type": "look", "player": play.player, "target": target,
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
        self.emit({"type": "compare", "player": player, "target": target,
                   "cards": [self.tables.names[mine], self.tables.names[theirs]],
                   "loser": losers[0] if len(losers) == 1 else None})
        for loser in losers:
            self.eliminate(loser, play.card, deciding)

    def step_protect(self, step: Step, play: Play) -> None:
        """Protect the player until the start of their next turn."""
        step.clause.need()
        self.protected[play.player] = step.clause
        self.emit({"type": "protect", "player": play.player})

    def step_discard_draw(self, step: Step, play: Play) -> None:
        """The target discards their hand (without its effect) and draws a new card."""
        step.clause.need()
        target = play.target
        assert target is not None
        for card in list(self.hands[target]):
            self.hands[target].remove(card)
            self.discard(target, card)
            if not self.alive[target]:
                return
        self.draw(target, step.modifiers.get("empty_deck"))

    def step_draw_return(self, step: Step, play: Play) -> None:
        """Draw cards into hand, then wait for the player to keep one and return the rest."""
        rule = step.clause.need()
        available = len(self.deck)
        if available == 0:
            empty = step.modifiers["empty_deck"]
            if empty.need() == "no_effect":
                self.emit({"type": "no_effect", "player": play.player,
                           "card": self.tables.names[play.card], "clause": empty.id})
                return
        if available < rule["draw"]:
            step.modifiers["short_deck"].need()
        for _ in range(min(available, rule["draw"])):
            self.draw(play.player, None)
        self.pending = step
        self.phase = Phase.KEEP
        play.stopped = True

    def step_trade(self, step: Step, play: Play) -> None:
        """The player and the target exchange hands."""
        step.clause.need()
        player, target = play.player, play.target
        assert target is not None
        mine, theirs = self.hands[player], self.hands[target]
        self.emit({"type": "trade", "player": player, "target": target,
                   "cards": [self.tables.names[c] for c in mine + theirs]})
        self.hands[player], self.hands[target] = theirs, mine

    # -- shared mechanics used by several steps ----------------------------------------------

    def discard(self, player: int, card: int) -> None:
        """Put a card from `player`'s hand on their discard pile; it may knock them out."""
        self.discards[player].append(card)
        self.emit({"type": "discard", "player": player, "card": self.tables.names[card]})
        out = self.tables.discard_out[card]
        if out is not None and out.need() == "any_reason" and self.alive[player]:
            self.eliminate(player, card, out)

    def draw(self, player: int, empty_deck: Clause | None) -> None:
        """Draw the top card of the deck, or the set-aside card when the rule allows it."""
        if self.deck:
            card = self.deck.pop()
            source = "deck"
        elif empty_deck is not None and empty_deck.need() == "set_aside" and self.set_aside:
            card = self.set_aside.pop()
            source = "set_aside"
        else:
            clause = empty_deck.id if empty_deck is not None else self.tables.clause("turn_draw").id
            raise RuleGapError(clause, f"player {player} must draw but no card is left to draw")
        self.hands[player].append(card)
        self.emit({"type": "draw", "player": player, "card": self.tables.names[card], "from": source})

    def eliminate(self, player: int, by_card: int, clause: Clause) -> None:
        """Knock `player` out: their hand is discarded face up without effect."""
        self.alive[player] = False
        self.protected[player] = None
        self.emit({"type": "eliminate", "player": player, "by": self.tables.names[by_card],
                   "clause": clause.id})
        hand = self.hands[player]
        while hand:
            card = hand.pop(0)
            self.discards[player].append(card)
            self.emit({"type": "discard", "player": player, "card": self.tables.names[card]})
