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
            "pending": self.pending_state() if self.pending is not None else None,
            "round_winners": self.round_winners,
            "game_winners": self.game_winners,
        }
        if self.tables.marks:
            state["marks"] = self.marks()
        return state

    def pending_state(self) -> dict[str, Any] | None:
        """The state's `pending`: the decision a card left open (a keep, another player's answer)."""
        if self.pending is None:
            return None
        if self.phase is Phase.RESPOND:
            return {"kind": "respond", "player": self.responder, "card": self.pending.clause.card}
        return {"kind": "keep", "player": self.current, "return": len(self.hands[self.current]) - 1,
                "to": self.pending.clause.rule["to"]}

    def marks(self) -> list[dict[str, Any]]:
        """Tokens and markers that cards leave on players for the rest of the round."""
        out = [{"kind": "prediction", "player": seat, "target": target, "card": clause.card}
               for seat, target, clause in self.predictions]
        if self.forced is not None:
            out.append({"kind": "forced_target", "target": self.forced[0], "card": self.forced[1].card})
        return out


class StateCache:
    """A game's canonical state (`State.state()`), made again only where the game changed since
    the previous call: what a caller that reads the state after every step needs (the fuzzer's
    reference side, the in-process reference adapter), at a fraction of a whole state's cost.

    Each call returns a new dictionary, equal to `state()`; the value of a key whose sources did
    not change is the same object as in the previous dictionary, and the next call starts from
    this one, so callers must change neither the dictionary nor its values (copy to change).
    Sources are compared by value with copies kept here, so a list changed in place is seen as
    well as one replaced. The usual changes of a turn are made from the previous lists (the top
    card drawn from the deck, one more card on a discard pile); anything else is named again. A
    new round (or the first call) takes the whole `state()`, and so does every call for a game
    whose class words its state otherwise (overrides `state`, `pending_state` or `marks`)."""

    __slots__ = ("game", "whole", "last", "round", "deck", "set_aside", "face_up", "hands", "discards",
                 "alive", "protected", "tokens", "pending", "marks")

    game: State
    whole: bool
    last: dict[str, Any] | None
    # the others are copies of the game's own fields, made by `_whole` and typed as the game types them

    def __init__(self, game: State):
        self.game = game
        kind = type(game)
        self.whole = any(getattr(kind, name) is not getattr(State, name)
                         for name in ("state", "pending_state", "marks"))
        """True when every call takes the whole `state()`."""
        self.last: dict[str, Any] | None = None
        """The dictionary returned last."""

    def _whole(self) -> dict[str, Any]:
        """The whole state, and the sources of every key kept."""
        game = self.game
        out = self.last = game.state()
        self.round = game.round
        self.deck = game.deck[:]
        self.hands = [hand[:] for hand in game.hands]
        self.discards = [pile[:] for pile in game.discards]
        self.set_aside, self.face_up = game.set_aside[:], game.face_up[:]
        self.alive, self.protected, self.tokens = game.alive[:], game.protected[:], game.tokens[:]
        self.pending = game.pending
        self.marks = (game.predictions[:], game.forced)
        return out

    def state(self) -> dict[str, Any]:
        """The canonical state now (see the class doc)."""
        game, last = self.game, self.last
        if last is None or self.whole or game.round != self.round:
            return self._whole()
        out = dict(last)
        phase = game.phase
        out["phase"] = phase._value_  # str(phase) would copy the string
        out["turn"] = game.current if phase in DECIDING else None
        out["starter"] = game.starter
        self._cards(out)
        self._seats(out)
        out["round_winners"] = game.round_winners
        out["game_winners"] = game.game_winners
        self.last = out
        return out

    def _cards(self, out: dict[str, Any]) -> None:
        """Name again in `out` the piles of cards that changed: deck, hands, discards, set-aside, face-up."""
        game = self.game
        names = game.tables.names
        deck = game.deck
        if deck != self.deck:
            seen = self.deck
            if len(deck) == len(seen) - 1 and deck == seen[:-1]:  # the top card drawn
                out["deck"] = out["deck"][1:]
            else:
                out["deck"] = [names[card] for card in reversed(deck)]
            self.deck = deck[:]
        if game.hands != self.hands:
            out["hands"] = self._hands(out["hands"])
        if game.discards != self.discards:
            out["discards"] = self._discards(out["discards"])
        if game.set_aside != self.set_aside:
            self.set_aside = game.set_aside[:]
            out["set_aside"] = [names[card] for card in game.set_aside]
        if game.face_up != self.face_up:
            self.face_up = game.face_up[:]
            out["face_up"] = [names[card] for card in game.face_up]

    def _seats(self, out: dict[str, Any]) -> None:
        """Set again in `out` what changed of the seats: who is out or protected, tokens, the
        pending step, marks."""
        game = self.game
        if game.alive != self.alive:
            self.alive = game.alive[:]
            out["eliminated"] = [not alive for alive in game.alive]
        if game.protected != self.protected:
            self.protected = game.protected[:]
            out["protected"] = [shield is not None for shield in game.protected]
        if game.tokens != self.tokens:
            self.tokens = game.tokens[:]
            out["tokens"] = list(game.tokens)
        if game.pending is not None or self.pending is not None:
            self.pending = game.pending
            out["pending"] = game.pending_state()
        if game.tables.marks and (game.predictions, game.forced) != self.marks:
            self.marks = (game.predictions[:], game.forced)
            out["marks"] = game.marks()

    def _hands(self, before: list[list[str]]) -> list[list[str]]:
        """The hands, named again where they changed."""
        named, seen = self.game.tables.hand_names, self.hands
        out = list(before)
        for seat, hand in enumerate(self.game.hands):
            if hand != seen[seat]:
                seen[seat] = hand[:]
                out[seat] = list(named[tuple(hand)])
        return out

    def _discards(self, before: list[list[str]]) -> list[list[str]]:
        """The discard piles, a card added where one was played and named again where else changed."""
        names, seen = self.game.tables.names, self.discards
        out = list(before)
        for seat, pile in enumerate(self.game.discards):
            had = seen[seat]
            if pile == had:
                continue
            if len(pile) == len(had) + 1 and pile[:-1] == had:
                out[seat] = [*out[seat], names[pile[-1]]]
            else:
                out[seat] = [names[card] for card in pile]
            seen[seat] = pile[:]
        return out
