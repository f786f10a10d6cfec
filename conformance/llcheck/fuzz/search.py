"""Differential fuzzing: games drawn from a seeded generator are played by the engine under test
and the reference in lockstep, and the first difference is shrunk by hypothesis, printed and saved.

A game is a horizon (how many actions to send at most) and a byte tape its choices are read from
(`play`), both drawn from a generator seeded by the run's seed, five games to a batch. The search
plays them without hypothesis, whose own cost per game (about four times what the lockstep costs)
bought nothing while no difference shows. When one does, its batch is handed to hypothesis as the
example to start from: shrinking deletes the games that do not matter, lowers the horizon to the
shortest replay that still differs, and turns every other choice into the first option.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NoReturn

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes
from hypothesis.errors import Flaky

from loveletter_ref.errors import RuleGapError
from loveletter_ref.lockstep import Divergence
from loveletter_ref.spec import Edition, load_spec
from loveletter_ref.variants import Alternative, variant

from ..engines.base import Engine, EngineFailure
from ..errors import UsageError
from .counterfactual import Diagnosis, diagnose
from .lockstep import ENGINE, Differential, Found, Skipped
from .pipelined import Mismatch, Pipelined, pipelines
from .play import Tally, Tape, play_game
from .saved import case_of, replay_of, save_case

GAMES_PER_EXAMPLE = 5
"""Games of one batch: a difference is shrunk together with the games of its batch played before
it (a difference that needs an earlier game on the same engine keeps it)."""

TAPE_BYTES = 160
"""Choices available to one game (more read as zeros)."""

MAX_SHRINK_RUNS = 150
"""Examples hypothesis may play while shrinking a difference."""

MAX_HORIZON = 255
"""The largest horizon: more actions than any game here sends."""

Game = tuple[int, bytes]
"""One fuzzed game: its horizon and its tape."""

SHRINK_KEY = b"llcheck-fuzz-shrink"
"""The database key of the shrinking run: the batch to shrink is handed to hypothesis in a database
of its own, in the secondary corpus of this key (`SHRINK_KEY.secondary`: examples that failed
but were not shrunk; one in the primary corpus would be taken as shrunk already, and replayed only)."""

PASS, FAIL, ERROR = "pass", "fail", "error"
"""FuzzResult statuses: no difference found; a difference found; the engine could not be run."""

NOT_STARTED = "not_started"
"""The `kind` of an error where the engine could not be started (or started again)."""

MAX_DEVIATIONS = 6
"""Distinct deviations a run records at most before it stops looking (`deviations=`)."""


@dataclass(frozen=True)
class Deviation:
    """One distinct way the engine departs from the reference: the `clause` it is grouped under
    (the one the diagnosis names, else the first suspect), the shrunk difference (`message`,
    `replay`, `saved`, `clauses`, `kind`, `divergence`), its `diagnosis`, and `seen`: how many
    games showed it (the one it was found in, and the later ones it stopped)."""

    clause: str
    message: str
    diagnosis: Diagnosis
    replay: dict[str, Any] | None
    saved: Path | None
    kind: str
    clauses: tuple[str, ...]
    divergence: Divergence | None
    seen: int = 1


@dataclass(frozen=True)
class FuzzResult:
    """The outcome of a fuzzing run.

    `status` is `pass`, `fail` (a difference: `replay` reproduces it, `saved` is the case file
    written, `clauses` the suspects, `divergence` where it is, with expected and actual, as a
    failed case says it) or `error` (the engine could not be started or kept running: `kind`
    NOT_STARTED; or the reference reached a rule gap). `message` says it all in a few lines,
    replay included.
    """

    status: str
    message: str
    replay: dict[str, Any] | None = None
    saved: Path | None = None
    kind: str | None = None
    clauses: tuple[str, ...] = ()
    case: dict[str, Any] | None = None
    games: int = 0
    rounds: int = 0
    seconds: float = 0.0
    tally: Tally = field(default_factory=Tally)
    divergence: Divergence | None = None
    deviations: tuple[Deviation, ...] = ()
    """Every distinct deviation found, the first one first (the one the other fields describe)."""
    reading: tuple[Alternative, ...] = ()
    """The clause variants the engine was found to play, as adopted to look past them."""

    @property
    def ok(self) -> bool:
        """True when no difference was found."""
        return self.status == PASS


class EngineLost(Exception):
    """The engine failed and could not be started again."""


class _Session:
    """The engine under test, reopened after it fails."""

    def __init__(self, make_engine: Callable[[], Engine], edition: Edition, players: int,
                 ignore: Collection[str], ignore_clauses: Collection[str]):
        self.make_engine = make_engine
        self.edition = edition
        self.players = players
        self.ignore = ignore
        self.ignore_clauses = frozenset(ignore_clauses)
        self.recorded: set[str] = set()
        """First suspects of deviations recorded with no variant to adopt: looked past from then on."""
        self.engine: Engine | None = None
        self.step: Differential | None = None
        self.at_failure: Tally | None = None
        """The tally as it was when the search first failed (before shrinking played more)."""

    def open(self) -> Differential:
        """The lockstep of the engine (started again if it failed): `Pipelined` when it claims
        pipelining, else `Differential`."""
        if self.step is None:
            if self.engine is None:
                self.engine = self.make_engine()
            engine = self.engine
            if pipelines(engine):
                self.step = Pipelined(engine, self.edition, self.players, self.ignore, self.skip)
            else:
                self.step = Differential(engine, self.edition, self.players, self.ignore, self.skip)
        return self.step

    def adopt(self, edition: Edition) -> None:
        """Play `edition` as the reference from now on (the same engine goes on)."""
        self.edition = edition
        self.step = None

    def skip(self, suspects: tuple[str, ...]) -> str | None:
        """The clause a difference is looked past under: the first of its suspects that is
        ignored, or that a deviation already recorded is grouped under."""
        return next((c for c in suspects if c in self.ignore_clauses or c in self.recorded), None)

    def game(self, horizon: int, tape: bytes, tally: Tally) -> None:
        step = self._opened()
        try:
            if isinstance(step, Pipelined):
                self._pipelined(step, horizon, tape, tally)
            else:
                play_game(step, horizon, Tape(tape), tally)
        except Found as found:
            if found.kind == ENGINE:
                self.close()
            raise
        except RuleGapError:  # the reference plays a reading silent here: no rule to hold the engine to
            tally.silenced += 1
        except Skipped as skipped:  # a difference looked past: the game ends there
            tally.skipped[skipped.clause] = tally.skipped.get(skipped.clause, 0) + 1
            if skipped.lost:
                self.close()

    def _opened(self) -> Differential:
        try:
            return self.open()
        except EngineFailure as exc:
            raise EngineLost(f"the engine could not be started again: {exc}") from None

    def _pipelined(self, step: Pipelined, horizon: int, tape: bytes, tally: Tally) -> None:
        """Play a game with the engine's answers read behind (`Pipelined`); when it differs, play it
        again in step, which raises what differs as a game in step does (Unrepeatable when it does
        not differ again)."""
        before = tally.snapshot()
        try:
            play_game(step, horizon, Tape(tape), tally)
            return
        except Mismatch as mismatch:
            vars(tally).update(vars(before))  # the game is counted when played again
            if mismatch.lost:
                self.close()
        in_step = Differential(self._opened().engine, self.edition, self.players, self.ignore, self.skip)
        play_game(in_step, horizon, Tape(tape), tally)
        raise Unrepeatable("a game that differed with its answers read behind did not differ when played "
                           "again in step")

    def close(self) -> None:
        if self.engine is not None:
            with contextlib.suppress(EngineFailure):
                self.engine.close()
        self.engine = self.step = None


def run_fuzz(make_engine: Callable[[], Engine], edition: str | Edition, players: int, n: int,
             seed: int, out_dir: Path | None, *, ignore: Collection[str] = (),
             ignore_clauses: Collection[str] = (), deviations: int = MAX_DEVIATIONS) -> FuzzResult:
    """Fuzz `n` games of `edition` with `players` against the reference (see the module doc).

    `make_engine` returns a fresh engine (it is called again if the engine fails). `edition` may
    be a compiled spec: the reference then plays it, and the engine is asked for its id (a way
    to look past a deviation already known). `ignore` names state keys left out of comparisons
    (for an engine known not to keep them); `ignore_clauses` names clauses whose differences
    (states, events, legal actions alike) are looked past: a game that shows one ends there.
    The same seed explores the same games. A difference is shrunk, diagnosed
    (`counterfactual`), described in `message`, and saved as a case file in `out_dir`; then the
    search goes on, the reference playing the variant that explains it (or, when none does,
    looking past differences first suspected of the same clause), until `n` games are played or
    `deviations` distinct ones are recorded (1: stop at the first).
    """
    spec = edition if isinstance(edition, Edition) else load_spec(edition)
    if not spec.supports(players):
        raise UsageError(f"{spec.id} is for {spec.min_players}-{spec.max_players} players, not {players}")
    if n < 1:
        raise UsageError("the number of games to fuzz must be at least 1")
    unknown = sorted(c for c in ignore_clauses if c not in spec.clauses)
    if unknown:
        raise UsageError(f"{spec.id} has no clause {unknown[0]} to ignore")
    session = _Session(make_engine, spec, players, ignore, ignore_clauses)
    try:
        hello = session.open().engine.hello
    except EngineFailure as exc:
        return FuzzResult(ERROR, f"could not start the engine: {exc}", kind=NOT_STARTED)
    if spec.id not in hello.editions:
        session.close()
        raise UsageError(f"{hello.name} does not play {spec.id} (it plays {', '.join(hello.editions)})")
    tally = Tally()
    started = time.perf_counter()
    found_list: list[tuple[Found, Diagnosis, Edition]] = []
    adopted: tuple[Alternative, ...] = ()
    try:
        while True:
            try:
                _search(session, tally, n, seed if not found_list else f"{seed}/after-{len(found_list)}")
                break
            except Found as found:
                if session.at_failure is not None:  # shrinking's games are not the search's
                    tally = session.at_failure
                    session.at_failure = None
                diagnosis = diagnose(make_engine, spec, found, adopted=adopted, ignore=ignore, seed=seed)
                found_list.append((found, diagnosis, session.edition))
                if len(found_list) >= deviations or tally.games >= n:
                    break
                grown = variant(spec, adopted + diagnosis.changes) if diagnosis.exact else None
                if grown is not None:
                    adopted += diagnosis.changes
                    session.adopt(grown)
                else:
                    session.recorded.add(_group(found, diagnosis, spec))
    except EngineLost as exc:
        if not found_list:
            return FuzzResult(ERROR, str(exc), kind=NOT_STARTED, games=tally.games, rounds=tally.rounds,
                              tally=tally)
    except (Flaky, Unrepeatable) as exc:
        if not found_list:
            return FuzzResult(FAIL, f"the engine answered the same game differently on a second run: {exc}",
                              kind="flaky", games=tally.games, rounds=tally.rounds, tally=tally)
    finally:
        session.close()
    seconds = time.perf_counter() - started
    if found_list:
        return _failed(found_list, spec, seed, out_dir, tally, seconds, adopted)
    games = f"{tally.games} game" + ("s" if tally.games != 1 else "")
    silenced = f", {tally.silenced} stopped where the rules are silent" if tally.silenced else ""
    skipped = sum(tally.skipped.values())
    looked = f", {skipped} stopped at an ignored clause" if skipped else ""
    return FuzzResult(PASS, f"no difference in {games} ({tally.rounds} rounds, "
                            f"{tally.actions} actions, {tally.probes} illegal actions refused{silenced}"
                            f"{looked}), seed {seed}", games=tally.games, rounds=tally.rounds,
                      seconds=seconds, tally=tally)


def _search(session: _Session, tally: Tally, n: int, seed: int | str) -> None:
    """Play the games drawn from `seed` until exactly `n` of them have sent an action; raises the
    shrunk Found when one differs. Games that send no action (a horizon of 0) are only deals and
    are not counted; once `n` games are counted the rest of the batch is not played."""
    for batch in batches(seed):
        for index, (horizon, tape) in enumerate(batch):
            if tally.games >= n:
                return
            try:
                session.game(horizon, tape, tally)
            except Found:
                session.at_failure = tally.snapshot()
                simplest = [(0, bytes(TAPE_BYTES))] * (len(batch) - index - 1)  # never reached
                _shrink(session, [*batch[:index + 1], *simplest], tally, seed)


def batches(seed: int | str) -> Iterator[list[Game]]:
    """The batches of games a run with `seed` plays, in order: each game's horizon uniform in
    0-MAX_HORIZON and its tape TAPE_BYTES uniform bytes, from a generator seeded by `seed` (a
    string seed is hashed with SHA-512: the same games on every machine and Python)."""
    rng = random.Random(f"llcheck-fuzz:{seed}")
    while True:
        yield [(rng.randrange(MAX_HORIZON + 1), rng.randbytes(TAPE_BYTES)) for _ in range(GAMES_PER_EXAMPLE)]


class Unrepeatable(Exception):
    """A batch that differed did not differ when played again: the engine is not deterministic."""


_GAME = st.tuples(st.integers(0, MAX_HORIZON), st.binary(min_size=TAPE_BYTES, max_size=TAPE_BYTES))


def _shrink(session: _Session, example: list[Game], tally: Tally, seed: int | str) -> NoReturn:
    """Shrink a batch that differs with hypothesis, and raise the smallest Found it reaches.

    The batch is the only example in a database of its own (see SHRINK_KEY), so hypothesis's reuse
    phase plays it first (its choices are the horizons and tapes, in order) and shrinks from
    there; nothing is generated. Unrepeatable when it does not differ again."""
    database = InMemoryExampleDatabase()
    choices = [choice for game in example for choice in game]
    database.save(SHRINK_KEY + b".secondary", choices_to_bytes(choices))
    budget = _ShrinkBudget(MAX_SHRINK_RUNS)
    first: list[list[Game]] = []

    @settings(max_examples=1, database=database, deadline=None, derandomize=False,
              phases=[Phase.reuse, Phase.shrink], verbosity=Verbosity.quiet, print_blob=False,
              report_multiple_bugs=False, suppress_health_check=list(HealthCheck))
    @hypothesis_seed(seed)
    @given(st.tuples(*[_GAME] * len(example)))
    def shrink(games: tuple[Game, ...]) -> None:
        if not first:
            first.append(list(games))
            if first[0] != example:
                return  # not the batch handed over: said below
        if not budget.allows(games):
            return
        try:
            for horizon, tape in games:
                session.game(horizon, tape, tally)
        except Found:
            budget.failed(games)
            raise

    shrink._hypothesis_internal_database_key = SHRINK_KEY  # type: ignore[attr-defined]
    shrink()
    if not first or first[0] != example:
        raise RuntimeError("hypothesis did not start shrinking from the batch that differed (a version "
                           "that reads its database otherwise?)")
    raise Unrepeatable("the batch that differed played the same on a second run")


class _ShrinkBudget:
    """Bounds shrinking: after `runs` examples following the first failure, only the smallest
    failing example found so far is played again (every other one passes untried, so hypothesis
    keeps it). Counting runs rather than seconds keeps the result the same on every machine."""

    def __init__(self, runs: int):
        self.runs = runs
        self.best: tuple[Game, ...] | None = None
        self.since = 0

    def allows(self, example: tuple[Game, ...]) -> bool:
        """True when the example is to be played."""
        if self.best is None:
            return True
        self.since += 1
        return self.since <= self.runs or example == self.best

    def failed(self, example: tuple[Game, ...]) -> None:
        """Remember the latest (hence smallest) failing example."""
        self.best = example


def _failed(found_list: list[tuple[Found, Diagnosis, Edition]], edition: Edition, seed: int,
            out_dir: Path | None, tally: Tally, seconds: float,
            adopted: tuple[Alternative, ...]) -> FuzzResult:
    """The result of a run that found differences: the first described in full, then each
    distinct deviation in a line (grouped by clause, the smallest replay kept)."""
    found_deviations: list[Deviation] = []
    problem = ""
    for found, diagnosis, played in found_list:
        saved = None
        if out_dir is not None:
            try:
                saved = save_case(case_of(played, found, seed), out_dir)
            except OSError as exc:
                problem = problem or f"the case could not be saved in {out_dir}: {exc.strerror or exc}"
        found_deviations.append(_deviation(found, diagnosis, played, saved, tally))
    grouped: dict[str, Deviation] = {}
    for dev in found_deviations:
        kept = grouped.get(dev.clause)
        if kept is None:
            grouped[dev.clause] = dev
            continue
        smaller = dev if _actions(dev.replay) < _actions(kept.replay) else kept
        grouped[dev.clause] = replace(smaller, seen=kept.seen + dev.seen)
    first, (found, diagnosis, _) = found_deviations[0], found_list[0]
    lines = [f"difference found (seed {seed}), shrunk to {found.record.where}: {found.message}",
             f"diagnosis: {diagnosis.text(edition)}",
             f"suspected clauses: {', '.join(found.clauses)}",
             f"replay: {json.dumps(first.replay, ensure_ascii=False)}"]
    if first.saved is not None:
        lines.append(f"saved as {first.saved}")
    elif problem:
        lines.append(problem)
    if len(grouped) > 1 or grouped[first.clause].seen > 1:
        lines.append(f"{len(grouped)} distinct deviation{'s' if len(grouped) != 1 else ''}, by clause:")
        lines += [f"  {dev.clause} (seen in {dev.seen} game{'s' if dev.seen != 1 else ''}): "
                  f"{dev.diagnosis.text(edition)}; replay: {json.dumps(dev.replay, ensure_ascii=False)}"
                  for dev in grouped.values()]
    return FuzzResult(FAIL, "\n".join(lines), first.replay, first.saved, found.kind, first.clauses,
                      case_of(edition, found, seed), tally.games, tally.rounds, seconds, tally,
                      found.point, tuple(grouped.values()), adopted)


def _deviation(found: Found, diagnosis: Diagnosis, played: Edition, saved: Path | None,
               tally: Tally) -> Deviation:
    replay = replay_of(played, found.record)
    named = diagnosis.clauses(played)
    clause = _group(found, diagnosis, played)
    seen = 1 + tally.skipped.get(clause, 0) if not diagnosis.exact else 1
    return Deviation(clause, f"{found.record.where}: {found.message}", diagnosis, replay, saved, found.kind,
                     tuple(dict.fromkeys([*named, *found.clauses])), found.point, seen)


def _group(found: Found, diagnosis: Diagnosis, edition: Edition) -> str:
    """The clause a deviation is grouped under: the diagnosis's, else the first suspect."""
    named = diagnosis.clauses(edition)
    return named[0] if named else (found.clauses[0] if found.clauses else "")


def _actions(replay: dict[str, Any] | None) -> int:
    return sum(len(r.get("actions", [])) for r in (replay or {}).get("rounds", []))
