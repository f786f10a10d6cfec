"""The corpus catches engines that bend a rule: each broken engine fails the cases of its clause."""

from __future__ import annotations

import pytest
from broken_games import (
    ChancellorReturnsToTheTop,
    HandmaidNeverExpires,
    LoserStartsTheNextRound,
    PrincessSurvivesAPrince,
    TieKnocksOutThePlayer,
)

from llcheck.engines import ReferenceEngine
from llcheck.harness.cases import Case, load_corpus
from llcheck.harness.runner import run_case


@pytest.fixture(scope="module")
def corpus() -> list[Case]:
    return [case for case in load_corpus() if case.status == "required"]


@pytest.mark.parametrize(("broken", "clause", "caught"), [
    (TieKnocksOutThePlayer, "baron.tie", "baron.tie/nobody-is-out"),
    (PrincessSurvivesAPrince, "princess.discard", "princess.discard/discarded-by-a-prince"),
    (HandmaidNeverExpires, "handmaid.protect", "handmaid.protect/until-the-start-of-the-owners-next-turn"),
    (ChancellorReturnsToTheTop, "chancellor.draw-return",
     "chancellor.draw-return/keep-one-return-two-to-the-bottom"),
    (LoserStartsTheNextRound, "round.next-first", "round.next-first/the-round-winner-starts"),
])
def test_a_broken_rule_fails_the_cases_of_its_clause(corpus, broken, clause, caught):
    failed = {case.id: case for case in corpus
              if run_case(ReferenceEngine(game_class=broken), case).status != "passed"}
    named = {case_id.split(".", 1)[1] for case_id in failed}
    assert caught in named
    assert any(c.endswith(f".{clause}") for case in failed.values() for c in case.clauses)
