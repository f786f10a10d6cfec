"""The resampler behind the hidden-information property: who has seen which card, and new deals.

One z-man-2019 round for three players: seat 0 draws a Guard, plays the Chancellor, draws a
Priest and a Spy, keeps the Priest and returns the Guard and the Spy; seat 1 then draws a Guard.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from llcheck.properties.hidden import Tracker, cuts, prefix, public, reference_run, resample, trackers
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
    other = resample(REPLAY, [tracker], 1, random.Random(3), shuffle=True)
    assert other is not None
    deck = other["rounds"][0]["deck"]
    assert Counter(deck) == Counter(DECK)
    assert [deck[i] for i in (1, 2, 7)] == [DECK[1], DECK[2], DECK[7]]
    assert other["rounds"][0]["actions"][1] == {"type": "keep", "card": deck[5], "return": [deck[4], deck[6]]}


def test_the_player_who_kept_sees_the_same_cards_in_every_resampled_deal(tracker):
    for seed in range(20):
        other = resample(REPLAY, [tracker], 0, random.Random(seed), shuffle=seed % 2 == 0)
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
        other = resample(part, tracked, 2, random.Random(seed), shuffle=True)
        again = reference_run(RULES, other) if other is not None else None
        if other is not None and again is not None and again.skeleton() == seen_run.skeleton():
            consistent.append(other["rounds"][0]["deck"])
    assert consistent
    assert all(deck[3] == DECK[3] and deck[1] == DECK[1] for deck in consistent)
    assert any(deck[0] != DECK[0] for deck in consistent)
