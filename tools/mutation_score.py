#!/usr/bin/env python3
"""Run the suite against every mutant of the zoo and write the mutation score, docs/mutants.md.

For each mutant: the default corpus (the cases `llcheck check` runs), then differential fuzzing
where the mutant's rule shows (always, so that the table says what each part catches). A mutant
counts as caught when a case naming a clause it breaks fails, or fuzzing names such a clause.

    python tools/mutation_score.py [--games N] [--seed S] [--check]

--check recomputes the table and exits 1 when docs/mutants.md differs, a mutant escapes, fuzzing
names a clause the mutant does not break first, counterfactual blame misses the exact variant of a
mutant that is one, or a clause a mutant breaks goes unreported.
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
(corpus: {cases} cases; fuzzing: {games} games, seed {seed}, where the rule shows, going on past
each difference as [fuzzing.md](fuzzing.md#fuzzing-goes-on) says).

Beyond being caught, fuzzing must name a clause the mutant breaks **first** (the *first* column);
for a mutant with two rules bent, report **both** among its distinct deviations (the *reported*
column, `-` for one rule bent); for a mutant that is nothing but a variant of the spec (one clause
or two stating something else), the counterfactual diagnosis must name **exactly** that variant,
confirmed on further games (the *diagnosis* column; `-` for a mutant that is no plain variant: a
`Game` subclass, an adapter).

**Mutation score: {caught}/{total} ({percent}%).** Bent clause named first: {first}/{total}.
Exact variant named: {exact}/{variants} of the mutants that are variants. Both rules reported:
{reported}/{several} of the mutants with two rules bent.

| mutant | what it bends | clause(s) broken | cases that catch it | fuzzing | first | reported | diagnosis |
| --- | --- | --- | --- | --- | --- | --- | --- |
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
    first = f"`{fuzz.clauses[0]}`" if fuzz is not None and fuzz.clauses else "-"
    first += "" if score.named_first else " (wrong)"
    reported = ("all" if score.all_reported else "not all") if mutant.rules_bent > 1 else "-"
    diagnosis = ("exact" if score.exact_variant else "missed") if score.expected_variant() else "-"
    return (f"| `{mutant.name}` | {mutant.summary} | {clauses} | {cases} | {fuzzing} | {first} | {reported} "
            f"| {diagnosis} |")


def page(games: int, seed: int) -> tuple[str, bool]:
    """The page, and whether every mutant was caught, named first and fully reported, and every
    variant diagnosed exactly."""
    cases = default_cases()
    scores = [judge(m, cases, fuzz=True, fuzz_games=games, seed=seed) for m in ZOO]
    caught = sum(v.caught for v in scores)
    first = sum(v.named_first for v in scores)
    variants = [v for v in scores if v.expected_variant()]
    exact = sum(v.exact_variant for v in variants)
    several = [v for v in scores if v.mutant.rules_bent > 1]
    reported = sum(v.all_reported for v in several)
    head = INTRO.format(cases=len(cases), games=games, seed=seed, caught=caught, total=len(ZOO),
                        percent=round(100 * caught / len(ZOO)), first=first, exact=exact,
                        variants=len(variants), reported=reported, several=len(several))
    perfect = caught == first == len(ZOO) and exact == len(variants) and reported == len(several)
    return head + "\n".join(row(v) for v in scores) + "\n", perfect


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=FUZZ_GAMES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text, perfect = page(args.games, args.seed)
    if args.check:
        same = DOC.is_file() and DOC.read_text(encoding="utf-8") == text
        return 0 if same and perfect else 1
    write_atomic(DOC, text)
    print(text)
    return 0 if perfect else 1


if __name__ == "__main__":
    sys.exit(main())
