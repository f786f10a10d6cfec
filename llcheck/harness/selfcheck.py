"""The corpus checks itself: valid files, known clauses and decks, full coverage, and every case
passing against the reference engine (in process; a disputed case under the reading it assumes)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from loveletter_ref.errors import Problem
from loveletter_ref.spec import load_spec

from ..engines import ReferenceEngine
from .cases import Case, coverage, load_corpus
from .results import PASSED, Result
from .runner import run_case


def reference_engine(case: Case) -> ReferenceEngine:
    """The reference engine a case must pass on: its edition's, or the reading it assumes."""
    if case.assumes is None:
        return ReferenceEngine()
    return ReferenceEngine({case.edition: load_spec(case.assumes)},
                           name=f"loveletter-reference ({case.assumes})")


def against_reference(cases: Iterable[Case]) -> list[Result]:
    """Each case run on a fresh in-process reference engine."""
    return [run_case(reference_engine(case), case) for case in cases]


@dataclass
class Verdict:
    """Everything `llcheck cases --validate` found: problems (bad input), gaps and failures."""

    cases: list[Case] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    uncovered: list[str] = field(default_factory=list)
    failures: list[Result] = field(default_factory=list)


def validate(root: Path | None = None) -> Verdict:
    """Run every self-check on the corpus under `root` (CaseError listing every file that cannot be
    loaded and every case that does not fit its edition)."""
    cases = load_corpus(root, checked=True)
    verdict = Verdict(cases)
    verdict.uncovered = [clause for clause, ids in coverage(cases).items() if not ids]
    verdict.failures = [r for r in against_reference(cases) if r.status != PASSED]
    return verdict
