"""A spec compiled for one player count into the flat tables the engine indexes every move."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar

from ..errors import RuleGapError
from ..spec import Clause, Edition, Step
from .actions import PLAY, Action

Choice = int | tuple[int, ...] | None
"""Whom a play chooses: one seat, several (a `targets` play), or nobody."""

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dictionary that works out a missing value with `make(key)` and keeps it."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[K], V]):
        super().__init__()
        self.make = make

    def __missing__(self, key: K) -> V:
        value = self[key] = self.make(key)
        return value


@dataclass(frozen=True)
class Decision:
    """What playing one card asks of the player: whom to choose, what to guess, whom to look at."""

    choose: Step | None
    guess: Step | None
    guesses: tuple[str | int, ...]
    count: int = 1
    """How many players the card chooses (2: the action carries `targets`)."""
    at_least: int = 1
    """With `count` 2, the fewest players that may be chosen."""
    look_choice: bool = False
    """The player names which chosen player to look at (`look` in the action)."""


@dataclass(frozen=True, eq=False)
class Tables:
    """Per-(edition, player count) lookup tables; built once, shared by every game."""

    edition: Edition
    players: int
    general: Mapping[str, Clause]
    """The edition's general clauses by rule kind (the engine consults them on every turn)."""
    seats: range
    """Every seat number, in order."""
    names: tuple[str, ...]
    values: tuple[int, ...]
    index: dict[str, int]
    programs: tuple[tuple[Step, ...], ...]
    decisions: tuple[Decision, ...]
    forcing: tuple[tuple[int, frozenset[int], Clause], ...]
    discard_out: tuple[Clause | None, ...]
    bonuses: tuple[tuple[int, Clause], ...]
    deck: tuple[int, ...]
    order_step: int | None
    """+1 when turns pass clockwise, -1 counterclockwise, None when the spec is silent (with two
    players the direction makes no difference, so it is +1 whatever the spec says)."""
    showdown_bonus: tuple[int, ...]
    """What each card adds to its owner's hand value at the showdown while in their discards."""
    loses_to: tuple[frozenset[int], ...]
    """The cards each card loses to at the showdown whatever the values."""
    marks: bool
    """True when some card leaves marks on players (predictions, forced targets)."""
    countered: tuple[bool, ...]
    """Whether some card counters each card when it chooses that card's holder."""
    eliminated_token: tuple[Clause | None, ...]
    """The rule paying a token to a player knocked out with each card in their discards."""
    hand_limits: tuple[tuple[int, Clause], ...]
    """The cards that knock their holder out once the hand's values add up to a number, with that rule."""
    rank: tuple[int, ...]
    """Each card's place in the canonical order of a hand (by value, then name)."""
    numbers: dict[str, int | None]
    """Player-count rules (deck_size, set_aside, face_up, tokens_to_win) for this player count;
    None where the spec gives no number (asking `number` then raises the rule gap)."""
    sorted_deck: tuple[str, ...]
    """The deck's card names in sorted order: an explicit deck holding the same is a whole deck."""
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

    def number(self, kind: str) -> int:
        """A player-count rule's number for this game (RuleGapError when the spec is silent)."""
        value = self.numbers[kind]
        return _player_number(self.edition, kind, self.players) if value is None else value


def _guesses(edition: Edition, players: int, step: Step | None) -> tuple[str | int, ...]:
    """What a guess step may name: the cards (or values) of this player count's deck, less exclusions."""
    if step is None or step.clause.silent:
        return ()
    rule = step.clause.rule
    excluded = set(rule.get("exclude", ()))
    present = [c for c in edition.cards if c.count_for(players) > 0]
    if rule["by"] == "value":
        excluded_values = {edition.card(name).value for name in excluded}
        return tuple(sorted({c.value for c in present} - excluded_values))
    return tuple(c.name for c in present if c.name not in excluded)


def _decision(edition: Edition, players: int, steps: tuple[Step, ...]) -> Decision:
    choose = next((s for s in steps if s.kind == "choose"), None)
    guess = next((s for s in steps if s.kind == "guess"), None)
    rule = choose.clause.rule if choose is not None and not choose.clause.silent else {}
    count = rule.get("count", 1)
    look_choice = any(s.kind == "look" and s.clause.rule == "one_of_targets" for s in steps)
    return Decision(choose, guess, _guesses(edition, players, guess), count,
                    rule.get("at_least", count), look_choice)


@lru_cache(maxsize=128)
def tables_for(edition: Edition, players: int) -> Tables:
    """The tables for a game of `players` under `edition` (cached)."""
    cards = edition.cards
    return Tables(
        edition=edition,
        players=players,
        general=edition.general,
        seats=range(players),
        names=tuple(c.name for c in cards),
        values=tuple(c.value for c in cards),
        index={c.name: c.index for c in cards},
        programs=tuple(c.steps for c in cards),
        decisions=tuple(_decision(edition, players, c.steps) for c in cards),
        forcing=tuple((c.index, c.forced_with, c.forced) for c in cards if c.forced is not None),
        discard_out=tuple(c.discard_out for c in cards),
        bonuses=tuple((c.index, c.bonus) for c in cards if c.bonus is not None),
        deck=tuple(edition.deck(players)),
        order_step=1 if players == 2 else _order_step(edition.general["turn_order"]),
        showdown_bonus=tuple(c.showdown_bonus.need() if c.showdown_bonus else 0 for c in cards),
        loses_to=tuple(c.loses_to for c in cards),
        marks=any(s.kind in ("predict", "force_next_target") for c in cards for s in c.steps),
        countered=tuple(any(c.index in other.counters for other in cards) for c in cards),
        eliminated_token=tuple(c.eliminated_token for c in cards),
        hand_limits=tuple((c.index, c.hand_limit) for c in cards if c.hand_limit is not None),
        rank=tuple(sorted(range(len(cards)), key=lambda c: (cards[c].value, cards[c].name)).index(c)
                   for c in range(len(cards))),
        numbers={kind: _number(edition, kind, players)
                 for kind in ("deck_size", "set_aside", "face_up", "tokens_to_win")},
        sorted_deck=tuple(sorted(cards[c].name for c in edition.deck(players))),
    )


def _player_number(edition: Edition, kind: str, players: int) -> int:
    """A player-count rule's number (RuleGapError when the spec is silent; no face-up cards by default)."""
    return edition.player_table(kind, players, default=0 if kind == "face_up" else None)


def _number(edition: Edition, kind: str, players: int) -> int | None:
    try:
        return _player_number(edition, kind, players)
    except RuleGapError:
        return None


def _order_step(clause: Clause) -> int | None:
    if clause.silent:
        return None
    return 1 if clause.rule == "clockwise" else -1
