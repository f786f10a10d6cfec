"""A spec compiled for one player count into the flat tables the engine indexes every move."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..spec import Clause, Edition, Step


@dataclass(frozen=True)
class Decision:
    """What playing one card asks of the player: a target (how), and a guess (which names)."""

    choose: Step | None
    guess: Step | None
    guesses: tuple[str | int, ...]


@dataclass(frozen=True, eq=False)
class Tables:
    """Per-(edition, player count) lookup tables; built once, shared by every game."""

    edition: Edition
    players: int
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
    """+1 when turns pass clockwise, -1 counterclockwise, None when the spec is silent."""

    def clause(self, key: str) -> Clause:
        """A general clause by its rule kind."""
        return self.edition.general[key]


def _guesses(edition: Edition, step: Step | None) -> tuple[str | int, ...]:
    if step is None or step.clause.silent:
        return ()
    rule = step.clause.rule
    excluded = set(rule.get("exclude", ()))
    if rule["by"] == "value":
        excluded_values = {edition.card(name).value for name in excluded}
        return tuple(sorted({c.value for c in edition.cards} - excluded_values))
    return tuple(c.name for c in edition.cards if c.name not in excluded)


def _decision(edition: Edition, steps: tuple[Step, ...]) -> Decision:
    choose = next((s for s in steps if s.kind == "choose"), None)
    guess = next((s for s in steps if s.kind == "guess"), None)
    return Decision(choose, guess, _guesses(edition, guess))


@lru_cache(maxsize=128)
def tables_for(edition: Edition, players: int) -> Tables:
    """The tables for a game of `players` under `edition` (cached)."""
    cards = edition.cards
    return Tables(
        edition=edition,
        players=players,
        names=tuple(c.name for c in cards),
        values=tuple(c.value for c in cards),
        index={c.name: c.index for c in cards},
        programs=tuple(c.steps for c in cards),
        decisions=tuple(_decision(edition, c.steps) for c in cards),
        forcing=tuple((c.index, c.forced_with, c.forced) for c in cards if c.forced is not None),
        discard_out=tuple(c.discard_out for c in cards),
        bonuses=tuple((c.index, c.bonus) for c in cards if c.bonus is not None),
        deck=tuple(edition.deck(players)),
        order_step=_order_step(edition.general["turn_order"]),
    )


def _order_step(clause: Clause) -> int | None:
    if clause.silent:
        return None
    return 1 if clause.rule == "clockwise" else -1
