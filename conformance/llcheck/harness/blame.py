"""Which rule clauses a difference between an engine and the reference points at.

A difference is located (the first differing event, state key or view key) and mapped to the
rule kinds that decide it, then to the clauses of those kinds in the edition; the clauses the
reference cited in its own events, and the rules of the card being played, come next. Nothing
here names a card: kinds come from the spec vocabulary.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from loveletter_ref.lockstep import first_index
from loveletter_ref.spec import Edition

from .compare import without_clauses

EVENT_RULES: dict[str, tuple[str, ...]] = {
    "round_start": ("set_aside", "face_up", "deal"),
    "deal": ("deal",),
    "turn": ("turn_order", "elimination", "last_standing", "deck_empty"),
    "unprotect": ("protect",),
    "protect": ("protect",),
    "draw": ("turn_draw", "empty_deck", "draw_return", "short_deck"),
    "play": ("turn_play", "forced_with"),
    "no_effect": ("no_valid_target", "no_target", "empty_deck", "short_deck"),
    "guess": ("guess",),
    "look": ("look",),
    "compare": ("compare", "on_tie"),
    "discard": ("discard_draw", "out_if_discarded", "elimination"),
    "trade": ("trade",),
    "return": ("draw_return", "short_deck"),
    "eliminate": ("elimination", "out_if_discarded"),
    "round_end": ("last_standing", "deck_empty", "showdown", "tie", "all_eliminated"),
    "token": ("round_tokens", "bonus_token"),
    "game_end": ("tokens_to_win", "game_end"),
}
"""Event type -> the rule kinds that decide whether and how it happens."""

STATE_RULES: dict[str, tuple[str, ...]] = {
    "phase": ("last_standing", "deck_empty", "draw_return", "tokens_to_win", "game_end"),
    "turn": ("turn_order", "elimination", "last_standing", "deck_empty"),
    "starter": ("next_first",),
    "deck": ("turn_draw", "draw_return", "discard_draw"),
    "set_aside": ("set_aside", "empty_deck"),
    "face_up": ("face_up",),
    "hands": ("deal", "trade", "discard_draw", "draw_return"),
    "discards": ("discard_draw", "out_if_discarded", "elimination"),
    "eliminated": ("elimination", "out_if_discarded", "guess", "compare", "on_tie"),
    "protected": ("protect",),
    "tokens": ("round_tokens", "bonus_token"),
    "pending": ("draw_return",),
    "round_winners": ("showdown", "tie", "last_standing", "deck_empty"),
    "game_winners": ("tokens_to_win", "game_end"),
    "hand": ("deal", "trade", "discard_draw", "draw_return"),
    "set_aside_size": ("set_aside", "empty_deck"),
    "deck_size": ("turn_draw", "draw_return"),
}
"""State (and view) key -> the rule kinds that decide its value."""

FIELD_RULES: dict[tuple[str, str], tuple[str, ...]] = {
    ("round_start", "set_aside"): ("set_aside",),
    ("round_start", "face_up"): ("face_up",),
    ("round_start", "first"): ("first_player", "next_first"),
    ("compare", "loser"): ("compare", "on_tie"),
    ("return", "to"): ("draw_return",),
    ("token", "amount"): ("round_tokens", "bonus_token"),
}
"""(event type, field) -> the rule kinds that decide that field, where the type alone says too little."""

LATER_ROUND_RULES: dict[tuple[str, str], tuple[str, ...]] = {("round_start", "first"): ("next_first",)}
"""The same, for an event of a round after the first: who starts it follows from the round before."""

REASON_RULES: dict[tuple[str, str], tuple[str, ...]] = {
    ("token", "round"): ("round_tokens",),
    ("token", "bonus"): ("bonus_token",),
}
"""(event type, reason) -> the rule kinds behind an event of that type given for that reason."""

SOURCE_RULES: dict[tuple[str, str], tuple[str, ...]] = {
    ("draw", "deck"): ("turn_draw", "draw_return", "short_deck"),
    ("draw", "set_aside"): ("empty_deck",),
}
"""(event type, where the card came `from`) -> the rule kinds behind a draw from there."""

TO_THE_OUT: dict[str, tuple[str, ...]] = {"turn": ("elimination",)}
"""Event type -> the rule kinds it breaks when it names a player who is out of the round."""

AT_START: dict[str, tuple[str, ...]] = {"turn": ("first_player", "next_first"),
                                        "starter": ("first_player", "next_first")}
"""Right after a deal, who is on turn is decided by the starting rules instead."""

CARD_EFFECTS = frozenset({"play", "no_effect", "guess", "look", "compare", "protect", "discard",
                          "trade", "return", "eliminate", "draw"})
"""Event types through which a played card acts: the card's own clauses are suspects too."""


def kinds_clauses(edition: Edition, kinds: Iterable[str]) -> list[str]:
    """The ids of the edition's clauses of these kinds, general rules first, each in the order of
    the kinds."""
    rank = {kind: n for n, kind in reversed(list(enumerate(kinds)))}
    wanted = set(rank)
    general = sorted((c.id for c in edition.general.values() if c.kind in wanted),
                     key=lambda cid: rank[edition.clauses[cid].kind])
    cards = [c.id for c in edition.clauses.values() if c.card is not None and c.kind in wanted]
    return general + [c for c in cards if c not in general]


def named_clause(edition: Edition, clause: str | None) -> list[str]:
    """The edition's clause an engine's refusal names (`clause`), matched by its key: a reading's
    `it-2019.tokens.target` names `z19.tokens.target`; none when the edition has no such clause."""
    if not isinstance(clause, str) or "." not in clause:
        return []
    own = f"{edition.prefix}.{clause.split('.', 1)[1]}"
    return [own] if own in edition.clauses else []


def card_clauses(edition: Edition, card: str | None) -> list[str]:
    """The ids of every rule of a card (by name), its value-and-count clause last."""
    if card is None:
        return []
    return [c.id for c in edition.clauses.values() if c.card == card and c.kind != "card"]


def event_suspects(edition: Edition, want: list[dict[str, Any]], got: list[dict[str, Any]],
                   card: str | None, at_start: bool = False, gone: Collection[int] = ()) -> list[str]:
    """Clauses behind the first differing event, the reference's cited clauses, the card's rules;
    the card's rules first when one of the two events is an effect of a card (the most specific
    suspects, where the general rules of elimination or turns only follow from them), those of
    the kinds behind the event first.

    When one side has an event the other has only later (one event missing, or one too many),
    that event alone is the difference: its kinds come first; when the engine sent one event for
    another, the kinds behind both come first. `gone` are the seats out of the round (as the
    reference has it): an event that hands a turn to one of them is the elimination rule's.
    `want` may carry the reference's `clause` fields; they are ignored when locating the difference.
    """
    bare_want, bare_got = without_clauses(want), without_clauses(got)
    i = first_index(bare_want, bare_got)
    pair = [e for e in (want[i:i + 1] + got[i:i + 1]) if isinstance(e, dict)]
    odd = _odd_one(bare_want, bare_got, i)
    if odd is not None:
        pair = [odd]
    types = [e.get("type") for e in pair]
    kinds = _field_kinds(want[i:i + 1], got[i:i + 1]) or _pair_kinds(pair, at_start)
    if any(e.get("player") in gone for e in pair if e.get("type") in TO_THE_OUT):
        kinds = unique([*TO_THE_OUT[str(pair[0].get("type"))], *kinds])
    own = card_clauses(edition, card) if any(t in CARD_EFFECTS for t in types) else []
    rank = {kind: n for n, kind in reversed(list(enumerate(kinds)))}
    out = sorted(own, key=lambda c: rank.get(edition.clauses[c].kind, len(kinds)))
    out += kinds_clauses(edition, kinds)
    out += [e["clause"] for e in want[i:] if isinstance(e, dict) and isinstance(e.get("clause"), str)]
    return unique(out)


def _pair_kinds(pair: list[dict[str, Any]], at_start: bool) -> list[str]:
    """The kinds behind the events, those behind both first (when the engine sent one event for
    another, the rules that decide between the two)."""
    each = [_event_kinds(e, at_start) for e in pair]
    both = [k for k in each[0] if all(k in other for other in each[1:])] if len(each) > 1 else []
    return unique([*both, *(k for kinds in each for k in kinds)])


def _odd_one(want: list[Any], got: list[Any], i: int) -> dict[str, Any] | None:
    """The one event that sets the two lists apart at `i`, when the rest lines up after it: the
    expected event the engine left out, or the event it sent that the reference did not."""
    if i + 1 < len(want) and i < len(got) and want[i + 1] == got[i] and isinstance(want[i], dict):
        return want[i]
    if i + 1 < len(got) and i < len(want) and got[i + 1] == want[i] and isinstance(got[i], dict):
        return got[i]
    if i < len(want) and i >= len(got) and isinstance(want[i], dict):
        return want[i]
    if i < len(got) and i >= len(want) and isinstance(got[i], dict):
        return got[i]
    return None


def _field_kinds(want: list[Any], got: list[Any]) -> list[str]:
    """For two events of the same type that differ only in fields `FIELD_RULES` knows, the
    rule kinds of those fields (else nothing)."""
    if not (want and got and isinstance(want[0], dict) and isinstance(got[0], dict)):
        return []
    a, b = without_clauses([want[0], got[0]])
    if a.get("type") != b.get("type"):
        return []
    later = a.get("round", 1) != 1
    fields = [LATER_ROUND_RULES.get((str(a.get("type")), k)) if later and (str(a.get("type")), k) in
              LATER_ROUND_RULES else FIELD_RULES.get((str(a.get("type")), k))
              for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    if not fields or any(f is None for f in fields):
        return []
    return [kind for f in fields if f is not None for kind in f]


def _event_kinds(event: dict[str, Any], at_start: bool) -> tuple[str, ...]:
    event_type = str(event.get("type"))
    if at_start and event_type in ("turn", "round_start"):
        return EVENT_RULES[event_type] + ("first_player", "next_first")
    found = REASON_RULES.get((event_type, str(event.get("reason")))) or SOURCE_RULES.get(
        (event_type, str(event.get("from"))))
    return found or EVENT_RULES.get(event_type, ())


def state_suspects(edition: Edition, want: dict[str, Any], got: dict[str, Any], card: str | None,
                   at_start: bool = False) -> list[str]:
    """Clauses behind the differing keys of two states (or views), then the card's rules."""
    keys = [k for k in want if want.get(k) != got.get(k)] + [k for k in got if k not in want]
    out: list[str] = []
    for key in keys:
        if key == "log":
            out += event_suspects(edition, want.get("log") or [], got.get("log") or [], card, at_start)
            continue
        rules = AT_START.get(key, ()) if at_start and key in AT_START else STATE_RULES.get(key, ())
        out += kinds_clauses(edition, rules)
    return unique(out + card_clauses(edition, card))


def unique(items: Iterable[str]) -> list[str]:
    """The items in first-seen order, without repeats."""
    return list(dict.fromkeys(items))
