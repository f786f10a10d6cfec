#!/usr/bin/env python3
"""Run the suite against every mutant of the zoo and write the mutation score, docs/mutants.md.

For each mutant: the default corpus (the cases `llcheck check` runs), then differential fuzzing
where the mutant's rule shows (always, so that the table says what each part catches). A mutant
counts as caught when a case naming a clause it breaks fails, or fuzzing names such a clause.

    python tools/mutation_score.py [--games N] [--seed S] [--check]

--check recomputes the table and exits 1 when docs/mutants.md differs (or a mutant escapes).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from llcheck.atomic import write_atomic
from llcheck.mutants import ZOO
from llcheck.mutants.score import FUZZ_GAMES, MutantScore, default_cases, judge

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "mutants.md"

INTRO = """\
# The mutant zoo and the mutation score

Each mutant is an engine with one rule bent on purpose (`conformance/llcheck/mutants/`): a `Game` subclass
that overrides one method, a spec with one clause rewritten, or an adapter whose views leak.
Each declares the clause(s) it breaks. A mutant is **caught** when a conformance case that
names one of those clauses fails on it, or when differential fuzzing finds a difference and
names one of them; a failure that names other clauses only, or a golden trace (which names
every clause), does not count. Any mutant is an engine: `--impl python:llcheck.mutants.engines:NAME`
runs it in process, and `llcheck serve --impl python:llcheck.mutants.engines:NAME` serves it
over the protocol.

`tests/test_mutants.py` checks in CI that every mutant is caught with its clause named, and that
fuzzing alone finds every one of them. This page is written by `python tools/mutation_score.py`
(corpus: {cases} cases; fuzzing: {games} games, seed {seed}, where the rule shows).

**Mutation score: {caught}/{total} ({percent}%).**

| mutant | what it bends | clause(s) broken | cases that catch it | fuzzing |
| --- | --- | --- | --- | --- |
"""


def row(score: MutantScore) -> str:
    """One table row."""
    mutant = score.mutant
    clauses = ", ".join(f"`{c}`" for c in score.broken())
    if score.cases:
        first = ", ".join(f"`{r.id}`" for r in score.cases[:2])
        more = f" (+{len(score.cases) - 2})" if len(score.cases) > 2 else ""
        cases = first + more
    else:
        cases = f"none ({score.other_failures} failures name other clauses)"
    fuzz = score.fuzz
    if fuzz is not None and score.fuzz_named:
        where = fuzz.message.splitlines()[0].split("shrunk to ", 1)[-1].split(":", 1)[0]
        fuzzing = f"{score.fuzz_at}: {fuzz.kind} at {where}"
    else:
        fuzzing = "not found"
    return f"| `{mutant.name}` | {mutant.summary} | {clauses} | {cases} | {fuzzing} |"


def page(games: int, seed: int) -> tuple[str, bool]:
    """The page, and whether every mutant was caught."""
    cases = default_cases()
    scores = [judge(m, cases, fuzz=True, fuzz_games=games, seed=seed) for m in ZOO]
    caught = sum(v.caught for v in scores)
    head = INTRO.format(cases=len(cases), games=games, seed=seed, caught=caught, total=len(ZOO),
                        percent=round(100 * caught / len(ZOO)))
    return head + "\n".join(row(v) for v in scores) + "\n", caught == len(ZOO)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=FUZZ_GAMES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text, all_caught = page(args.games, args.seed)
    if args.check:
        same = DOC.is_file() and DOC.read_text(encoding="utf-8") == text
        return 0 if same and all_caught else 1
    write_atomic(DOC, text)
    print(text)
    return 0 if all_caught else 1


if __name__ == "__main__":
    sys.exit(main())
