"""The corpus catches engines that bend a rule: each broken engine fails the cases of its clause."""

from __future__ import annotations

import pytest

from llcheck.engines import ReferenceEngine
from llcheck.harness.cases import Case, load_corpus
from llcheck.harness.runner import run_case
from loveletter_ref import Game


class TieKnocksOutThePlayer(Game):
    """A Baron tie knocks out the Baron's player."""

    def step_compare(self, step, play):
        hands, values = self.hands, self.tables.values
        if values[hands[play.player][0]] != values[hands[play.target][0]]:
            return super().step_compare(step, play)
        cards = [self.tables.names[hands[play.player][0]], self.tables.names[hands[play.target][0]]]
        self.emit({"type": "compare", "player": play.player, "target": play.target, "cards": cards,
                   "loser": play.player})
        self.eliminate(play.player, play.card, step.clause)


class PrincessSurvivesAPrince(Game):
    """A Princess discarded by a Prince leaves her holder in the round (and drawing)."""

    def discard(self, player, card):
        self.discards[player].append(card)
        self.emit({"type": "discard", "player": player, "card": self.tables.names[card]})


class HandmaidNeverExpires(Game):
    """Protection outlives the start of its owner's next turn."""

    def _begin_turn(self, player):
        shield = self.protected[player]
        super()._begin_turn(player)
        if shield is not None:
            self.protected[player] = shield
            self.log = [e for e in self.log if e != {"type": "unprotect", "player": player}]


class ChancellorReturnsToTheTop(Game):
    """Cards a Chancellor returns go on top of the deck."""

    def _keep(self, action):
        before = list(self.deck)
        super()._keep(action)
        returned = self.deck[:len(self.deck) - len(before)]
        self.deck = before + returned[::-1]


class LoserStartsTheNextRound(Game):
    """The next round starts with the player after the last round's winner."""

    def _next_starter(self):
        winner = super()._next_starter()
        return (winner + 1) % self.players if self.round else winner


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
