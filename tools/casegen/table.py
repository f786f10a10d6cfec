"""Five-player Premium rounds played down to an empty deck, for the rules that only a showdown shows.

Seats 2, 3 and 4 are knocked out by Guards in the first turns (taking three cards out of play
with them); seats 0 and 1 then play every card they draw ("fodder") while each holds on to a
kept card, so that the kept cards decide the showdown. A scenario may *swap* at chosen draws:
the player then plays the kept card and keeps the one drawn.

Fodder is played the plain way: a Guard or Bishop names a value the opponent does not hold, a
card that chooses takes the opponent (or nobody when the opponent is protected), a Baroness
looks at the opponent alone, a Cardinal exchanges the two equal kept cards, a Sycophant marks
its own player, a Jester predicts the opponent (recorded in `predictions`). This module refuses
anything that could knock a player out or change what the kept cards are worth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .dsl import Ed, Json, deal, group_play, play, step

OPENING = ["Guard", "Guard", "Priest", "Guard"]
"""The first draws: seat 0 and seat 1 knock out seats 2 and 3, seat 4 plays a Priest, seat 0
knocks out seat 4."""

PLAIN = {"Handmaid", "Count", "Constable", "Countess", "Assassin"}
"""Fodder without a choice."""

AT_OPPONENT = {"Priest", "Jester"}
"""Fodder that chooses the opponent and changes nothing they hold."""

EQUALS = {"Baron", "Dowager Queen", "King", "Cardinal"}
"""Fodder that meets the kept cards: allowed only while those are equal (or the opponent is protected)."""


@dataclass
class Table:
    """A dealt table: the deck, the automatic steps, what is kept and discarded at the end."""

    deck: list[str]
    steps: list[Json]
    kept: list[str]
    discards: list[list[str]]
    predictions: list[tuple[int, int]] = field(default_factory=list)
    marked: int | None = None


def table(
    ed: Ed,
    kept: tuple[str, str],
    out: Sequence[str],
    set_aside: str,
    draws: Sequence[str],
    *,
    swaps: Sequence[int] = (),
    manual: int = 1,
) -> Table:
    """Seats 0 and 1 keep `kept`; seats 2-4 are dealt `out` and knocked out; `draws` follow the opening.

    `swaps` are indexes into `draws` at which the drawing player keeps the drawn card instead.
    The last `manual` draws are left to the scenario.
    """
    deck = deal(ed, 5, [*kept, *out], [*OPENING, *draws], set_aside=[set_aside])
    hold = list(kept)
    discards: list[list[str]] = [[] for _ in range(5)]
    steps = [
        step(play("Guard", 2, ed.value(out[0]))),
        step(play("Guard", 3, ed.value(out[1]))),
        step(play("Priest", 0)),
        step(play("Guard", 4, ed.value(out[2]))),
    ]
    discards[0] += ["Guard", "Guard"]
    discards[1].append("Guard")
    result = Table(deck, steps, hold, discards)
    protected = [False, False]
    for turn, card in enumerate(draws[: len(draws) - manual]):
        seat = (turn + 1) % 2
        protected[seat] = False
        if turn in swaps:
            card, hold[seat] = hold[seat], card
        steps.append(step(_fodder(ed, card, seat, hold, protected, result)))
        discards[seat].append(card)
    return result


def _fodder(ed: Ed, card: str, seat: int, hold: list[str], protected: list[bool], result: Table) -> Json:
    """The plain play of `card` by `seat` (see the module docstring)."""
    other, marked = 1 - seat, result.marked
    result.marked = None
    if card in PLAIN:
        protected[seat] = card == "Handmaid"
        return play(card)
    if card == "Sycophant":
        result.marked = other if marked == other else seat
        return play(card, result.marked)
    if protected[other]:
        if card == "Cardinal":
            raise ValueError("a Cardinal needs two players to choose")
        return play(card)
    if card in ("Guard", "Bishop"):
        guess = next(v for v in (2, 3, 4) if v != ed.value(hold[other]))
        return play(card, other, guess)
    if card == "Baroness":
        return group_play(card, [other])
    if card in AT_OPPONENT:
        if card == "Jester":
            result.predictions.append((seat, other))
        return play(card, other)
    same_value = ed.value(hold[0]) == ed.value(hold[1])
    if card in EQUALS and (same_value if card in ("Baron", "Dowager Queen") else hold[0] == hold[1]):
        if card == "Cardinal":
            return group_play(card, [0, 1], other)
        return play(card, other)
    raise ValueError(f"a table cannot play {card} on its own here (kept: {hold})")
