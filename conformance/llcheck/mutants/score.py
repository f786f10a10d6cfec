"""The mutation score: run the suite against each mutant and see whether, and by what, it is caught.

A mutant is caught when a conformance case that names one of the clauses it breaks fails on it,
or, failing that, when differential fuzzing finds a difference and names one of those clauses.
A failure that names other clauses only does not count: the report must point at the right rule.
Golden traces name every clause of their edition, so their failures count as caught but not as
naming the clause.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from loveletter_ref.spec import Edition, load_spec
from loveletter_ref.variants import same_rule

from ..fuzz import FuzzResult, run_fuzz
from ..harness.cases import Case, load_corpus
from ..harness.results import ERRORED, FAILED, Result
from ..harness.runner import run_cases
from ..harness.select import Selection
from .zoo import Mutant

UNATTRIBUTED = ("golden",)
"""Corpus folders whose cases name every clause: a failure there points at no rule in particular."""

FUZZ_GAMES = 300
"""Games fuzzed per edition and player count when the cases do not catch a mutant."""


@dataclass
class MutantScore:
    """How the suite did against one mutant."""

    mutant: Mutant
    cases: list[Result] = field(default_factory=list)
    """Failed cases that name a clause the mutant breaks."""
    other_failures: int = 0
    """Failed cases that name none of them (or every clause: golden traces)."""
    fuzz: FuzzResult | None = None
    fuzz_at: str = ""
    """`edition/Np` where fuzzing found the difference."""
    fuzz_edition: Edition | None = None
    """The edition fuzzed last."""

    @property
    def caught(self) -> bool:
        """True when a case or the fuzzer named a broken clause."""
        return bool(self.cases) or self.fuzz_named

    @property
    def fuzz_named(self) -> bool:
        """True when fuzzing found a difference that names a broken clause."""
        return self.fuzz is not None and not self.fuzz.ok and self.fuzz.status != "error" and bool(
            set(self.fuzz.clauses) & set(self.broken()))

    @property
    def named_first(self) -> bool:
        """True when fuzzing's first named clause is one the mutant breaks."""
        return self.fuzz_named and self.fuzz is not None and self.fuzz.clauses[0] in self.broken()

    def reported(self) -> set[str]:
        """Every clause fuzzing reported a deviation under (or a diagnosis named)."""
        if self.fuzz is None or self.fuzz_edition is None:
            return set()
        edition = self.fuzz_edition
        return {c for dev in self.fuzz.deviations for c in (dev.clause, *dev.diagnosis.clauses(edition))}

    @property
    def all_reported(self) -> bool:
        """True when every clause the mutant breaks in the fuzzed edition was reported."""
        edition = self.fuzz_edition
        return edition is not None and set(self.mutant.clauses(edition)) <= self.reported()

    def expected_variant(self) -> tuple[tuple[str, Any], ...]:
        """The variant the mutant is, in the fuzzed edition (empty when it is no plain variant)."""
        return self.mutant.variant(self.fuzz_edition) if self.fuzz_edition is not None else ()

    @property
    def exact_variant(self) -> bool:
        """True when counterfactual blame named exactly the variant the mutant plays (each of its
        changed clauses, with the rule it states), confirmed on further games."""
        if self.fuzz is None:
            return False
        edition = self.fuzz_edition
        named = [change for dev in self.fuzz.deviations if dev.diagnosis.exact
                 for change in dev.diagnosis.changes]
        wanted = self.expected_variant()
        return edition is not None and bool(wanted) and all(
            any(change.key == key and same_rule(edition, change.rule, rule) for change in named)
            for key, rule in wanted)

    def broken(self) -> list[str]:
        """The full ids of the clauses the mutant breaks, in every bundled edition."""
        return [c for e in editions() for c in self.mutant.clauses(e)]


def editions() -> list[Edition]:
    """The editions mutants are scored on."""
    return [load_spec("classic"), load_spec("z-man-2019")]


def default_cases() -> list[Case]:
    """The cases `llcheck check` runs by default, for the scored editions."""
    return Selection(editions=[e.id for e in editions()]).choose(load_corpus())


def judge(mutant: Mutant, cases: Sequence[Case], *, fuzz: bool | None = None, fuzz_games: int = FUZZ_GAMES,
          seed: int = 0) -> MutantScore:
    """Run `cases` on the mutant, then fuzz it when they did not catch it (or when `fuzz` is True)."""
    score = MutantScore(mutant)
    broken = set(score.broken())
    for result in run_cases(cases, mutant.engine).results:
        if result.status in (FAILED, ERRORED):
            if broken & set(result.clauses) and result.group not in UNATTRIBUTED:
                score.cases.append(result)
            else:
                score.other_failures += 1
    if fuzz or (fuzz is None and not score.cases):
        _fuzz(score, fuzz_games, seed)
    return score


def _fuzz(score: MutantScore, games: int, seed: int) -> None:
    """Fuzz where the mutant's rule shows first, then every edition and player count, until a
    broken clause is named."""
    for edition, players in fuzz_places(score.mutant):
        score.fuzz = run_fuzz(score.mutant.engine, edition, players, games, seed, None)
        score.fuzz_at = f"{edition.id}/{players}p"
        score.fuzz_edition = edition
        if score.fuzz_named:
            return


def fuzz_places(mutant: Mutant) -> list[tuple[Edition, int]]:
    """Editions and player counts to fuzz a mutant at, the place its rule shows first."""
    places = [(e, n) for e in editions() if mutant.clauses(e)
              for n in range(e.min_players, min(e.max_players, 4) + 1)]
    return sorted(places, key=lambda place: (place[0].id, place[1]) != mutant.shows_at)
