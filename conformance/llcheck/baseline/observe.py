"""What an engine answers, step by step, written down as a baseline records it.

An `Observer` sends one input at a time (a `start`, a `next_round` or an `apply`) and returns
its record: `{"in": input, "out": answer}`, or `{"in": input, "error": message}` when the engine
failed. The answer holds whether the engine accepted, and then, as far as its capabilities go,
the events, the state, the legal actions (whenever a decision is due) and every seat's view;
states and views as changes from the previous record (`delta`). Keys the formats do not define
(a `debug` flag, a sequence number, an event's `clause`) are left out of all of them, as every
comparison of the harness leaves them out (`harness.compare.comparable`), so that they are
neither recorded nor compared. Recording and checking a baseline both go through an Observer,
so that they observe exactly the same things.

A view mostly repeats the state and the answer's events, less what the player may not see, so
it is stored as its change from what is `expected`: the player's previous view with every key it
shares with the state set to the state's new value (for the first view, the state itself). And
where the entries its log gained are the answer's events, one for one, each with some of its keys
left out, the change stores `{"hidden": [[KEY, ...], ...]}` (per event, the keys the player does
not see) in place of the entries (`seen_as_hidden`, `seen_from_hidden`).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from ..engines import EngineGone
from ..engines.base import Engine, EngineFailure, Reply
from ..engines.guard import AdapterFailure, adapters_own, raised
from ..harness.compare import comparable, comparable_events
from .delta import GROWN, WHOLE, Json, apply_change, change, same

LIVE_PHASES = ("play", "keep", "respond")
"""State phases in which a decision is due (and legal actions are recorded)."""

OBSERVED = ("events", "legal_actions", "views")
"""Capabilities whose answers a record holds when the engine claims them."""

START, NEXT_ROUND, APPLY = "start", "next_round", "apply"
"""The kinds of input: deal a new game's first round, deal the next round, apply an action."""


_ENCODE = json.JSONEncoder(ensure_ascii=False, default=repr).encode
_CANONICAL = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=repr).encode


def plain(value: Any) -> Any:
    """`value` as JSON reads it back (tuples become lists; anything else becomes its repr)."""
    return json.loads(_ENCODE(value))


def canonical(value: Any) -> str:
    """The one text of a JSON value: keys sorted, no spaces."""
    return _CANONICAL(value)


def sorted_actions(actions: Any) -> Any:
    """Legal actions as they are compared (`comparable`), in a stable order (they are a set)."""
    if not isinstance(actions, list):
        return actions
    return sorted((comparable("action", action) for action in actions), key=canonical)


def one_line(text: str) -> str:
    """`text` with every run of whitespace made one space."""
    return " ".join(text.split())


def is_deal(inputs: Json) -> bool:
    """True for a `start` or `next_round` input."""
    return START in inputs or NEXT_ROUND in inputs


def live(state: Any) -> bool:
    """True when the state says a decision is due."""
    return isinstance(state, dict) and state.get("phase") in LIVE_PHASES


class Observer:
    """Drives one engine through one case or game; remembers the last full state and views."""

    def __init__(self, engine: Engine, capabilities: Collection[str]):
        self.engine = engine
        self.capabilities = frozenset(capabilities) & frozenset(OBSERVED)
        self.players = 0
        self.state: Any = None
        self.views: dict[str, Any] = {}
        self.legal: Any = None
        self.broken = False

    def send(self, inputs: Json) -> Json:
        """Send one input; its record (`in` with `out`, or with `error`). Never raises for the engine."""
        try:
            return {"in": inputs, "out": self._answer(inputs)}
        except EngineFailure as exc:
            self.broken = isinstance(exc, (EngineGone, AdapterFailure))
            return {"in": inputs, "error": one_line(str(exc)) or type(exc).__name__}
        except BaseException as exc:  # an in-process adapter's own bug (sys.exit() too) is the engine failing
            if not adapters_own(exc):
                raise
            self.broken = True
            return {"in": inputs, "error": one_line(raised(exc))}

    def _answer(self, inputs: Json) -> Json:
        reply = self._request(inputs)
        self.legal = None
        if not reply.accepted:
            out: Json = {"accepted": False}
            if START not in inputs:
                out["state"] = self._state(None)
            return out
        out = {"accepted": True}
        if "events" in self.capabilities:
            out["events"] = comparable_events(plain(reply.events))
        out["state"] = self._state(reply)
        if "legal_actions" in self.capabilities and live(self.state):
            self.legal = out["legal_actions"] = sorted_actions(plain(self.engine.legal_actions()))
        if "views" in self.capabilities:
            events = out.get("events")
            out["views"] = {str(seat): self._view(seat, events) for seat in range(self.players)}
        return out

    def _request(self, inputs: Json) -> Reply:
        if START in inputs:
            deal = inputs[START]
            self.players = deal["players"]
            self.state, self.views = None, {}
            return self.engine.start(deal["edition"], deal["players"], deal["deck"], deal["first_player"],
                                     deal["tokens"])
        if NEXT_ROUND in inputs:
            return self.engine.next_round(inputs[NEXT_ROUND]["deck"])
        return self.engine.apply(inputs[APPLY])

    def _state(self, reply: Reply | None) -> Json:
        """The change of state (asking the engine when the reply carries none)."""
        state = comparable("state", plain(reply.state if reply is not None and reply.state is not None
                                          else self.engine.state()))
        delta = change(self.state, state)
        self.state = state
        return delta

    def _view(self, seat: int, events: list[Any] | None) -> Json:
        seen = comparable("view", plain(self.engine.view(seat)))
        key = str(seat)
        previous, self.views[key] = self.views.get(key), seen
        if not isinstance(seen, dict) or not isinstance(seen.get("log", []), list):
            return {WHOLE: seen}
        return seen_as_hidden(change(expected(previous, self.state), seen), events)


def expected(previous: Any, state: Any) -> Json:
    """What a view is stored against: the previous view (else the state) with the state's values."""
    base = dict(previous) if isinstance(previous, dict) else dict(state) if isinstance(state, dict) else {}
    if isinstance(state, dict):
        base.update((key, state[key]) for key in list(base) if key in state)
    return base


def seen_as_hidden(delta: Json, events: list[Any] | None) -> Json:
    """A view's change with its log entries written as the events they show, where they are."""
    if events is None:
        return delta
    grown = delta.get(GROWN, {})
    for place in (delta, grown):
        hidden = _hidden(place.get("log"), events)
        if hidden is not None:
            place["log"] = {"hidden": hidden}
    return delta


def _hidden(entries: Any, events: list[Any]) -> list[list[str]] | None:
    """Per event, the keys the entries leave out; None unless each entry is its event less some keys."""
    if not isinstance(entries, list) or len(entries) != len(events) or not entries:
        return None
    out = []
    for entry, event in zip(entries, events, strict=True):
        if not (isinstance(entry, dict) and isinstance(event, dict) and entry.keys() <= event.keys()
                and all(same(entry[key], event[key]) for key in entry)):
            return None
        out.append(sorted(event.keys() - entry.keys()))
    return out


def seen_from_hidden(delta: Json, events: Any) -> Json:
    """The inverse of `seen_as_hidden`: log entries rebuilt from the events of the same record."""
    if WHOLE in delta:
        return delta
    out = dict(delta)
    grown = out[GROWN] = dict(delta.get(GROWN, {}))
    for place in (out, grown):
        log = place.get("log")
        if isinstance(log, dict) and isinstance(events, list):
            place["log"] = [{k: v for k, v in event.items() if k not in hidden}
                            for event, hidden in zip(events, log["hidden"], strict=False)]
    if not grown:
        del out[GROWN]
    return out


def view_after(old: Any, state: Any, delta: Json, events: Any) -> Any:
    """The whole view a record's change turns `old` into, given the record's state and events."""
    return apply_change(expected(old, state), seen_from_hidden(delta, events))
