"""Actions generated from the spec, for engines that do not list their legal actions.

The list is a superset of the legal actions (every card in hand, with every seat as target or
none, with every name the card may guess); the state machine tries them from a point hypothesis
chooses and takes the first one the engine accepts, checking that each refusal changed nothing.
"""

from __future__ import annotations

from itertools import permutations

from .rules import Rules
from .trace import Json


def candidate_actions(rules: Rules, state: Json) -> list[Json]:
    """Every action that could be legal now, legal or not (empty outside play and keep)."""
    seat = state.get("turn")
    if not isinstance(seat, int) or not 0 <= seat < rules.players:
        return []
    hand = state["hands"][seat]
    if state["phase"] == "keep":
        return _keeps(hand)
    if state["phase"] == "play":
        return [action for card in dict.fromkeys(hand) for action in _plays(rules, card)]
    return []


def _plays(rules: Rules, card: str) -> list[Json]:
    out: list[Json] = [{"type": "play", "card": card}]
    if card not in rules.choosers:
        return out
    for target in range(rules.players):
        if card in rules.guesses:
            out += [{"type": "play", "card": card, "target": target, "guess": g} for g in rules.guesses[card]]
        else:
            out.append({"type": "play", "card": card, "target": target})
    return out


def _keeps(hand: list[str]) -> list[Json]:
    out: list[Json] = []
    for i, card in enumerate(hand):
        if card in hand[:i]:
            continue
        rest = hand[:i] + hand[i + 1:]
        for order in dict.fromkeys(permutations(rest)):
            out.append({"type": "keep", "card": card, "return": list(order)})
    return out
