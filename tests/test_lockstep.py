"""The divergence core: two sides given the same inputs, where they are, and where they part."""

from __future__ import annotations

from loveletter_ref.lockstep import Answers, Divergence, Lockstep, Parted, Place, first_index, unmatched

GUARD = {"type": "play", "card": "Guard", "target": 1, "guess": "Priest"}


class _Counting:
    """A side that answers every input with how many it has been given."""

    def __init__(self) -> None:
        self.given = 0

    def deal(self, deck: list[str], /) -> int:
        self.given += 1
        return self.given

    def act(self, action: object, /) -> int:
        self.given += 1
        return self.given


def test_both_sides_get_every_input_in_order_and_the_trail_keeps_the_place():
    steps = Lockstep(Answers(["dealt", "played", "dealt again"]), _Counting())
    assert steps.place is None
    assert steps.deal(["Guard", "Priest"]) == ("dealt", 1)
    assert steps.place == Place(1, 0) and steps.place.where() == "round 1, deal"
    assert steps.act(GUARD) == ("played", 2)
    assert steps.place == Place(1, 1, GUARD)
    assert steps.place.where() == "round 1, step 1 (Guard on 1 naming Priest)"
    assert steps.deal(["Baron"]) == ("dealt again", 3)
    assert steps.place == Place(2, 0)
    assert steps.trail.rounds() == [(["Guard", "Priest"], [GUARD]), (["Baron"], [])]
    assert steps.trail.steps == [("deal", ["Guard", "Priest"]), ("move", GUARD), ("deal", ["Baron"])]


def test_a_divergence_is_made_at_the_last_input_with_its_action_shown_as_json():
    steps = Lockstep(_Counting(), _Counting(), show=lambda card: {"type": "play", "card": card})
    steps.deal([])
    steps.act("Baron")
    found = steps.part("events", [1], [2], "event 1 differs", ["classic.baron.compare"])
    assert found == Divergence(1, 1, "events", [1], [2], "event 1 differs", {"type": "play", "card": "Baron"},
                               ("classic.baron.compare",))
    assert found.summary() == "round 1, step 1 (Baron): events: event 1 differs"
    assert found.to_json() == {"round": 1, "step": 1, "action": {"type": "play", "card": "Baron"},
                               "what": "events", "expected": [1], "actual": [2], "detail": "event 1 differs"}
    assert str(Parted(found)) == "event 1 differs"


def test_a_divergence_after_the_last_step_is_the_result():
    found = Divergence(None, None, "result.tokens", [1, 0], [0, 1])
    assert found.summary() == "result: result.tokens"


def test_two_lists_compare_as_sets_by_key_the_last_item_of_a_key_standing_for_it():
    apart = unmatched([1, 2, 3], [3, 4, 4, 5])
    assert (apart.missing, apart.extra, apart.repeated) == ([1, 2], [4, 5], [4])
    twice = [{"card": "Guard", "n": 1}, {"card": "Guard", "n": 2}]
    apart = unmatched([], twice, key=lambda action: action["card"])
    assert apart.extra == apart.repeated == [{"card": "Guard", "n": 2}]
    assert not unmatched([1, 2], [2, 1])
    assert not unmatched(["a"], [{"card": "a"}], got_key=lambda action: action["card"])


def test_the_first_differing_item_of_two_lists():
    assert first_index([1, 2, 3], [1, 5, 3]) == 1
    assert first_index([1, 2], [1, 2, 3]) == 2
    assert first_index([1, True], [1, 1]) == 2
    assert first_index([1, True], [1, 1], lambda a, b: type(a) is type(b) and a == b) == 1
