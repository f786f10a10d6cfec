"""What the state machine records while it plays: every transition of every game, as JSON.

A `Transition` is one deal or one attempted action with the state before and after it; a
`GameTrace` is one game as the engine played it, and turns into the replay form of
docs/formats.md (`{edition, players, first_player, tokens, rounds: [{deck, actions}]}`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from loveletter_ref.lockstep import compact

Json = dict[str, Any]

DEAL = "deal"
ACT = "act"

DECISION_PHASES = ("play", "keep", "respond")
"""Phases in which a player owes the engine a decision."""
OVER_PHASES = ("round_over", "game_over")


@dataclass(frozen=True)
class Transition:
    """One deal (`kind` deal) or one attempted action (`kind` act), and what it did."""

    kind: str
    before: Json | None
    """The state before (None for the first deal of a game)."""
    after: Json
    accepted: bool = True
    action: Json | None = None
    events: list[Json] | None = None
    """The events the engine reported (engines claiming `events`)."""
    listed: list[Json] | None = None
    """The legal actions the engine listed before the action (engines claiming `legal_actions`)."""
    views: dict[int, Json] | None = None
    """The round's observers' views after the transition (when hidden information is checked)."""
    reason: str = ""
    """The engine's reason for a refusal."""

    @property
    def actor(self) -> int | None:
        """The seat that made the decision (None for a deal)."""
        if self.before is None or self.action is None:
            return None
        pending = self.before.get("pending")
        if isinstance(pending, dict) and pending.get("kind") == "respond":
            return pending.get("player")
        return self.before.get("turn")

    @property
    def round_ended(self) -> bool:
        """True when this accepted action ended the round, or this deal did (a rule knocked the
        first player out before their first decision, leaving one player in)."""
        if not self.accepted or self.after["phase"] not in OVER_PHASES:
            return False
        return self.kind == DEAL or (self.before is not None and self.before["phase"] in DECISION_PHASES)

    @property
    def new_turn(self) -> bool:
        """True when a turn began during this transition (a deal, or an action ending a turn)."""
        return self.accepted and self.after["phase"] == "play"


@dataclass
class RoundTrace:
    """One round: its deck and its transitions (the deal first)."""

    deck: list[str]
    transitions: list[Transition] = field(default_factory=list)
    observers: list[int] = field(default_factory=list)
    """The players whose views are recorded in this round (hidden information)."""

    def actions(self, upto: Transition | None = None) -> list[Json]:
        """The accepted actions in order (up to `upto`, included when it was accepted)."""
        out = []
        for t in self.transitions:
            if t.kind == ACT and t.accepted and t.action is not None:
                out.append(t.action)
            if t is upto:
                break
        return out


@dataclass
class GameTrace:
    """One game as the engine under test played it."""

    edition: str
    players: int
    first_player: int
    tokens: list[int] | None
    rounds: list[RoundTrace] = field(default_factory=list)
    abandoned: bool = False
    """The engine went somewhere the machine cannot follow (reported by `legality` when it runs)."""

    def replay(self, upto: Transition | None = None) -> Json:
        """The game's accepted actions as a replay (docs/formats.md), up to `upto` if given."""
        out: Json = {"edition": self.edition, "players": self.players, "first_player": self.first_player}
        if self.tokens is not None:
            out["tokens"] = list(self.tokens)
        out["rounds"] = []
        for round_ in self.rounds:
            out["rounds"].append({"deck": list(round_.deck), "actions": round_.actions(upto)})
            if upto is not None and any(t is upto for t in round_.transitions):
                break
        return out

    def locate(self, t: Transition) -> str:
        """'round R, step S (player P: ACTION)' for a transition of this game."""
        for number, round_ in enumerate(self.rounds, 1):
            steps = 0
            for other in round_.transitions:
                steps += other.kind == ACT
                if other is t:
                    if t.kind == DEAL:
                        return f"round {number}, the deal"
                    return f"round {number}, step {steps} (player {t.actor}: {describe_action(t.action)})"
        return "after the game"


def describe_action(action: Json | None) -> str:
    """Short human form of a JSON action: 'Guard on 2 naming Priest'."""
    if action is None:
        return "the deal"
    if action.get("type") == "keep":
        returned = action.get("return")
        shown = ", ".join(map(str, returned)) if isinstance(returned, list) else compact(returned)
        return f"keep {action.get('card')}, return {shown}"
    text = str(action.get("card"))
    if "target" in action:
        text += f" on {action['target']}"
    if "targets" in action:
        text += f" on {compact(action['targets'])}"
    if "look" in action:
        text += f" looking at {action['look']}"
    if "guess" in action:
        text += f" naming {action['guess']}"
    if "redraw" in action:
        text += " (redraw)" if action["redraw"] else " (keep the hand)"
    if action.get("type") not in (None, "play"):
        text = f"{action['type']} {text}"
    return text
