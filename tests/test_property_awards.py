"""What the token and round-end properties expect, read from Premium's spec: showdowns with
bonuses and a card that loses to another, tie-breaks, and tokens gained during a round."""

from __future__ import annotations

import pytest

from llcheck.properties.awards import gains_at_end, gains_during, prediction, showdown_winners
from llcheck.properties.rules import rules_for

RULES = rules_for("premium", 5)


def state(hands: list[list[str]], discards: list[list[str]], out: tuple[int, ...] = (), **more) -> dict:
    """A premium 5-player state with the given hands and discards (seats in `out` eliminated)."""
    return {"turn": 0, "hands": hands, "discards": discards, "eliminated": [s in out for s in range(5)],
            "round_winners": None, **more}


def test_premium_is_modelled_exactly():
    assert RULES.exact_tokens, RULES.unmodelled
    assert RULES.mid_round_ends and RULES.groups == {"Cardinal": (2, 2, True), "Baroness": (2, 1, False)}


@pytest.mark.parametrize("hands,discards,winners", [
    ([["King"], ["Countess"], [], [], []], [["Count"], ["Prince"], ["Guard"], [], []], [0, 1]),
    ([["King"], ["Countess"], [], [], []], [["Count", "Count"], [], [], [], []], [0]),
    ([["Bishop"], ["Princess"], [], [], []], [[], [], [], [], []], [1]),
    ([["Bishop"], ["Guard"], [], [], []], [["Count"], ["Count"], [], [], []], [0]),
    ([["Priest"], ["Cardinal"], [], [], []], [["Prince"], ["Guard", "Guard"], [], [], []], [0]),
    ([["Priest"], ["Cardinal"], [], [], []], [["Baron"], ["Priest", "Guard"], [], [], []], [0, 1]),
])
def test_the_showdown_adds_bonuses_honours_losing_cards_and_breaks_ties(hands, discards, winners):
    assert showdown_winners(RULES, state(hands, discards, out=(2, 3, 4))) == winners


def test_a_card_already_discarded_pays_its_player_when_knocked_out_but_not_one_discarded_going_out():
    prince = {"type": "play", "card": "Prince", "target": 1}
    before = state([["Guard", "Prince"], ["Princess"], ["Guard"], ["Guard"], ["Guard"]],
                   [[], ["Constable"], [], [], []])
    after = state([["Guard"], [], ["Guard"], ["Guard"], ["Guard"]],
                  [["Prince"], ["Constable", "Princess"], [], [], []], out=(1,))
    assert gains_during(RULES, before, after, prince) == [0, 1, 0, 0, 0]
    before = state([["Guard", "Baron"], ["Constable"], ["Guard"], ["Guard"], ["Guard"]], [[]] * 5)
    after = state([["Guard"], [], ["Guard"], ["Guard"], ["Guard"]],
                  [["Baron"], ["Constable"], [], [], []], out=(1,))
    assert gains_during(RULES, before, after, {"type": "play", "card": "Baron", "target": 1}) == [0] * 5


def test_a_correct_guess_that_scores_pays_its_player_unless_countered():
    before = state([["Bishop", "Guard"], ["King"], ["Assassin"], ["Guard"], ["Guard"]], [[]] * 5)
    hit = {"type": "play", "card": "Bishop", "target": 1, "guess": 6}
    assert gains_during(RULES, before, before, hit) == [1, 0, 0, 0, 0]
    assert gains_during(RULES, before, before, {**hit, "guess": 7}) == [0] * 5
    guard = {"type": "play", "card": "Guard", "target": 2, "guess": 0}
    assert gains_during(RULES, before, before, guard) == [0] * 5


def test_a_prediction_pays_when_the_marked_player_wins_even_if_its_maker_is_out():
    before = state([["Jester", "Guard"], ["King"], ["Guard"], ["Guard"], ["Guard"]], [[]] * 5)
    mark = prediction(RULES, before, {"type": "play", "card": "Jester", "target": 3})
    assert mark == (0, 3, 1)
    end = state([[], [], [], ["Guard"], []], [[]] * 5, out=(0, 1, 2, 4), round_winners=[3])
    assert gains_at_end(RULES, end, [mark]) == [1, 0, 0, 1, 0]
