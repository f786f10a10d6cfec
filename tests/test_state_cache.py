"""`StateCache` gives the state `Game.state()` gives, after every step of every edition and player
count, whatever changed: the fuzzer's reference side and the in-process reference adapter read it."""

from __future__ import annotations

import random

import pytest

from loveletter_ref import Game, Phase, load_spec
from loveletter_ref.engine import DECIDING
from loveletter_ref.engine.state import StateCache


@pytest.mark.parametrize("edition", ["classic", "z-man-2019", "premium"])
def test_the_cached_state_is_the_state_after_every_step(edition):
    spec = load_spec(edition)
    steps = 0
    for players in range(spec.min_players, spec.max_players + 1):
        rng = random.Random(players)
        for seed in range(25):
            game = Game(spec, players, seed=seed)
            cache = StateCache(game)
            while game.phase is not Phase.GAME_OVER:
                game.start_round()
                assert cache.state() == game.state()
                while game.phase in DECIDING:
                    game.apply_unchecked(game.sample_action(rng))
                    assert cache.state() == game.state()
                    steps += 1
    assert steps > 1000


def test_a_change_made_in_place_is_seen_and_each_call_gives_a_new_dictionary():
    game = Game(load_spec("classic"), 2, seed=3)
    game.start_round()
    cache = StateCache(game)
    first = cache.state()
    game.tokens[1] += 1  # in place, as a broken adapter might
    second = cache.state()
    assert second["tokens"] == [0, 1] and first["tokens"] == [0, 0]
    assert second is not first and second["deck"] is first["deck"]  # what did not change is shared


class _Worded(Game):
    """A game that words its state otherwise (as a test's broken engine may)."""

    __slots__ = ()

    def state(self) -> dict:
        return {**super().state(), "round": 99}


def test_a_game_that_words_its_state_otherwise_is_asked_for_it_whole():
    game = _Worded(load_spec("classic"), 2, seed=3)
    game.start_round()
    cache = StateCache(game)
    game.apply_unchecked(game.legal_actions()[0])
    assert cache.state()["round"] == 99
