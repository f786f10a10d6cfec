"""Counterfactual blame for logged games: which clause, stated otherwise, makes the reference play
a diverging game exactly as the log recorded it.

The search is fuzzing's (`llcheck.fuzz.counterfactual.search`); only the two questions it asks
differ. A variant *explains* a logged game when the reference playing that variant expects every
answer the log holds. It is *confirmed* on further games: for an engine-dealt campaign, new games
the engine plays with the variant choosing the actions (`llcheck.logs.dealt`); for `llcheck
verify`, the other logged games of the same edition and player count, since no engine is there to
play more.
Without events, a divergence names many suspects (a state after a Baron differs: the comparison,
the tie, the round's end, ...); the variant that reproduces the engine names the one that differs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from loveletter_ref.spec import Edition

from ..fuzz.counterfactual import Diagnosis, search
from ..harness.charge import suspects
from ..harness.results import PASSED, Result
from ..harness.runner import run_case
from .expected import expected
from .reading import GameLog
from .replayed import Replayed

CONFIRM_GAMES = 12
"""Further games a variant that explains a logged game is confirmed on, when there are as many."""


def conforms(spec: Edition, game: GameLog) -> bool:
    """True when every answer `game` logged is what a reference playing `spec` expects."""
    try:
        found = expected(spec, game)
        return bool(found.case.rounds) and \
            run_case(Replayed(found, tokens=game.keeps_tokens), found.case).status == PASSED
    except Exception:  # noqa: BLE001 - the variant has no rule here, refuses the deal, or its parts do
        return False   # not fit (a trade of two players chosen one at a time): it explains nothing


def agreeing(variant: Edition, games: Iterable[GameLog]) -> int:
    """How many of `games`, in order, `variant` plays as logged, up to the first it does not."""
    played = 0
    for game in games:
        if not conforms(variant, game):
            break
        played += 1
    return played


def diagnose(spec: Edition, game: GameLog, result: Result, confirms: Callable[[Edition], int],
             games: int) -> Diagnosis:
    """The variant of `spec` under which `game`, whose `result` diverged, is played as logged,
    ranked by `confirms` (how many of `games` further games agree with it)."""
    named = suspects(spec, result.divergence) if result.divergence is not None else []
    return search(spec, named, lambda variant: conforms(variant, game), confirms, games)


def diagnose_logged(spec: Edition, game: GameLog, result: Result, others: Sequence[GameLog]) -> Diagnosis:
    """The diagnosis of a logged game, each explaining variant confirmed on the games of `others`
    of its edition and player count (up to CONFIRM_GAMES of them)."""
    further = [other for other in others if other is not game and other.edition == game.edition
               and other.players == game.players][:CONFIRM_GAMES]
    return diagnose(spec, game, result, lambda variant: agreeing(variant, further), len(further))


def blamed(result: Result, diagnosis: Diagnosis, spec: Edition) -> None:
    """Write the diagnosis into a diverged game's result: its line and, for a variant every
    further game agrees with (one game at least), the clauses charged and the engine's reading."""
    result.diagnosis = diagnosis.text(spec)
    if diagnosis.exact and diagnosis.games:
        named = diagnosis.clauses(spec)
        result.clauses = tuple(dict.fromkeys([*named, *result.clauses]))
        result.charged = named
        result.reading = diagnosis.changes
