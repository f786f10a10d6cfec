"""In-process adapters that bend one thing about the reference engine, for runner and report tests.

Each is usable as `--impl python:adapters:NAME` when tests/ is on the import path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from llcheck.engines import Engine, EngineFailure, Hello, ReferenceEngine, Reply
from loveletter_ref import load_spec


class DropDiscards(ReferenceEngine):
    """Leaves `discard` events out of every answer to apply."""

    def apply(self, action: dict) -> Reply:
        reply = super().apply(action)
        reply.events = [e for e in reply.events if e["type"] != "discard"]
        return reply


class AcceptsAnything(ReferenceEngine):
    """Answers an action it should refuse with 'accepted' (and changes nothing)."""

    def apply(self, action: dict) -> Reply:
        reply = super().apply(action)
        return reply if reply.accepted else Reply(True, [], self.state())


class RefusesEverything(ReferenceEngine):
    """Refuses every action, naming a made-up clause."""

    def apply(self, action: dict) -> Reply:
        return Reply(False, reason="not today", clause="classic.made-up")


class DealsAnything(ReferenceEngine):
    """Deals a deck it should refuse by dealing a valid deck instead."""

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        reply = super().start(edition, players, deck, first_player, tokens)
        if reply.accepted:
            return reply
        spec = load_spec(edition)
        deck = [spec.names[c] for c in spec.deck(players)]
        return super().start(edition, players, deck, first_player, tokens)


class TokensMoveOnRefusal(ReferenceEngine):
    """Reports one more token for seat 0 after each refused action."""

    refusals = 0

    def apply(self, action: dict) -> Reply:
        reply = super().apply(action)
        self.refusals += not reply.accepted
        return reply

    def state(self) -> dict:
        state = super().state()
        state["tokens"] = [state["tokens"][0] + self.refusals, *state["tokens"][1:]]
        return state


class HidesBaron(ReferenceEngine):
    """Never lists a Baron play among the legal actions."""

    def legal_actions(self) -> list[dict]:
        return [a for a in super().legal_actions() if a["card"] != "Baron"]


class RepeatsAnAction(ReferenceEngine):
    """Lists its first legal action twice."""

    def legal_actions(self) -> list[dict]:
        listed = super().legal_actions()
        return listed + listed[:1]


class LeakyViews(ReferenceEngine):
    """Shows every seat the whole table's cards as their hand."""

    def view(self, player: int) -> dict:
        view = super().view(player)
        view["hand"] = [card for hand in self.state()["hands"] for card in hand]
        return view


class NumbersForFlags(ReferenceEngine):
    """Reports `eliminated` as 0 and 1 instead of false and true."""

    def apply(self, action: dict) -> Reply:
        reply = super().apply(action)
        if reply.state is not None:
            reply.state["eliminated"] = [int(flag) for flag in reply.state["eliminated"]]
        return reply


class StripsAndInventsClauses(ReferenceEngine):
    """Annotates events with its own clause ids (the harness ignores them)."""

    def apply(self, action: dict) -> Reply:
        reply = super().apply(action)
        reply.events = [dict(e, clause="my-engine.rule-42") for e in reply.events]
        return reply


class Crashes(ReferenceEngine):
    """Raises KeyError on every second apply (an adapter bug)."""

    calls = 0

    def apply(self, action: dict) -> Reply:
        Crashes.calls += 1
        if Crashes.calls % 2 == 0:
            raise KeyError("hand")
        return super().apply(action)


class ClassicOnly(ReferenceEngine):
    """Plays classic only, and claims neither views nor games."""

    def __init__(self) -> None:
        super().__init__()
        self.hello = Hello("classic-only", "1.0", ("classic",), frozenset({"events", "legal_actions"}))


class NotAnEngine:
    """Something that is not an Engine at all."""


def cannot_start() -> Engine:
    """A factory whose engine fails to start."""
    raise EngineFailure("the license server is down")


class ExtraKeys(ReferenceEngine):
    """Adds keys the formats do not define to its states, events, views and legal actions."""

    def _more(self, reply: Reply) -> Reply:
        if reply.accepted:
            reply.events = [{**e, "seq": n} for n, e in enumerate(reply.events)]
            reply.state = {**(reply.state or self.state()), "debug": True}
        return reply

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        return self._more(super().start(edition, players, deck, first_player, tokens))

    def next_round(self, deck: Sequence[str]) -> Reply:
        return self._more(super().next_round(deck))

    def apply(self, action: dict) -> Reply:
        return self._more(super().apply({k: v for k, v in action.items() if k != "weight"}))

    def state(self) -> dict:
        return {**super().state(), "debug": True}

    def legal_actions(self) -> list[dict]:
        return [{**a, "weight": 1} for a in super().legal_actions()]

    def view(self, player: int) -> dict:
        seen = super().view(player)
        return {**seen, "debug": True, "log": [{**e, "seq": 0} for e in seen["log"]]}


class ExtraKeysOutsideViews(ExtraKeys):
    """Adds keys the formats do not define as ExtraKeys does, but none at the top level of a view."""

    def view(self, player: int) -> dict:
        seen = super().view(player)
        del seen["debug"]
        return seen


class MisspeltEdition(ReferenceEngine):
    """The reference engine, announcing its edition as `klassik`."""

    def __init__(self) -> None:
        super().__init__()
        self.hello = replace(self.hello, editions=("klassik",))


class TurnAsText(ReferenceEngine):
    """Reports whose turn it is as a string ("0") instead of a number."""

    def apply(self, action: dict) -> Reply:
        reply = super().apply(action)
        if reply.state is not None:
            reply.state["turn"] = str(reply.state["turn"])
        return reply
