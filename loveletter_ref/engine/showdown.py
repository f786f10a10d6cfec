"""The end of a round: the showdown, its tie chain, and the favour tokens a round pays."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import RuleGapError
from .actions import Event, Phase
from .effects import Effects

TIE_MEASURES: dict[str, Callable[[list[int]], int]] = {
    "discard_total": sum,
    "highest_discard": lambda worth: max(worth, default=-1),
}
"""Tie-chain steps that keep the tied players whose discards measure highest, with the measure
(the other steps: `all_win`, every tied player wins; `nobody`, none does)."""


class Showdown(Effects):
    """Who wins a round, and what it pays."""

    __slots__ = ()

    def showdown_value(self, seat: int) -> int:
        """The value a seat's hand counts for at the showdown (card value plus discard bonuses)."""
        bonus = sum(self.tables.showdown_bonus[c] for c in self.discards[seat])
        return self.tables.values[self.hands[seat][0]] + bonus

    def _beats(self, a: int, b: int, scores: dict[int, int]) -> bool:
        """At the showdown, does seat `a`'s hand beat seat `b`'s (given each seat's score)?"""
        card_a, card_b = self.hands[a][0], self.hands[b][0]
        if card_b in self.tables.loses_to[card_a]:
            return False
        if card_a in self.tables.loses_to[card_b]:
            return True
        return scores[a] > scores[b]

    def _showdown(self, alive: list[int]) -> list[int]:
        showdown = self.tables.general["showdown"]
        showdown.need()
        scores = {seat: self.showdown_value(seat) for seat in alive}
        tied = [a for a in alive if not any(self._beats(b, a, scores) for b in alive if b != a)]
        if not tied:
            raise RuleGapError(showdown.id, "every hand is beaten by another: nobody is highest")
        if len(tied) == 1:
            return tied
        return self._break_tie(tied)

    def _break_tie(self, tied: list[int]) -> list[int]:
        """The winners among hands tied at the showdown, by the tie chain (RuleGapError past its end)."""
        values = self.tables.values
        tie = self.tables.general["tie"]
        for rule in tie.need():
            if rule in TIE_MEASURES:
                worth = {seat: TIE_MEASURES[rule]([values[c] for c in self.discards[seat]]) for seat in tied}
                top = max(worth.values())
                tied = [seat for seat in tied if worth[seat] == top]
                if len(tied) == 1:
                    return tied
            else:
                return tied if rule == "all_win" else []
        hands = "; ".join(f"player {seat}: {self.tables.names[self.hands[seat][0]]}, discards worth "
                          f"{sum(values[c] for c in self.discards[seat])}" for seat in tied)
        raise RuleGapError(tie.id, f"still tied after the tie rule ({hands}); the rules say no more")

    def _finish_round(self, winners: list[int], reason: str) -> None:
        names = self.tables.names
        event: Event = {"type": "round_end", "reason": reason, "winners": winners}
        if reason == "showdown":
            event["hands"] = [names[self.hands[s][0]] if self.alive[s] else None
                              for s in range(self.players)]
        self.log.append(event)
        self.round_winners = winners
        self.phase = Phase.ROUND_OVER
        tokens = self.tables.general["round_tokens"]
        amount = tokens.need()
        for seat in winners:
            self.gain(seat, amount, "round", tokens)
        for seat, predicted, clause in self.predictions:
            if predicted in winners:
                self.gain(seat, clause.need()["amount"], "bonus", clause)
        for card, clause in self.tables.bonuses:
            holders = [s for s in self.tables.seats if self.alive[s] and card in self.discards[s]]
            if len(holders) == 1:
                self.gain(holders[0], clause.need()["amount"], "bonus", clause)
            elif holders:
                clause.need()
        self.end_game_if_won()
