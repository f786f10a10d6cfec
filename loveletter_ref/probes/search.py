"""Cross-check the probes' answers by playing with the reference engine.

`explore` walks every legal action sequence of the given deals (exhaustive search, for small
specs); `random_rounds` plays seeded random rounds (for the real editions). Both call a visitor
on a `Playback` after every engine call, so that a condition's `confirm` can be asked whether
the situation just happened. `observed` collects which conditions a search saw: a condition
the probes proved unreachable must never be seen; on a spec small enough to explore
exhaustively, every reachable one must be.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import permutations

from loveletter_ref.engine import DECIDING, PLAY, Action, Game
from loveletter_ref.errors import IllegalActionError, RuleGapError
from loveletter_ref.spec import Edition

from .conditions import Condition
from .playback import Moment, Playback

Visitor = Callable[[Playback], None]


def deals(edition: Edition, players: int) -> Iterator[list[str]]:
    """Every distinct deck order of a spec's deck (only sensible for tiny decks)."""
    cards = [edition.names[c] for c in edition.deck(players)]
    seen: set[tuple[str, ...]] = set()
    for order in permutations(cards):
        if order not in seen:
            seen.add(order)
            yield list(order)


def explore(edition: Edition, players: int, decks: Iterable[Sequence[str]], visit: Visitor,
            tokens: Sequence[int] | None = None) -> int:
    """Visit every reachable position of every deck's round (each seat starting with `tokens`);
    returns the number of engine calls."""
    calls = 0
    for deck in decks:
        game = Game(edition, players, tokens=tokens)
        track = _Track(edition, players, deck, tokens)
        try:
            events = game.start_round(list(deck))
        except RuleGapError as gap:
            visit(track.stopped(gap))
            calls += 1
            continue
        calls += _walk(game, track.then(None, {}, game.state(), events), visit)
    return calls


def candidates(game: Game) -> list[Action]:
    """The legal actions; when listing them needs a silent rule, every play of a held card
    instead (applying one shows whether it is legal, a rule gap, or illegal)."""
    try:
        return game.legal_actions()
    except RuleGapError:
        pass
    state = game.state()
    tables = game.tables
    out = []
    for name in dict.fromkeys(state["hands"][state["turn"]]):
        guesses = tables.decisions[tables.index[name]].guesses
        for target in (None, *range(game.players)):
            for guess in (None, *guesses) if target is not None else (None,):
                out.append(Action(PLAY, name, target, guess))
    return out


def _walk(game: Game, track: _Track, visit: Visitor) -> int:
    visit(track.playback)
    calls = 1
    if game.phase not in DECIDING:
        return calls
    for action in candidates(game):
        child = game.clone()
        before = child.state()
        logged = len(child.log)
        try:
            events = child.apply(action)
        except RuleGapError as gap:
            visit(track.stopped(gap, action.to_json(), child.log[logged:]))
            calls += 1
            continue
        except IllegalActionError:
            continue
        calls += _walk(child, track.then(action.to_json(), before, child.state(), events), visit)
    return calls


def random_rounds(edition: Edition, players: int, rounds: int, seed: int, visit: Visitor,
                  tokens: Sequence[int] | None = None) -> int:
    """Play `rounds` seeded random rounds (uniform legal actions, each seat starting with
    `tokens`); returns the engine calls made."""
    rng = random.Random(seed)
    calls = 0
    for _ in range(rounds):
        game = Game(edition, players, tokens=tokens)
        deck = list(game.tables.deck)
        rng.shuffle(deck)
        names = [edition.names[c] for c in deck]
        track = _Track(edition, players, names, tokens)
        try:
            events = game.start_round(names)
        except RuleGapError as gap:
            visit(track.stopped(gap))
            calls += 1
            continue
        track = track.then(None, {}, game.state(), events)
        visit(track.playback)
        calls += 1
        while game.phase in DECIDING:
            action = rng.choice(candidates(game))
            before = game.state()
            logged = len(game.log)
            try:
                events = game.apply(action)
            except RuleGapError as gap:
                visit(track.stopped(gap, action.to_json(), game.log[logged:]))
                calls += 1
                break
            except IllegalActionError:
                continue
            track = track.then(action.to_json(), before, game.state(), events)
            visit(track.playback)
            calls += 1
    return calls


class _Track:
    """The playback of one path of a search, extended one call at a time without copying much."""

    def __init__(self, edition: Edition, players: int, deck: Sequence[str], tokens: Sequence[int] | None,
                 moments: tuple[Moment, ...] = (), actions: tuple[dict, ...] = ()):
        self.edition, self.players, self.deck, self.tokens = edition, players, list(deck), tokens
        self.moments, self.actions = moments, actions

    @property
    def playback(self) -> Playback:
        record: dict = {"edition": self.edition.id, "players": self.players, "first_player": 0}
        if self.tokens is not None:
            record["tokens"] = list(self.tokens)
        record["rounds"] = [{"deck": self.deck, "actions": list(self.actions)}]
        return Playback(self.edition, record, list(self.moments), calls=len(self.moments))

    def then(self, action: dict | None, before: dict, after: dict, events: list[dict]) -> _Track:
        actions = self.actions + ((action,) if action is not None else ())
        moments = self.moments + (Moment(action, before, after, events),)
        return _Track(self.edition, self.players, self.deck, self.tokens, moments, actions)

    def stopped(self, gap: RuleGapError, action: dict | None = None,
                events: list[dict] | None = None) -> Playback:
        """The playback of a call that stopped on a rule gap (`events`: those logged before it)."""
        playback = self.playback
        if action is not None:
            playback.record["rounds"][0]["actions"].append(action)
        playback.gap = gap
        playback.stopped = events or []
        playback.calls = len(self.moments) + 1
        return playback


def observed(conditions: Sequence[Condition]) -> tuple[dict[str, Playback], Visitor]:
    """A visitor that records, for each condition, the first playback in which it was seen."""
    seen: dict[str, Playback] = {}

    def visit(playback: Playback) -> None:
        for condition in conditions:
            if condition.name not in seen and condition.confirm(playback) is None:
                seen[condition.name] = playback
    return seen, visit
