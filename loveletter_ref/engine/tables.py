"""The engine's tables for one spec and player count: the spec's facts plus per-hand memos."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import TypeVar

from ..spec import Edition
from ..spec.facts import Facts, facts_for
from .actions import PLAY, Action

Choice = int | tuple[int, ...] | None
"""Whom a play chooses: one seat, several (a `targets` play), or nobody."""

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dictionary that works out a missing value with `make(key)` and keeps it; emptied when it
    holds `limit` values, if a limit is given (for keys with no natural bound)."""

    __slots__ = ("make", "limit")

    def __init__(self, make: Callable[[K], V], limit: int | None = None):
        super().__init__()
        self.make = make
        self.limit = limit

    def __missing__(self, key: K) -> V:
        if self.limit is not None and len(self) >= self.limit:
            self.clear()
        value = self[key] = self.make(key)
        return value


@dataclass(frozen=True, eq=False)
class Tables(Facts):
    """A spec's facts for one player count with the engine's per-hand memo tables; built once,
    shared by every game. This module is where the engine trades memory for speed: a hand's
    playable cards, a card's plays per choice and a hand's names are worked out once per hand."""

    plays: Memo[tuple[int, Choice], tuple[Action, ...]] = field(init=False)
    """Each card's plays per choice (`(card, choice)` to `plays_of` it, remembered)."""
    playable: Memo[tuple[int, ...], list[int]] = field(init=False)
    """The playable cards of each hand (`playable_in` it, remembered; callers must not change them)."""
    hand_names: Memo[tuple[int, ...], tuple[str, ...]] = field(init=False)
    """The names of each hand in canonical order (`name_hand`, remembered)."""

    def __post_init__(self) -> None:
        for name, make in (("plays", self.plays_of), ("playable", self.playable_in),
                           ("hand_names", self.name_hand)):
            object.__setattr__(self, name, Memo(make))

    def plays_of(self, key: tuple[int, Choice]) -> tuple[Action, ...]:
        """Every play of a card with a choice: one per guess, or per chosen player looked at."""
        card, choice = key
        name, decision = self.names[card], self.decisions[card]
        if choice is None:
            return (Action(PLAY, name),)
        if isinstance(choice, tuple):
            looks: Sequence[int | None] = choice if decision.look_choice else (None,)
            return tuple(Action(PLAY, name, targets=choice, look=look) for look in looks)
        if decision.guess is None:
            return (Action(PLAY, name, choice),)
        return tuple(Action(PLAY, name, choice, g) for g in decision.guesses)

    def playable_in(self, hand: tuple[int, ...]) -> list[int]:
        """The cards a player holding `hand` may play: the forced card if a forcing rule applies,
        else each distinct card, in index order."""
        for card, forcing, _ in self.forcing:
            if card in hand and any(other in forcing for other in hand if other != card):
                return [card]
        return sorted(set(hand))

    def name_hand(self, hand: tuple[int, ...]) -> tuple[str, ...]:
        """A hand's card names in canonical order (by value, then name)."""
        return tuple(self.names[c] for c in sorted(hand, key=self.rank.__getitem__))


@lru_cache(maxsize=128)
def tables_for(edition: Edition, players: int) -> Tables:
    """The tables for a game of `players` under `edition` (cached)."""
    facts = facts_for(edition, players)
    return Tables(**{f.name: getattr(facts, f.name) for f in fields(Facts)})
