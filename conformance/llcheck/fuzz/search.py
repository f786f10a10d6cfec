"""Differential fuzzing: hypothesis chooses decks and actions, the engine under test and the
reference play them in lockstep, and the first difference is shrunk, printed and saved.

Each hypothesis example is a batch of games; each game is a horizon (how many actions to send
at most) and a byte tape its choices are read from (`play`). Batching keeps hypothesis's own
cost per game small; shrinking deletes the games that do not matter, lowers the horizon to the
shortest replay that still differs, and turns every other choice into the first option.
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Flaky

from loveletter_ref.errors import RuleGapError
from loveletter_ref.lockstep import Divergence
from loveletter_ref.spec import Edition, load_spec

from ..engines.base import Engine, EngineFailure
from ..errors import UsageError
from .lockstep import ENGINE, Differential, Found
from .play import Tally, Tape, play_game
from .saved import case_of, replay_of, save_case

GAMES_PER_EXAMPLE = 5
"""Games played by one hypothesis example."""

TAPE_BYTES = 160
"""Choices available to one game (more read as zeros)."""

MAX_SHRINK_RUNS = 150
"""Examples hypothesis may play while shrinking a difference."""

MAX_HORIZON = 255
"""The largest horizon: more actions than any game here sends."""

PASS, FAIL, ERROR = "pass", "fail", "error"
"""FuzzResult statuses: no difference found; a difference found; the engine could not be run."""

NOT_STARTED = "not_started"
"""The `kind` of an error where the engine could not be started (or started again)."""


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

    @property
    def ok(self) -> bool:
        """True when no difference was found."""
        return self.status == PASS


class EngineLost(Exception):
    """The engine failed and could not be started again."""


class _Session:
    """The engine under test, reopened after it fails."""

    def __init__(self, make_engine: Callable[[], Engine], edition: Edition, players: int,
                 ignore: Collection[str]):
        self.make_engine = make_engine
        self.edition = edition
        self.players = players
        self.ignore = ignore
        self.engine: Engine | None = None
        self.step: Differential | None = None

    def open(self) -> Differential:
        if self.step is None:
            self.engine = self.make_engine()
            self.step = Differential(self.engine, self.edition, self.players, self.ignore)
        return self.step

    def game(self, horizon: int, tape: bytes, tally: Tally) -> None:
        try:
            step = self.open()
        except EngineFailure as exc:
            raise EngineLost(f"the engine could not be started again: {exc}") from None
        try:
            play_game(step, horizon, Tape(tape), tally)
        except Found as found:
            if found.kind == ENGINE:
                self.close()
            raise
        except RuleGapError:  # the reference plays a reading silent here: no rule to hold the engine to
            tally.silenced += 1

    def close(self) -> None:
        if self.engine is not None:
            with contextlib.suppress(EngineFailure):
                self.engine.close()
        self.engine = self.step = None


def run_fuzz(make_engine: Callable[[], Engine], edition: str | Edition, players: int, n: int,
             seed: int, out_dir: Path | None, *, ignore: Collection[str] = ()) -> FuzzResult:
    """Fuzz `n` games of `edition` with `players` against the reference (see the module doc).

    `make_engine` returns a fresh engine (it is called again if the engine fails). `edition` may
    be a compiled spec: the reference then plays it, and the engine is asked for its id (a way
    to look past a deviation already known). `ignore` names state keys left out of comparisons
    (for an engine known not to keep them). The same seed explores the same games. A
    difference is shrunk, described in `message`, and saved as a case file in `out_dir`.
    """
    spec = edition if isinstance(edition, Edition) else load_spec(edition)
    if not spec.supports(players):
        raise UsageError(f"{spec.id} is for {spec.min_players}-{spec.max_players} players, not {players}")
    if n < 1:
        raise UsageError("the number of games to fuzz must be at least 1")
    session = _Session(make_engine, spec, players, ignore)
    try:
        hello = session.open().engine.hello
    except EngineFailure as exc:
        return FuzzResult(ERROR, f"could not start the engine: {exc}", kind=NOT_STARTED)
    if spec.id not in hello.editions:
        session.close()
        raise UsageError(f"{hello.name} does not play {spec.id} (it plays {', '.join(hello.editions)})")
    tally = Tally()
    started = time.perf_counter()
    try:
        _search(session, tally, n, seed)
    except Found as found:
        return _failed(found, spec, seed, out_dir, tally, time.perf_counter() - started)
    except EngineLost as exc:
        return FuzzResult(ERROR, str(exc), kind=NOT_STARTED, games=tally.games, rounds=tally.rounds,
                          tally=tally)
    except Flaky as exc:
        return FuzzResult(FAIL, f"the engine answered the same game differently on a second run: {exc}",
                          kind="flaky", games=tally.games, rounds=tally.rounds, tally=tally)
    finally:
        session.close()
    seconds = time.perf_counter() - started
    games = f"{tally.games} game" + ("s" if tally.games != 1 else "")
    silenced = f", {tally.silenced} stopped where the rules are silent" if tally.silenced else ""
    return FuzzResult(PASS, f"no difference in {games} ({tally.rounds} rounds, "
                            f"{tally.actions} actions, {tally.probes} illegal actions refused{silenced}), "
                            f"seed {seed}", games=tally.games, rounds=tally.rounds, seconds=seconds,
                      tally=tally)


def _search(session: _Session, tally: Tally, n: int, seed: int) -> None:
    """Run hypothesis until exactly `n` games have sent an action; raises the shrunk Found
    when there is one. Games that send no action (a horizon of 0, as in hypothesis's simplest
    example) are only deals and are not counted; once `n` games are counted the rest are not
    played. When a run's examples are used up first, another runs from a seed derived from `seed`."""
    attempt = 0
    while tally.games < n:
        before = tally.games
        _examples(session, tally, n, seed if attempt == 0 else f"{seed}/{attempt}")
        if tally.games == before:
            return  # nothing more to play (cannot happen with a horizon drawn from 0-255)
        attempt += 1


def _examples(session: _Session, tally: Tally, n: int, seed: int | str) -> None:
    """One hypothesis run, with as many examples as the games still to count need."""
    batch = min(GAMES_PER_EXAMPLE, n)
    games = st.lists(st.tuples(st.integers(0, MAX_HORIZON),
                               st.binary(min_size=TAPE_BYTES, max_size=TAPE_BYTES)),
                     min_size=batch, max_size=batch)
    budget = _ShrinkBudget(MAX_SHRINK_RUNS)

    # one example more than the games need, for hypothesis's simplest one (horizon 0 everywhere)
    @settings(max_examples=math.ceil((n - tally.games) / batch) + 1, database=None, deadline=None,
              derandomize=False, phases=[Phase.generate, Phase.shrink], verbosity=Verbosity.quiet,
              print_blob=False, report_multiple_bugs=False, suppress_health_check=list(HealthCheck))
    @hypothesis_seed(seed)
    @given(games)
    def fuzz(batch_of_games: list[tuple[int, bytes]]) -> None:
        if not budget.allows(batch_of_games):
            return
        try:
            for horizon, tape in batch_of_games:
                if budget.best is None and tally.games >= n:
                    return  # the count is reached (while shrinking, every game is played)
                session.game(horizon, tape, tally)
        except Found:
            budget.failed(batch_of_games)
            raise

    fuzz()


class _ShrinkBudget:
    """Bounds shrinking: after `runs` examples following the first failure, only the smallest
    failing example found so far is played again (every other one passes untried, so hypothesis
    keeps it). Counting runs rather than seconds keeps the result the same on every machine."""

    def __init__(self, runs: int):
        self.runs = runs
        self.best: list[tuple[int, bytes]] | None = None
        self.since = 0

    def allows(self, example: list[tuple[int, bytes]]) -> bool:
        """True when the example is to be played."""
        if self.best is None:
            return True
        self.since += 1
        return self.since <= self.runs or example == self.best

    def failed(self, example: list[tuple[int, bytes]]) -> None:
        """Remember the latest (hence smallest) failing example."""
        self.best = example


def _failed(found: Found, edition: Edition, seed: int, out_dir: Path | None, tally: Tally,
            seconds: float) -> FuzzResult:
    replay = replay_of(edition, found.record)
    case = case_of(edition, found, seed)
    lines = [f"difference found (seed {seed}), shrunk to {found.record.where}: {found.message}",
             f"suspected clauses: {', '.join(found.clauses)}",
             f"replay: {json.dumps(replay, ensure_ascii=False)}"]
    saved = None
    if out_dir is not None:
        try:
            saved = save_case(case, out_dir)
            lines.append(f"saved as {saved}")
        except OSError as exc:
            lines.append(f"the case could not be saved in {out_dir}: {exc.strerror or exc}")
    return FuzzResult(FAIL, "\n".join(lines), replay, saved, found.kind, tuple(found.clauses), case,
                      tally.games, tally.rounds, seconds, tally, found.point)
