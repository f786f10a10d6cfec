"""Deliberately broken observers: the game is played right, but a player's view shows a card
they never saw. The mutation sits in the adapter's `view`, where such bugs live in real engines.
"""

from __future__ import annotations

from ..engines.base import Json
from ..engines.reference import ReferenceEngine


class SetAsideLeaks(ReferenceEngine):
    """Every view's log names the cards set aside face down, where it should only count them."""

    def view(self, player: int) -> Json:
        seen = super().view(player)
        game = self._game()
        hidden = game.record[-1]["deck"][:game.edition.general["set_aside"].need()]
        seen["log"] = [dict(e, set_aside=list(hidden)) if e["type"] == "round_start" else e
                       for e in seen["log"]]
        return seen


class LookIsPublic(ReferenceEngine):
    """The card a player privately looks at (the Priest's) shows in every player's view."""

    def view(self, player: int) -> Json:
        seen = super().view(player)
        full_log = self._game().log
        seen["log"] = [full if full["type"] == "look" else shown
                       for full, shown in zip(full_log, seen["log"], strict=True)]
        return seen
