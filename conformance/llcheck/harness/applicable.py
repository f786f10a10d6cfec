"""Whether an engine plays a case, a property or fuzzing campaign, or a perft deal, and if not, why.

One decision for every kind of work (docs/protocol.md#capabilities): the editions and player
counts an engine's hello lists, and the capabilities the work needs. Work outside them is *not
applicable*: counted and listed by reason, never failed, never passed. A case that only observes
something the engine does not report (legal actions, views) is *skipped* instead: the engine
plays it, but cannot be asked (`observation_reason`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from loveletter_ref.spec import Edition

from ..engines.base import Hello, Json
from .blame import kinds_clauses
from .cases import Case, editions

OBSERVATIONS = ("legal_actions", "views")
"""Capabilities that only let the harness observe more: without them, cases needing them are skipped."""


def needs_of(case: Case) -> tuple[str, ...]:
    """The capabilities a case says it needs: its `needs`, plus `games` when it has several rounds."""
    needs = tuple(case.needs)
    return needs + ("games",) if len(case.rounds) > 1 and "games" not in needs else needs


PLAY_FIELDS = {"choose": ("target", "targets", "look"), "guess": ("guess",)}
"""The rule kinds that let a card's play carry each optional field of a play action."""


def stray_fields(spec: Edition, action: Json) -> list[str]:
    """The fields of a play its card does not take (a `target` on a Handmaid), in the order of
    docs/formats.md; [] for anything else."""
    if action.get("type") != "play":
        return []
    kinds = {c.kind for c in spec.clauses.values() if c.card == action.get("card")}
    taken = {name for kind, names in PLAY_FIELDS.items() if kind in kinds for name in names}
    return [name for name in ("target", "targets", "look", "guess") if name in action and name not in taken]


@cache
def _bundled() -> dict[str, Edition]:
    """The bundled editions, loaded once."""
    return editions()


def _refuses_stray(case: Case) -> bool:
    """True when the case expects a play with a stray field refused (a bundled edition's case)."""
    spec = _bundled().get(case.edition)
    return spec is not None and any(step.get("refused") and stray_fields(spec, step["action"])
                                    for round_ in case.rounds for step in round_.get("steps", ()))


def _plays(case: Case) -> tuple[str, ...]:
    """What a case needs to be played at all: what it says, a given deck, `tokens` when it starts
    with favour tokens, `stray_fields` when it expects a stray field refused."""
    tokens = ("tokens",) if case.tokens is not None and any(case.tokens) else ()
    stray = ("stray_fields",) if _refuses_stray(case) else ()
    return tuple(dict.fromkeys((*needs_of(case), "deck", *tokens, *stray)))


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
