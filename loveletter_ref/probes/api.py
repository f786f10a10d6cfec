"""The probes' programmatic interface: is a situation reachable in some round of a spec?

    from loveletter_ref.probes.api import check, clause_applies, query
    answer = check(load_spec("z-man-2019"), 3, clause_applies("round.tie"), rlimit=200_000_000)
    answer.status    # "unreachable" | "reachable" | "unknown"
    answer.witness   # {"edition", "players", "first_player", "rounds": [{"deck", "actions"}]}

The spec may be a rulebook reading: a silent clause is a rule gap, and the witness of
`clause_applies(key)` for a silent clause makes the reference engine raise RuleGapError naming
it. Provers are cached per spec object and player count, so asking many conditions of the same
spec builds its encoding once.
"""

from __future__ import annotations

from collections import OrderedDict

from loveletter_ref.spec import Edition

from .catalogue import CATALOGUE, QUERIES, Query, query
from .conditions import Condition, Happening, clause_applies, round_won_by
from .layout import ProbeError
from .playback import Playback
from .playouts import PLAYOUTS, SEED
from .prover import REACHABLE, UNKNOWN, UNREACHABLE, ProbeAnswer, Prover
from .unroll import RoundEncoding

__all__ = ["CATALOGUE", "PLAYOUTS", "QUERIES", "REACHABLE", "RLIMIT", "UNKNOWN", "UNREACHABLE", "AnyOf",
           "Condition", "ProbeAnswer", "ProbeError", "Query", "any_of", "check", "clause_applies", "prover",
           "query", "round_won_by"]

_PROVERS: OrderedDict[tuple[int, int], tuple[Edition, Prover]] = OrderedDict()
_KEEP = 8


def prover(edition: Edition, players: int) -> Prover:
    """The (cached) prover of a spec and player count; ProbeError if the spec cannot be encoded."""
    key = (id(edition), players)
    if key in _PROVERS and _PROVERS[key][0] is edition:
        _PROVERS.move_to_end(key)
        return _PROVERS[key][1]
    made = Prover(edition, players)
    _PROVERS[key] = (edition, made)
    while len(_PROVERS) > _KEEP:
        _PROVERS.popitem(last=False)
    return made


RLIMIT = 200_000_000
"""z3 resource units each solver call of a question may use by default (a count of solver steps,
the same on every machine at any load: about a minute on a 2020s laptop)."""


def check(edition: Edition, players: int, condition: Condition, rlimit: int = RLIMIT, playouts: int = 0,
          seed: int = SEED) -> ProbeAnswer:
    """Whether `condition` is reachable in some round of `edition` with `players` players.

    The answer covers every deal and every sequence of legal choices: `unreachable` is a proof,
    `reachable` comes with a witness replay the reference engine plays to the situation, and
    `unknown` means the solver did not decide within `rlimit` resource units per solver call.
    With `playouts`, up to that many seeded rounds of the reference engine look for a witness
    before the bounded search (`method` "playout"; the same `seed` and count, the same witness).
    """
    return prover(edition, players).ask(condition, rlimit, playouts=playouts, seed=seed)


class AnyOf(Condition):
    """Any of several conditions."""

    def __init__(self, *conditions: Condition):
        self.conditions = conditions
        self.name = " or ".join(c.name for c in conditions)
        self.uses_tokens = any(c.uses_tokens for c in conditions)
        self.playable = all(c.playable for c in conditions)

    def happenings(self, rnd: RoundEncoding) -> list[Happening]:
        return [h for c in self.conditions for h in c.happenings(rnd)]

    def confirm(self, playback: Playback) -> str | None:
        problems = [c.confirm(playback) for c in self.conditions]
        return None if None in problems else problems[0]


def any_of(*conditions: Condition) -> Condition:
    """The condition that any of `conditions` holds."""
    return AnyOf(*conditions)
