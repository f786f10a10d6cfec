"""What the rules award, worked out from JSON states: tokens during a round and at its end, and
who wins a showdown.

Every fact comes from `Rules` (the spec), never from the reference engine, so the token and
round-end invariants can judge any engine. Tokens gained during a round come from a correct
guess that scores (Premium's Bishop) and from a card that pays a player knocked out with it
already in their discards (Premium's Constable); at a round's end, from winning, from a
prediction on a winner (Premium's Jester) and from a bonus card (z-man-2019's Spy).

Independent on purpose: the rule facts come from the shared derivation (`Rules`, built on
`loveletter_ref.spec.facts`), but the token payments, the showdown comparison and the tie chain
are re-implemented here over JSON states, apart from the engine's `Game` code
(`engine/showdown.py`), so that a bug in one is caught by the other: the invariants run this
oracle against the reference engine on every fuzzed round (tests/test_properties.py).
"""

from __future__ import annotations

from .rules import Rules
from .trace import Json

Mark = tuple[int, int, int]
"""A prediction: (the player who made it, the player predicted to win, tokens it pays)."""


def chosen(action: Json) -> list[int]:
    """The seats a play action chooses (`target`, or each of `targets`)."""
    if "target" in action:
        return [action["target"]]
    return list(action.get("targets", []))


def countered(rules: Rules, before: Json, action: Json) -> int | None:
    """The chosen seat holding a card that counters the card played (its player is knocked out)."""
    actor, card = before["turn"], action.get("card")
    for seat in chosen(action):
        if seat != actor and any(card in rules.counters.get(held, ()) for held in before["hands"][seat]):
            return seat
    return None


def prediction(rules: Rules, before: Json, action: Json) -> Mark | None:
    """The prediction a play makes, if its card predicts and nothing stops it."""
    card = action.get("card")
    if action.get("type") != "play" or card not in rules.predictions or "target" not in action:
        return None
    if countered(rules, before, action) is not None:
        return None
    return before["turn"], action["target"], rules.predictions[str(card)]


def gains_during(rules: Rules, before: Json, after: Json, action: Json) -> list[int]:
    """Tokens each seat gains from an action's effects (not counting the round's end)."""
    gains = [0] * rules.players
    actor = before["turn"]
    played = action.get("card") if action.get("type") == "play" else None
    if played in rules.hit_tokens and countered(rules, before, action) is None and "target" in action:
        held = before["hands"][action["target"]]
        if held and action.get("guess") in (held[0], rules.values.get(held[0])):
            gains[actor] += 1
    for seat in range(rules.players):
        if before["eliminated"][seat] or not after["eliminated"][seat]:
            continue
        pile = list(before["discards"][seat]) + ([str(played)] if seat == actor and played else [])
        gains[seat] += sum(rules.eliminated_tokens.get(card, 0) for card in dict.fromkeys(pile))
    return gains


def gains_at_end(rules: Rules, after: Json, marks: list[Mark]) -> list[int]:
    """Tokens each seat gains when a round ends with `after["round_winners"]` as its winners."""
    winners = after["round_winners"] or []
    due = [rules.round_tokens if seat in winners else 0 for seat in range(rules.players)]
    for seat, predicted, amount in marks:
        if predicted in winners:
            due[seat] += amount
    for card, amount in rules.bonuses:
        holders = [seat for seat, pile in enumerate(after["discards"])
                   if card in pile and not after["eliminated"][seat]]
        if len(holders) == 1:
            due[holders[0]] += amount
    return due


def showdown_winners(rules: Rules, state: Json) -> list[int] | None:
    """Who wins the showdown of a round ended in `state` (None when the rules leave it open)."""
    alive = [seat for seat in range(rules.players) if not state["eliminated"][seat]]
    hands = state["hands"]
    if any(len(hands[seat]) != 1 or hands[seat][0] not in rules.values for seat in alive):
        return None
    score = {seat: rules.values[hands[seat][0]]
             + sum(rules.showdown_bonus.get(card, 0) for card in state["discards"][seat]) for seat in alive}

    def beats(a: int, b: int) -> bool:
        card_a, card_b = hands[a][0], hands[b][0]
        if card_b in rules.loses_to.get(card_a, ()):
            return False
        if card_a in rules.loses_to.get(card_b, ()):
            return True
        return score[a] > score[b]

    tied = [a for a in alive if not any(beats(b, a) for b in alive if b != a)]
    return _break_tie(rules, state, tied) if len(tied) > 1 else tied or None


def _break_tie(rules: Rules, state: Json, tied: list[int]) -> list[int] | None:
    """The spec's tie-break chain applied to the players tied at the showdown."""
    worth = [[rules.values.get(card, 0) for card in pile] for pile in state["discards"]]
    for rule in rules.tie:
        if rule == "all_win":
            return tied
        if rule not in ("discard_total", "highest_discard"):
            return []
        measure = {seat: sum(worth[seat]) if rule == "discard_total" else max(worth[seat], default=-1)
                   for seat in tied}
        top = max(measure.values())
        tied = [seat for seat in tied if measure[seat] == top]
        if len(tied) == 1:
            return tied
    return None
