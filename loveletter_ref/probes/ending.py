"""The end of the round, on the final (frozen) state: who wins and which tokens are paid.

It mirrors `Game._end_turn`, `_showdown` and `_finish_round`: the last player standing wins;
with nobody left the `all_eliminated` rule applies (a gap when the spec has none); otherwise
the showdown compares hand values and the tie chain breaks ties. Then the round's tokens and
every bonus are paid and the token target is checked. Every rule consulted is recorded, in the
same order as the engine consults it, so that a silent one is a gap at the right point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import z3

from .board import Board
from .terms import BV, FALSE, Bool, at_least, both, either, exactly, fit, ite, num, ule, ult, width

if TYPE_CHECKING:
    from .unroll import RoundEncoding


class Ending:
    """Winners, token gains and the rules consulted when the round ends."""

    def __init__(self, rnd: RoundEncoding, state: dict[str, z3.ExprRef]):
        layout = rnd.layout
        board = Board(rnd, state, layout.depth)
        board.phase = "after"
        self.rnd, self.board = rnd, board
        n = layout.players
        self.over: Bool = both(z3.Not(state["run"]), z3.Not(state["gap"]), z3.Not(state.get("halt", FALSE)))
        self.alive = [board.alive(p) for p in range(n)]
        one, several = exactly(self.alive, 1), at_least(self.alive, 2)
        self.everyone_out = both(self.over, z3.Not(either(*self.alive)))
        board.consult(rnd.key("last_standing"), rnd.rule("last_standing"), both(self.over, one))
        all_out = rnd.rule("all_eliminated")
        if all_out is None:
            board.stop("all_out", "round.all-eliminated", self.everyone_out)
        else:
            board.consult(all_out.key, all_out, self.everyone_out)
        showdown = both(self.over, several)
        board.consult(rnd.key("deck_empty"), rnd.rule("deck_empty"), showdown)
        self.tied_at_showdown: list[Bool] = [FALSE] * n
        best = self._showdown(showdown)
        self.winners = [ite(one, self.alive[p], both(several, best[p])) for p in range(n)]
        self.decided: Bool = both(self.over, z3.Not(board.gap))
        """The round ended and its winners are known (the engine's `round_end`), though a silent
        rule of its tokens may stop it next."""
        self.gains = self._tokens()
        self.facts = board.facts
        self.done = both(self.over, z3.Not(board.gap))

    def _scores(self) -> list[BV]:
        """Each seat's showdown value: its card's value plus the bonus of each copy in its discard pile."""
        board, rnd = self.board, self.rnd
        layout = rnd.layout
        bonus = {c: layout.facts.showdown_bonus[c] for c in rnd.piled}
        bits = width(max(layout.values) + sum(b * layout.counts[c] for c, b in bonus.items()) + 1)
        scores = []
        for p in range(layout.players):
            score = fit(board.value(board.s[f"card{p}"]), bits)
            for c, b in bonus.items():
                score = score + fit(board.s[f"piled{p}.{c}"], bits) * b
            scores.append(score)
        return scores

    def _loses(self, mine: BV, theirs: BV) -> Bool:
        """The card `mine` loses at the showdown to the card `theirs` whatever the values."""
        bits = self.rnd.layout.card_bits
        return either(*(both(mine == num(card.index, bits), theirs == num(other, bits))
                        for card in self.rnd.edition.cards for other in sorted(card.loses_to)))

    def _beats(self, p: int, q: int, scores: list[BV]) -> Bool:
        """At the showdown, seat p's hand beats seat q's (the engine's `_beats`)."""
        mine, theirs = self.board.s[f"card{p}"], self.board.s[f"card{q}"]
        return both(z3.Not(self._loses(mine, theirs)),
                    either(self._loses(theirs, mine), ult(scores[q], scores[p])))

    def _showdown(self, when: Bool) -> list[Bool]:
        """Who wins the showdown: the highest hand, then the tie chain."""
        board, rnd = self.board, self.rnd
        n = rnd.layout.players
        board.consult(rnd.key("showdown"), rnd.rule("showdown"), when)
        scores = self._scores()
        best = [both(self.alive[p], *(z3.Not(both(self.alive[q], self._beats(q, p, scores)))
                                      for q in range(n) if q != p)) for p in range(n)]
        board.stop("no_highest", rnd.key("showdown"), both(when, z3.Not(either(*best))))
        self.tied_at_showdown = [both(when, z3.Not(board.gap), b) for b in best]  # before a silent tie rule
        tie = rnd.rule("tie")
        undecided = both(when, at_least(best, 2))
        board.consult(rnd.key("tie"), tie, undecided)
        if tie is None or tie.silent:
            return best
        winners, current = best, best
        for rule in tie.rule:
            if rule in ("discard_total", "highest_discard"):
                field = "total" if rule == "discard_total" else "top"
                marks = [board.s[f"{field}{p}"] for p in range(n)]
                # The highest mark among the players still tied, folded seat by seat (it is one of
                # theirs, or 0 when none is above 0): a player is on top when theirs equals it. The
                # same as "no tied player's mark is higher", but linear in the players, and a solver
                # sees at once that someone is on top (the pairwise form made it rediscover the
                # transitivity of <= case by case, beyond any budget with 7 or 8 players).
                most = num(0, marks[0].size())
                for p in range(n):
                    most = ite(both(current[p], ult(most, marks[p])), marks[p], most)
                top = [both(current[p], marks[p] == most) for p in range(n)]
                single = exactly(top, 1)
                winners = [ite(both(undecided, single), top[p], winners[p]) for p in range(n)]
                current = top
                undecided = both(undecided, z3.Not(single))
            else:
                shared = rule == "all_win"
                winners = [ite(undecided, both(z3.BoolVal(shared), current[p]), winners[p]) for p in range(n)]
                undecided = FALSE
                break
        board.stop("open_tie", tie.key, undecided)
        return winners

    def _predictions(self, gains: list[BV]) -> list[BV]:
        """Each prediction of a round winner pays its player (whether or not they are still in)."""
        board, rnd = self.board, self.rnd
        n, bits = rnd.layout.players, rnd.token_bits
        for c, clause in rnd.predicting:
            for j in range(rnd.layout.counts[c]):
                by, on = board.s[f"predictor{c}.{j}"], board.s[f"prediction{c}.{j}"]
                right = both(self.over, either(*(both(on == num(p + 1, on.size()), self.winners[p])
                                                 for p in range(n))))
                board.consult(clause.key, clause, right)
                pay = clause.rule["amount"]
                paid = [both(right, by == num(p + 1, by.size())) for p in range(n)]
                gains = [gains[p] + ite(paid[p], num(pay, bits), num(0, bits)) for p in range(n)]
                self.most_per_seat += pay
        return gains

    def _tokens(self) -> list[BV]:
        """Each seat's tokens gained this round: the round's win and every bonus paid."""
        board, rnd = self.board, self.rnd
        layout, n, bits = rnd.layout, rnd.layout.players, rnd.token_bits
        amount = rnd.rule("round_tokens")
        board.consult(rnd.key("round_tokens"), amount, self.over)
        per_win = amount.rule if amount is not None and not amount.silent else 0
        gains = [ite(self.winners[p], num(per_win, bits), num(0, bits)) for p in range(n)]
        self.most_per_seat = per_win
        gains = self._predictions(gains)
        for card, clause in layout.facts.bonuses:
            if not layout.counts[card]:
                continue
            holders = [both(self.alive[p], board.s[f"flag{p}.{card}"]) for p in range(n)]
            board.consult(clause.key, clause, both(self.over, either(*holders)))
            if clause.silent:
                continue
            sole = exactly(holders, 1)
            value = clause.rule["amount"]
            gains = [gains[p] + ite(both(sole, holders[p]), num(value, bits), num(0, bits)) for p in range(n)]
            self.most_per_seat += value
        board.consult(rnd.key("tokens_to_win"), rnd.rule("tokens_to_win"), self.over)
        self.paid: Bool = both(self.over, z3.Not(board.gap))
        """The round's tokens are paid (before the game-end rule, which may be silent)."""
        if rnd.target is None:
            self.reached = [FALSE] * n
        else:
            self.reached = [both(self.paid, ule(num(rnd.target, bits),
                                                rnd.tokens[p] + state_won(board, p) + gains[p]))
                            for p in range(n)]
        board.consult(rnd.key("game_end"), rnd.rule("game_end"), at_least(self.reached, 2))
        return gains


def state_won(board: Board, p: int) -> BV:
    """The tokens seat p gained during the round (zero when no rule pays during a round)."""
    return board.s.get(f"won{p}", num(0, board.rnd.token_bits))
