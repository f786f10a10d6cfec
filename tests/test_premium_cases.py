"""The Premium cases have teeth: an engine playing Premium with one rule bent fails the cases of
that rule, and the cases of the page's open questions fail an engine that settled them otherwise."""

from __future__ import annotations

import pytest
from property_breakers import ChoosesProtectedPlayers

from llcheck.engines import ReferenceEngine
from llcheck.harness.cases import Case, load_corpus
from llcheck.harness.runner import run_case
from loveletter_ref import Game
from loveletter_ref.spec import Clause, load_spec, spec_dir

PREMIUM = spec_dir() / "editions" / "premium.yaml"
NEUTRAL = "loses_at_showdown_to: [Jester]"
"""A rule that changes nothing in the cases, to stand in for the rule taken away."""


@pytest.fixture(scope="module")
def corpus() -> list[Case]:
    return [case for case in load_corpus() if case.edition == "premium" and case.status == "required"]


@pytest.mark.parametrize(("rule", "bent", "caught"), [
    ("loses_at_showdown_to: [Princess]", NEUTRAL,
     {"bishop.showdown/the-bishop-loses-to-the-princess"}),
    ("tie: [discard_total, all_win]", "tie: [discard_total, nobody]",
     {"round.tie/equal-discard-totals-both-win",
      "round.next-first/tied-winners-the-first-from-the-last-starter"}),
    ("compare: {loser: higher}", "compare: {loser: lower}",
     {"dowager-queen.compare/the-higher-hand-is-out", "dowager-queen.compare/its-own-player-when-higher"}),
    ("counter: {against: [Guard], empty_deck: set_aside}", NEUTRAL,
     {"assassin.counter/a-guard-naming-three-knocks-its-own-player-out",
      "assassin.counter/a-guard-naming-zero-knocks-its-own-player-out"}),
    ("force_next_target: target", NEUTRAL,
     {"sycophant.force/the-next-card-must-choose-the-marked-player",
      "sycophant.force/a-cardinal-must-include-the-marked-player",
      "sycophant.target/any-player-including-oneself"}),
    ("token_if_eliminated: 1", NEUTRAL,
     {"constable.token/a-discarded-constable-pays-when-its-player-is-knocked-out",
      "constable.token/the-fourth-token-ends-the-game-at-once"}),
    ("showdown_bonus: 1", "showdown_bonus: 2", {"count.bonus/one-count-adds-exactly-one"}),
    ('"5-8": 4}', '"5-8": 5}', {f"tokens.target/{n}-players-4-tokens-won-mid-round" for n in range(5, 9)}),
])
def test_a_bent_premium_rule_fails_its_cases(corpus, tmp_path, rule, bent, caught):
    text = PREMIUM.read_text(encoding="utf-8")
    assert text.count(rule) == 1
    path = tmp_path / "premium.yaml"
    path.write_text(text.replace(rule, bent), encoding="utf-8")
    spec = load_spec(path)
    failed = {case.id.split(".", 1)[1] for case in corpus
              if run_case(ReferenceEngine({"premium": spec}), case).status != "passed"}
    assert caught <= failed


def test_every_premium_card_and_rule_has_a_case_with_five_players_or_more(corpus):
    """The new cards' clauses are tested where the new cards are dealt."""
    spec = load_spec(PREMIUM)
    new = {clause.id for clause in spec.clauses.values()
           if clause.card is not None and spec.card(clause.card).count_for(4) == 0}
    tested = {clause for case in corpus if case.players >= 5 for clause in case.clauses}
    assert new and new <= tested



class AssassinHolderDrawsOnlyFromTheDeck(Game):
    """The Assassin's holder draws from the deck only: after the last draw, nothing."""

    def draw(self, player: int, set_aside_rule: Clause | None, clause_id: str) -> None:
        if not self.deck and set_aside_rule is not None and set_aside_rule.kind == "counter":
            return
        super().draw(player, set_aside_rule, clause_id)


@pytest.mark.parametrize(("game_class", "caught"), [
    (AssassinHolderDrawsOnlyFromTheDeck,
     {"assassin.counter/on-an-empty-deck-its-holder-draws-the-set-aside-card"}),
    (ChoosesProtectedPlayers,
     {"baroness.target/with-every-other-player-out-or-protected-it-does-nothing",
      "cardinal.target/with-only-its-own-player-to-choose-it-does-nothing"}),
])
def test_a_bent_premium_engine_fails_the_edge_cases(corpus, game_class, caught):
    failed = {case.id.split(".", 1)[1] for case in corpus
              if run_case(ReferenceEngine(game_class=game_class), case).status != "passed"}
    assert caught <= failed
