"""The adapter interface every engine under test is driven through.

It speaks the JSON forms of docs/formats.md (actions, events, states, views as plain dicts), so
that an in-process Python adapter and a program speaking the line-delimited JSON protocol look
the same to the harness, the properties, perft and the fuzzer.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .pipes import printable

Json = dict[str, Any]

CAPABILITIES = ("legal_actions", "views", "events", "games")
"""Optional abilities an engine may claim in its hello:
legal_actions: lists every legal action; views: answers per-player views; events: reports the
canonical events of each action; games: plays several rounds (next_round) with favour tokens."""


def known_capabilities(claimed: Iterable[str]) -> tuple[frozenset[str], tuple[str, ...]]:
    """The capabilities claimed that this llcheck knows, and the others (a later addition to the
    protocol, or a typo) in order, once each, made printable for the report."""
    claimed = list(claimed)
    unknown = dict.fromkeys(printable(c, 40) for c in claimed if c not in CAPABILITIES)
    return frozenset(c for c in claimed if c in CAPABILITIES), tuple(unknown)


class EngineFailure(Exception):
    """The engine could not be talked to: it crashed, hung, or broke the protocol."""


@dataclass(frozen=True)
class Hello:
    """What an engine says about itself at the handshake."""

    name: str
    version: str
    editions: tuple[str, ...]
    capabilities: frozenset[str]
    protocol: str = "1"
    ignored: tuple[str, ...] = ()
    """Capabilities the engine claims that this llcheck does not know (a later minor addition to the
    protocol, or a typo): left out of `capabilities`, and named in the report."""

    def can(self, capability: str) -> bool:
        """True when the engine claims `capability`."""
        return capability in self.capabilities


@dataclass
class Reply:
    """An engine's answer to a start, next-round or apply request.

    `accepted` is False when the engine refused (an illegal action, or a deal it will not play);
    `reason` then says why and `clause` may name the rule clause it relied on.
    """

    accepted: bool
    events: list[Json] = field(default_factory=list)
    state: Json | None = None
    reason: str = ""
    clause: str | None = None


class Engine(ABC):
    """An engine under test. Methods raise EngineFailure when the engine misbehaves."""

    hello: Hello

    @abstractmethod
    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        """Start a new game and deal its first round from `deck` (top first)."""

    @abstractmethod
    def next_round(self, deck: Sequence[str]) -> Reply:
        """Deal the next round of the same game (capability `games`)."""

    @abstractmethod
    def legal_actions(self) -> list[Json]:
        """Every legal action now (capability `legal_actions`)."""

    @abstractmethod
    def apply(self, action: Json) -> Reply:
        """Apply an action: accepted with its events and the new state, or refused."""

    @abstractmethod
    def state(self) -> Json:
        """The canonical state."""

    @abstractmethod
    def view(self, player: int) -> Json:
        """What `player` may see (capability `views`)."""

    def close(self) -> None:  # noqa: B027 - optional hook: in-process engines hold nothing
        """Release the engine (stop its process)."""

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
