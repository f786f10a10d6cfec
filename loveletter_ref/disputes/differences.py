"""Line two specs up clause by clause (by key) and list the clauses on which they differ.

Card clauses are compared by value and by count for every player count both specs allow. A
card only one spec has is one difference, its rules included. A card's own no-target rule
(`no_target`) that the other spec lacks is compared with the other spec's general
no-valid-target rule, which is what that spec's card falls back on; an optional general rule
one spec lacks (`all_eliminated`) counts as silent there, since the engine treats both alike.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from loveletter_ref.spec import Card, Clause, Edition
from loveletter_ref.spec.model import OPTIONAL_GENERAL_KINDS, OPTIONAL_PARTS, open_parts

from .sides import PLAYERS

PER_PLAYERS = ("deck_size", "set_aside", "face_up", "tokens_to_win")
"""General rules given as a number or a player-count table."""

FALLBACK = {"no_target": "no_valid_target"}
"""Card rules that, when a card lacks them, fall back on a general rule of this kind."""


def open_cases(stance: Stance) -> list[str]:
    """The parts a stated next-round rule leaves out (`several`, `none`)."""
    return [] if stance.silent else open_parts(stance.kind, stance.rule)


def differing_cases(a: Stance, b: Stance) -> list[str]:
    """The parts in which two stated next-round rules differ, when they agree on the usual case
    (one winner); [] when they differ there too, or are not such rules."""
    rules = [s.rule for s in (a, b)]
    if a.kind not in OPTIONAL_PARTS or a.silent or b.silent or not all(isinstance(r, dict) for r in rules):
        return []
    parts = OPTIONAL_PARTS[a.kind]
    if any(rules[0].get(k) != rules[1].get(k) for k in set(rules[0]) | set(rules[1]) if k not in parts):
        return []
    return [part for part in parts if rules[0].get(part) != rules[1].get(part)]


def shared_steps(a: Stance, b: Stance) -> list[str] | None:
    """For two stated tie chains that part after a first step they share: the steps both take
    before they part (a chain cut there runs out exactly where the two decide differently)."""
    rules = [s.rule for s in (a, b)]
    if a.kind != "tie" or a.silent or b.silent or not all(isinstance(r, list) for r in rules):
        return None
    shared = []
    for x, y in zip(*rules, strict=False):
        if x != y:
            break
        shared.append(x)
    return shared or None


def shield_blocks(a: Stance, b: Stance) -> bool:
    """True for two stated protection rules that differ only in whether the shield also stops its
    holder from choosing others (which binds only if the shield outlasts the start of its
    holder's own turn)."""
    rules = [s.rule for s in (a, b)]
    if a.kind != "protect" or a.silent or b.silent or not all(isinstance(r, dict) for r in rules):
        return False
    if rules[0].get("until") != rules[1].get("until"):
        return False
    blocks = [set(r.get("blocks", ())) for r in rules]
    return blocks[0] ^ blocks[1] == {"choosing_others"}


@dataclass(frozen=True)
class Stance:
    """What one spec says on one clause."""

    key: str
    status: str
    """`stated`, `silent`, `absent` (the spec has no such clause or card) or `fallback` (the
    card lacks the rule and uses the general one, `clause`)."""
    kind: str | None = None
    rule: Any = None
    clause: Clause | None = None
    card: Card | None = None

    @property
    def silent(self) -> bool:
        """True when the spec leaves this clause open."""
        return self.status == "silent" or (self.clause is not None and self.clause.silent)

    def text(self) -> str:
        """The rule in one line, as the spec states it."""
        if self.status == "absent":
            return "(no such clause)"
        if self.silent:
            return "silent"
        body = json.dumps(self.rule, ensure_ascii=False, sort_keys=True)
        left_out = open_parts(self.kind, self.rule)
        if left_out:
            body = body[:-1] + ", " + ", ".join(f'"{k}": silent' for k in left_out) + "}"
        if self.status == "fallback":
            return f"{self.kind}: {body} (by the general rule)"
        return f"{self.kind}: {body}"


@dataclass(frozen=True)
class Difference:
    """A clause on which two specs differ."""

    key: str
    a: Stance
    b: Stance

    @property
    def kind(self) -> str:
        """The rule kind in question (`card` for a card's value and count)."""
        return self.a.kind or self.b.kind or "unknown"

    @property
    def card_name(self) -> str | None:
        """The card the clause belongs to, if any."""
        for stance in (self.a, self.b):
            if stance.card is not None:
                return stance.card.name
            if stance.clause is not None and stance.clause.card is not None:
                return stance.clause.card
        return None


def player_counts(a: Edition, b: Edition) -> list[int]:
    """Player counts both specs allow."""
    return list(range(max(a.min_players, b.min_players), min(a.max_players, b.max_players) + 1))


def line_up(a: Edition, b: Edition) -> tuple[list[Difference], list[Difference]]:
    """The clauses on which `a` and `b` differ, and those worded differently to the same effect
    (a guess by value where every value belongs to one card, and a guess by card)."""
    counts = player_counts(a, b) or list(range(min(a.min_players, b.min_players),
                                               max(a.max_players, b.max_players) + 1))
    out: list[Difference] = []
    alike: list[Difference] = []
    if (a.min_players, a.max_players) != (b.min_players, b.max_players):
        out.append(Difference(PLAYERS, _players(a), _players(b)))
    only = {card.name for card in a.cards} ^ {card.name for card in b.cards}
    keys = list(dict.fromkeys([c.key for c in a.clauses.values()] + [c.key for c in b.clauses.values()]))
    for key in keys:
        sa, sb = _stance(a, key, counts), _stance(b, key, counts)
        owner = (sa.clause or sb.clause)
        if owner is not None and owner.kind != "card" and owner.card in only:
            continue
        sa, sb = _fallback(a, sa, sb), _fallback(b, sb, sa)
        if _same(sa, sb, counts):
            continue
        by_card = _same(_by_card(a, sa, counts), _by_card(b, sb, counts), counts)
        if by_card or _same_draw(a, b, sa, sb, counts):
            alike.append(Difference(key, sa, sb))
        else:
            out.append(Difference(key, sa, sb))
    return out, alike


def alike_reason(d: Difference) -> str:
    """Why two rules worded differently decide the same."""
    if d.kind == "first_turn_draw":
        return ("the round's first turn draws as many cards under both, by the exception or by the rule of "
                "every turn")
    return "a guess by value and a guess by card: every value belongs to one card"


def _same_draw(a: Edition, b: Edition, sa: Stance, sb: Stance, counts: list[int]) -> bool:
    """True when two specs draw as many cards on a round's first turn for every player count both
    allow, one by its `first_turn_draw` exception and the other by its rule of every turn (an
    exception the other spec does not state is no rule left open: its turn rule applies)."""
    if sa.kind != "first_turn_draw" and sb.kind != "first_turn_draw":
        return False
    draws = [_first_draw(e, s, counts) for e, s in ((a, sa), (b, sb))]
    return None not in draws and draws[0] == draws[1]


def _first_draw(edition: Edition, stance: Stance, counts: list[int]) -> list[int] | None:
    """Cards drawn on a round's first turn, per player count (None when a rule it needs is silent)."""
    every = edition.general.get("turn_draw")
    if every is None or every.silent or not isinstance(every.rule, int):
        return None
    if stance.silent:
        return None
    table = stance.rule if stance.status == "stated" else None
    out = []
    for n in counts:
        value = None if table is None else (table if isinstance(table, int) else _lookup(table, n, None))
        out.append(every.rule if value is None else value)
    return out


def _by_card(edition: Edition, stance: Stance, counts: list[int]) -> Stance:
    """A guess by value as the equivalent guess by card, when every value names one card of the
    deck for each of these player counts (in Premium a value may name one card at some counts only)."""
    rule = stance.rule
    if stance.kind != "guess" or not isinstance(rule, dict) or rule.get("by") != "value":
        return stance
    for n in counts:
        values = [card.value for card in edition.cards if card.count_for(n)]
        if len(values) != len(set(values)):
            return stance
    plain = {**rule, "by": "card", "exclude": sorted(rule.get("exclude", []))}
    return Stance(stance.key, stance.status, stance.kind, plain, stance.clause, stance.card)


def _players(edition: Edition) -> Stance:
    rule = {"min": edition.min_players, "max": edition.max_players}
    return Stance(PLAYERS, "stated", "players", rule)


def clause_stance(edition: Edition, key: str) -> Stance:
    """What a spec says on one clause (card counts for all its player counts)."""
    return _stance(edition, key, list(range(edition.min_players, edition.max_players + 1)))


def _stance(edition: Edition, key: str, counts: list[int]) -> Stance:
    clause = edition.clause_by_key(key)
    if clause is None:
        return Stance(key, "absent")
    if clause.kind == "card":
        card = edition.card(clause.card or "")
        rule = {"value": card.value, "count": {str(n): card.count_for(n) for n in counts}}
        return Stance(key, "stated", "card", rule, clause, card)
    if clause.silent:
        return Stance(key, "silent", clause.kind, None, clause)
    return Stance(key, "stated", clause.kind, clause.rule, clause)


def _comparable(stance: Stance, counts: list[int]) -> Any:
    """A rule as compared: player-count tables (and plain numbers standing for one) spelled out
    for the player counts both specs allow."""
    rule = _comparable_rule(stance)
    if stance.kind in PER_PLAYERS and isinstance(rule, (int, dict)):
        default = 0 if stance.kind == "face_up" else None
        return {n: rule if isinstance(rule, int) else _lookup(rule, n, default) for n in counts}
    return rule


def _lookup(table: dict[str, int], players: int, default: int | None) -> int | None:
    for key, value in table.items():
        lo, _, hi = key.partition("-")
        if int(lo) <= players <= int(hi or lo):
            return value
    return default


def _fallback(edition: Edition, mine: Stance, theirs: Stance) -> Stance:
    """Fill in what a spec does when it lacks a clause the other spec has."""
    if mine.status != "absent" or theirs.kind is None:
        return mine
    if theirs.kind in FALLBACK and theirs.clause is not None and theirs.clause.card is not None:
        general = edition.general.get(FALLBACK[theirs.kind])
        if general is not None and any(c.name == theirs.clause.card for c in edition.cards):
            status = "silent" if general.silent else "fallback"
            return Stance(mine.key, status, theirs.kind, general.rule, general)
    if theirs.kind in OPTIONAL_GENERAL_KINDS:
        return Stance(mine.key, "absent", theirs.kind)
    return mine


def _same(a: Stance, b: Stance, counts: list[int]) -> bool:
    if a.silent or b.silent or a.status == "absent" or b.status == "absent":
        open_a = a.silent or (a.status == "absent" and a.kind in OPTIONAL_GENERAL_KINDS)
        open_b = b.silent or (b.status == "absent" and b.kind in OPTIONAL_GENERAL_KINDS)
        return (open_a and open_b) or (a.status == b.status == "absent")
    return a.kind == b.kind and _comparable(a, counts) == _comparable(b, counts)


def _comparable_rule(stance: Stance) -> Any:
    rule = stance.rule
    if stance.kind == "guess" and isinstance(rule, dict):
        return {**rule, "exclude": sorted(rule.get("exclude", []))}
    return rule
