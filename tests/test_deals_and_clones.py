"""Seeded deals and game copies: what replays, perft tables, baselines and searches rely on."""

from __future__ import annotations

import random

import pytest

from loveletter_ref import Game, load_spec
from loveletter_ref.engine import DECIDING
from loveletter_ref.engine.game import shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 5, 16, 21, 32, 100])
def test_shuffle_draws_what_random_shuffle_draws(size):
    for seed in range(400):
        ours, theirs = list(range(size)), list(range(size))
        mine, python = random.Random(seed), random.Random(seed)
        shuffle(ours, mine.getrandbits)
        python.shuffle(theirs)
        assert ours == theirs, f"seed {seed}"
        assert mine.getstate() == python.getstate(), f"seed {seed}: a different number of bits drawn"


@pytest.mark.parametrize("edition", ["classic", "z-man-2019", "premium"])
def test_a_seeded_round_deals_the_seeds_shuffle(edition):
    spec = load_spec(edition)
    for seed in (0, 1, 7, 12345):
        game, players = Game(spec, 2, seed=seed), random.Random(seed)
        game.start_round()
        while game.phase in DECIDING:
            game.apply(game.sample_action(players))
        game.start_round()
        python = random.Random(seed)
        expected = []
        for _ in range(2):
            order = list(game.tables.deck)
            python.shuffle(order)
            expected.append([game.tables.names[c] for c in order])
        assert [r["deck"] for r in game.record] == expected


class Annotated(Game):
    """A subclass that keeps an attribute of its own, as mutants and test engines do."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.notes: list[str] = []


def test_a_clone_is_independent_and_keeps_a_subclass_attributes():
    game = Annotated(load_spec("classic"), 3, seed=4)
    game.start_round()
    game.notes.append("dealt")
    twin = game.clone()
    assert type(twin) is Annotated and twin.notes == ["dealt"]
    assert twin.state() == game.state() and twin.legal_actions() == game.legal_actions()
    twin.apply(twin.legal_actions()[0])
    assert twin.state() != game.state()
    assert game.state()["turn"] == game.current and len(game.record[-1]["actions"]) == 0


@pytest.mark.parametrize("edition,players", [("classic", 2), ("z-man-2019", 4), ("premium", 6)])
def test_a_clone_sets_every_slot_to_an_equal_value(edition, players):
    game = Game(load_spec(edition), players, seed=2)
    game.start_round()
    game.apply(game.legal_actions()[-1])
    twin = game.clone()
    slots = [name for cls in type(game).__mro__ for name in getattr(cls, "__slots__", ())]
    assert {"hands", "deck", "record", "log"} <= set(slots)
    for name in slots:
        if name != "_rng":  # a clone draws no seeded deal of its own until asked
            assert getattr(twin, name) == getattr(game, name), name
