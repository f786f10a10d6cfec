"""Witness games: a deal and a list of actions that two specs play differently.

A witness is kept in a spec-neutral form (steps: deals and neutral moves, see `duel`) and can be
played again under any spec (`replay_looks`) or written out as each side's machine replay, the
JSON form of docs/formats.md: `{"edition", "players", "first_player", "tokens"?, "rounds":
[{"deck", "actions"}]}` (plus `versions` when a contradicted clause is played in a version other
than the first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from loveletter_ref import Action
from loveletter_ref.lockstep import DEAL, MOVE, Step
from loveletter_ref.spec import Edition

from .duel import Look, Table, neutral


@dataclass
class Witness:
    """A game in which two specs part: where they first differ, and where a table sees it."""

    players: int
    first_player: int
    tokens: tuple[int, ...] | None
    steps: list[Step]
    """Deals (`("deal", card names, top first)`) and neutral moves (`("move", move)`)."""
    diverged: int
    """Index of the first step after which the two games differ at all."""
    looks: list[tuple[Look, Look]] = field(default_factory=list, repr=False)
    """What each step showed under each spec (not stored; rebuilt by replaying)."""

    @property
    def ends(self) -> int:
        """Index of the step at which the difference is seen (the last step)."""
        return len(self.steps) - 1

    def rounds(self, table_edition: Edition) -> list[dict[str, Any]]:
        """The steps as replay rounds, each action in the form `table_edition` expects."""
        table = Table(table_edition, self.players, self.first_player, self.tokens)
        out: list[dict[str, Any]] = []
        for kind, value in self.steps:
            if kind == DEAL:
                out.append({"deck": list(value), "actions": []})
                table.deal(value)
            else:
                out[-1]["actions"].append(table.action(value).to_json())
                if table.phase is not None:
                    table.act(value)
        return out

    def replay(self, edition: Edition, versions: dict[str, int] | None = None,
               name: str | None = None) -> dict[str, Any]:
        """The machine replay of this witness under one spec (named `name`, default its id)."""
        out: dict[str, Any] = {"edition": name or edition.id, "players": self.players,
                               "first_player": self.first_player}
        if self.tokens is not None:
            out["tokens"] = list(self.tokens)
        if versions:
            out["versions"] = {key: index + 1 for key, index in sorted(versions.items())}
        out["rounds"] = self.rounds(edition)
        return out

    def to_json(self, edition: Edition) -> dict[str, Any]:
        """The stored form: steps as rounds in `edition`'s action form, and the divergence."""
        return {"players": self.players, "first_player": self.first_player,
                "tokens": None if self.tokens is None else list(self.tokens),
                "rounds": self.rounds(edition), "diverges_at": self.diverged}

    @classmethod
    def from_json(cls, data: dict[str, Any], edition: Edition) -> Witness:
        """Read the stored form back (actions in `edition`'s form)."""
        steps: list[Step] = []
        for round_ in data["rounds"]:
            steps.append((DEAL, list(round_["deck"])))
            steps += [(MOVE, neutral(edition, data["players"], Action.from_json(a)))
                      for a in round_["actions"]]
        tokens = data.get("tokens")
        return cls(data["players"], data.get("first_player", 0),
                   None if tokens is None else tuple(tokens), steps, data["diverges_at"])


def replay_looks(edition: Edition, players: int, first_player: int, tokens: Sequence[int] | None,
                 steps: Sequence[Step]) -> list[Look]:
    """What each step shows under one spec; stops early once the game cannot go on (after the
    play that shows a rule gap, when the gap came up while listing the actions due)."""
    table = Table(edition, players, first_player, tokens)
    looks: list[Look] = []
    for kind, value in steps:
        if kind == DEAL:
            looks.append(table.deal(value))
        elif table.phase is None and not (looks and looks[-1].trigger == value):
            break
        else:
            looks.append(table.act(value))
        if looks[-1].status == "gap" and looks[-1].trigger is None:
            break
    return looks
