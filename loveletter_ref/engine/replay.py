"""Replays: a game as data (spec id, players, decks, actions) and back."""

from __future__ import annotations

from typing import Any

from ..spec import Edition
from .actions import Action
from .game import Event, Game


def game_record(game: Game) -> dict[str, Any]:
    """The game so far as a JSON-ready replay."""
    return {
        "edition": game.edition.id,
        "players": game.players,
        "first_player": game.first_player,
        "tokens": list(game.initial_tokens),
        "rounds": [{"deck": list(r["deck"]), "first": r["first"],
                    "actions": [a.to_json() for a in r["actions"]]} for r in game.record],
    }


def replay(edition: Edition, record: dict[str, Any],
           game_class: type[Game] = Game) -> tuple[Game, list[Event]]:
    """Play a recorded game again; returns the game and every event, in order.

    Each round starts from its recorded deck (and starter, when recorded); actions are checked
    for legality, so a replay of an illegal sequence raises IllegalActionError.
    """
    game = game_class(edition, record["players"], first_player=record.get("first_player", 0),
                      tokens=record.get("tokens"))
    events: list[Event] = []
    for round_ in record["rounds"]:
        events += game.start_round(round_["deck"], first_player=round_.get("first"))
        for action in round_["actions"]:
            events += game.apply(Action.from_json(action))
    return game, events
