"""The observer: what one player may see of the game, kept apart from the state.

A view holds the public state (with the marks cards leave on players, in editions that have
them), the player's own hand, and the round's events with every card the player did not see
removed. Who sees a hidden card is decided per event type below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Event, Game

HIDDEN_FIELD = {
    "deal": "card",
    "draw": "card",
    "look": "card",
    "compare": "cards",
    "trade": "cards",
    "return": "cards",
}
"""Events that carry a card some players must not see, and the field holding it."""

SEEN_BY_TARGET = ("compare", "trade")
"""Hidden-card events whose target sees the cards as well as the acting player."""


def sees(event: Event, player: int) -> bool:
    """True when `player` may see the hidden card(s) of `event`.

    Cards handed between two chosen players (`targets`) are seen by those two only.
    """
    if "targets" in event:
        return player in event["targets"]
    if event["type"] in SEEN_BY_TARGET and event.get("target") == player:
        return True
    return event.get("player") == player


def redact(event: Event, player: int) -> Event:
    """The event as `player` observes it."""
    hidden = HIDDEN_FIELD.get(event["type"])
    if hidden is None or sees(event, player):
        return event
    seen = dict(event)
    seen.pop(hidden, None)
    return seen


def view(game: Game, player: int, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything `player` knows: public state, own hand, redacted round log (docs/formats.md).

    `state` is the game's current `state()`, when the caller already holds it.
    """
    if state is None:
        state = game.state()
    seen = {
        "player": player,
        "edition": state["edition"],
        "players": state["players"],
        "round": state["round"],
        "phase": state["phase"],
        "turn": state["turn"],
        "starter": state["starter"],
        "hand": state["hands"][player],
        "hand_sizes": [len(hand) for hand in state["hands"]],
        "deck_size": len(state["deck"]),
        "set_aside_size": len(state["set_aside"]),
        "face_up": state["face_up"],
        "discards": state["discards"],
        "eliminated": state["eliminated"],
        "protected": state["protected"],
        "tokens": state["tokens"],
        "pending": state["pending"],
        "round_winners": state["round_winners"],
        "game_winners": state["game_winners"],
        "log": [event if event["type"] not in HIDDEN_FIELD else redact(event, player)
                for event in game.log],
    }
    if "marks" in state:  # public: every mark comes from a card played face up
        seen["marks"] = state["marks"]
    return seen
