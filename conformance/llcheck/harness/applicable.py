"""Whether an engine plays a case, a property or fuzzing campaign, or a perft deal, and if not, why.

One decision for every kind of work (docs/protocol.md#capabilities): the editions and player
counts an engine's hello lists, and the capabilities the work needs. Work outside them is *not
applicable*: counted and listed by reason, never failed, never passed. A case that only observes
something the engine does not report (legal actions, views) is *skipped* instead: the engine
plays it, but cannot be asked (`observation_reason`).
"""

from __future__ import annotations

from collections.abc import Iterable

from loveletter_ref.spec import Edition

from ..engines.base import Hello
from .blame import kinds_clauses
from .cases import Case

OBSERVATIONS = ("legal_actions", "views")
"""Capabilities that only let the harness observe more: without them, cases needing them are skipped."""


def needs_of(case: Case) -> tuple[str, ...]:
    """The capabilities a case says it needs: its `needs`, plus `games` when it has several rounds."""
    needs = tuple(case.needs)
    return needs + ("games",) if len(case.rounds) > 1 and "games" not in needs else needs


def _plays(case: Case) -> tuple[str, ...]:
    """What a case needs to be played at all: what it says, a given deck, and `tokens` when it
    starts with favour tokens."""
    tokens = ("tokens",) if case.tokens is not None and any(case.tokens) else ()
    return tuple(dict.fromkeys((*needs_of(case), "deck", *tokens)))


def seat_reason(hello: Hello, edition: str, players: int, needs: Iterable[str] = ()) -> str | None:
    """Why the engine does not play `edition` with `players` players with the capabilities `needs`
    (the reason, one phrase), or None when it does."""
    if edition not in hello.editions:
        return f"the engine does not play {edition}"
    if not hello.plays(edition, players):
        counts = ", ".join(map(str, hello.players[edition]))
        return f"the engine plays {edition} with {counts} players only"
    missing = [need for need in needs if need not in OBSERVATIONS and not hello.can(need)]
    if missing:
        return f"needs capability {', '.join(missing)}"
    return None


def case_reason(hello: Hello, case: Case) -> str | None:
    """Why `case` is not applicable to the engine, or None when it plays it."""
    return seat_reason(hello, case.edition, case.players, _plays(case))


def observation_reason(hello: Hello, case: Case) -> str | None:
    """Why an applicable case is skipped: it needs an observation the engine does not offer."""
    missing = [need for need in needs_of(case) if need in OBSERVATIONS and not hello.can(need)]
    return f"needs capability {', '.join(missing)}" if missing else None


def one_step_reason(hello: Hello, spec: Edition) -> str | None:
    """Why work that counts or sends the rules' two steps of a draw-and-return card (fuzzing,
    properties, perft) does not suit an engine taking a one-step Chancellor, in an edition that
    has such a card; None otherwise. (Its campaigns are logged games instead.)"""
    if hello.can("one_step_chancellor") and kinds_clauses(spec, ("draw_return",)):
        return "the engine takes a one-step Chancellor (checked by logged games instead)"
    return None
