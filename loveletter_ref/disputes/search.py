"""The witness search: games played under two specs in lockstep until they part.

Every game is dealt and played from a seed (`seed_for`), so the same question always gets the
same answer. A game is played under both specs at once, one table each as the two sides of a
`loveletter_ref.lockstep.Lockstep`: the same deal, and the same actions.
The player picks among the actions both specs allow, and now and then takes one that only one
spec allows (when the clause the other spec cites is still without a witness). After each
step the two tables are compared (`duel`):

- the first step after which anything differs is where the two specs part; the difference is
  *attributed* to the clause whose swap explains it: the spec with only that clause taken from
  the other side shows, at that step, exactly what the other side shows (`accounts_for`); a
  deal that one spec refuses is attributed to the clauses that make up the deck;
- the game then goes on until the tables see different results (a refusal or a rule gap on one
  side, different players out, different tokens or winners).

Games are driven towards a clause in three ways: the player prefers the clause's card; some
games start with favour tokens already won, near the target; and a *reach* search plays one
spec with that clause made silent, beside the other spec, until the engine reports needing the
clause, then continues both specs from there. z3 (`vacuity`) supplies more games that reach a
clause, and proofs that a clause is never needed.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from loveletter_ref import Phase
from loveletter_ref.errors import RuleGapError
from loveletter_ref.lockstep import DEAL, MOVE, Lockstep, Step
from loveletter_ref.spec import Edition

from .differences import Difference
from .duel import IN_PLAY, Look, Move, Table, both_stuck, differ, event_id, observable
from .witness import Witness, replay_looks

SCORING = ("round_tokens", "tokens_to_win", "game_end", "bonus_token")
"""Rule kinds that matter when favour tokens are near the target: games testing them usually
start with tokens already won."""

MAX_ROUNDS = 40
"""Rounds after which a game is abandoned (no spec here needs that many)."""


@dataclass(frozen=True)
class Budget:
    """How hard to look: counts of games, never seconds, so that the answers are the same on
    every machine at any load."""

    games: int = 120
    """Games per player count in the broad search."""
    reach: int = 40
    """Games per player count spent reaching one clause."""
    tries: int = 4
    """Continuations tried from each game that reaches a clause."""
    deep: int = 300
    """Games per player count spent on a clause z3 is not asked about (a card's value), when
    neither the broad games nor the rules settle it: its difference shows only in rare games,
    a tie at the showdown broken by discard totals."""


def seed_for(*parts: object) -> int:
    """A stable seed from any labels (the same on every machine and Python)."""
    return zlib.crc32("\x1f".join(map(str, parts)).encode("utf-8"))


# -- one game under two specs ----------------------------------------------------------------


@dataclass
class GamePlan:
    """The setup of one game, and the policy that chooses its decks and actions."""

    players: int
    first_player: int
    tokens: tuple[int, ...] | None
    rng: random.Random
    decks: Sequence[Edition]
    """Specs whose deck the rounds are dealt from, in turn."""
    bias: frozenset[str] = frozenset()
    """Cards the player prefers to play."""
    wanted: frozenset[str] | None = None
    """Clauses worth testing by taking an action only one spec allows (None: any)."""

    def deck(self, round_: int) -> list[str]:
        """A shuffled deck for the round, from one of the specs' decks."""
        spec = self.decks[round_ % len(self.decks)]
        names = [spec.names[c] for c in spec.deck(self.players)]
        self.rng.shuffle(names)
        return names

    def follow(self, seed: int) -> GamePlan:
        """The same setup, played on from a new seed."""
        return GamePlan(self.players, self.first_player, self.tokens, random.Random(seed), self.decks,
                     self.bias, self.wanted)

    def pick(self, common: Iterable[Move], single: dict[Move, str | None] | None = None) -> Move:
        """An action: sometimes one that only one spec allows (if the clause that forbids it is
        wanted), else one both allow: a card (preferring the biased ones), then a play of it."""
        worth = sorted((m for m, key in (single or {}).items()
                        if self.wanted is None or key in self.wanted), key=repr)
        shared = sorted(common, key=repr)
        if worth and (not shared or self.rng.random() < 0.35):
            return worth[int(self.rng.random() * len(worth))]
        if not shared:
            shared = sorted(single or {}, key=repr)
        by_card: dict[str, list[Move]] = {}
        for move in shared:
            by_card.setdefault(move[1], []).append(move)
        cards = sorted(by_card)
        preferred = [c for c in cards if c in self.bias]
        if preferred and self.rng.random() < 0.75:
            cards = preferred
        plays = by_card[cards[int(self.rng.random() * len(cards))]]
        return plays[int(self.rng.random() * len(plays))]


@dataclass
class Run:
    """A game played in lockstep: its steps, what each showed, where the specs parted."""

    game: GamePlan
    steps: list[Step]
    looks: list[tuple[Look, Look]]
    diverged: int | None = None
    seen: bool = False
    """True when the last step shows a difference a table sees."""
    triggered: bool = False
    """True once a play that needs a clause left open was added to show the rule gap."""

    def witness(self) -> Witness:
        """The run as a witness (it must have diverged)."""
        assert self.diverged is not None
        return Witness(self.game.players, self.game.first_player, self.game.tokens, list(self.steps),
                       self.diverged, list(self.looks))


def choices(ta: Table, tb: Table, la: Look, lb: Look) -> tuple[frozenset[Move], dict[Move, str | None]]:
    """Actions both tables allow, and those only one allows with the clause the other cites (a
    play of a card whose plays a table's rules cannot list counts among the latter, with the
    clause it needs, even when both tables leave it open)."""
    single = {m: tb.refusal(m) for m in la.legal - lb.legal}
    single.update({m: ta.refusal(m) for m in lb.legal - la.legal})
    for look in (la, lb):
        single.update(look.open)
    return la.legal & lb.legal, single


def lockstep(a: Edition, b: Edition, game: GamePlan, forced: Sequence[Step] = (),
             stop: Callable[[Look, Look], bool] | None = None) -> Run:
    """Play one game under `a` and `b` at once: `forced` steps first, then the policy's.

    The game stops when the tables see different results, when neither can go on, at the end
    of the round in which the specs parted, or when `stop` says so.
    """
    ta = Table(a, game.players, game.first_player, game.tokens)
    tb = Table(b, game.players, game.first_player, game.tokens)
    tables = Lockstep(ta, tb)
    run = Run(game, tables.trail.steps, [])
    queue = list(forced)

    def step(kind: str, value: Any) -> bool:
        """Take one step at both tables; True when the game goes on."""
        la, lb = tables.deal(value) if kind == DEAL else tables.act(value)
        run.looks.append((la, lb))
        if run.diverged is None and differ(la, lb):
            run.diverged = len(run.steps) - 1
        ended = observable(la, lb) or both_stuck(la, lb)
        trigger = next((look.trigger for look in (la, lb) if look.status == "gap" and look.trigger), None)
        if ended and trigger is not None and not run.triggered:
            run.triggered = True
            return step(MOVE, trigger)
        if observable(la, lb):
            run.seen = not both_stuck(la, lb)
            return False
        return not both_stuck(la, lb) and not (stop is not None and stop(la, lb))

    for round_ in range(MAX_ROUNDS):
        if queue and queue[0][0] != DEAL:
            break
        deck = queue.pop(0)[1] if queue else game.deck(round_)
        if not step(DEAL, deck):
            return run
        while ta.phase in IN_PLAY and tb.phase in IN_PLAY:
            if queue and queue[0][0] == MOVE:
                move = queue.pop(0)[1]
            elif queue:
                break
            else:
                move = game.pick(*choices(ta, tb, *run.looks[-1]))
            if not step(MOVE, move):
                return run
        if ta.phase is not Phase.ROUND_OVER or tb.phase is not Phase.ROUND_OVER:
            return run
        if run.diverged is not None and not queue:
            return run
    return run


# -- attribution ------------------------------------------------------------------------------


def same_look(x: Look, y: Look) -> bool:
    """True when two looks show the same thing."""
    return not differ(x, y)


def accounts_for(hybrid: Edition | None, run: Run, target: int) -> bool:
    """True when `hybrid` shows, at the first divergence, what side `target` (0 or 1) shows,
    having agreed with both sides before it."""
    if hybrid is None or run.diverged is None:
        return False
    t = run.diverged
    g = run.game
    looks = replay_looks(hybrid, g.players, g.first_player, g.tokens, run.steps[:t + 1])
    if len(looks) != t + 1:
        return False
    before = all(same_look(looks[i], run.looks[i][0]) for i in range(t))
    return before and same_look(looks[t], run.looks[t][target])


def setting(edition: Edition, kind: str, players: int) -> int:
    """A setup rule's number for this player count."""
    if kind == "deal":
        return int(edition.general[kind].need())
    return edition.player_table(kind, players, default=0 if kind == "face_up" else None)


def _shape(run: Run) -> tuple[object, ...]:
    """How a run's first divergence looks: the step, what each side did, which events differ."""
    assert run.diverged is not None
    la, lb = run.looks[run.diverged]
    ids_a, ids_b = {event_id(e) for e in la.events}, {event_id(e) for e in lb.events}
    kinds = sorted({str(dict(e).get("type")) for e in ids_a ^ ids_b})
    return (run.steps[run.diverged][0], la.status, lb.status, la.clause, lb.clause, tuple(kinds))


def deal_refusal(run: Run) -> bool:
    """True when the specs part at a deal that one of them refuses (its deck differs)."""
    if run.diverged is None or run.steps[run.diverged][0] != DEAL:
        return False
    return any(look.status == "refused" and look.clause == "setup.deck" for look in run.looks[run.diverged])


# -- the search over clauses ------------------------------------------------------------------


class PairSearch:
    """Looks for a witness for every clause on which two specs differ.

    `blend(side, key)` is that side's spec with `key` from the other side; `silence(side, key)`
    is that side's spec with `key` silent (None when either cannot be built).
    """

    def __init__(self, a: Edition, b: Edition, diffs: Sequence[Difference], budget: Budget,
                 blend: Callable[[int, str], Edition | None], silence: Callable[[int, str], Edition | None],
                 label: str, counts: dict[str, list[int]] | None = None):
        self.specs = (a, b)
        self.counts_for = counts or {}
        self.blocked: Counter[str] = Counter()
        """Games that parted first on another clause, by that clause (a hint at what hides the rest)."""
        self.diffs = {d.key: d for d in diffs}
        self.budget = budget
        self.blend = blend
        self.silence = silence
        self.label = label
        self.found: dict[str, Witness] = {}
        self.shapes: dict[tuple[object, ...], str] = {}
        """How each witness's first divergence looked, to set aside games that part the same way."""

    def counts(self) -> list[int]:
        """Player counts both specs allow."""
        a, b = self.specs
        return list(range(max(a.min_players, b.min_players), min(a.max_players, b.max_players) + 1))

    def open(self) -> list[str]:
        """Clauses still without a witness."""
        return [key for key in self.diffs if key not in self.found]

    def run(self) -> dict[str, Witness]:
        """Broad games, then games that reach each clause still without a witness."""
        for i in range(self.budget.games):
            for n in self.counts():
                if not self.open():
                    return self.found
                self.play(self.new_game(n, "broad", i))
        for key in self.open():
            self.reach(key)
        return self.found

    def new_game(self, players: int, phase: str, index: int, key: str = "") -> GamePlan:
        """The seeded setup of one game."""
        rng = random.Random(seed_for(self.label, phase, key, players, index))
        scoring = key and self.diffs[key].kind in SCORING
        tokens = self.tokens(players, rng) if rng.random() < (0.9 if scoring else 0.3) else None
        open_keys = [key] if key else self.open()
        cards = [self.diffs[k].card_name for k in open_keys]
        bias = frozenset(c for c in cards if c and rng.random() < 0.7)
        a, b = self.specs
        decks = [a, b] if index % 2 == 0 else [b, a]
        return GamePlan(players, 0, tokens, rng, decks, bias, frozenset(open_keys))

    def tokens(self, players: int, rng: random.Random) -> tuple[int, ...] | None:
        """Tokens already won, just short of the lower of the two targets."""
        try:
            target = min(e.player_table("tokens_to_win", players) for e in self.specs)
        except RuleGapError:
            return None
        if target < 2:
            return None
        return tuple(target - 1 if rng.random() < 0.6 else rng.randrange(target) for _ in range(players))

    def play(self, game: GamePlan, forced: Sequence[Step] = (), only: str | None = None) -> str | None:
        """Play one game; record a witness for the clause it is attributed to (if new)."""
        run = lockstep(*self.specs, game, forced)
        if run.diverged is None or not run.seen:
            return None
        if deal_refusal(run):
            return self._deck(run, only)
        shape = _shape(run)
        known = self.shapes.get(shape)
        if known is not None and not only and self.attribute(run, [known]):
            self.blocked[known] += 1
            if len(run.steps) < len(self.found[known].steps):
                self.found[known] = self.shrink(run, known)
            return None
        for key in self.attribute(run, [only] if only else None):
            if key not in self.found:
                self.found[key] = self.shrink(run, key)
                self.shapes[shape] = key
                return key
        if known is not None:
            self.blocked[known] += 1
        return None

    def _deck(self, run: Run, only: str | None) -> str | None:
        """A deal one spec refuses: the witness of every clause of the deck's make-up that differs
        for this player count (the same game for each, since the deck differs in all of them at
        once and a deal is accepted or refused whole)."""
        keys = [k for k in self.attribute(run, [only] if only else None) if k not in self.found]
        if not keys:
            self.blocked["setup.deck"] += 1
            return None
        witness = self.shrink(run, keys[0])
        for key in keys:
            self.found[key] = witness
        return keys[0]

    def attribute(self, run: Run, keys: Sequence[str] | None = None) -> list[str]:
        """The clauses (among `keys`, default: all still without a witness) that account for
        the run's first divergence."""
        candidates = keys or self.open()
        at_deal = run.diverged is not None and run.steps[run.diverged][0] == DEAL
        if deal_refusal(run):
            return [k for k in candidates if self._setup_clause(k, run.game.players, deck_only=True)]
        setup = [k for k in candidates if at_deal and self._setup_clause(k, run.game.players)]
        return setup + [k for k in candidates if k not in setup and (
            accounts_for(self.blend(0, k), run, 1) or accounts_for(self.blend(1, k), run, 0))]

    def shrink(self, run: Run, key: str) -> Witness:
        """The run's witness, started as late a round as still shows the same difference for the
        same clause (earlier rounds then only set the tokens and who starts)."""
        assert run.diverged is not None
        for start in reversed(later_deals(run.steps[:run.diverged + 1])):
            game = restarted(run, start)
            if game is None:
                continue
            short = lockstep(*self.specs, game, run.steps[start:])
            if (short.diverged == run.diverged - start and short.seen
                    and len(short.steps) == len(run.steps) - start and key in self.attribute(short, [key])):
                return short.witness()
        return run.witness()

    def _setup_clause(self, key: str, players: int, deck_only: bool = False) -> bool:
        """True when `key` sets up the deal (the deck's make-up, with `deck_only`) differently
        for this player count: a deal then differs because of it, whatever else differs too."""
        diff = self.diffs[key]
        if diff.kind == "card":
            counts = [s.card.count_for(players) if s.card else 0 for s in (diff.a, diff.b)]
            return counts[0] != counts[1]
        if diff.kind not in (("deck_size",) if deck_only else ("deck_size", "set_aside", "face_up", "deal")):
            return False
        try:
            values = {setting(e, diff.kind, players) for e in self.specs}
        except RuleGapError:
            return True
        return len(values) > 1

    def reach(self, key: str) -> None:
        """Games that reach `key` (made silent on one side), each continued in lockstep."""
        for side in (0, 1):
            silent = self.silence(side, key)
            if silent is None:
                continue
            for i in range(self.budget.reach):
                for n in self.counts_for.get(key, self.counts()):
                    if key in self.found:
                        return
                    game = self.new_game(n, f"reach{side}", i, key)
                    steps = reach_prefix(silent, self.specs[1 - side], key, game)
                    if steps is not None:
                        self.continue_from(key, game, steps, i)

    def deepen(self, key: str, games: int, counts: Sequence[int]) -> None:
        """More broad games aimed at one clause (its card preferred), with these player counts,
        until one shows it."""
        for i in range(games):
            for n in counts:
                if key in self.found:
                    return
                self.play(self.new_game(n, "deep", i, key), only=key)

    def continue_from(self, key: str, game: GamePlan, steps: list[Step], index: int) -> None:
        """Continue a game that reaches `key` in lockstep, with several continuations."""
        for t in range(self.budget.tries):
            if key in self.found:
                return
            follow = game.follow(seed_for(self.label, "continue", key, game.players, index, t))
            self.play(follow, steps, only=key)


def reach_prefix(silent: Edition, other: Edition, key: str, game: GamePlan) -> list[Step] | None:
    """Play `silent` (a spec with `key` silent) beside `other` until `silent` needs `key`: the
    steps up to and including the one that needed it, or None if this game never does (or
    the two specs part visibly first)."""
    run = lockstep(silent, other, game, stop=lambda la, lb: False)
    if not run.looks:
        return None
    last = run.looks[-1][0]
    if last.status == "gap" and last.clause == key:
        return run.steps
    return None


def later_deals(steps: Sequence[Step]) -> list[int]:
    """The indexes of the deals after the first."""
    return [i for i, (kind, _) in enumerate(steps) if kind == DEAL and i > 0]


def restarted(run: Run, start: int) -> GamePlan | None:
    """The run's game begun at its deal `start`: the tokens won before it, and its starter."""
    before, deal = run.looks[start - 1][0], run.looks[start][0]
    opening = next((e for e in deal.raw_events if e["type"] == "round_start"), None)
    if opening is None or not before.tokens:
        return None
    g = run.game
    return GamePlan(g.players, opening["first"], before.tokens, g.rng, g.decks, g.bias, g.wanted)


def first_gap(edition: Edition, game: GamePlan) -> Witness | None:
    """Play one game under one spec until it stops on a rule gap: that game, begun at the round
    of the gap when that still stops on it (earlier rounds then only set the tokens and who
    starts), or None."""
    run = lockstep(edition, edition, game)
    last = run.looks[-1][0] if run.looks else None
    if last is None or last.status != "gap" or not last.clause:
        return None
    deals = later_deals(run.steps)
    late = restarted(run, deals[-1]) if deals else None
    if late is not None:
        short = lockstep(edition, edition, late, run.steps[deals[-1]:])
        end = short.looks[-1][0] if short.looks else None
        if end is not None and end.status == "gap" and end.clause == last.clause:
            run = short
    g = run.game
    return Witness(g.players, g.first_player, g.tokens, run.steps, len(run.steps) - 1, run.looks)
