"""Actions generated from the spec, for engines that do not list their legal actions.

The list is a superset of the legal actions (every card in hand, with every seat or group of
seats as target or none, with every name the card may guess; both answers to an offer); the
state machine tries them from a point hypothesis chooses and takes the first one the engine
accepts, checking that each refusal changed nothing.
"""

from __future__ import annotations

from itertools import combinations, permutations

from .rules import Rules
from .trace import Json


def candidate_actions(rules: Rules, state: Json) -> list[Json]:
    """Every action that could be legal now, legal or not (empty outside play, keep and respond)."""
    seat = state.get("turn")
    if not isinstance(seat, int) or not 0 <= seat < rules.players:
        return []
    hand = state["hands"][seat]
    if state["phase"] == "keep":
        return _keeps(hand)
    if state["phase"] == "play":
        return [action for card in dict.fromkeys(hand) for action in _plays(rules, card)]
    if state["phase"] == "respond":
        return _responses(rules, state.get("pending"))
    return []


def _plays(rules: Rules, card: str) -> list[Json]:
    out: list[Json] = [{"type": "play", "card": card}]
    if card in rules.groups:
        return out + _group_plays(rules, card)
    if card not in rules.choosers:
        return out
    for target in range(rules.players):
        if card in rules.guesses:
            out += [{"type": "play", "card": card, "target": target, "guess": g} for g in rules.guesses[card]]
        else:
            out.append({"type": "play", "card": card, "target": target})
    return out


def _group_plays(rules: Rules, card: str) -> list[Json]:
    """Plays of a card choosing several players: each group in seat order (and whom to look at)."""
    most, fewest, looks = rules.groups[card]
    out: list[Json] = []
    for size in range(fewest, most + 1):
        for group in combinations(range(rules.players), size):
            base = {"type": "play", "card": card, "targets": list(group)}
            out += [{**base, "look": seat} for seat in group] if looks else [base]
    return out


def _responses(rules: Rules, pending: object) -> list[Json]:
    """Both answers to an offer of the card `pending` names (of every card when it names none)."""
    named = pending.get("card") if isinstance(pending, dict) else None
    cards = [named] if isinstance(named, str) else sorted(rules.deck)
    return [{"type": "respond", "card": card, "redraw": redraw} for card in cards for redraw in (False, True)]


def _keeps(hand: list[str]) -> list[Json]:
    out: list[Json] = []
    for i, card in enumerate(hand):
        if card in hand[:i]:
            continue
        rest = hand[:i] + hand[i + 1:]
        for order in dict.fromkeys(permutations(rest)):
            out.append({"type": "keep", "card": card, "return": list(order)})
    return out
