"""The compiled form of a spec: plain, immutable tables the engine reads without interpretation."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import RuleGapError


class ClauseStatus(enum.Enum):
    """How firmly a clause is grounded in its sources."""

    STATED = "stated"
    """The cited rulebook states the rule."""
    CHOICE = "choice"
    """The sources leave room; the spec records the choice it made and why."""
    SILENT = "silent"
    """(Readings) the rulebook says nothing: a game that needs this clause cannot go on."""
    CONTRADICTED = "contradicted"
    """(Readings) the rulebook says two incompatible things; one version is selected for play."""


SILENT = ClauseStatus.SILENT
"""As a plain name for `Clause.need`, which every rule the engine applies goes through (looking
a member up on an enum class is slow in Python 3.11)."""


STEP_KINDS = ("choose", "guess", "look", "compare", "protect", "discard_draw", "draw_return", "trade",
              "predict", "force_next_target", "offer_redraw")
"""Card rules that are executed in order when the card is played."""

MODIFIER_OF = {
    "no_target": ("choose",),
    "on_tie": ("compare",),
    "empty_deck": ("discard_draw", "draw_return", "offer_redraw"),
    "short_deck": ("draw_return",),
}
"""Card rules that configure the nearest preceding step of the given kinds."""

PROPERTY_KINDS = ("forced_with", "out_if_discarded", "bonus_token", "counter", "showdown_bonus",
                  "token_if_eliminated", "loses_at_showdown_to", "out_if_hand_total")
"""Card rules that hold while the card is in hand or in a discard pile, not when played."""

REQUIRED_MODIFIERS = {
    "compare": ("on_tie",),
    "discard_draw": ("empty_deck",),
    "draw_return": ("short_deck", "empty_deck"),
    "offer_redraw": ("empty_deck",),
}
"""Modifiers a complete edition must state for each step kind."""

GENERAL_KINDS = (
    "deck_size", "set_aside", "face_up", "deal", "first_player", "turn_draw", "turn_play",
    "turn_order", "no_valid_target", "elimination", "last_standing", "deck_empty", "showdown",
    "tie", "round_tokens", "tokens_to_win", "game_end", "next_first",
)
"""General rules every spec must state (or, in a reading, mark silent)."""

OPTIONAL_GENERAL_IDS = {"all_eliminated": "round.all-eliminated", "first_turn_draw": "turn.first-turn"}
"""General rules a spec may leave out, with their clause ids (a reading may declare an id silent).
`all_eliminated` is consulted only in situations complete editions cannot reach (the engine's gap
names its id when a spec lacks it); `first_turn_draw` is an exception to `turn_draw` that holds
only where a spec states it: {player count: cards the round's first player draws on the round's
first turn}."""

OPTIONAL_GENERAL_KINDS = tuple(OPTIONAL_GENERAL_IDS)

OPTIONAL_PARTS = {"next_first": ("several", "none")}
"""Rule parameters a reading may leave out when its rulebook does not say (the rules are then
silent on those cases)."""


def open_parts(kind: str | None, rule: Any) -> list[str]:
    """The optional parts (`OPTIONAL_PARTS`) a stated rule of this kind leaves out."""
    if not isinstance(rule, dict):
        return []
    return [part for part in OPTIONAL_PARTS.get(kind or "", ()) if part not in rule]


@dataclass(frozen=True)
class Source:
    """Where a clause comes from: a document, an optional line, a quote and its gloss."""

    doc: str
    quote: str
    line: int | None = None
    gloss: str | None = None
    paraphrase: bool = False
    file: str | None = None

    def cite(self) -> str:
        """One-line citation: file:line «quote» (gloss)."""
        where = self.file or self.doc
        if self.line:
            where += f":{self.line}"
        text = f"{where} «{self.quote}»"
        if self.paraphrase:
            text += " (paraphrase)"
        if self.gloss:
            text += f" ({self.gloss})"
        return text


@dataclass(frozen=True, eq=False)
class Clause:
    """One rule with a stable id, its parameters and its sources."""

    id: str
    key: str
    kind: str
    rule: Any
    sources: tuple[Source, ...]
    status: ClauseStatus
    where: tuple[str, int, int]
    card: str | None = None
    note: str | None = None
    choice: str | None = None
    silence: str | None = None
    novel: bool = False
    versions: tuple[Clause, ...] = ()
    version: int | None = None

    @property
    def silent(self) -> bool:
        """True when the rule is unknown and using it is a rule gap."""
        return self.status is SILENT

    @property
    def open_parts(self) -> list[str]:
        """The optional parts a stated rule leaves out (the rules are silent on those cases)."""
        return [] if self.silent else open_parts(self.kind, self.rule)

    def need(self) -> Any:
        """The rule's parameters, or RuleGapError when the clause is silent."""
        if self.status is SILENT:
            raise RuleGapError(self.id, f"the rules are silent here: {self.silence}")
        return self.rule

    def quote(self) -> str:
        """Every source's citation, for reports; a file is named once for the sources after it."""
        if not self.sources:
            return "(no source)"
        cited, last = [], None
        for source in self.sources:
            where = source.file or source.doc
            cited.append(source.cite().removeprefix(where) if where == last else source.cite())
            last = where
        return ", ".join(cited)


@dataclass(frozen=True, eq=False)
class Step:
    """One executable card rule with the modifiers that configure it."""

    kind: str
    clause: Clause
    modifiers: Mapping[str, Clause] = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class Card:
    """A card type: its value, how many copies per player count, and its compiled program."""

    index: int
    name: str
    value: int
    clause: Clause
    counts: tuple[tuple[int, int, int], ...]
    steps: tuple[Step, ...] = ()
    forced_with: frozenset[int] = frozenset()
    forced: Clause | None = None
    discard_out: Clause | None = None
    bonus: Clause | None = None
    counter: Clause | None = None
    counters: frozenset[int] = frozenset()
    showdown_bonus: Clause | None = None
    eliminated_token: Clause | None = None
    loses_to: frozenset[int] = frozenset()
    loses_clause: Clause | None = None
    hand_limit: Clause | None = None
    """`out_if_hand_total`: the holder is out once their hand's values add up to the number."""
    local_name: str | None = None

    def count_for(self, players: int) -> int:
        """Copies of this card in the deck for a game of `players`."""
        for lo, hi, count in self.counts:
            if lo <= players <= hi:
                return count
        return 0


def table_lookup(table: Mapping[str, int], players: int) -> int | None:
    """Value of a player-count table ({"2": 3, "5-8": 4}) for `players`, or None."""
    for key, value in table.items():
        lo, _, hi = key.partition("-")
        if int(lo) <= players <= int(hi or lo):
            return value
    return None


@dataclass(frozen=True, eq=False)
class Edition:
    """A compiled spec (an edition, or a reading with its versions selected)."""

    kind: str
    id: str
    prefix: str
    title: str
    path: Path | None
    min_players: int
    max_players: int
    cards: tuple[Card, ...]
    clauses: Mapping[str, Clause]
    general: Mapping[str, Clause]
    describes: str | None = None
    sources: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        """Card names, indexed by card id."""
        return tuple(card.name for card in self.cards)

    def card(self, name: str) -> Card:
        """The card called `name` (KeyError if there is none)."""
        for card in self.cards:
            if card.name == name:
                return card
        raise KeyError(name)

    def rule(self, kind: str) -> Clause:
        """The general clause of a kind (KeyError if the spec has none)."""
        return self.general[kind]

    def clause_by_key(self, key: str) -> Clause | None:
        """A clause by its key (the id without the prefix)."""
        return self.clauses.get(f"{self.prefix}.{key}")

    def supports(self, players: int) -> bool:
        """True when the spec allows this player count."""
        return self.min_players <= players <= self.max_players

    def deck(self, players: int) -> list[int]:
        """The multiset of card ids for this player count, in card order."""
        return [card.index for card in self.cards for _ in range(card.count_for(players))]

    def player_table(self, kind: str, players: int, default: int | None = None) -> int:
        """A player-count table rule's value (or its plain number), RuleGapError when silent or
        not covered."""
        clause = self.general[kind]
        rule = clause.need()
        if isinstance(rule, int):
            return rule
        value = table_lookup(rule, players)
        if value is None:
            if default is not None:
                return default
            raise RuleGapError(clause.id, f"no value for {players} players")
        return value
