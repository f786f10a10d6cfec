"""Two-player rounds played down to an empty deck: each player holds on to one card and plays
every card they draw ("fodder"), so that the cards kept decide the showdown.

Fodder is played the plain way: a Guard names `guess` (a card nobody holds), a Priest or Baron
chooses the opponent, a Handmaid protects; against a protected opponent they are played without
a target. The scenario author checks that a Baron only compares equal cards or meets a protected
opponent; this module refuses anything else, so a fodder play can never knock anyone out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .dsl import Ed, Json, deal, play, step

PLAIN = {"Guard", "Priest", "Baron", "Handmaid", "Countess", "Spy"}
"""Cards a duel plays on its own."""


@dataclass(frozen=True)
class Duel:
    """A dealt duel: the deck, and the automatic steps (no expectations) before the last plays."""

    deck: list[str]
    steps: list[Json]


def order(starter: Sequence[str], other: Sequence[str]) -> list[str]:
    """The draw pile when the starter draws `starter` and the other player `other`, turn by turn."""
    out = [card for pair in zip(starter, other, strict=False) for card in pair]
    return out + list(starter[len(other) :]) + list(other[len(starter) :])


def duel(
    ed: Ed,
    kept: tuple[str, str],
    starter: Sequence[str],
    other: Sequence[str],
    *,
    set_aside: Sequence[str],
    face_up: Sequence[str],
    guess: str,
    first: int = 0,
    manual: int = 1,
    extra: Sequence[str] = (),
) -> Duel:
    """Seats 0 and 1 keep `kept`; seat `first` starts. The last `manual` draws are left to the
    scenario (their plays are not in `steps`); `extra` cards follow the turn draws in the pile."""
    draws = order(starter, other)
    deck = deal(ed, 2, list(kept), draws + list(extra), set_aside=set_aside, face_up=face_up)
    seats = [first, 1 - first]
    protected = [False, False]
    steps = []
    for turn, card in enumerate(draws[: len(draws) - manual]):
        seat = seats[turn % 2]
        protected[seat] = False
        steps.append(step(_fodder(ed, card, kept, seat, protected, guess)))
    return Duel(deck, steps)


def _fodder(ed: Ed, card: str, kept: tuple[str, str], seat: int, protected: list[bool], guess: str) -> Json:
    if card not in PLAIN:
        raise ValueError(f"a duel cannot play {card} on its own")
    opponent = 1 - seat
    if card == "Handmaid":
        protected[seat] = True
        return play(card)
    if card in ("Countess", "Spy"):
        return play(card)
    if protected[opponent]:
        return play(card)
    if card == "Baron" and ed.value(kept[0]) != ed.value(kept[1]):
        raise ValueError("a Baron in a duel must meet a protected opponent or an equal card")
    if card == "Guard":
        if guess in kept:
            raise ValueError(f"the duel's Guards must name a card nobody holds, not {guess}")
        return play(card, opponent, guess)
    return play(card, opponent)
