#!/usr/bin/env python3
"""Run the suite against loveletter 0.0.5 (the PyPI package) and keep its known-failures list.

1. the conformance corpus (the cases `llcheck check` runs by default), each failure sorted
   under the deviation that explains it (docs/third-party/loveletter-0.0.5.md);
2. differential fuzzing at 2, 3 and 4 players, first against classic as it is, then against
   classic with the Guard allowed to name a Guard and tokens left out, to see past the first
   deviations; and rounds of random legal play, states compared after every action;
3. perft on the published classic deals, against classic and against that variant.

It writes conformance/known-failures/loveletter-0.0.5.txt (the corpus failures and the fuzzing
campaigns that `llcheck check --fuzz` runs), or with --check exits 1 when the list is stale.
A failure that no deviation explains stops the script: a new deviation must be documented first.

    python tools/thirdparty_loveletter005.py [--check] [--games N] [--depth N]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

from llcheck.atomic import write_atomic
from llcheck.fuzz import run_fuzz
from llcheck.harness.cases import load_corpus
from llcheck.harness.results import ERRORED, FAILED, Result
from llcheck.harness.runner import run_cases
from llcheck.harness.select import Selection
from llcheck.mutants import variants
from llcheck.perft import compare, load_table, table_path
from llcheck.thirdparty.loveletter005 import Loveletter005
from loveletter_ref import Game, Phase, load_spec

ROOT = Path(__file__).resolve().parents[1]
KNOWN = ROOT / "conformance" / "known-failures" / "loveletter-0.0.5.txt"
FUZZ_GAMES = 10
"""Games per campaign in the CI check (`llcheck check --fuzz 10 --seed 0`)."""

RANDOM_ROUNDS = 1500
"""Rounds of random play per player count in the exploration."""

DEVIATIONS = {
    "D1": "two players: no cards are set aside face up (classic.setup.face-up)",
    "D2": "the Guard may name a Guard (classic.guard.guess)",
    "D3": "more than four players are dealt in (the classic deck is for 2-4)",
    "D4": "no favour tokens: one round per game (classic.tokens.round-win, classic.tokens.target)",
    "D5": "a showdown tie goes to the tied player next in turn, not to the higher discard total "
          "(classic.round.tie)",
}
"""The deviations of docs/third-party/loveletter-0.0.5.md, by label."""

HEADER = """\
# loveletter 0.0.5 (PyPI) against the classic corpus: cases it is known to fail, and why.
# Each reason starts with the deviation's label in docs/third-party/loveletter-0.0.5.md.
# Written by tools/thirdparty_loveletter005.py; checked in CI by tests/test_thirdparty_loveletter005.py:
#   llcheck check --impl python:llcheck.thirdparty.loveletter005:Loveletter005 \\
#       --known-failures conformance/known-failures/loveletter-0.0.5.txt --fuzz 10 --seed 0
"""


def classify(result: Result) -> str | None:
    """The deviation that explains a failure, or None."""
    text = result.message or ""
    what = result.divergence.what if result.divergence is not None else ""
    if "favour tokens" in text or what.startswith("state.tokens") or what == "state.game_winners":
        return "D4"
    if result.players == 2:
        return "D1"
    if result.players > 4:
        return "D3"
    if '"guess": "Guard"' in text or "naming Guard" in text:
        return "D2"
    if what == "state.round_winners":
        return "D5"
    return None


def corpus_failures() -> dict[str, str]:
    """Case id -> deviation label, for every corpus case the engine fails."""
    cases = Selection(editions=["classic"]).choose(load_corpus())
    found: dict[str, str] = {}
    for result in run_cases(cases, Loveletter005).results:
        if result.status not in (FAILED, ERRORED):
            continue
        label = classify(result)
        if label is None:
            raise SystemExit(f"{result.id}: a failure no documented deviation explains: {result.message}")
        found[result.id] = label
    return found


def fuzz_failures(games: int, seed: int) -> dict[str, str]:
    """Campaign id -> deviation label, for the fuzzing campaigns of the CI check."""
    labels = {2: "D1", 3: "D2", 4: "D2"}
    found: dict[str, str] = {}
    for players, label in labels.items():
        result = run_fuzz(Loveletter005, "classic", players, games, seed, None)
        print(f"fuzz classic {players}p: {result.message.splitlines()[0]}")
        if not result.ok:
            found[f"fuzz/classic/{players}p"] = label
    return found


def known_text(failures: dict[str, str]) -> str:
    """The known-failures file."""
    width = max(len(case_id) for case_id in failures)
    lines = [f"{case_id:<{width}}  {label}: {DEVIATIONS[label]}"
             for case_id, label in sorted(failures.items())]
    return HEADER + "\n".join(lines) + "\n"


def random_rounds(players: int, rounds: int) -> Counter[str]:
    """Rounds of random legal play (the reference's policy, seeded by the round's number) by the
    state keys, tokens aside, that first differ after some action ('' when none does)."""
    classic, engine = load_spec("classic"), Loveletter005()
    found: Counter[str] = Counter()
    for number in range(rounds):
        rng = random.Random(number * 7 + players)
        deck = [classic.names[c] for c in classic.deck(players)]
        rng.shuffle(deck)
        reference = Game(classic, players)
        reference.start_round(deck)
        state = engine.start("classic", players, deck).state or {}
        differ = _differ(reference.state(), state)
        while not differ and reference.phase is Phase.PLAY:
            action = reference.sample_action(rng)
            reference.apply_unchecked(action)
            differ = _differ(reference.state(), engine.apply(action.to_json()).state or {})
        found[", ".join(differ)] += 1
    return found


def _differ(want: dict[str, object], got: dict[str, object]) -> list[str]:
    return [key for key in want if key != "tokens" and want[key] != got.get(key)]


def explore(games: int, depth: int) -> None:
    """Fuzzing, random rounds and perft past the first deviations (printed, for the report)."""
    classic = load_spec("classic")
    for players in (3, 4):
        counts = random_rounds(players, RANDOM_ROUNDS)
        print(f"{RANDOM_ROUNDS} random rounds, {players}p, first differing state keys: "
              + ", ".join(f"{key or 'none'}: {n}" for key, n in counts.most_common()))
    guard_may_name_guard = variants.mutated("classic", (("guard.guess", "guess",
                                                           lambda edition, rule: {**rule, "exclude": []}),))
    for players in (3, 4):
        result = run_fuzz(Loveletter005, guard_may_name_guard, players, games, 0, None, ignore=("tokens",))
        print(f"fuzz past D2 and D4, {players}p, {result.games} games: {result.message}")
    for entry in load_table(table_path("classic")):
        for name, spec in (("classic", classic), ("classic with D2", guard_may_name_guard)):
            if entry.deal.players == 2:
                continue
            deep = min(depth, len(entry.levels))
            result = compare(Loveletter005(), entry.deal, deep, edition=spec)
            verdict = "matches" if result.ok else f"differs at depth {result.first_difference}"
            print(f"perft {entry.deal.id} to depth {deep} against {name}: {verdict}"
                  + (f"; {result.divergence.detail}" if result.divergence else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check the list is up to date")
    parser.add_argument("--games", type=int, default=300, help="games per exploratory fuzzing run")
    parser.add_argument("--depth", type=int, default=3, help="deepest perft comparison")
    parser.add_argument("--no-explore", action="store_true", help="skip the exploratory runs")
    args = parser.parse_args()
    failures = {**corpus_failures(), **fuzz_failures(FUZZ_GAMES, 0)}
    for label in DEVIATIONS:
        shown = sorted(case_id for case_id, found in failures.items() if found == label)
        print(f"{label} {DEVIATIONS[label]}: {len(shown)} case(s) {', '.join(shown)}")
    text = known_text(failures)
    if args.check:
        stale = not KNOWN.is_file() or KNOWN.read_text(encoding="utf-8") != text
        if stale:
            print(f"{KNOWN} is stale: run tools/thirdparty_loveletter005.py", file=sys.stderr)
        return 1 if stale else 0
    KNOWN.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(KNOWN, text)
    print(f"wrote {KNOWN}")
    if not args.no_explore:
        explore(args.games, args.depth)
    return 0


if __name__ == "__main__":
    sys.exit(main())
