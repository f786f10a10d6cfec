"""Counterfactual blame: which clause, stated otherwise, makes the reference play as the engine does.

A difference found by fuzzing (or a logged game that diverged: `llcheck.logs.diagnosis`) is
played again, step for step, against references built from variants of the spec
(`loveletter_ref.variants`): each clause replaced by each of its alternatives, the suspected
clauses first. A variant *explains* the difference when the engine and that reference agree on
the whole replay (states, events, legal actions, refusals, views). Several may explain one short
replay; they are then ranked by how many more games, decoded from tapes of a seeded generator,
the engine plays exactly as that variant does (a confirmation, not a proof). When the best single
clause explains the replay but not every further game, it is paired with each other clause's
alternatives (a second rule bent); when no single clause explains the replay, pairs of a suspect
and any other clause are tried. When nothing explains it, the diagnosis says so, and the ranked
suspects stand.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass

from loveletter_ref.errors import DeckError, RuleGapError
from loveletter_ref.spec import Edition
from loveletter_ref.variants import Alternative, alternatives, variant

from ..engines.base import Engine, EngineFailure
from .lockstep import ENGINE, Differential, Found, Record
from .play import Tally, Tape, play_game

CONFIRM_GAMES = 12
"""Games a variant that explains the replay is confirmed on (the first that differs stops it)."""

CONFIRM_TAPE = 160
"""Bytes of each confirmation game's tape."""

REFUSED_DEAL = "deal"
"""The `Found` kind of a deal the engine refused."""

PAIR_SUSPECTS = 4
"""How many of the suspected clauses (with alternatives) pairs are built from."""

MAX_REPLAYS = 400
"""Variants a diagnosis plays the replay under at most (a count, so that it is the same everywhere)."""


@dataclass(frozen=True)
class Diagnosis:
    """What explains a difference: the `changes` (one clause, or two) under which the reference
    plays exactly as the engine did, on the replay and on `confirmed` of `games` more games; no
    changes when no variant explains it. `tried` counts the variants played."""

    changes: tuple[Alternative, ...]
    confirmed: int
    games: int
    tried: int

    @property
    def explained(self) -> bool:
        """True when a variant reproduces the engine's behaviour (on the replay at least)."""
        return bool(self.changes)

    @property
    def exact(self) -> bool:
        """True when the variant also plays every confirmation game as the engine did."""
        return bool(self.changes) and self.confirmed == self.games

    def clauses(self, edition: Edition) -> tuple[str, ...]:
        """The full ids of the clauses changed."""
        return tuple(f"{edition.prefix}.{change.key}" for change in self.changes)

    def text(self, edition: Edition) -> str:
        """One line: `your engine plays as if `classic.baron.tie` were `both_out``."""
        if not self.changes:
            return (f"no variant of one or two clauses tried reproduces the engine ({self.tried} "
                    "tried); the suspects stand")
        said = " and ".join(change.says(edition.prefix) for change in self.changes)
        if not self.games:
            return f"this game plays as if {said}; no further game was there to confirm it"
        if self.exact:
            return f"your engine plays as if {said} (the replay and {self.games} more games agree)"
        return (f"this replay plays as if {said}, but your engine differs from that variant in game "
                f"{self.confirmed + 1} of {self.games} more: no variant tried explains every game")


class Engines:
    """One engine under test for every replay, opened again after it fails."""

    def __init__(self, make_engine: Callable[[], Engine]):
        self.make_engine = make_engine
        self.engine: Engine | None = None

    def get(self) -> Engine:
        """The engine, opened if none is (EngineFailure when it cannot be)."""
        if self.engine is None:
            self.engine = self.make_engine()
        return self.engine

    def lost(self) -> None:
        """Close the engine (after a failure, or when done); the next `get` opens another."""
        if self.engine is not None:
            with contextlib.suppress(EngineFailure):
                self.engine.close()
        self.engine = None


def diagnose(make_engine: Callable[[], Engine], edition: Edition, found: Found, *,
             adopted: Sequence[Alternative] = (), ignore: Collection[str] = (), seed: int = 0,
             games: int = CONFIRM_GAMES) -> Diagnosis:
    """The variant of `edition` (on top of the changes already `adopted`) that explains `found`."""
    engines = Engines(make_engine)
    try:
        return _diagnose(engines, edition, found, tuple(adopted), ignore, seed, games)
    finally:
        engines.lost()


def _diagnose(engines: Engines, edition: Edition, found: Found, adopted: tuple[Alternative, ...],
              ignore: Collection[str], seed: int, games: int) -> Diagnosis:
    failed = found.kind in (ENGINE, REFUSED_DEAL)
    return search(edition, found.clauses,
                  lambda spec: replays(engines, spec, found.record, ignore, failed),
                  lambda spec: confirm(engines, spec, found.record.players, ignore, seed, games),
                  games, adopted)


def search(edition: Edition, suspects: Sequence[str], explains: Callable[[Edition], bool],
           confirms: Callable[[Edition], int], games: int,
           adopted: tuple[Alternative, ...] = ()) -> Diagnosis:
    """The variant of `edition` (on top of the changes already `adopted`) that `explains` a
    difference: each clause's alternatives, the `suspects`' first, then pairs; those that explain
    it ranked by how many of `games` more games `confirms` finds the engine playing alike. The
    one search behind the diagnosis of a fuzzed difference and of a logged game's."""
    taken = {change.key for change in adopted}
    order = list(dict.fromkeys([*suspects, *edition.clauses]))
    options = [(cid, alts) for cid in order
               if (alts := [a for a in alternatives(edition, cid) if a.key not in taken])]
    tried = 0

    def explained(changes: tuple[Alternative, ...]) -> Edition | None:
        nonlocal tried
        if tried >= MAX_REPLAYS:
            return None
        spec = variant(edition, adopted + changes)
        if spec is None:
            return None
        tried += 1
        return spec if explains(spec) else None

    def best(candidates: Iterator[tuple[Alternative, ...]]) -> Diagnosis | None:
        matches = [(changes, spec) for changes in candidates if (spec := explained(changes)) is not None]
        if not matches:
            return None
        scored = [(confirms(spec), -i, changes) for i, (changes, spec) in enumerate(matches)]
        confirmed, _, changes = max(scored)
        return Diagnosis(changes, confirmed, games, tried)

    single = best(_singles(options))
    if single is not None and single.exact:
        return single
    anchors = [change for changes in ([single.changes] if single is not None else []) for change in changes]
    pair = best(_pairs(options, anchors) if anchors else _pairs(options, []))
    if pair is not None and (pair.exact or single is None):
        return pair
    return single if single is not None else Diagnosis((), 0, games, tried)


def _singles(options: list[tuple[str, list[Alternative]]]) -> Iterator[tuple[Alternative, ...]]:
    for _, alts in options:
        for alt in alts:
            yield (alt,)


def _pairs(options: list[tuple[str, list[Alternative]]],
           anchors: list[Alternative]) -> Iterator[tuple[Alternative, ...]]:
    """Two clauses' alternatives: each anchor (a variant that explains the replay alone) with
    every other clause's; without anchors, each of the first PAIR_SUSPECTS suspects' with any
    other clause's."""
    if anchors:
        for anchor in anchors:
            for _, alts in options:
                for alt in alts:
                    if alt.key != anchor.key:
                        yield (anchor, alt)
        return
    for i, (_, first) in enumerate(options[:PAIR_SUSPECTS]):
        for j, (_, second) in enumerate(options):
            if j == i or (j < PAIR_SUSPECTS and j < i):
                continue
            for a in first:
                for b in second:
                    yield (a, b)


def replays(engines: Engines, spec: Edition, record: Record, ignore: Collection[str],
            failed: bool = False) -> bool:
    """True when the engine plays the record's game exactly as a reference of `spec` does. When
    the engine `failed` at the record's last input (or refused it), a reference that finds no rule
    for that input (a rule gap) or refuses its setup (tokens at the target) plays it as the engine did."""
    try:
        step = Differential(engines.get(), spec, record.players, ignore)
    except EngineFailure:
        engines.lost()
        return False
    last = len(record.trail.steps)
    given = 0
    try:
        for number, (deck, steps) in enumerate(record.rounds):
            given += 1
            if number == 0:
                step.start(list(deck), record.first_player, record.tokens)
            else:
                step.next_round(list(deck))
            for sent in steps:
                given += 1
                legal = step.legal()
                if sent.probe:
                    step.probe(sent.action)
                elif sent.action in legal:
                    step.play(sent.action)
                else:
                    return False
            if step.live:
                step.legal()
            for seat in range(record.players):
                step.compare_view(seat)
    except Found as found:
        if found.kind == ENGINE:
            engines.lost()
        return False
    except (RuleGapError, DeckError):  # no rule for this input, or a setup the variant refuses
        return failed and given == last
    except Exception:  # noqa: BLE001 - a valid spec whose parts do not fit (a trade of two
        return False   # players chosen one at a time): the reference cannot play it, it explains nothing
    return True


def confirm(engines: Engines, spec: Edition, players: int, ignore: Collection[str], seed: int,
            games: int) -> int:
    """How many of `games` seeded games the engine plays as a reference of `spec`, up to the first
    that differs."""
    rng = random.Random(f"{seed}/{spec.id}/{players}")
    for played in range(games):
        try:
            step = Differential(engines.get(), spec, players, ignore)
            play_game(step, rng.randrange(256), Tape(rng.randbytes(CONFIRM_TAPE)), Tally())
        except RuleGapError:  # the variant has no rule here: the game agreed as far as it went
            continue
        except Found as found:
            if found.kind == ENGINE:
                engines.lost()
            return played
        except Exception:  # noqa: BLE001 - the engine failed, or the reference cannot play the variant
            engines.lost()
            return played
    return games
