"""The resampler behind the hidden-information property: who has seen which card, and new deals.

One z-man-2019 round for three players: seat 0 draws a Guard, plays the Chancellor, draws a
Priest and a Spy, keeps the Priest and returns the Guard and the Spy; seat 1 then draws a Guard.
Then two five-player Premium rounds: a Cardinal trading two other hands, a Baroness looking at two.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from llcheck.properties.hidden import (
    RENAME,
    SHUFFLE,
    SWAP,
    Tracker,
    cuts,
    prefix,
    public,
    reference_run,
    resample,
    trackers,
)
from llcheck.properties.rules import rules_for
from loveletter_ref import load_spec
from loveletter_ref.engine import build_deck

SPEC = load_spec("z-man-2019")
RULES = rules_for(SPEC, 3)
DECK = build_deck(SPEC, 3, ["Chancellor", "King", "Baron"], ["Guard", "Priest", "Spy", "Guard"])
"""Position 0 is set aside, 1-3 are dealt, 4 is seat 0's draw, 5-6 the Chancellor's, 7 seat 1's draw."""
KEEP = {"type": "keep", "card": "Priest", "return": ["Guard", "Spy"]}
REPLAY = {"edition": "z-man-2019", "players": 3, "first_player": 0,
          "rounds": [{"deck": DECK, "actions": [{"type": "play", "card": "Chancellor"}, KEEP]}]}


@pytest.fixture(scope="module")
def tracker() -> Tracker:
    run = reference_run(RULES, REPLAY)
    assert run is not None
    [tracked] = trackers(RULES, REPLAY, run)
    return tracked


def test_each_player_has_seen_their_own_cards_and_everybody_the_played_ones(tracker):
    assert tracker.public == {1}
    assert tracker.seen[0] == {1, 4, 5, 6}
    assert tracker.seen[1] == {2, 7}
    assert tracker.seen[2] == {3}
    assert tracker.keeps == [(0, 5, [4, 6])]
    assert tracker.pile[-2:] == [4, 6]
    assert 0 in tracker.unseen(0) and 5 not in tracker.unseen(0)


def test_a_resampled_deal_moves_only_unseen_cards_and_renames_others_keep_decisions(tracker):
    other = resample(REPLAY, [tracker], 1, random.Random(3), SHUFFLE)
    assert other is not None
    deck = other["rounds"][0]["deck"]
    assert Counter(deck) == Counter(DECK)
    assert [deck[i] for i in (1, 2, 7)] == [DECK[1], DECK[2], DECK[7]]
    assert other["rounds"][0]["actions"][1] == {"type": "keep", "card": deck[5], "return": [deck[4], deck[6]]}


def test_the_player_who_kept_sees_the_same_cards_in_every_resampled_deal(tracker):
    for seed in range(20):
        other = resample(REPLAY, [tracker], 0, random.Random(seed), (SHUFFLE, SWAP, RENAME)[seed % 3])
        assert other is not None
        deck = other["rounds"][0]["deck"]
        assert [deck[i] for i in (1, 4, 5, 6)] == [DECK[i] for i in (1, 4, 5, 6)]
        assert other["rounds"][0]["actions"][1] == KEEP


def test_public_events_keep_no_hidden_card_and_no_clause():
    assert public({"type": "draw", "player": 0, "card": "Guard", "from": "deck"}) == \
        {"type": "draw", "player": 0, "from": "deck"}
    assert public({"type": "token", "player": 1, "amount": 1, "reason": "round", "clause": "z19.x"}) == \
        {"type": "token", "player": 1, "amount": 1, "reason": "round"}


def test_deals_consistent_with_what_a_player_knows_exist_and_change_what_they_cannot_see():
    run = reference_run(RULES, REPLAY)
    assert run is not None
    cut = cuts(REPLAY)[-1]
    part, seen_run = prefix(REPLAY, cut), run.prefix(cut)
    tracked = trackers(RULES, part, seen_run)
    consistent = []
    for seed in range(10):
        other = resample(part, tracked, 2, random.Random(seed), SHUFFLE)
        again = reference_run(RULES, other) if other is not None else None
        if other is not None and again is not None and again.skeleton() == seen_run.skeleton():
            consistent.append(other["rounds"][0]["deck"])
    assert consistent
    assert all(deck[3] == DECK[3] and deck[1] == DECK[1] for deck in consistent)
    assert any(deck[0] != DECK[0] for deck in consistent)


PREMIUM = load_spec("premium")
PREMIUM_RULES = rules_for(PREMIUM, 5)


def _premium_tracker(hands: list[str], actions: list[dict]) -> tuple[Tracker, int]:
    """The tracker of a five-player Premium round with these hands and actions; where hands begin."""
    deck = build_deck(PREMIUM, 5, hands, ["Handmaid", "Guard"])
    replay = {"edition": "premium", "players": 5, "first_player": 0,
              "rounds": [{"deck": deck, "actions": actions}]}
    run = reference_run(PREMIUM_RULES, replay)
    assert run is not None
    [tracked] = trackers(PREMIUM_RULES, replay, run)
    return tracked, PREMIUM_RULES.set_aside + PREMIUM_RULES.face_up


def test_a_trade_between_two_chosen_players_is_seen_by_them_and_the_look_by_the_player_only():
    cardinal = {"type": "play", "card": "Cardinal", "targets": [1, 2], "look": 2}
    tracked, base = _premium_tracker(["Cardinal", "Priest", "Baron", "King", "Count"], [cardinal])
    priest, baron = base + 1, base + 2
    assert priest in tracked.seen[0] and baron not in tracked.seen[0]
    assert {priest, baron} <= tracked.seen[1] and {priest, baron} <= tracked.seen[2]
    assert not {priest, baron} & tracked.seen[3]
    assert tracked.hands[1][0] == baron and tracked.hands[2] == [priest]


def test_a_look_at_two_hands_is_seen_by_the_player_alone():
    baroness = {"type": "play", "card": "Baroness", "targets": [2, 4]}
    tracked, base = _premium_tracker(["Baroness", "Priest", "Baron", "King", "Count"], [baroness])
    assert {base + 2, base + 4} <= tracked.seen[0] and base + 1 not in tracked.seen[0]
    assert base + 4 not in tracked.seen[2] and base + 2 not in tracked.seen[4]
