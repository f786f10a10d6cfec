"""The rule facts of a compiled spec at one player count, derived once for every consumer.

The engine (`engine.tables`), the properties (`llcheck.properties.rules`) and the z3 model
(`probes.layout` / `probes.unroll`) all read what a spec says through `facts_for`: which cards
are dealt, what each card asks of its player (whom to choose, what to guess), which card is
forced, which ones knock their holder out, pay bonuses, change the showdown, and the numbers
of the player-count rules. Nothing here names a card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..errors import RuleGapError
from .model import Clause, Edition, Step, table_lookup

PLAYER_NUMBERS = ("deck_size", "set_aside", "face_up", "tokens_to_win")
"""The player-count rules whose numbers `Facts.numbers` holds."""

MARKING_KINDS = ("predict", "force_next_target")
"""Step kinds that leave marks on players for the rest of the round."""


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
class Facts:
    """What one spec says for one player count, as tables indexed by card id."""

    edition: Edition
    players: int
    general: Mapping[str, Clause]
    """The edition's general clauses by rule kind."""
    seats: range
    """Every seat number, in order."""
    names: tuple[str, ...]
    values: tuple[int, ...]
    index: Mapping[str, int]
    programs: tuple[tuple[Step, ...], ...]
    decisions: tuple[Decision, ...]
    forcing: tuple[tuple[int, frozenset[int], Clause], ...]
    """(card, the cards that force it when held with it, the forcing rule)."""
    discard_out: tuple[Clause | None, ...]
    bonuses: tuple[tuple[int, Clause], ...]
    """(card, rule): the sole player still in with the card in their discards gains tokens."""
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
    shields: tuple[Clause, ...]
    """The stated protect rules, each once, in card order."""
    rank: tuple[int, ...]
    """Each card's place in the canonical order of a hand (by value, then name)."""
    numbers: Mapping[str, int | None]
    """`PLAYER_NUMBERS` for this player count; None where the spec gives no number (asking
    `number` then raises the rule gap)."""
    sorted_deck: tuple[str, ...]
    """The deck's card names in sorted order: an explicit deck holding the same is a whole deck."""
    first_turn: tuple[Clause, int | None] | None
    """The first-turn exception to `turn_draw` at this player count: its rule, and how many cards
    the round's first player draws on the round's first turn (None when the rule is silent);
    None when the spec has no such exception for this player count."""

    def number(self, kind: str) -> int:
        """A player-count rule's number for this game (RuleGapError when the spec is silent)."""
        value = self.numbers[kind]
        return _player_number(self.edition, kind, self.players) if value is None else value

    @property
    def near_target(self) -> tuple[int, ...] | None:
        """Every seat one token short of the game's target (None when the target is silent or 1)."""
        target = self.numbers["tokens_to_win"]
        return None if target is None or target < 2 else (target - 1,) * self.players


def guesses(edition: Edition, players: int, step: Step | None) -> tuple[str | int, ...]:
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
    return Decision(choose, guess, guesses(edition, players, guess), count,
                    rule.get("at_least", count), look_choice)


@lru_cache(maxsize=128)
def facts_for(edition: Edition, players: int) -> Facts:
    """The facts of `edition` for a game of `players` (cached)."""
    return Facts(edition=edition, players=players, general=edition.general, seats=range(players),
                 names=edition.names, **_card_facts(edition, players), **_round_facts(edition, players))


def _card_facts(edition: Edition, players: int) -> dict[str, Any]:
    """The per-card tables of `Facts`."""
    cards = edition.cards
    return dict(
        values=tuple(c.value for c in cards),
        index={c.name: c.index for c in cards},
        programs=tuple(c.steps for c in cards),
        decisions=tuple(_decision(edition, players, c.steps) for c in cards),
        forcing=tuple((c.index, c.forced_with, c.forced) for c in cards if c.forced is not None),
        discard_out=tuple(c.discard_out for c in cards),
        bonuses=tuple((c.index, c.bonus) for c in cards if c.bonus is not None),
        showdown_bonus=tuple(c.showdown_bonus.need() if c.showdown_bonus else 0 for c in cards),
        loses_to=tuple(c.loses_to for c in cards),
        countered=tuple(any(c.index in other.counters for other in cards) for c in cards),
        eliminated_token=tuple(c.eliminated_token for c in cards),
        hand_limits=tuple((c.index, c.hand_limit) for c in cards if c.hand_limit is not None),
    )


def _round_facts(edition: Edition, players: int) -> dict[str, Any]:
    """The facts of `Facts` about the deck, the turns and the whole round."""
    cards = edition.cards
    protects = (s.clause for c in cards for s in c.steps if s.kind == "protect" and not s.clause.silent)
    order = sorted(range(len(cards)), key=lambda c: (cards[c].value, cards[c].name))
    return dict(
        deck=tuple(edition.deck(players)),
        order_step=1 if players == 2 else _order_step(edition.general["turn_order"]),
        marks=any(s.kind in MARKING_KINDS for c in cards for s in c.steps),
        shields=tuple(dict.fromkeys(protects)),
        rank=tuple(order.index(c) for c in range(len(cards))),
        numbers={kind: _number(edition, kind, players) for kind in PLAYER_NUMBERS},
        sorted_deck=tuple(sorted(cards[c].name for c in edition.deck(players))),
        first_turn=_first_turn(edition.general.get("first_turn_draw"), players),
    )


def _first_turn(clause: Clause | None, players: int) -> tuple[Clause, int | None] | None:
    if clause is None or clause.silent:
        return None if clause is None else (clause, None)
    draws = table_lookup(clause.rule, players)
    return None if draws is None else (clause, draws)


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
