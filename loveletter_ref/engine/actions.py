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
    ROUND_OVER = "round_over"
    """The round has ended; the next round may start."""
    GAME_OVER = "game_over"
    """Someone reached the token target."""


PLAY = "play"
KEEP = "keep"


class Action(NamedTuple):
    """One decision.

    ``play``: play `card`, choosing `target` (a seat) and `guess` (a card name, or a value when
    the edition guesses by value) when the card asks for them.
    ``keep``: keep `card` and place `returned` under (or on) the deck, in that order.
    """

    kind: str
    card: str
    target: int | None = None
    guess: str | int | None = None
    returned: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The protocol form: only the fields this decision uses."""
        out: dict[str, Any] = {"type": self.kind, "card": self.card}
        if self.target is not None:
            out["target"] = self.target
        if self.guess is not None:
            out["guess"] = self.guess
        if self.kind == KEEP:
            out["return"] = list(self.returned)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Parse the protocol form; ValueError names the first field that is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"an action must be a JSON object, not {type(data).__name__}")
        kind = data.get("type")
        if kind not in (PLAY, KEEP):
            raise ValueError(f"action type must be 'play' or 'keep', not {kind!r}")
        allowed = {"type", "card", "target", "guess"} if kind == PLAY else {"type", "card", "return"}
        extra = sorted(set(data) - allowed)
        if extra:
            raise ValueError(f"unexpected field {extra[0]!r} in a {kind} action")
        card = data.get("card")
        if not isinstance(card, str):
            raise ValueError("action field 'card' must be a card name")
        if kind == KEEP:
            returned = data.get("return")
            if not isinstance(returned, list) or not all(isinstance(c, str) for c in returned):
                raise ValueError("keep action field 'return' must be a list of card names")
            return cls(KEEP, card, returned=tuple(returned))
        target = data.get("target")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise ValueError("action field 'target' must be a seat number")
        guess = data.get("guess")
        if guess is not None and (isinstance(guess, bool) or not isinstance(guess, (str, int))):
            raise ValueError("action field 'guess' must be a card name or a value")
        return cls(PLAY, card, target, guess)

    def describe(self) -> str:
        """Short human form: 'Guard on 2 naming Priest', 'keep Baron, return [Guard, Spy]'."""
        if self.kind == KEEP:
            return f"keep {self.card}, return [{', '.join(self.returned)}]"
        text = self.card
        if self.target is not None:
            text += f" on {self.target}"
        if self.guess is not None:
            text += f" naming {self.guess}"
        return text
