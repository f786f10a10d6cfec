"""The adapter interface every engine under test is driven through.

It speaks the JSON forms of docs/formats.md (actions, events, states, views as plain dicts), so
that an in-process Python adapter and a program speaking the line-delimited JSON protocol look
the same to the harness, the properties, perft and the fuzzer.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .pipes import printable

Json = dict[str, Any]

CAPABILITIES = ("legal_actions", "views", "events", "games")
"""The optional abilities of capabilities version 1 (docs/protocol.md#capabilities):
legal_actions: lists every legal action; views: answers per-player views; events: reports the
canonical events of each action; games: plays several rounds (next_round)."""

CAPABILITIES_2 = ("deck", "tokens", "stray_fields", "one_step_chancellor")
"""What capabilities version 2 added: deck: can be dealt a given deck (without it, the engine
deals itself from a seed); tokens: keeps favour tokens; stray_fields: refuses a play carrying a
field its card does not take (a target on a Handmaid); one_step_chancellor: takes the
Chancellor's keep and return in the play itself. (Version 2 also added the per-edition player
counts, `Hello.players`.)"""

CAPABILITIES_3 = ("combined", "pipelining")
"""What capabilities version 3 added, both about the conversation rather than the game (protocol
engines only; docs/protocol.md#capabilities-version-3): combined: answers start, next_round and
apply, when the request asks (`"combined": true`), with the legal actions then due, and a refused
apply with its state, in the reply itself; pipelining: reads requests while it answers earlier
ones, and answers each in order, so that the harness may send several before reading."""

KNOWN_CAPABILITIES = CAPABILITIES + CAPABILITIES_2 + CAPABILITIES_3
"""Every capability this llcheck knows."""

CAPABILITIES_VERSION = 3
"""The capabilities version this llcheck speaks."""

ASSUMED_BEFORE_VERSION_2 = frozenset({"deck", "tokens", "stray_fields"})
"""What an engine of capabilities version 1 does without saying so (version 1 had no way to say
otherwise): it is dealt given decks, keeps tokens and refuses stray fields."""


def known_capabilities(claimed: Iterable[str]) -> tuple[frozenset[str], tuple[str, ...]]:
    """The capabilities claimed that this llcheck knows, and the others (a later addition to the
    protocol, or a typo) in order, once each, made printable for the report."""
    claimed = list(claimed)
    unknown = dict.fromkeys(printable(c, 40) for c in claimed if c not in KNOWN_CAPABILITIES)
    return frozenset(c for c in claimed if c in KNOWN_CAPABILITIES), tuple(unknown)


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
    capabilities_version: int = 1
    """1: `deck`, `tokens` and `stray_fields` go without saying (ASSUMED_BEFORE_VERSION_2); 2 and
    later: the engine has only what it lists."""
    players: Mapping[str, tuple[int, ...]] = field(default_factory=dict, hash=False)
    """Per edition, the player counts the engine plays; an edition left out: every count it allows."""

    def can(self, capability: str) -> bool:
        """True when the engine claims `capability` (or, before version 2, goes without saying)."""
        return capability in self.capabilities or (
            self.capabilities_version < 2 and capability in ASSUMED_BEFORE_VERSION_2)

    def plays(self, edition: str, players: int) -> bool:
        """True when the engine plays `edition` with `players` players."""
        return edition in self.editions and (edition not in self.players or players in self.players[edition])


@dataclass
class Reply:
    """An engine's answer to a start, next-round or apply request.

    `accepted` is False when the engine refused (an illegal action, or a deal it will not play);
    `reason` then says why and `clause` may name the rule clause it relied on. A combined reply
    (capability `combined`) also carries the legal actions then due (`legal`) when accepted, and
    the unchanged `state` when refused.
    """

    accepted: bool
    events: list[Json] = field(default_factory=list)
    state: Json | None = None
    reason: str = ""
    clause: str | None = None
    legal: list[Json] | None = None
    """Capability `combined`: the legal actions due after an accepted reply, when asked for."""


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

    def deal(self, edition: str, players: int, seed: int, first_player: int = 0,
             tokens: Sequence[int] | None = None) -> Reply:
        """Start a new game and deal its first round itself, shuffling from `seed` (an engine
        without capability `deck`): the harness reads the deal from the reply's state."""
        raise EngineFailure("the engine cannot deal a round itself (it has no deal method)")

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

    # -- combined replies (capability `combined`) -------------------------------------------------
    # A protocol engine that claims `combined` answers each of these in one reply; for any other
    # engine they are the plain request followed by the ones it saves.

    def start_combined(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
                       tokens: Sequence[int] | None = None) -> Reply:
        """`start`, with the legal actions then due in the reply (`Reply.legal`) when accepted."""
        return self._with_legal(self.start(edition, players, deck, first_player, tokens))

    def next_round_combined(self, deck: Sequence[str]) -> Reply:
        """`next_round`, with the legal actions then due when accepted."""
        return self._with_legal(self.next_round(deck))

    def apply_combined(self, action: Json) -> Reply:
        """`apply`, with the legal actions then due when accepted, the (unchanged) state when refused."""
        reply = self.apply(action)
        if not reply.accepted:
            reply.state = self.state()
            return reply
        return self._with_legal(reply)

    def _with_legal(self, reply: Reply) -> Reply:
        if reply.accepted and "legal_actions" in self.hello.capabilities:
            reply.legal = self.legal_actions()
        return reply

    def close(self) -> None:  # noqa: B027 - optional hook: in-process engines hold nothing
        """Release the engine (stop its process)."""

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
