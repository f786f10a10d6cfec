"""The mutant zoo: every mutant is a working engine, breaks what it says, and the suite catches it
naming the right clause (the mutation score of docs/mutants.md is 100%)."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import pytest

from llcheck.engines import ReferenceEngine, open_engine
from llcheck.engines.subprocess import SubprocessEngine
from llcheck.fuzz import FuzzResult, run_fuzz
from llcheck.harness.cases import Case, load_file
from llcheck.harness.runner import run_case
from llcheck.mutants import MUTANTS, ZOO, Mutant, get
from llcheck.mutants.score import default_cases, editions, fuzz_places, judge
from loveletter_ref.spec import load_spec

FUZZ_GAMES = 300


@cache
def corpus() -> tuple[Case, ...]:
    return tuple(default_cases())


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], tuple[FuzzResult, str]]:
    """Fuzzing a mutant where its rule shows (once per mutant): the result and the edition."""
    out = tmp_path_factory.mktemp("fuzz")

    @cache
    def run(name: str) -> tuple[FuzzResult, str]:
        edition, players = fuzz_places(get(name))[0]
        return run_fuzz(get(name).engine, edition, players, FUZZ_GAMES, 0, out / name), edition.id

    return run


def test_the_zoo_has_at_least_twenty_mutants_with_distinct_names():
    assert len(ZOO) >= 20
    assert len(MUTANTS) == len(ZOO)


@pytest.mark.parametrize("mutant", ZOO, ids=lambda m: m.name)
def test_every_mutant_names_clauses_of_a_bundled_edition(mutant: Mutant):
    assert mutant.breaks
    assert any(mutant.clauses(e) for e in editions())
    edition, players = mutant.shows_at
    assert mutant.clauses(load_spec(edition)) and load_spec(edition).supports(players)


@pytest.mark.parametrize("mutant", ZOO, ids=lambda m: m.name)
def test_every_mutant_plays_whole_games(mutant: Mutant):
    rng = random.Random(mutant.name)
    engine = mutant.engine()
    for edition in editions():
        deck = [edition.names[c] for c in edition.deck(3)]
        rng.shuffle(deck)
        assert engine.start(edition.id, 3, deck).accepted
        for _ in range(60):
            legal = engine.legal_actions()
            if not legal:
                break
            assert engine.apply(rng.choice(legal)).accepted
        assert engine.state()["phase"] in ("round_over", "game_over")


def test_mutants_load_by_name_as_impls():
    engine = open_engine("python:llcheck.mutants.engines:baron-tie-eliminates")
    assert engine.hello.name == "mutant baron-tie-eliminates"
    assert open_engine("python:llcheck.mutants.engines:baron_tie_eliminates").hello.name == engine.hello.name
    with pytest.raises(KeyError, match="no mutant"):
        get("no-such-mutant")


def test_a_mutant_is_served_over_the_protocol():
    from llcheck.engines.loader import serve_command
    command = serve_command() + ["--impl", "python:llcheck.mutants.engines:guard-may-name-guard"]
    with SubprocessEngine(command, timeout=20) as engine:
        assert engine.hello.name == "mutant guard-may-name-guard"
        edition = load_spec("classic")
        assert engine.start("classic", 2, [edition.names[c] for c in edition.deck(2)]).accepted
        assert any(a.get("guess") == "Guard" for a in engine.legal_actions())


@pytest.mark.parametrize("mutant", ZOO, ids=lambda m: m.name)
def test_the_suite_catches_every_mutant_and_names_its_clause(mutant: Mutant, fuzzed):
    verdict = judge(mutant, corpus(), fuzz=False)
    if not verdict.cases:
        verdict.fuzz, verdict.fuzz_at = fuzzed(mutant.name)
    assert verdict.caught, f"{mutant.name} is not caught: {verdict.other_failures} unattributed failures"
    named = set(verdict.broken())
    if verdict.cases:
        assert all(named & set(result.clauses) for result in verdict.cases)
    else:
        assert verdict.fuzz is not None and named & set(verdict.fuzz.clauses)


@pytest.mark.parametrize("mutant", ZOO, ids=lambda m: m.name)
def test_fuzzing_finds_every_mutant_and_saves_a_case_that_reproduces_it(mutant: Mutant, fuzzed):
    result, edition = fuzzed(mutant.name)
    assert result.status == "fail", result.message
    assert set(result.clauses) & set(mutant.clauses(load_spec(edition))), result.message
    assert result.saved is not None
    cases = load_file(result.saved, "required", edition)
    assert run_case(ReferenceEngine(), cases[0]).status == "passed"
    failed = run_case(mutant.engine(), cases[0])
    assert failed.status in ("failed", "errored")
    last_round = result.case["rounds"][-1] if result.case else {}
    if failed.divergence is not None and failed.divergence.round is not None:
        assert failed.divergence.round == len(result.case["rounds"]) if result.case else True
        assert failed.divergence.step == len(last_round.get("steps", []))
