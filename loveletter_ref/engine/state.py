"""The game's state, declared once, and what reads it whole: the canonical state and clones.

`FIELDS` lists every attribute of a game with how a clone copies it; the slots of `State`
and `State.clone` are both derived from it, so a field cannot be added and then forgotten by
the clone. Slots rather than an instance dictionary: reading the state is what the engine does
most, and CPython specializes slot reads and method lookups on such objects (an instance
dictionary of over 30 keys loses that). A subclass may add attributes of its own; a clone
copies those shallowly.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Self, TypeVar

from ..spec import Clause, Edition, Step
from .actions import DECIDING, Action, Event, Phase

if TYPE_CHECKING:
    from .tables import Tables

T = TypeVar("T")


def _same(value: T) -> T:
    """A value never changed in place (fixed for the game, or replaced when it changes)."""
    return value


def _nested(value: list[list[int]]) -> list[list[int]]:
    return [list(inner) for inner in value]


def _records(value: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [dict(record, actions=list(record["actions"])) for record in value]


def _fresh(value: random.Random | None) -> None:
    """The seeded generator is remade from (seed, shuffles) when a clone next shuffles."""
    return None


FIELDS: dict[str, Callable[[Any], Any]] = {
    "edition": _same, "tables": _same, "players": _same, "seed": _same, "first_player": _same,
    "initial_tokens": _same, "_rng": _fresh, "_shuffles": _same,
    "round": _same, "phase": _same, "starter": _same, "current": _same, "turns": _same,
    "pending": _same, "responder": _same, "forced": _same, "round_winners": _same,
    "game_winners": _same, "_legal": _same, "_mark": _same,
    "tokens": list, "deck": list, "set_aside": list, "face_up": list, "hands": _nested,
    "discards": _nested, "alive": list, "protected": list, "predictions": list, "log": list,
    "record": _records, "_actions": list,
}
"""Every attribute of a game, with how `State.clone` copies it."""


class State:
    """A game's state (`FIELDS`), its canonical JSON form and its clones."""

    __slots__ = tuple(FIELDS)

    edition: Edition
    tables: Tables
    players: int
    seed: int
    first_player: int
    initial_tokens: tuple[int, ...]
    _rng: random.Random | None
    """The generator of the seeded deals, made when the first one is shuffled."""
    _shuffles: int
    round: int
    phase: Phase
    starter: int
    current: int
    turns: int
    pending: Step | None
    responder: int | None
    forced: tuple[int, Clause] | None
    round_winners: list[int] | None
    game_winners: list[int] | None
    _legal: tuple[Action, ...] | None
    """The legal actions of the current decision, once listed (cleared by every change)."""
    _mark: int
    """How many events of `log` have been returned to the caller."""
    tokens: list[int]
    deck: list[int]
    """The draw pile; its last element is the top card."""
    set_aside: list[int]
    face_up: list[int]
    hands: list[list[int]]
    discards: list[list[int]]
    alive: list[bool]
    protected: list[Clause | None]
    predictions: list[tuple[int, int, Clause]]
    log: list[Event]
    record: list[dict[str, Any]]
    _actions: list[Action]
    """The current round's actions (the list in the last `record`)."""

    def clone(self) -> Self:
        """An independent copy of the game (for search: perft, probes, fuzzing)."""
        twin = object.__new__(type(self))
        if hasattr(self, "__dict__"):  # a subclass's own attributes
            twin.__dict__.update(self.__dict__)
        for name, copy in FIELDS.items():
            setattr(twin, name, copy(getattr(self, name)))
        record = twin.record
        twin._actions = record[-1]["actions"] if record else []
        return twin

    def hand_names(self, seat: int) -> list[str]:
        """A seat's hand as card names in canonical order (by value, then name)."""
        return list(self.tables.hand_names[tuple(self.hands[seat])])

    def state(self) -> dict[str, Any]:
        """The canonical, complete state (see docs/formats.md)."""
        names, hand_names = self.tables.names, self.tables.hand_names
        pending: dict[str, Any] | None = None
        if self.phase is Phase.RESPOND and self.pending is not None:
            pending = {"kind": "respond", "player": self.responder, "card": self.pending.clause.card}
        elif self.pending is not None:
            pending = {"kind": "keep", "player": self.current,
                       "return": len(self.hands[self.current]) - 1,
                       "to": self.pending.clause.rule["to"]}
        state = {
            "edition": self.edition.id,
            "players": self.players,
            "round": self.round,
            "phase": str(self.phase),
            "turn": self.current if self.phase in DECIDING else None,
            "starter": self.starter,
            "deck": [names[card] for card in reversed(self.deck)],
            "set_aside": [names[card] for card in self.set_aside],
            "face_up": [names[card] for card in self.face_up],
            "hands": [list(hand_names[tuple(hand)]) for hand in self.hands],
            "discards": [[names[card] for card in pile] for pile in self.discards],
            "eliminated": [not alive for alive in self.alive],
            "protected": [shield is not None for shield in self.protected],
            "tokens": list(self.tokens),
            "pending": pending,
            "round_winners": self.round_winners,
            "game_winners": self.game_winners,
        }
        if self.tables.marks:
            state["marks"] = self.marks()
        return state

    def marks(self) -> list[dict[str, Any]]:
        """Tokens and markers that cards leave on players for the rest of the round."""
        out = [{"kind": "prediction", "player": seat, "target": target, "card": clause.card}
               for seat, target, clause in self.predictions]
        if self.forced is not None:
            out.append({"kind": "forced_target", "target": self.forced[0], "card": self.forced[1].card})
        return out
