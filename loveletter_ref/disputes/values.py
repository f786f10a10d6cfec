"""Card values that differ: when the difference can never show, proved from the rules.

z3 is not asked about a card's value (it is not a rule the engine consults, but a number every
comparison reads). Two specs that deal the same cards and value them differently play alike
wherever the values are only compared: the showdown, a card comparing hands, a tie broken by the highest
card played, a guess by value (a value names one card of the deck either way, and the
decisions are compared card by card). Values are added, and so read for what they are, in
only three places: a tie at the showdown broken by the total of each tied player's discards, a
card whose copies in a discard pile add to the showdown value, and a card that knocks out a
player whose hand adds up to a limit. So, when

1. the two value the cards each deals in the same order (no two cards swap places, no two
   become equal or stop being equal), for every player count compared, and
2. the spec has none of the three, or breaks ties by discard totals but every card whose value
   differs knocks out whoever discards it (`out_if_discarded: any_reason`), so that it is never
   in the pile of a player still in,

no game of that spec can show the difference. `proof` returns the reasoning as proof records,
with the values they rest on, which `check` verifies again from the records alone.
"""

from __future__ import annotations

from typing import Any

from loveletter_ref.spec import Edition

METHOD = "rules"
"""How a proof record made here says it was proved (z3's records say nothing of it)."""


def moved(a: Edition, b: Edition, counts: list[int]) -> dict[str, tuple[int, int]] | None:
    """The cards valued differently ({name: (value under a, value under b)}), when both deal the
    same cards as often for every player count in `counts`; None when the decks differ."""
    for n in counts:
        if sorted((c.name, c.count_for(n)) for c in a.cards if c.count_for(n)) != \
                sorted((c.name, c.count_for(n)) for c in b.cards if c.count_for(n)):
            return None
    theirs = {c.name: c.value for c in b.cards}
    return {c.name: (c.value, theirs[c.name]) for c in a.cards
            if c.name in theirs and any(c.count_for(n) for n in counts) and c.value != theirs[c.name]}


def _values(a: Edition, b: Edition, counts: list[int]) -> dict[str, list[int]]:
    """Every card either deals, with its value under each."""
    theirs = {c.name: c.value for c in b.cards}
    return {c.name: [c.value, theirs[c.name]] for c in a.cards
            if c.name in theirs and any(c.count_for(n) for n in counts)}


def same_order(values: dict[str, list[int]]) -> bool:
    """True when the two valuations order every two cards alike (ties included)."""
    items = list(values.values())
    return all((x[0] > y[0]) - (x[0] < y[0]) == (x[1] > y[1]) - (x[1] < y[1]) for x in items for y in items)


def additions(spec: Edition, shifted: set[str], counts: list[int]) -> list[str]:
    """The rules of `spec` that add up the values of cards in `shifted` (empty when none does)."""
    dealt = [c for c in spec.cards if any(c.count_for(n) for n in counts)]
    out = [f"{c.name}'s showdown bonus" for c in dealt if c.showdown_bonus is not None]
    out += [f"{c.name}'s hand-total limit" for c in dealt if c.hand_limit is not None]
    tie = spec.general.get("tie")
    if tie is not None and (tie.silent or "discard_total" in tie.rule):
        kept = [c.name for c in dealt if c.name in shifted and not _knocks_out(c)]
        if tie.silent:
            out.append(f"{tie.key} (silent)")
        elif kept:
            piled = ", ".join(sorted(kept))
            out.append(f"{tie.key}'s discard totals (with {piled} in a pile of a player still in)")
    return out


def _knocks_out(card: Any) -> bool:
    clause = card.discard_out
    return clause is not None and not clause.silent and clause.rule == "any_reason"


def proof(spec: Edition, label: str, other: Edition, counts: list[int],
          other_label: str = "") -> tuple[str, list[dict[str, Any]]] | None:
    """Why no game of `spec` (labelled `label`) shows its cards valued as `other` (labelled
    `other_label`) values them, and the proof records (one per player count); None when the
    rules do not settle it."""
    shifted = moved(spec, other, counts)
    if not shifted:
        return None
    values = _values(spec, other, counts)
    if not same_order(values) or additions(spec, set(shifted), counts):
        return None
    tie = spec.general.get("tie")
    totals = tie is not None and not tie.silent and "discard_total" in tie.rule
    why = ("the two valuations order the cards alike, so every comparison decides alike, and "
           + (f"{label} adds values only in its tie rule's discard totals, where "
              f"{_names(sorted(shifted))} never {'counts' if len(shifted) == 1 else 'count'} (discarding "
              f"{'it' if len(shifted) == 1 else 'one'} knocks its player out)"
              if totals else f"no rule of {label} adds values up"))
    changes = ", ".join(f"{k} {v[0]}->{v[1]}" for k, v in sorted(shifted.items()))
    query = f"cards valued as {other_label or other.id} values them: {changes}"
    adds = "knocked out" if totals else "none"
    records = [{"query": query, "spec": label, "players": n, "status": "unreachable", "method": METHOD,
                "values": dict(sorted(values.items())), "adds": adds} for n in counts]
    return why, records


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def check(record: dict[str, Any]) -> str | None:
    """What is wrong with a proof record made here (None when its values bear it out)."""
    values = record.get("values")
    if not isinstance(values, dict) or not values:
        return "a proof by the rules without the values it rests on"
    if not same_order({k: list(v) for k, v in values.items()}):
        return "a proof by the rules whose two valuations order the cards differently"
    return None
