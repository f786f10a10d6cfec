"""Reference games with one rule bent, shared by the tests that must catch them."""

from __future__ import annotations

from loveletter_ref import Game


class TieKnocksOutThePlayer(Game):
    """A Baron tie knocks out the Baron's player."""

    def step_compare(self, step, play):
        hands, values = self.hands, self.tables.values
        if values[hands[play.player][0]] != values[hands[play.target][0]]:
            return super().step_compare(step, play)
        cards = [self.tables.names[hands[play.player][0]], self.tables.names[hands[play.target][0]]]
        self.log.append({"type": "compare", "player": play.player, "target": play.target, "cards": cards,
                         "loser": play.player})
        self.eliminate(play.player, play.card, step.clause)


class PrincessSurvivesAPrince(Game):
    """A Princess discarded by a Prince leaves her holder in the round (and drawing)."""

    def discard(self, player, card):
        self.discards[player].append(card)
        self.log.append({"type": "discard", "player": player, "card": self.tables.names[card]})


class HandmaidNeverExpires(Game):
    """Protection outlives the start of its owner's next turn."""

    def _begin_turn(self, player):
        shield = self.protected[player]
        super()._begin_turn(player)
        if shield is not None:
            self.protected[player] = shield
            self.log = [e for e in self.log if e != {"type": "unprotect", "player": player}]


class ChancellorReturnsToTheTop(Game):
    """Cards a Chancellor returns go on top of the deck."""

    def _keep(self, action):
        before = list(self.deck)
        super()._keep(action)
        returned = self.deck[:len(self.deck) - len(before)]
        self.deck = before + returned[::-1]


class LoserStartsTheNextRound(Game):
    """The next round starts with the player after the last round's winner."""

    def _next_starter(self):
        winner = super()._next_starter()
        return (winner + 1) % self.players if self.round else winner
