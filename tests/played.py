"""Rounds played to their end by seeded random legal actions: the states some tests walk through."""

from __future__ import annotations

import random
from collections.abc import Iterator

from loveletter_ref import Game, load_spec
from loveletter_ref.engine import DECIDING


def positions(edition: str, players: int, seeds: range) -> Iterator[Game]:
    """For each seed, one round's game at every decision and once more when the round is over
    (the caller may look, not move: the next action is applied after it yields)."""
    spec = load_spec(edition)
    for seed in seeds:
        game, rng = Game(spec, players, seed=seed), random.Random(seed)
        game.start_round()
        while game.phase in DECIDING:
            yield game
            game.apply(game.sample_action(rng))
        yield game
