"""Properties of whole games: replay, and hidden information.

Both play the recorded game on a second engine made by the same factory. `Replay` repeats every
deal and action on the `mirror` engine in lockstep: the same deck and actions must give the same
events, states and refusals (keys the formats do not define left out, as everywhere).
`HiddenInformation` runs when a round ends: for every player (each one's views are recorded),
cut right after every step of the round at which an event (the deal, a draw, a look, a compare,
a trade, a return) shows a card to someone else, and at its last step, deals that differ only in
cards the player has not seen by then (in this round and in every earlier one), the cards just
shown to others changed first, played on the `twin` engine with the same actions, must give the
player the same view at every step of the round up to the cut. Views are compared whole, keys of
the engine's own included: a card can leak through any key (docs/formats.md).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import partial
from typing import Any

from ..engines.base import Engine, Reply
from ..harness.compare import comparable, comparable_events
from .failures import guarded
from .hidden import (
    CANDIDATES,
    ReferenceRun,
    Untrackable,
    prefix,
    reference_run,
    resample,
    shown_to_others,
    trackers,
)
from .invariants import Invariant
from .trace import DEAL, GameTrace, Json, Transition

RESAMPLE_TRIES = 6
"""Candidate deals tried per cut: the first shuffles every unseen card, the others alternate
swapping two unseen cards and trading every unseen copy of one name for one of another."""
AGAIN = ("first time", "on replay")
OTHER = ("this deal", "the other deal")


class Replay(Invariant):
    """The recorded actions on a fresh engine give identical events, states and refusals."""

    name = "replay"
    protects = "the same deck and actions on a fresh engine give the same events, states and refusals"
    kinds = ("turn_draw", "turn_play")

    def check(self, t: Transition, game: GameTrace) -> None:
        """Repeat `t` on the mirror engine and compare what it says."""
        mirror = self.ctx.mirror
        assert mirror is not None
        if t.kind == DEAL and not t.accepted:
            return
        round_ = game.rounds[-1]
        request = _request(mirror, game, len(game.rounds), round_.deck, t)
        reply = guarded(request, game.replay, t.action)
        if reply.accepted != t.accepted:
            done, now = ("accepted", "refused") if t.accepted else ("refused", "accepted")
            self.fail(f"the engine {done} it the first time and {now} it on replay")
        state = reply.state if reply.accepted and reply.state is not None else \
            guarded(mirror.state, game.replay)
        first, again = comparable("state", t.after), comparable("state", state)
        if again != first:
            self.fail(f"the state differs on replay: {difference(first, again, AGAIN)}")
        if "events" in self.ctx.capabilities and t.accepted:
            first, again = comparable_events(t.events or []), comparable_events(reply.events)
            if again != first:
                self.fail(f"the events differ on replay: {difference(first, again, AGAIN)}")


class HiddenInformation(Invariant):
    """Deals differing only in cards player p has not seen give p identical views."""

    name = "hidden-information"
    protects = ("a player's view never depends on a card they have not seen: deals that differ only in "
                "such cards, played with the same actions, give them identical views")
    kinds = ("set_aside", "deal", "turn_draw", "look", "compare", "trade", "draw_return")
    needs = ("views",)

    def check(self, t: Transition, game: GameTrace) -> None:
        """At a round's end, resample each observer's unseen cards; compare the views step by step."""
        if not t.round_ended:
            return
        reason = self._resample(game)
        if reason is not None:
            self.ctx.counts.note(reason)

    def _resample(self, game: GameTrace) -> str | None:
        rules, replay = self.rules, game.replay()
        run = reference_run(rules, replay)
        if run is None:
            return "the rules do not allow the game the engine played"
        if _diverges(game, run):
            return "the engine's game differs from the rules' game"
        last = len(replay["rounds"]) - 1
        rng = random.Random(_digest(replay))
        steps = run.events[last]
        for player in game.rounds[-1].observers:
            for k, step in enumerate(steps):
                focus = shown_to_others(step, player)
                if not focus and k < len(steps) - 1:  # the last step: a leak of any unseen card
                    continue
                reason = self._at(game, prefix(replay, (last, k)), run.prefix((last, k)), player, rng, focus)
                if reason is not None:
                    return reason
        return None

    def _at(self, game: GameTrace, part: Json, run: ReferenceRun, player: int, rng: random.Random,
            focus: AbstractSet[str]) -> str | None:
        """Try candidate deals for one player at one cut (those changing the `focus` cards first);
        play the first consistent one."""
        try:
            tracked = trackers(self.rules, part, run)
        except Untrackable as exc:
            return f"the resampler cannot follow the cards ({exc})"
        skeleton = run.skeleton()
        for attempt in range(RESAMPLE_TRIES):
            other = resample(part, tracked, player, rng, CANDIDATES[attempt % len(CANDIDATES)], focus)
            if other is None:
                break
            again = reference_run(self.rules, other)
            if again is not None and again.skeleton() == skeleton:
                self._same_views(game, other, player)
                self.ctx.counts.resampled += 1
                break
        return None

    def _same_views(self, game: GameTrace, other: Json, player: int) -> None:
        """Play the other deal on the twin; compare the player's views in the last round."""
        twin = self.ctx.twin
        assert twin is not None
        last = len(other["rounds"])
        for number, (round_, new) in enumerate(zip(game.rounds, other["rounds"], strict=False), 1):
            seen = [t for t in round_.transitions if t.accepted]
            reply = guarded(_request(twin, game, number, new["deck"], seen[0]), lambda: other)
            if number == last:
                self._compare(seen[0], reply, player, other, game.locate(seen[0]))
            for t, action in zip(seen[1:], new["actions"], strict=False):
                reply = guarded(partial(twin.apply, action), lambda: other, action)
                if number == last:
                    self._compare(t, reply, player, other, game.locate(t))

    def _compare(self, t: Transition, reply: Reply, player: int, other: Json, where: str) -> None:
        twin = self.ctx.twin
        assert twin is not None and t.views is not None
        preface = (f"player {player}'s view differs between two deals that differ only in cards "
                   f"player {player} has not seen")
        if not reply.accepted:
            self.fail(f"{preface}: the engine refused the same decision in the other deal "
                      f"({reply.reason})", where=where, observer=player, contrast=other)
        view, seen = guarded(lambda: twin.view(player), lambda: other), t.views[player]
        if view != seen:
            own = comparable("view", view) == comparable("view", seen)
            note = (" (a key the formats do not define: views are compared whole, since a card can "
                    "leak through any key)") if own else ""
            self.fail(f"{preface}: {difference(seen, view, OTHER)}{note}", where=where, observer=player,
                      contrast=other)


def _digest(value: Any) -> int:
    """A seed that depends on a JSON value only."""
    return int(hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16], 16)


def _request(engine: Engine, game: GameTrace, number: int, deck: list[str],
             t: Transition) -> Callable[[], Reply]:
    """The call that repeats transition `t` of round `number` on `engine`, with `deck` for a deal."""
    if t.kind == DEAL and number == 1:
        return lambda: engine.start(game.edition, game.players, deck, game.first_player, game.tokens)
    if t.kind == DEAL:
        return lambda: engine.next_round(deck)
    action = t.action
    assert action is not None
    return lambda: engine.apply(action)


def _canonical(state: Json) -> tuple[Any, ...]:
    """The parts of a state that decide who holds which card."""
    return (state["phase"], state["turn"], state["deck"], state["set_aside"], state["face_up"],
            [sorted(hand) for hand in state["hands"]], state["discards"], state["eliminated"],
            state["tokens"])


def _diverges(game: GameTrace, run: ReferenceRun) -> bool:
    """True when the engine's states differ from the reference engine's along the game."""
    for round_, states in zip(game.rounds, run.states, strict=True):
        mine = [t.after for t in round_.transitions if t.accepted]
        if [_canonical(s) for s in mine] != [_canonical(s) for s in states]:
            return True
    return False


def difference(first: Any, second: Any, labels: tuple[str, str], path: str = "") -> str:
    """Where two JSON values first differ: 'log[5].card: "Priest" (first), "Guard" (second)'."""
    if isinstance(first, dict) and isinstance(second, dict):
        for key in list(first) + [k for k in second if k not in first]:
            if first.get(key, _MISSING) != second.get(key, _MISSING):
                return difference(first.get(key, _MISSING), second.get(key, _MISSING), labels,
                                  f"{path}.{key}" if path else str(key))
    if isinstance(first, list) and isinstance(second, list):
        for i, (a, b) in enumerate(zip(first, second, strict=False)):
            if a != b:
                return difference(a, b, labels, f"{path}[{i}]")
        if len(first) != len(second):
            return f"{path or 'value'}: {len(first)} items ({labels[0]}), {len(second)} ({labels[1]})"
    return f"{path or 'value'}: {_short(first)} ({labels[0]}), {_short(second)} ({labels[1]})"


class _Missing:
    def __repr__(self) -> str:
        return "(absent)"


_MISSING = _Missing()


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value) if isinstance(value, _Missing) else json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[:limit - 3] + "..."
