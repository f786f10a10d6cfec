"""The static shape of one round: where each card identity starts, how deep to unroll, bit widths.

A card *identity* is a position in the dealt deck (0 = top). Setup takes the top `set_aside`
positions, then the face-up ones, then one per seat in seat order; the rest is the draw pile.
Identities never change, so a card held in a hand or waiting in the pile is one of these
numbers and can be in one place only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from loveletter_ref.errors import RuleGapError
from loveletter_ref.spec import Clause, Edition
from loveletter_ref.spec.facts import Facts, facts_for

from .terms import width


class ProbeError(Exception):
    """The probes cannot answer for this spec (a rule kind without an encoder, a bad argument)."""


class Unsupported(Exception):
    """A rule kind or parameter the probes do not model. It is not an error: the round is encoded
    up to the point where the rule would act (a gap of the category ``unmodelled``), and every
    answer that would rest on what happens after it is ``unknown``."""


class SetupGap(Exception):
    """A setup clause the round needs is silent (or has no value for this player count): no round
    can even be dealt."""

    def __init__(self, clause: Clause):
        super().__init__(f"the rules are silent on {clause.id}")
        self.clause = clause


@dataclass(frozen=True, eq=False)
class Layout:
    """Sizes and positions for one edition and player count."""

    edition: Edition
    players: int
    facts: Facts
    set_aside: int
    face_up: int

    @classmethod
    def of(cls, edition: Edition, players: int) -> Layout:
        """The layout of a round; SetupGap when a setup clause is silent."""
        if not edition.supports(players):
            raise ProbeError(f"{edition.id} is for {edition.min_players}-{edition.max_players} players, "
                             f"not {players}")
        try:
            size = edition.player_table("deck_size", players)
            set_aside = edition.player_table("set_aside", players)
            face_up = edition.player_table("face_up", players, default=0)
            deal = edition.general["deal"].need()
        except RuleGapError as gap:
            raise SetupGap(edition.clauses[gap.clause]) from None
        facts = facts_for(edition, players)
        if size != len(facts.deck):  # the engine cannot deal: its cards do not fill the deck
            raise SetupGap(edition.general["deck_size"])
        if deal != 1:
            raise ProbeError(f"the probes deal one card per player, not {deal}")
        layout = cls(edition, players, facts, set_aside, face_up)
        if layout.pile < 1:
            raise ProbeError(f"{edition.id} with {players} players leaves no card to draw")
        return layout

    @cached_property
    def kinds(self) -> int:
        """Number of card types (indices into the spec's card table)."""
        return len(self.facts.names)

    @cached_property
    def size(self) -> int:
        """Cards in the deck for this player count."""
        return len(self.facts.deck)

    @property
    def base(self) -> int:
        """Identity of the first draw-pile card."""
        return self.set_aside + self.face_up + self.players

    @property
    def pile(self) -> int:
        """Cards in the draw pile after setup."""
        return self.size - self.base

    @cached_property
    def returns(self) -> int:
        """The most cards a round can put back under the pile (every draw-and-return card played)."""
        total = 0
        for card in self.edition.cards:
            for step in card.steps:
                if step.kind == "draw_return" and not step.clause.silent:
                    total += card.count_for(self.players) * step.clause.rule["draw"]
        return total

    @property
    def queue(self) -> int:
        """Slots the pile can ever use: the dealt pile, then every card put back under it."""
        return self.pile + self.returns

    @property
    def depth(self) -> int:
        """Turns to unroll: each turn draws a card that no step puts back beyond what it drew."""
        return self.pile

    @cached_property
    def max_draws(self) -> int:
        """The most pile cards one turn can take: the turn's draw plus its card's draws."""
        most = 0
        for card in self.edition.cards:
            drawn = 0
            for step in card.steps:
                if step.kind == "discard_draw":
                    drawn += 1
                elif step.kind == "draw_return" and not step.clause.silent:
                    drawn += step.clause.rule["draw"]
            most = max(most, drawn)
        return 1 + most

    @cached_property
    def counts(self) -> tuple[int, ...]:
        """Copies of each card type in the deck."""
        return tuple(self.facts.deck.count(c) for c in range(self.kinds))

    @property
    def values(self) -> tuple[int, ...]:
        """Each card type's value."""
        return self.facts.values

    @property
    def names(self) -> tuple[str, ...]:
        """Each card type's name."""
        return self.facts.names

    @cached_property
    def card_bits(self) -> int:
        """Width of a card type."""
        return width(self.kinds)

    @cached_property
    def index_bits(self) -> int:
        """Width of identities and pile positions (one width, so they compare without casts); wide
        enough for a position plus the first pile identity, so that `top + base` cannot wrap."""
        return width(self.base + self.queue + 2)

    @cached_property
    def seat_bits(self) -> int:
        """Width of a seat number."""
        return width(self.players)

    @cached_property
    def value_bits(self) -> int:
        """Width of a card value."""
        return width(max(self.values) + 1)

    @cached_property
    def total_bits(self) -> int:
        """Width of a discard pile's value total."""
        return width(sum(self.values[c] for c in self.facts.deck) + 1)

    def turn_window(self, turn: int) -> tuple[int, int]:
        """The pile positions a card drawn during `turn` can come from (first, last)."""
        last = min(self.queue - 1, (turn + 1) * self.max_draws - 1)
        return min(turn, last), last
