"""A small Love Letter engine written for issue 25, independent of llcheck and of the reference:
Z-Man 2019 for two players, one round, no favour tokens, its own shuffle, and the Chancellor's
keep and return chosen with the play. It has an API of its own (`Match`, `Move`); the adapter
that puts it under the conformance suite is one_round.py. `FaceUpShort` and `BaronTieOut` each
add one bug (a setup rule, a card rule) for the tests to find."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

VALUES = {"Spy": 0, "Guard": 1, "Priest": 2, "Baron": 3, "Handmaid": 4, "Prince": 5, "Chancellor": 6,
          "King": 7, "Countess": 8, "Princess": 9}
COUNTS = {"Spy": 2, "Guard": 6, "Priest": 2, "Baron": 2, "Handmaid": 2, "Prince": 2, "Chancellor": 2,
          "King": 1, "Countess": 1, "Princess": 1}
CARDS = [card for card, n in COUNTS.items() for _ in range(n)]
AT_OTHER = {"Guard", "Priest", "Baron", "King"}


@dataclass(frozen=True)
class Move:
    """A card played: at whom, naming what, and, for a Chancellor, the card kept and those put back."""

    card: str
    target: int | None = None
    guess: str | None = None
    keep: str | None = None
    back: tuple[str, ...] = ()


class Match:
    """One two-player round, dealt from a shuffle of `seed` (or from `cards`, top first)."""

    face_up = 3

    def __init__(self, seed: int, first: int, cards: list[str] | None = None):
        if cards is None:
            cards = list(CARDS)
            random.Random(seed).shuffle(cards)
        k = self.face_up
        self.aside, self.shown = cards[:1], cards[1:1 + k]
        self.hands = [[cards[1 + k]], [cards[2 + k]]]
        self.pile = cards[3 + k:]
        self.discards: list[list[str]] = [[], []]
        self.out, self.shielded = [False, False], [False, False]
        self.starter = first
        self.turn: int | None = first
        self.winners: list[int] | None = None
        self._begin(first)

    def _begin(self, seat: int) -> None:
        self.turn = seat
        self.shielded[seat] = False
        self.hands[seat].append(self.pile.pop(0))

    def moves(self) -> list[Move]:
        """Every move the player on turn may make."""
        if self.turn is None:
            return []
        hand = self.hands[self.turn]
        forced = "Countess" in hand and bool({"King", "Prince"} & set(hand))
        return [m for card in sorted(set(hand), key=VALUES.__getitem__) if card == "Countess" or not forced
                for m in self._moves(self.turn, card)]

    def _open(self, seat: int) -> list[int]:
        return [s for s in (0, 1) if s != seat and not self.out[s] and not self.shielded[s]]

    def _moves(self, seat: int, card: str) -> list[Move]:
        if card in AT_OTHER and self._open(seat):
            guesses = [name for name in VALUES if name != "Guard"] if card == "Guard" else [None]
            return [Move(card, t, g) for t in self._open(seat) for g in guesses]
        if card == "Prince":
            return [Move(card, t) for t in sorted([seat, *self._open(seat)])]
        if card == "Chancellor" and self.pile:
            rest = list(self.hands[seat])
            rest.remove(card)
            pool = rest + self.pile[:2]
            return [Move(card, keep=keep, back=back) for keep in sorted(set(pool))
                    for back in sorted(set(itertools.permutations(_without(pool, keep))))]
        return [Move(card)]

    def play(self, move: Move) -> None:
        """Make a move (ValueError when it is not one of `moves()`)."""
        if move not in self.moves():
            raise ValueError(f"{move} is not a legal move")
        seat = self.turn
        assert seat is not None
        self.hands[seat].remove(move.card)
        self.discards[seat].append(move.card)
        target = move.target
        if move.card == "Guard" and target is not None and self.hands[target][0] == move.guess:
            self._knock_out(target)
        elif move.card == "Baron" and target is not None:
            self._baron(seat, target)
        elif move.card == "Handmaid":
            self.shielded[seat] = True
        elif move.card == "Prince" and target is not None:
            dropped = self.hands[target].pop()
            self.discards[target].append(dropped)
            if dropped == "Princess":
                self.out[target] = True
            else:
                self.hands[target].append(self.pile.pop(0) if self.pile else self.aside.pop())
        elif move.card == "Chancellor" and move.keep is not None:
            del self.pile[:2]
            self.hands[seat] = [move.keep]
            self.pile += move.back
        elif move.card == "King" and target is not None:
            self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
        elif move.card == "Princess":
            self._knock_out(seat)
        self._end_turn(seat)

    def _baron(self, seat: int, target: int) -> None:
        mine, theirs = VALUES[self.hands[seat][0]], VALUES[self.hands[target][0]]
        if mine != theirs:
            self._knock_out(seat if mine < theirs else target)

    def _knock_out(self, seat: int) -> None:
        self.discards[seat] += self.hands[seat]
        self.hands[seat] = []
        self.out[seat] = True

    def _end_turn(self, seat: int) -> None:
        alive = [s for s in (0, 1) if not self.out[s]]
        if len(alive) > 1 and self.pile:
            self._begin(1 - seat)
            return
        if len(alive) > 1:
            best = max(VALUES[self.hands[s][0]] for s in alive)
            alive = [s for s in alive if VALUES[self.hands[s][0]] == best]
        self.winners, self.turn = alive, None


def _without(cards: list[str], card: str) -> list[str]:
    rest = list(cards)
    rest.remove(card)
    return rest


class FaceUpShort(Match):
    """A setup bug: only two cards face up with two players (the rules say three)."""

    face_up = 2


class BaronTieOut(Match):
    """A rule bug: a Baron tie knocks both players out (the rules say nothing happens)."""

    def _baron(self, seat: int, target: int) -> None:
        if VALUES[self.hands[seat][0]] == VALUES[self.hands[target][0]]:
            self._knock_out(seat)
            self._knock_out(target)
            return
        super()._baron(seat, target)
