"""Decisions a player makes, the phases that ask for them, and their JSON form."""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

Event = dict[str, Any]
"""One thing that happened, in the JSON form of docs/formats.md."""


class Phase(enum.StrEnum):
    """What the game is waiting for."""

    SETUP = "setup"
    """No round has started yet."""
    PLAY = "play"
    """The player on turn must play one card from their hand."""
    KEEP = "keep"
    """The player on turn keeps one card and returns the rest (a draw-and-return card)."""
    RESPOND = "respond"
    """Another player answers an offer made by the card being resolved (e.g. to redraw)."""
    ROUND_OVER = "round_over"
    """The round has ended; the next round may start."""
    GAME_OVER = "game_over"
    """Someone reached the token target."""


DECIDING = frozenset({Phase.PLAY, Phase.KEEP, Phase.RESPOND})
"""The phases in which some player owes a decision."""

PLAY = "play"
KEEP = "keep"
RESPOND = "respond"


class Action(NamedTuple):
    """One decision.

    ``play``: play `card`, choosing `target` (a seat) and `guess` (a card name, or a value when
    the edition guesses by value) when the card asks for them; a card that chooses two players
    takes `targets` instead, and `look` when the player then looks at one of them.
    ``keep``: keep `card` and place `returned` under (or on) the deck, in that order.
    ``respond``: answer the offer of the card being resolved (`card`): `redraw` or not.
    """

    kind: str
    card: str
    target: int | None = None
    guess: str | int | None = None
    returned: tuple[str, ...] = ()
    targets: tuple[int, ...] = ()
    look: int | None = None
    redraw: bool | None = None

    def to_json(self) -> dict[str, Any]:
        """The protocol form: only the fields this decision uses."""
        out: dict[str, Any] = {"type": self.kind, "card": self.card}
        if self.kind == KEEP:
            out["return"] = list(self.returned)
            return out
        if self.kind == RESPOND:
            out["redraw"] = bool(self.redraw)
            return out
        if self.target is not None:
            out["target"] = self.target
        if self.targets:
            out["targets"] = list(self.targets)
        if self.look is not None:
            out["look"] = self.look
        if self.guess is not None:
            out["guess"] = self.guess
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Parse the protocol form; ValueError names the first field that is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"an action must be a JSON object, not {type(data).__name__}")
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in _FIELDS:
            raise ValueError(f"action type must be one of {', '.join(_FIELDS)}, not {kind!r}")
        if not data.keys() <= _FIELDS[kind]:
            extra = sorted(set(data) - _FIELDS[kind])
            raise ValueError(f"unexpected field {extra[0]!r} in a {kind} action")
        card = data.get("card")
        if not isinstance(card, str):
            raise ValueError("action field 'card' must be a card name")
        if kind == KEEP:
            return cls._keep_from(card, data)
        if kind == RESPOND:
            redraw = data.get("redraw")
            if not isinstance(redraw, bool):
                raise ValueError("respond action field 'redraw' must be true or false")
            return cls(RESPOND, card, redraw=redraw)
        return cls._play_from(card, data)

    @classmethod
    def _keep_from(cls, card: str, data: dict[str, Any]) -> Action:
        returned = data.get("return")
        if not isinstance(returned, list) or not all(isinstance(c, str) for c in returned):
            raise ValueError("keep action field 'return' must be a list of card names")
        return cls(KEEP, card, returned=tuple(returned))

    @classmethod
    def _play_from(cls, card: str, data: dict[str, Any]) -> Action:
        target, look, guess = data.get("target"), data.get("look"), data.get("guess")
        _seat(target, "target")
        _seat(look, "look")
        seats: tuple[int, ...] = ()
        if "targets" in data:
            targets = data["targets"]
            if not isinstance(targets, list):
                raise ValueError("action field 'targets' must be a list of seat numbers")
            seats = tuple(seat for seat in targets if _seat(seat, "targets") is not None)
        if guess is not None and (isinstance(guess, bool) or not isinstance(guess, (str, int))):
            raise ValueError("action field 'guess' must be a card name or a value")
        return cls(PLAY, card, target, guess, targets=seats, look=look)

    def describe(self) -> str:
        """Short human form: '<card> on 2 naming <card>', 'keep <card>, return [<card>, <card>]'."""
        if self.kind == KEEP:
            return f"keep {self.card}, return [{', '.join(self.returned)}]"
        if self.kind == RESPOND:
            return f"{'redraw' if self.redraw else 'keep the hand'} after the {self.card}"
        text = self.card
        if self.target is not None:
            text += f" on {self.target}"
        if self.targets:
            text += f" on {' and '.join(map(str, self.targets))}"
        if self.look is not None:
            text += f", looking at {self.look}"
        if self.guess is not None:
            text += f" naming {self.guess}"
        return text


_FIELDS = {
    PLAY: {"type", "card", "target", "targets", "look", "guess"},
    KEEP: {"type", "card", "return"},
    RESPOND: {"type", "card", "redraw"},
}


def _seat(value: Any, field: str) -> int | None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise ValueError(f"action field {field!r} must hold seat numbers")
    return value
