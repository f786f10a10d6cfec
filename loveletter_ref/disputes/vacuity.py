"""z3 for disputes: proofs that a clause is never needed, and games that need it.

Both come from the z3 probes (`loveletter_ref.probes.api.check`). The question asked depends on the
clause: for most rules, `clause_applies(key)` (does any round consult it?); for the game-end
rule, which the engine consults only when several players reach the target together, the
catalogue query `two-reach-target` (which lets the round start with any tokens). A card's value
and count are not consulted the way rules are, and the token target is consulted at every
round's end, so z3 is not asked about those.

*Unreachable* for every player count is a proof that no game consults the clause, so a
difference in it can never show, provided the reference engine agrees: before a proof is
accepted, seeded games look for one that needs the clause (the spec with the clause made
silent stops where it is needed); one such game refutes the proof, and the clash is reported
instead (one of the two interpreters is wrong). *Reachable* comes with a replay that gets
there, which the witness search then continues under both specs.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from loveletter_ref import Action, Phase
from loveletter_ref.lockstep import DEAL, MOVE, Step
from loveletter_ref.spec import Edition
from loveletter_ref.spec.facts import facts_for

from .duel import Table, neutral
from .search import GamePlan, first_gap, seed_for
from .witness import Witness

NOT_ASKED = ("card", "tokens_to_win")
"""Rule kinds z3 is not asked about (see the module docstring)."""

QUERY_FOR = {"game_end": "two-reach-target"}
"""Rule kinds asked about through a catalogue query rather than `clause_applies`."""

NEAR_TARGET = ("game_end",)
"""Rule kinds needed only when players are near the token target."""

CROSS_CHECK_GAMES = 200
"""Seeded games per player count that look for a game needing a clause z3 calls unreachable."""


@dataclass
class Probe:
    """z3's answers for one clause of one spec, player count by player count."""

    spec: str
    key: str
    proofs: list[dict[str, Any]] = field(default_factory=list)
    """One record per player count: query, spec, players, status."""
    reached: list[tuple[int, list[Step], tuple[int, ...] | None]] = field(default_factory=list)
    """(players, steps, tokens) of games that reach the clause."""
    problem: str = ""
    """Why z3 gave no answer (unavailable, unknown within the time limit, refuted)."""
    refuted: Witness | None = None
    """A game of the reference engine that needs the clause z3 called unreachable."""

    @property
    def unreachable(self) -> bool:
        """True when z3 proved, for every player count, that no game consults the clause."""
        return bool(self.proofs) and not self.problem and all(p["status"] == "unreachable"
                                                              for p in self.proofs)


def probes() -> ModuleType | None:
    """The z3 probes API, or None when it is not installed."""
    try:
        return importlib.import_module("loveletter_ref.probes.api")
    except ImportError:
        return None


@dataclass(frozen=True)
class Goal:
    """A narrower question than whether a clause is consulted: the case in which two rules
    decide differently (see `goals`)."""

    kind: str
    """`gap` (the round stops on a rule gap naming the clause, asked of `spec`) or `shield` (a
    player is still protected by the clause's shield when their own turn comes to play)."""
    spec: Edition
    """The spec z3 is asked about (for `gap`: the spec narrowed to where the two rules agree)."""
    text: str
    """The question as proofs record it."""


def probe(edition: Edition, label: str, key: str, players: list[int], rlimit: int,
          silenced: Edition | None = None, cases: Sequence[str] = (), goal: Goal | None = None) -> Probe:
    """Ask z3 whether any game of `edition` consults clause `key`, for each player count (for a
    next-round rule with `cases`, whether a round is won by several players or by nobody, as
    `cases` says, and the game goes on; with a `goal`, whether its case ever arises).

    `silenced` is `edition` with `key` silent (or `edition` itself when the clause is silent or
    leaves the cases out): the engine's cross-check of a proof plays it (for a `gap` goal: the
    goal's narrowed spec; for a `shield` goal, seeded games of `edition` are watched instead).
    """
    result = Probe(label, key)
    clause = edition.clause_by_key(key)
    kind = clause.kind if clause is not None else "all_eliminated"
    if kind in NOT_ASKED:
        result.problem = f"z3 is not asked about a {'card' if kind == 'card' else kind} clause"
        return result
    api = probes()
    if api is None:
        result.problem = "the z3 probes (loveletter_ref.probes.api) are not available"
        return result
    name = QUERY_FOR.get(kind)
    condition = api.query(name) if name else api.clause_applies(key)
    text = name or f"clause_applies({key!r})"
    asked = edition
    if cases:
        condition, text = api.round_won_by(key, cases), f"round won by {' or '.join(cases)}"
    if goal is not None:
        goals = importlib.import_module("loveletter_ref.disputes.goals")
        condition = goals.gap_at(key) if goal.kind == "gap" else goals.shield_at_own_turn(key)
        text, asked = goal.text, goal.spec
    for n in players:
        if not _ask(api, condition, text, asked, label, n, rlimit, result):
            return result
    if result.unreachable and goal is not None and goal.kind == "shield":
        result.refuted = engine_shielded(edition, key, players)
    elif result.unreachable and silenced is not None:
        result.refuted = engine_reaches(goal.spec if goal is not None else silenced, key, players)
    if result.refuted is not None:  # either cross-check found the game z3 said no game reaches
        result.problem = (f"z3 calls {key} unreachable in {label}, but the reference engine reaches it "
                          f"with {result.refuted.players} players (a discrepancy between the probes and "
                          "the engine)")
        result.reached.append((result.refuted.players, result.refuted.steps, result.refuted.tokens))
    return result


def _ask(api: ModuleType, condition: Any, text: str, edition: Edition, label: str, n: int,
         rlimit: int, result: Probe) -> bool:
    """One player count; False when z3 cannot answer at all (the reason is in `result`)."""
    try:
        verdict = api.check(edition, n, condition, rlimit)
    except api.ProbeError as exc:
        result.problem = f"z3 cannot encode {label} for {n} players: {exc}"
        return False
    except Exception as exc:  # the probes are a separate component: report, never crash
        result.problem = f"the z3 probes failed on {label} for {n} players ({type(exc).__name__}: {exc})"
        return False
    status = str(verdict.status)
    if status == "reachable" and verdict.problem:
        result.problem = f"z3's game for {n} players does not replay: {verdict.problem}"
        status = "unknown"
    result.proofs.append({"query": text, "spec": label, "players": n, "status": status})
    if status == "reachable" and verdict.witness is not None:
        result.reached.append(_steps(verdict.witness, edition))
    elif status != "unreachable" and not result.problem:
        why = getattr(verdict, "reason", None) or f"within {rlimit} z3 resource units"
        result.problem = f"z3 gave no answer for {n} players ({why})"
    return True


def engine_reaches(silenced: Edition, key: str, players: list[int],
                   games: int = CROSS_CHECK_GAMES) -> Witness | None:
    """A seeded game of `silenced` that stops on a gap naming `key`, if one is found (games about
    the end of the game start with every player one token short of the target)."""
    clause = silenced.clause_by_key(key)
    near = clause is not None and clause.kind in NEAR_TARGET
    for game in _seeded_games(silenced, "cross-check", key, players, games, near, frozenset({key})):
        witness = first_gap(silenced, game)
        if witness is not None and witness.looks[-1][0].clause == key:
            return witness
    return None


def engine_shielded(edition: Edition, key: str, players: list[int],
                    games: int = CROSS_CHECK_GAMES) -> Witness | None:
    """A seeded game of `edition` in which a player still protected by `key`'s shield is due to
    play, if one is found: the game up to the play they then make."""
    for game in _seeded_games(edition, "cross-check-shield", key, players, games):
        found = _shielded_turn(edition, game, key)
        if found is not None:
            return found
    return None


def _seeded_games(edition: Edition, purpose: str, key: str, players: list[int], games: int,
                  near: bool = False, stops: frozenset[str] = frozenset()) -> Iterator[GamePlan]:
    """The games a cross-check of `key` plays, `games` per player count, each seeded by what it is
    for: favouring the card whose clause `key` is, with every player one token short of the
    target when `near`, stopping on the gaps named in `stops`."""
    card = next((c.name for c in edition.cards if key.startswith(c.clause.key + ".")), None)
    bias = frozenset({card} if card else ())
    for n in players:
        tokens = facts_for(edition, n).near_target if near else None
        for i in range(games):
            rng = random.Random(seed_for(edition.id, purpose, key, n, i))
            yield GamePlan(n, 0, tokens, rng, [edition], bias, stops)


def _shielded_turn(edition: Edition, game: GamePlan, key: str) -> Witness | None:
    """Play one round of `game` under `edition`; the steps up to the first play by a player whose
    shield is `key`'s, if any."""
    table = Table(edition, game.players, game.first_player, game.tokens)
    steps: list[Step] = [(DEAL, game.deck(0))]
    look = table.deal(steps[0][1])
    looks = [look]
    while look.status == "ok" and table.phase is Phase.PLAY:
        engine = table.game
        assert engine is not None
        shield = engine.protected[engine.current]
        move = game.pick(look.legal)
        steps.append((MOVE, move))
        if shield is not None and shield.key == key:
            looks.append(table.act(move))
            return Witness(game.players, game.first_player, game.tokens, steps, len(steps) - 1,
                           [(x, x) for x in looks])
        look = table.act(move)
        looks.append(look)
        while look.status == "ok" and table.phase in (Phase.KEEP, Phase.RESPOND):
            move = game.pick(look.legal)
            steps.append((MOVE, move))
            look = table.act(move)
            looks.append(look)
    return None


def _steps(replay: dict[str, Any], edition: Edition) -> tuple[int, list[Step], tuple[int, ...] | None]:
    """A z3 witness replay as steps (its actions are in `edition`'s own form)."""
    steps: list[Step] = []
    for round_ in replay["rounds"]:
        steps.append((DEAL, list(round_["deck"])))
        steps += [(MOVE, neutral(edition, replay["players"], Action.from_json(action)))
                  for action in round_["actions"]]
    tokens = replay.get("tokens")
    return replay["players"], steps, None if tokens is None else tuple(tokens)
