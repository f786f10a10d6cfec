"""Deliberately broken adapters of the legal-action list: the rules are played right (or as a
variant), but the list the engine gives is not the set of actions it accepts. Only the engine's
public answers (its state, its list) are used, as an adapter of a real engine would see them.
"""

from __future__ import annotations

from ..engines.base import Json
from ..engines.reference import ReferenceEngine


class ListOmitsSelfTarget(ReferenceEngine):
    """The list leaves out every action that chooses the player on turn, though the engine
    accepts and plays them: a legal play missing from the list."""

    def legal_actions(self) -> list[Json]:
        turn = self.state().get("turn")
        return [a for a in super().legal_actions() if a.get("target") != turn]


class ListsNoSelfNaming(ReferenceEngine):
    """The list never has a card naming its own card in a guess, but the engine (playing a spec
    that allows it) accepts one sent all the same: an unlisted action accepted."""

    def legal_actions(self) -> list[Json]:
        return [a for a in super().legal_actions() if a.get("guess") is None or a["guess"] != a.get("card")]
