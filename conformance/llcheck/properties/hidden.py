"""No hidden information leaks: the resampling test, for one player at a time.

Every card of a round is followed by its position in the deck (its identity) through the events
the rules produce, as the reference engine reports them with nothing hidden. Up to a point of the
game (a cut), a player `p` has seen a card that was dealt to or drawn by `p`, shown to `p` (a look,
a compare or a trade `p` took part in), returned by `p`, or shown to everybody (face up, played,
discarded, revealed at a showdown). The cards `p` has not seen by the cut are permuted among
their positions, the actions of the
others that name those cards (a keep decision) are rewritten card for card, and the reference
engine confirms that the new deal is consistent with everything public (same legal actions, same
public events). The engine under test then plays the new deal, and `p`'s view must be identical
to the original at every step. This is the OpenSpiel resampling test.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from loveletter_ref import Action, Game
from loveletter_ref.engine.view import HIDDEN_FIELD
from loveletter_ref.errors import EngineError

from .rules import Rules
from .trace import Json

PASSIVE = frozenset({"round_start", "turn", "unprotect", "no_effect", "guess", "protect", "eliminate",
                     "token", "game_end", "counter", "predict", "force_target", "respond"})
"""Events that move no card (cards leaving a hand show as `play` or `discard` events; a countering
card is shown, then discarded)."""


class Untrackable(Exception):
    """The reference engine's events fall outside what the tracker models (a new rule kind)."""


def public(event: Json) -> Json:
    """The event as everybody sees it: no hidden cards, no `clause` field."""
    hidden = HIDDEN_FIELD.get(event["type"])
    return {key: value for key, value in event.items() if key not in (hidden, "clause")}


class Tracker:
    """Follows each card of one round, named by its deck position, and who has seen it."""

    def __init__(self, deck: list[str], rules: Rules):
        k, m, d = rules.set_aside, rules.face_up, rules.deal
        self.names = list(deck)
        self.set_aside = list(range(k))
        self.face_up = list(range(k, k + m))
        base = k + m
        self.hands = [list(range(base + i * d, base + (i + 1) * d)) for i in range(rules.players)]
        self.pile = list(range(base + rules.players * d, len(deck)))
        """The draw pile, top first."""
        self.seen = [set(hand) for hand in self.hands]
        self.public = set(self.face_up)
        self.keeps: list[tuple[int, int, list[int]]] = []
        """Each keep decision: (player, card kept, cards returned), by position."""

    def feed(self, event: Json) -> None:
        """Move the cards an event moves and record who saw them."""
        kind = event["type"]
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            if kind not in PASSIVE:
                raise Untrackable(f"events of type {kind!r}")
            return
        handler(event)

    def unseen(self, player: int) -> list[int]:
        """Positions of the cards `player` has not seen, in order."""
        known = self.seen[player] | self.public
        return [i for i in range(len(self.names)) if i not in known]

    def _take(self, seat: int, name: str) -> int:
        for position in self.hands[seat]:
            if self.names[position] == name:
                self.hands[seat].remove(position)
                return position
        raise Untrackable(f"player {seat} is said to give up {name}, which the tracker does not see "
                          "in their hand")

    def _on_deal(self, e: Json) -> None:
        if e["card"] not in [self.names[i] for i in self.hands[e["player"]]]:
            raise Untrackable(f"the deal gives player {e['player']} a card not at their deal position")

    def _on_draw(self, e: Json) -> None:
        source = self.pile if e["from"] == "deck" else self.set_aside
        position = source.pop(0) if source is self.pile else source.pop()
        if self.names[position] != e["card"]:
            raise Untrackable(f"player {e['player']} draws {e['card']}, not {self.names[position]}")
        self.hands[e["player"]].append(position)
        self.seen[e["player"]].add(position)

    def _on_play(self, e: Json) -> None:
        self.public.add(self._take(e["player"], e["card"]))

    _on_discard = _on_play

    def _on_look(self, e: Json) -> None:
        self.seen[e["player"]].update(self.hands[e["target"]])

    def _on_compare(self, e: Json) -> None:
        self._show_each_other(e["player"], e["target"])

    def _on_trade(self, e: Json) -> None:
        first, second = e["targets"] if "targets" in e else (e["player"], e["target"])
        self._show_each_other(first, second)
        self.hands[first], self.hands[second] = self.hands[second], self.hands[first]

    def _show_each_other(self, a: int, b: int) -> None:
        self.seen[a].update(self.hands[b])
        self.seen[b].update(self.hands[a])

    def _on_return(self, e: Json) -> None:
        seat = e["player"]
        returned = [self._take(seat, name) for name in e["cards"]]
        if len(self.hands[seat]) != 1:
            raise Untrackable(f"player {seat} keeps {len(self.hands[seat])} cards")
        self.keeps.append((seat, self.hands[seat][0], returned))
        for position in returned:  # placed one by one, in the order listed
            if e["to"] == "bottom":
                self.pile.append(position)
            else:
                self.pile.insert(0, position)

    def _on_round_end(self, e: Json) -> None:
        for seat, card in enumerate(e.get("hands") or []):
            if card is not None:
                self.public.update(self.hands[seat])


@dataclass
class ReferenceRun:
    """A replay played by the reference engine: per round, the events of the deal and of each action."""

    events: list[list[list[Json]]]
    states: list[list[Json]]

    def skeleton(self) -> list[list[list[Json]]]:
        """Every event as everybody sees it."""
        return [[[public(e) for e in step] for step in round_] for round_ in self.events]

    def prefix(self, cut: Cut) -> ReferenceRun:
        """The run up to a cut."""
        r, k = cut
        return ReferenceRun(self.events[:r] + [self.events[r][:k + 1]],
                            self.states[:r] + [self.states[r][:k + 1]])


Cut = tuple[int, int]
"""A point in a game: (round index, actions played in that round)."""


def cuts(replay: Json) -> list[Cut]:
    """Every point of a game: after each round's deal and after each of its actions."""
    return [(r, k) for r, round_ in enumerate(replay["rounds"]) for k in range(len(round_["actions"]) + 1)]


def prefix(replay: Json, cut: Cut) -> Json:
    """The replay up to a cut."""
    r, k = cut
    rounds = [dict(round_) for round_ in replay["rounds"][:r + 1]]
    rounds[-1]["actions"] = rounds[-1]["actions"][:k]
    return {**replay, "rounds": rounds}


def reference_run(rules: Rules, replay: Json) -> ReferenceRun | None:
    """Play `replay` with the reference engine; None when the rules do not allow it."""
    game = Game(rules.edition, rules.players, first_player=replay["first_player"],
                tokens=replay.get("tokens"))
    run = ReferenceRun([], [])
    try:
        for round_ in replay["rounds"]:
            run.events.append([game.start_round(round_["deck"])])
            run.states.append([game.state()])
            for action in round_["actions"]:
                run.events[-1].append(game.apply(Action.from_json(action)))
                run.states[-1].append(game.state())
    except (EngineError, ValueError):
        return None
    return run


def trackers(rules: Rules, replay: Json, run: ReferenceRun) -> list[Tracker]:
    """One tracker per round of a replay and its reference run, fed with every event of the round."""
    out = []
    for round_, events in zip(replay["rounds"], run.events, strict=True):
        tracker = Tracker(round_["deck"], rules)
        for step in events:
            for event in step:
                tracker.feed(event)
        out.append(tracker)
    return out


def resample(replay: Json, tracked: list[Tracker], player: int, rng: random.Random,
             shuffle: bool) -> Json | None:
    """A copy of `replay` whose cards unseen by `player` are permuted (None if nothing changed).

    `shuffle` permutes all of them; otherwise two unseen cards of different names swap places.
    """
    rounds = []
    changed = False
    for round_, tracker in zip(replay["rounds"], tracked, strict=True):
        deck = _permuted(tracker, player, rng, shuffle)
        changed = changed or deck != tracker.names
        rounds.append({"deck": deck, "actions": list(_rewritten(round_["actions"], tracker, deck, player))})
    return {**replay, "rounds": rounds} if changed else None


def _permuted(tracker: Tracker, player: int, rng: random.Random, shuffle: bool) -> list[str]:
    deck = list(tracker.names)
    unseen = tracker.unseen(player)
    if shuffle:
        names = [deck[i] for i in unseen]
        rng.shuffle(names)
        for position, name in zip(unseen, names, strict=True):
            deck[position] = name
        return deck
    pairs = [(a, b) for a in unseen for b in unseen if a < b and deck[a] != deck[b]]
    if pairs:
        a, b = rng.choice(pairs)
        deck[a], deck[b] = deck[b], deck[a]
    return deck


def _rewritten(actions: list[Json], tracker: Tracker, deck: list[str], player: int) -> Iterator[Json]:
    """The round's actions with every other player's keep decision renamed card for card."""
    keeps = iter(tracker.keeps)
    for action in actions:
        if action.get("type") != "keep":
            yield action
            continue
        seat, kept, returned = next(keeps)
        if seat == player:
            yield action
        else:
            yield {**action, "card": deck[kept], "return": [deck[i] for i in returned]}
