"""Witnesses found by play: seeded rounds of the reference engine, checked as z3's witnesses are.

A reachable situation needs one game that reaches it, and the reference engine finds many by
play far faster than a bounded search over a deep round finds one (Premium with 5-8 players:
a 32-card deck unrolled 23-26 turns deep). So, before the bounded search, the prover plays up to
a counted number of rounds and watches each engine call with the condition's own engine-side
check (`Condition.confirm`, the check every z3 witness passes). The first round that shows the
situation, cut just after the call during which it arises, is the witness; the prover then
replays it from scratch and confirms it once more, as it does a z3 witness.

Deterministic: round `i` is drawn from a generator seeded by (seed, spec, player count,
condition, i) alone, so the same seed and count give the same witness, byte for byte, whatever
was asked before, in whichever process, on any machine at any load. Finding nothing proves
nothing: the bounded search then decides.

Five ways to play, by turns: *random* (every legal action alike); *peaceful* (a random legal
action after which nobody more is out, when there is one), which keeps players in to the
showdown and plays rounds out to an empty pile, where many corner cases live; *aggressive* (one
after which someone more is out, when there is one), which leaves few players, each of them
more often protected or the only one to choose; and peaceful play that keeps the *low* card
(plays the higher of two, keeps the lowest drawn) or the *high* one, so that the hands left at
the showdown are alike, or strong. For a condition about the players' tokens, each round starts
with tokens below the target, as the bounded search may choose them: every seat one token short
(every other time a policy comes round), or each seat's count drawn at random; for any other
condition, with none, as in the bounded search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from loveletter_ref.engine import DECIDING, KEEP, Action, Game
from loveletter_ref.errors import IllegalActionError, RuleGapError
from loveletter_ref.spec import Edition

from .conditions import Condition
from .playback import Moment, Playback, play
from .search import candidates
from .witness import Replay

PLAYOUTS = 5000
"""Rounds played by default before the bounded search (a count, never a time)."""

SEED = 0
"""The default seed of the playouts."""

EARLY = 100
"""Rounds played before the one-turn proof is tried (the rest after it): many situations show in
a few rounds, where a one-turn search for a state leading to them may take a while."""

RANDOM, PEACEFUL, AGGRESSIVE = "random play", "peaceful play", "aggressive play"
LOW, HIGH = "peaceful play keeping low cards", "peaceful play keeping high cards"
POLICIES = (RANDOM, PEACEFUL, AGGRESSIVE, LOW, HIGH)
"""How round `i` is played: POLICIES[i % len(POLICIES)]."""


@dataclass
class Found:
    """A round that reached the condition: its replay, and which round of the budget it was."""

    witness: Replay
    round: int
    policy: str


def playable(condition: Condition) -> bool:
    """Whether the condition's engine-side check can tell, from the engine's states and events
    alone, that a playout reached it (a clause consulted cannot: the engine does not say)."""
    return bool(getattr(condition, "playable", False))


def rng_for(seed: int, edition: Edition, players: int, condition: Condition, index: int) -> random.Random:
    """The generator of one round: a function of its arguments only (a string seed is hashed
    with SHA-512, the same in every process)."""
    return random.Random(f"{seed}/{edition.id}/{players}/{condition.name}/{index}")


def find(edition: Edition, players: int, condition: Condition, rounds: int, seed: int = SEED,
         start: int = 0) -> Found | None:
    """The first of the seeded rounds `start` .. `rounds` - 1 that reaches `condition`, confirmed
    by a fresh replay; None when none does. (Rounds do not depend on each other: searching 0 .. k
    - 1, then k .. n - 1, finds what searching 0 .. n - 1 finds.)"""
    target = _target(edition, players) if condition.uses_tokens else None
    for index in range(start, rounds):
        rng = rng_for(seed, edition, players, condition, index)
        policy = POLICIES[index % len(POLICIES)]
        tokens = _tokens(rng, players, target, index // len(POLICIES))
        record = playout(edition, players, condition, rng, policy, tokens)
        if record is not None and condition.confirm(play(edition, record)) is None:
            return Found(record, index, policy)
    return None


def _target(edition: Edition, players: int) -> int | None:
    try:
        target = edition.player_table("tokens_to_win", players)
    except RuleGapError:
        return None
    return target if isinstance(target, int) and target > 1 else None


def _tokens(rng: random.Random, players: int, target: int | None, turn: int) -> list[int] | None:
    """The tokens a round starts with: none without a target; else, taking turns, every seat one
    short of it, or each seat's count at random below it."""
    if target is None:
        return None
    if turn % 2 == 0:
        return [target - 1] * players
    return [rng.randrange(target) for _ in range(players)]


def playout(edition: Edition, players: int, condition: Condition, rng: random.Random, policy: str,
            tokens: Sequence[int] | None) -> Replay | None:
    """Play one round, checking the condition after every engine call; the replay up to the call
    during which it arises, or None when the round ends without it."""
    game = Game(edition, players, tokens=tokens)
    deck = list(game.tables.deck)
    rng.shuffle(deck)
    names = [edition.names[c] for c in deck]
    record: Replay = {"edition": edition.id, "players": players, "first_player": 0}
    if tokens is not None and any(tokens):
        record["tokens"] = list(tokens)
    actions: list[dict] = []
    record["rounds"] = [{"deck": names, "actions": actions}]
    watch = Playback(edition, record, game=game)
    try:
        events = game.start_round(names)
    except RuleGapError as gap:
        watch.gap, watch.calls = gap, 1
        return _cut(record) if condition.confirm(watch) is None else None
    watch.moments.append(Moment(None, {}, game.state(), events))
    watch.calls = 1
    if condition.confirm(watch) is None:
        return _cut(record)
    while game.phase in DECIDING:
        options = candidates(game)
        rng.shuffle(options)
        if policy in (LOW, HIGH):
            options.sort(key=lambda action: _kept_value(edition, action, policy == HIGH))
        before = game.state()
        step = _step(game, options, policy)
        if step is None:
            return None
        action, after, outcome = step
        actions.append(action.to_json())
        if isinstance(outcome, RuleGapError):
            logged = len(game.log)
            watch.gap, watch.stopped = outcome, after.log[logged:]
            watch.calls = len(watch.moments) + 1
            return _cut(record) if condition.confirm(watch) is None else None
        game = after
        watch.game = game
        watch.moments.append(Moment(actions[-1], before, game.state(), outcome))
        watch.calls = len(watch.moments)
        if condition.confirm(watch) is None:
            return _cut(record)
    return None


def _kept_value(edition: Edition, action: Action, high: bool) -> int:
    """Sort key putting first the actions that keep low cards (high: high cards): a play gives up
    its card, a keep keeps its card; the sort is stable, so ties stay in the shuffled order."""
    value = edition.card(action.card).value
    low_first = value if action.kind == KEEP else -value  # keep the lowest, play the highest
    return -low_first if high else low_first


Outcome = tuple[Action, Game, list[dict] | RuleGapError]


def _step(game: Game, options: list[Action], policy: str) -> Outcome | None:
    """The action taken (from `options`, already shuffled), the game after it and its events (or
    the rule gap it stopped on). Peaceful play takes the first action after which nobody more is
    out, aggressive play the first after which someone more is, when one exists; otherwise, and
    in random play, the first the engine accepts."""
    fallback: Outcome | None = None
    alive = game.alive.count(True)
    for action in options:
        child = game.clone()
        try:
            events: list[dict] | RuleGapError = child.apply(action)
        except RuleGapError as gap:
            events = gap
        except IllegalActionError:
            continue
        if policy == RANDOM:
            return action, child, events
        fewer = child.alive.count(True) < alive
        if not isinstance(events, RuleGapError) and fewer == (policy == AGGRESSIVE):
            return action, child, events
        if fallback is None:
            fallback = action, child, events
    return fallback


def _cut(record: Replay) -> Replay:
    """An independent copy of the replay as it stands."""
    rounds = [{"deck": list(r["deck"]), "actions": [dict(a) for a in r["actions"]]} for r in record["rounds"]]
    out = {k: v for k, v in record.items() if k != "rounds"}
    if "tokens" in out:
        out["tokens"] = list(out["tokens"])
    out["rounds"] = rounds
    return out
