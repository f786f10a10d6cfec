"""The corpus checks itself: valid files, known clauses and decks, full coverage (of clauses, clause
pairs and player counts), and every case passing against the reference engine (in process; a
disputed case under the reading it assumes)."""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from loveletter_ref.errors import Problem
from loveletter_ref.spec import load_spec

from ..engines import ReferenceEngine
from .cases import Case, coverage, load_corpus
from .pairs import Pair, pair_coverage
from .results import PASSED, Result
from .runner import run_case


def reference_engine(case: Case) -> ReferenceEngine:
    """The reference engine a case must pass on: its edition's, or the reading it assumes."""
    if case.assumes is None:
        return ReferenceEngine()
    return ReferenceEngine({case.edition: load_spec(case.assumes)},
                           name=f"loveletter-reference ({case.assumes})")


def against_reference(cases: Iterable[Case], root: Path | None = None) -> list[Result]:
    """Each case run on a fresh in-process reference engine, with the command that runs it again
    (`root`: the case folder, when not the bundled corpus)."""
    return [replace(run_case(reference_engine(case), case), replay=replay(case, root)) for case in cases]


def replay(case: Case, root: Path | None = None) -> str:
    """The `llcheck check` command that runs one case on the reference engine it must pass on."""
    impl = "reference" if case.assumes is None else f"llcheck serve --spec {case.assumes}"
    command = f"llcheck check --impl {shlex.quote(impl)}"
    if root is not None:
        command += f" --corpus {shlex.quote(str(root))}"
    command += f" --assume {case.assumes}" if case.assumes else f" --status {case.status}"
    return f"{command} --run {shlex.quote(case.id)}"


@dataclass
class SelfCheck:
    """Everything `llcheck cases --validate` found: problems (bad input), gaps and failures."""

    cases: list[Case] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    uncovered: list[str] = field(default_factory=list)
    uncovered_pairs: list[Pair] = field(default_factory=list)
    count_gaps: list[tuple[str, str]] = field(default_factory=list)
    """(clause, group) for each player-count group a player-count clause has no case in."""
    failures: list[Result] = field(default_factory=list)


def validate(root: Path | None = None) -> SelfCheck:
    """Run every self-check on the corpus under `root` (CaseError listing every file that cannot be
    loaded and every case that does not fit its edition)."""
    cases = load_corpus(root, checked=True)
    found = SelfCheck(cases)
    if root is None:  # coverage is required of the bundled corpus; a folder of your own covers what it covers
        found.uncovered = [clause for clause, ids in coverage(cases).items() if not ids]
        pairs = pair_coverage(cases)
        found.uncovered_pairs, found.count_gaps = pairs.uncovered, pairs.count_gaps
    found.failures = [r for r in against_reference(cases, root) if r.status != PASSED]
    return found
