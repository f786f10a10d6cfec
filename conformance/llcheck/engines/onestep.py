"""The one-step Chancellor (capability `one_step_chancellor`): an engine that takes the keep and
return of a draw-and-return card in the play itself, `{"type": "play", "card": "Chancellor",
"keep": "Guard", "return": ["Priest", "Baron"]}`, mapped onto the rules' two steps, a play and
then a keep (docs/formats.md#actions)."""

from __future__ import annotations

from collections.abc import Iterable

from .base import Json

ONE_STEP_FIELDS = ("keep", "return")
"""What a one-step play adds to the play: the card kept and the cards returned, in order."""


def combined(play: Json, keep: Json) -> Json:
    """A play and the keep that follows it, as one action."""
    return {**play, "keep": keep["card"], "return": keep["return"]}


def split(action: Json) -> tuple[Json, Json | None]:
    """An action as the rules' steps: a one-step play as its play and its keep; any other
    action as it is, and None."""
    if action.get("type") != "play" or "keep" not in action:
        return action, None
    play = {key: value for key, value in action.items() if key not in ONE_STEP_FIELDS}
    return play, {"type": "keep", "card": action["keep"], "return": action.get("return", [])}


def as_plays(actions: Iterable[Json]) -> list[Json]:
    """Legal actions listed by a one-step engine as the rules' plays: each one-step play as the
    play it starts, listed once however many keeps the engine lists for it."""
    out: list[Json] = []
    combined_plays: list[Json] = []
    for action in actions:
        play, keep = split(action)
        if keep is None:
            out.append(play)
        elif play not in combined_plays:
            combined_plays.append(play)
            out.append(play)
    return out
