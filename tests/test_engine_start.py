"""A game's start: the reference engine refuses one that is already won, as `llcheck serve` does."""

from __future__ import annotations

import json

import pytest

from llcheck.engines import ReferenceEngine
from llcheck.engines.server import Server
from loveletter_ref import DeckError, Game, load_spec

WON = "player 0 starts with 5 tokens and the target is 5: a game cannot start won [premium.tokens.target]"


def test_a_game_cannot_start_with_the_target_already_reached():
    """premium.tokens.target: 5 tokens win a 3-player game, so a start with 5 is over already."""
    spec = load_spec("premium")
    with pytest.raises(DeckError) as info:
        Game(spec, 3, tokens=[5, 0, 0])
    assert str(info.value) == WON
    assert Game(spec, 3, tokens=[4, 4, 4]).game_winners is None


def test_serve_refuses_such_a_start():
    spec = load_spec("premium")
    server = Server(ReferenceEngine())
    assert server.respond(b'{"id": 1, "op": "hello", "protocol": "1"}')["ok"] is True
    request = {"id": 2, "op": "start", "edition": "premium", "players": 3, "first_player": 0,
               "deck": [spec.names[c] for c in spec.deck(3)], "tokens": [5, 0, 0]}
    assert server.respond(json.dumps(request).encode()) == {"id": 2, "ok": True, "accepted": False,
                                                            "reason": WON, "clause": "premium.tokens.target"}
