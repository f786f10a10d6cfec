"""The lockstep with the engine's answers read behind it, for a protocol engine claiming `pipelining`.

`Pipelined` plays the reference's side of a game exactly as `Differential` does, and sends each
request to the engine the moment the reference's side knows it, without waiting for the answer:
which action comes next is decided by the reference and the tape alone, never by the engine. The
answers are read in the order sent, and compared with the same predicates, when the game ends
(`settle`). So the engine works on its requests while the harness plays the reference, and a game
costs the harness one wait rather than one per request.

What it cannot do is say where and how the engine differs: by the time an answer is read, the
reference has moved on. A difference (or an engine that fails) raises `Mismatch`, and the fuzz
session plays the same game again with `Differential`, in step, which finds the difference and
words it as always (`search._Session.game`). A report therefore never depends on pipelining.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, NoReturn, TypeGuard

from loveletter_ref import Action
from loveletter_ref.engine import view

from ..engines.base import EngineFailure, Json
from ..engines.reference import action_json
from ..engines.subprocess import (
    EngineGone,
    SubprocessEngine,
    actions_of,
    state_of,
    view_of,
)
from .lockstep import Differential, Skip, Step, _step, legal_differs

REPLY, LISTED, REFUSED, KEPT, VIEW = range(5)
"""What an answer read by `settle` is checked for: a reply to a deal or a legal action; the legal
actions (listed by the last combined reply, or asked for); the reply to an illegal probe; the state
after it; a player's view."""


class Mismatch(Exception):
    """A pipelined game differs from the reference, or the engine failed (`lost`: it can no longer
    be talked to): the game is to be played again in step."""

    def __init__(self, lost: bool = False):
        super().__init__("the engine differs (played again in step to say how)")
        self.lost = lost


def pipelines(engine: object) -> TypeGuard[SubprocessEngine]:
    """True when `engine` can be talked to ahead of its answers: a protocol engine claiming `pipelining`."""
    return isinstance(engine, SubprocessEngine) and "pipelining" in engine.hello.capabilities


class Pipelined(Differential):
    """`Differential` with every request sent ahead and every answer checked in `settle` (see the
    module doc). `play_game` calls `settle` when a game ends; until then nothing is compared."""

    def __init__(self, engine: SubprocessEngine, edition: Any, players: int, ignore: Collection[str] = (),
                 skip: Skip | None = None):
        super().__init__(engine, edition, players, ignore, skip)
        self.pipe = engine
        self.checks: list[tuple[Any, ...]] = []
        """What each answer not read yet is to be checked against, in the order sent."""
        self.listing = False
        """True when the last request sent is a deal or an action whose combined reply will list the
        legal actions (an illegal probe's does not: the engine is asked for them again after it)."""

    # -- the reference's side, and the requests sent ahead ----------------------------------------

    def start(self, deck: list[str], first_player: int, tokens: Sequence[int] | None) -> None:
        """Start a game on the reference's side; send the engine its start."""
        self._new_game(first_player, tokens)
        self.steps.trail.deal(deck)
        want = self.reference.start_round(deck)
        counts = list(tokens) if tokens is not None else [0] * self.players
        self._ahead(REPLY, "start", "start", want, self._expect(), edition=self.edition.id,
                    players=self.players, deck=list(deck), first_player=first_player, tokens=counts,
                    **self._combined())

    def next_round(self, deck: list[str]) -> None:
        """Deal the next round on the reference's side; send the engine its next_round."""
        self.listed = None
        self.steps.trail.deal(deck)
        want = self.reference.start_round(deck)
        self._ahead(REPLY, "next_round", "next_round", want, self._expect(), deck=list(deck),
                    **self._combined())

    def legal(self) -> list[Action]:
        """The reference's legal actions; the engine's are checked against them when read (those its
        last combined reply lists, else asked for now)."""
        legal = self.listed = self.reference.legal_actions()
        if self.check_legal:
            want = list(map(action_json, legal))
            if self.listing:
                self.checks.append((LISTED, None, want))
            else:
                self._ahead(LISTED, "legal_actions", want)
            self.listing = False
        return legal

    def probe(self, action: Action) -> bool:
        """Send an illegal action (and, without combined replies, a state request after it); False
        when the reference finds it legal after all."""
        if self._legal_now(action):
            return False
        self.steps.trail.move(Step(action, probe=True))
        self._ahead(REFUSED, "apply", "apply", action=dict(action_json(action)), **self._combined())
        if not self.combined:
            self._ahead(KEPT, "state")
        return True

    def play(self, action: Action) -> None:
        """Apply a legal action on the reference's side; send it to the engine."""
        self.listed = None
        self.steps.trail.move(_step(action))
        want = self.reference.apply_unchecked(action)
        self._ahead(REPLY, "apply", "apply", want, self._expect(), action=dict(action_json(action)),
                    **self._combined())

    def compare_view(self, seat: int) -> None:
        """Ask the engine for a player's view; checked against the reference's when read."""
        if self.check_views:
            self._ahead(VIEW, "view", view(self.reference, seat, self.expected), player=seat)

    def _combined(self) -> dict[str, bool]:
        return {"combined": True} if self.combined else {}

    def _ahead(self, check: int, op: str, *data: Any, **fields: Any) -> None:
        """Send a request without waiting; remember what its answer is to be checked against."""
        try:
            number = self.pipe.submit(op, **fields)
        except EngineFailure as exc:
            self._mismatch(isinstance(exc, EngineGone))
        self.checks.append((check, number, *data))
        self.listing = self.combined and check == REPLY

    # -- reading the answers ------------------------------------------------------------------

    def settle(self) -> None:
        """Read every answer not read yet, in order, and check each: Mismatch at the first that
        differs (the rest are read and dropped), or when the engine fails."""
        checks, self.checks = self.checks, []
        for check, number, *data in checks:
            try:
                if self._differs(check, number, data):
                    self._mismatch(False)
            except EngineFailure as exc:
                self._mismatch(isinstance(exc, EngineGone))

    def _differs(self, check: int, number: int | None, data: list[Any]) -> bool:
        if check == REPLY:
            reply = self._read(number, self.pipe.reply_reader(data[0], self.combined))
            self.offered = reply.legal
            if not reply.accepted or self.events_differ(data[1], reply.events):
                return True
            state = self._comparable_state(reply.state)
            if state != data[2]:
                return True
            self.state = state
            return False
        if check == LISTED:
            got = self.offered if number is None else self._read(number, actions_of)
            self.offered = None
            return legal_differs(data[0], got)
        if check == REFUSED:
            refused = self._read(number, self.pipe.reply_reader(data[0], self.combined))
            kept = refused.state
            return refused.accepted or (kept is not None and self._comparable_state(kept) != self.state)
        if check == KEPT:
            return bool(self._comparable_state(self._read(number, state_of)) != self.state)
        return self.view_differs(data[0], self._read(number, view_of))

    def _read(self, number: int | None, parse: Callable[[Json], Any]) -> Any:
        assert number is not None
        return self.pipe.result(number, parse)

    def _mismatch(self, lost: bool) -> NoReturn:
        """Raise Mismatch, once the answers still to come are read (unless the engine is lost)."""
        self.checks = []
        if not lost:
            try:
                self.pipe.drain()
            except EngineGone:
                lost = True
        raise Mismatch(lost)


__all__ = ["Mismatch", "Pipelined", "pipelines"]
