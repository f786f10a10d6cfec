"""Legality: the legal actions of the decision due, and why an action is not one of them.

The legal list is the truth: `check` accepts exactly the actions `legal_actions` lists (in the
play phase, those of the card the action names, so that a rule gap in another card's choices
is not raised for it), and `refusal` only explains a refusal, naming the clause that leaves the
action out of the list.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from ..errors import IllegalActionError
from ..spec import Step
from ..spec.facts import Decision
from .actions import DECIDING, KEEP, PLAY, RESPOND, Action, Phase
from .state import State
from .tables import Choice


class Legality(State):
    """Listing, sampling and checking the decisions of the player to act."""

    __slots__ = ()

    # -- the legal list ----------------------------------------------------------------------

    def targets(self, player: int, step: Step) -> list[int | None]:
        """Seats `player` may choose for a choose step (`[None]` when the card has no effect)."""
        anyone = step.clause.need()["who"] == "any"
        alive, protected = self.alive, self.protected
        out: list[int | None] = []
        for seat in self.tables.seats:
            shield = protected[seat]
            if seat == player:
                if anyone:
                    out.append(seat)
            elif alive[seat] and (shield is None or "chosen_by_others" not in shield.rule["blocks"]):
                out.append(seat)
        if out:
            return out
        fallback = step.modifiers.get("no_target") or self.tables.general["no_valid_target"]
        return [player] if fallback.need() == "self" else [None]

    def _playable(self) -> list[int]:
        """The cards the player on turn may play (remembered per hand in `Tables.playable`)."""
        return self.tables.playable[tuple(self.hands[self.current])]

    def legal_actions(self) -> list[Action]:
        """Every legal decision for the player to act, in a stable order."""
        if self._legal is None:
            if self.phase is Phase.PLAY:
                self._legal = tuple(action for card in self._playable()
                                    for action in self._card_actions(card))
            elif self.phase is Phase.KEEP:
                self._legal = tuple(self._keep_actions())
            elif self.phase is Phase.RESPOND:
                self._legal = tuple(self._respond_actions())
            else:
                self._legal = ()
        return list(self._legal)

    def choices(self, decision: Decision) -> list[Choice]:
        """Whom the player on turn may choose for a card with this decision."""
        assert decision.choose is not None
        player = self.current
        valid = self.targets(player, decision.choose)
        own_shield = self.protected[player]
        if own_shield is not None and "choosing_others" in own_shield.rule["blocks"]:
            valid = [t for t in valid if t in (None, player)] or [None]
        options: list[Choice]
        if decision.count == 1:
            options = [*valid]
        else:
            seats = [t for t in valid if t is not None]
            groups: list[Choice] = [group for size in range(decision.at_least, decision.count + 1)
                                    for group in combinations(seats, size)]
            options = groups or [None]
        if self.forced is not None:
            seat = self.forced[0]
            bound: list[Choice] = [o for o in options if o == seat or (isinstance(o, tuple) and seat in o)]
            options = bound or options
        return options

    def _plays(self, card: int, choice: Choice) -> tuple[Action, ...]:
        """Every play of `card` with this choice (one per guess, or per player looked at)."""
        decision = self.tables.decisions[card]
        if decision.guess is not None and isinstance(choice, int):
            decision.guess.clause.need()
        return self.tables.plays[card, choice]

    def _card_actions(self, card: int) -> list[Action]:
        """Every legal play of one playable card."""
        decision = self.tables.decisions[card]
        if decision.choose is None:
            return list(self._plays(card, None))
        return [action for choice in self.choices(decision) for action in self._plays(card, choice)]

    def _respond_actions(self) -> list[Action]:
        assert self.pending is not None and self.pending.clause.card is not None
        card = self.pending.clause.card
        return [Action(RESPOND, card, redraw=False), Action(RESPOND, card, redraw=True)]

    def _keep_actions(self) -> list[Action]:
        names, hand = self.tables.names, self.hands[self.current]
        kept = {(keep, order) for i, keep in enumerate(hand) for order in _orders(hand[:i] + hand[i + 1:])}
        return sorted(Action(KEEP, names[keep], returned=tuple(names[c] for c in order))
                      for keep, order in kept)

    def sample_action(self, rng: random.Random) -> Action:
        """A random legal action: a playable card, then whom it chooses, then a guess, each uniform."""
        if self.phase is not Phase.PLAY:
            return _pick(rng, self.legal_actions())
        card = _pick(rng, self._playable())
        decision = self.tables.decisions[card]
        if decision.choose is None:
            return self._plays(card, None)[0]
        return _pick(rng, self._plays(card, _pick(rng, self.choices(decision))))

    # -- checking: membership, then the explanation of a refusal -------------------------------

    def check(self, action: Action) -> None:
        """Raise IllegalActionError (naming the broken clause) unless `action` is legal now."""
        if action not in self._listed_for(action):
            raise self.refusal(action)

    def _listed_for(self, action: Action) -> Sequence[Action]:
        """The legal actions `action` is looked up in (in the play phase, its card's only)."""
        if self._legal is not None:
            return self._legal
        if self.phase is not Phase.PLAY or action.kind != PLAY:
            return self.legal_actions()
        card = self.tables.index.get(action.card)
        return self._card_actions(card) if card is not None and card in self._playable() else ()

    def refusal(self, action: Action) -> IllegalActionError:
        """Why `action`, which is not a legal action now, is not: the error naming its clause."""
        general = self.tables.general
        if self.phase not in DECIDING:
            ended = "game_end" if self.phase is Phase.GAME_OVER else "last_standing"
            return IllegalActionError(general[ended].id,
                                      f"no decision is due: the game is in phase {self.phase.value}")
        if action.kind != self.phase.value:
            clause = self.pending.clause.id if self.pending else general["turn_play"].id
            return IllegalActionError(clause, f"a {self.phase.value} decision is due, not {action.kind}")
        if self.phase is Phase.PLAY:
            return self._play_refusal(action)
        assert self.pending is not None
        if self.phase is Phase.KEEP:
            held = Counter(self.hand_names(self.current))
            return IllegalActionError(self.pending.clause.id, f"keep one card and return the other "
                                      f"{len(self.hands[self.current]) - 1} of the hand "
                                      f"({', '.join(sorted(held.elements()))})")
        return IllegalActionError(self.pending.clause.id,
                                  f"answer the {self.pending.clause.card} with redraw true or false")

    def _play_refusal(self, action: Action) -> IllegalActionError:
        """Why a play is not legal: the card, then whom it chooses, then what it guesses."""
        tables, player = self.tables, self.current
        card = tables.index.get(action.card)
        if card is None or card not in self.hands[player]:
            return IllegalActionError(tables.general["turn_play"].id,
                                      f"player {player} does not hold {action.card}")
        playable = self._playable()
        if card not in playable:
            forcing = next(clause for forced, _, clause in tables.forcing if forced == playable[0])
            return IllegalActionError(forcing.id, f"player {player} must play {tables.names[playable[0]]}")
        decision = tables.decisions[card]
        if decision.choose is None:
            return IllegalActionError(tables.edition.cards[card].clause.id,
                                      f"{action.card} takes no target or guess")
        listed = self._card_actions(card)
        if decision.count > 1:
            return self._group_refusal(action, decision, listed)
        choose = decision.choose
        if action.targets or action.look is not None:
            return IllegalActionError(choose.clause.id, f"{action.card} chooses one player: use 'target'")
        if action.target not in {a.target for a in listed}:
            return self._target_refusal(action.card, action.target, choose)
        named = [a.guess for a in listed if a.target == action.target]
        if named == [None] or decision.guess is None:
            return IllegalActionError((decision.guess or choose).clause.id,
                                      f"this {action.card} play takes no guess")
        if action.guess is None:
            return IllegalActionError(decision.guess.clause.id, f"{action.card} needs a guess")
        return IllegalActionError(decision.guess.clause.id, f"{action.guess!r} may not be named (allowed: "
                                  f"{', '.join(map(str, decision.guesses))})")

    def _group_refusal(self, action: Action, decision: Decision, listed: list[Action]) -> IllegalActionError:
        """Why a play choosing several players (`targets`, and `look` when asked) is not legal."""
        assert decision.choose is not None
        choose, group = decision.choose, action.targets
        malformed = self._group_form(action, decision, listed)
        if malformed is not None:
            return IllegalActionError(choose.clause.id, malformed)
        if group not in {a.targets for a in listed}:
            seat = next((s for s in group if s not in self.targets(self.current, choose)),
                        group[0] if group else None)
            return self._target_refusal(action.card, seat, choose)
        if decision.look_choice and group and action.look not in group:
            look = next(s for s in self.tables.programs[self.tables.index[action.card]] if s.kind == "look")
            return IllegalActionError(look.clause.id, "name which chosen player to look at ('look')")
        if not decision.look_choice and action.look is not None:
            return IllegalActionError(choose.clause.id, f"{action.card} takes no 'look'")
        return IllegalActionError((decision.guess or choose).clause.id,
                                  f"this {action.card} play takes no guess")

    def _group_form(self, action: Action, decision: Decision, listed: list[Action]) -> str | None:
        """What is wrong with the form of a group play's `target`/`targets`, if anything."""
        group = action.targets
        if action.target is not None:
            return f"{action.card} chooses players with 'targets'"
        if not group and any(a.targets for a in listed):
            return f"{action.card} needs 'targets'"
        if group and (len(set(group)) != len(group) or list(group) != sorted(group)
                      or not decision.at_least <= len(group) <= decision.count):
            many = decision.count if decision.at_least == decision.count else \
                f"{decision.at_least}-{decision.count}"
            return f"{action.card} chooses {many} different players, listed in seat order"
        return None

    def _target_refusal(self, card: str, target: int | None, choose: Step) -> IllegalActionError:
        """Why the player on turn may not choose `target` for `card`, naming the clause."""
        tables, player = self.tables, self.current
        valid = self.targets(player, choose)
        own_shield = self.protected[player]
        if (own_shield is not None and "choosing_others" in own_shield.rule["blocks"]
                and target not in (None, player)):
            return IllegalActionError(own_shield.id,
                                      f"player {player} is protected and may not choose another player")
        if target in valid:
            assert self.forced is not None, "a valid target left out of the legal list by no forcing mark"
            return IllegalActionError(self.forced[1].id,
                                      f"the next card played must choose player {self.forced[0]}")
        if target is None:
            return IllegalActionError(choose.clause.id, f"{card} needs a target (valid: {_seats(valid)})")
        if valid == [None]:
            fallback = choose.modifiers.get("no_target") or tables.general["no_valid_target"]
            return IllegalActionError(fallback.id, f"no player may be chosen: play {card} without a target")
        if not 0 <= target < self.players:
            return IllegalActionError(choose.clause.id, f"there is no seat {target}")
        if target == player:
            return IllegalActionError(choose.clause.id, f"{card} must choose another player")
        if not self.alive[target]:
            return IllegalActionError(tables.general["elimination"].id,
                                      f"player {target} is out of the round")
        shield = self.protected[target]
        return IllegalActionError(shield.id if shield is not None else choose.clause.id,
                                  f"player {target} is protected")


def _pick(rng: random.Random, items: Sequence[Any]) -> Any:
    """A uniform choice that costs one call to the generator."""
    return items[int(rng.random() * len(items))]


def _orders(cards: list[int]) -> list[tuple[int, ...]]:
    """Every distinct ordering of `cards`."""
    if len(cards) <= 1:
        return [tuple(cards)]
    out: list[tuple[int, ...]] = []
    for i, card in enumerate(cards):
        if card not in cards[:i]:
            out.extend((card,) + rest for rest in _orders(cards[:i] + cards[i + 1:]))
    return out


def _seats(valid: list[int | None]) -> str:
    return ", ".join(str(s) for s in valid if s is not None) or "none"
