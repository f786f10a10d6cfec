"""Where two sides part: the place of a step, the first divergence found there, and their wording."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]


@dataclass(frozen=True)
class Place:
    """A point of the inputs two sides were given: `round` and `step` are 1-based, step 0 being the
    round's deal (`round` None: after the last step, where a case checks its result); `action` is
    the step's action, as JSON."""

    round: int | None
    step: int | None
    action: Json | None = None

    def where(self) -> str:
        """`round 1, step 3 (CARD on 1 naming CARD)`, `round 2, deal` or `result`."""
        return located(self.round, self.step, self.action)

    def to_json(self) -> Json:
        """The JSON report form (the keys a divergence locates itself with)."""
        return {"round": self.round, "step": self.step, "action": self.action}


@dataclass(frozen=True)
class Divergence:
    """The first point at which two sides, given the same inputs, answer differently.

    `round`, `step` and `action` say where, as a `Place` does. `what` names what differs there
    (`events`, `state.hands`, `view 1.log`, `action refused`, ...), and `also` what else differs
    at the same point when the answers are compared whole (a baseline's record). `expected` is the
    first side's value, `actual` the second's; `detail` says in one line how they differ;
    `clauses` are the rule clauses suspected, most likely first (empty when none is).
    """

    round: int | None
    step: int | None
    what: str
    expected: Any
    actual: Any
    detail: str = ""
    action: Json | None = None
    clauses: tuple[str, ...] = ()
    also: tuple[str, ...] = ()

    def where(self) -> str:
        """`round 1, step 3 (CARD on 1 naming CARD)`, `round 2, deal` or `result`."""
        return located(self.round, self.step, self.action)

    def summary(self) -> str:
        """One line: where, what, and how."""
        text = f"{self.where()}: {self.what}"
        return f"{text}: {self.detail}" if self.detail else text

    def to_json(self) -> Json:
        """The JSON report form."""
        return {"round": self.round, "step": self.step, "action": self.action, "what": self.what,
                "expected": self.expected, "actual": self.actual, "detail": self.detail}


class Parted(Exception):
    """Raised to stop two sides at their first divergence."""

    def __init__(self, divergence: Divergence):
        super().__init__(divergence.detail or divergence.summary())
        self.divergence = divergence


def located(round_: int | None, step: int | None, action: Json | None) -> str:
    """`round 1, step 3 (CARD on 1 naming CARD)`, `round 2, deal`, or `result` without a round."""
    if round_ is None:
        return "result"
    if not step:
        return f"round {round_}, deal"
    return f"round {round_}, step {step}" + (f" ({describe_action(action)})" if action is not None else "")


def describe_action(action: Json) -> str:
    """Short human form of an action: `CARD on 1 naming CARD`, `keep CARD, return [CARD]`."""
    if not isinstance(action, dict):
        return compact(action)
    card = action.get("card", "?")
    if action.get("type") == "keep":
        return f"keep {card}, return [{', '.join(map(str, action.get('return', [])))}]"
    if action.get("type") not in (None, "play"):
        return compact(action)
    text = str(card)
    if "target" in action:
        text += f" on {action['target']}"
    if "guess" in action:
        text += f" naming {action['guess']}"
    return text


def compact(value: Any, limit: int | None = None) -> str:
    """Compact JSON, shortened to `limit` characters when given."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=repr)
    return text if limit is None else shorten(text, limit)


def shorten(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, `...` ending it when cut."""
    return text if len(text) <= limit else text[:limit - 3] + "..."
