"""The JSON forms the engine hands out: every action parses back to itself, a malformed action is
refused naming its field, and a state is the caller's to change."""

from __future__ import annotations

import pytest
from played import positions

from loveletter_ref import Action


@pytest.mark.parametrize("edition,players", [("classic", 4), ("z-man-2019", 3), ("premium", 6)])
def test_every_legal_action_parses_back_to_itself(edition, players):
    seen = 0
    for game in positions(edition, players, range(30)):
        for action in game.legal_actions():
            assert Action.from_json(action.to_json()) == action
            seen += 1
    assert seen > 100


@pytest.mark.parametrize("data,message", [
    ({"type": "play", "card": "Guard", "target": True}, "'target' must hold seat numbers"),
    ({"type": "play", "card": "Guard", "look": "1"}, "'look' must hold seat numbers"),
    ({"type": "play", "card": "Cardinal", "targets": None}, "'targets' must be a list"),
    ({"type": "play", "card": "Cardinal", "targets": [0, "1"]}, "'targets' must hold seat numbers"),
    ({"type": "play", "card": "Guard", "target": 1, "guess": False}, "'guess' must be a card name"),
    ({"type": "play", "card": "Guard", "whom": 1}, "unexpected field 'whom'"),
    ({"type": "play", "card": 3}, "'card' must be a card name"),
    ({"type": "keep", "card": "Guard", "return": "Spy"}, "'return' must be a list"),
    ({"type": "respond", "card": "Guard", "redraw": 1}, "'redraw' must be true or false"),
    ({"type": "pass"}, "action type must be one of"),
    (["play", "Guard"], "must be a JSON object"),
])
def test_a_malformed_action_is_refused_naming_its_field(data, message):
    with pytest.raises(ValueError, match=message):
        Action.from_json(data)


def test_two_targets_parse_in_order_and_a_null_target_means_none():
    parsed = Action.from_json({"type": "play", "card": "Cardinal", "targets": [2, None, 0], "look": 0})
    assert parsed.targets == (2, 0) and parsed.look == 0 and parsed.target is None


def test_a_state_is_the_callers_to_change():
    for game in positions("z-man-2019", 4, range(5)):
        state = game.state()
        hands = [list(hand) for hand in state["hands"]]
        for hand in state["hands"]:
            hand.append("Princess")
        assert game.state()["hands"] == hands
        assert hands == [game.hand_names(seat) for seat in range(4)]
        for seat, hand in enumerate(game.hands):  # canonical order: by value, then name
            assert [game.tables.index[n] for n in game.hand_names(seat)] == \
                sorted(hand, key=game.tables.rank.__getitem__)
