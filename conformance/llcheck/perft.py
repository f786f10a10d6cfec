"""Deal-perft: count the legal action sequences of one fixed deal, depth by depth.

The convention is in docs/perft.md. In short: the root is the position right after the deal
(the first player has drawn); every decision (a play, a keep, a response) is one ply; draws are
not chance nodes because the deck order is fixed; a node whose action ends the round is
terminal, counted at its depth by who won, and has no children.

Two trees are walked the same way: the reference engine, branched with `Game.clone()`, and any
engine behind the adapter interface that lists legal actions, branched by starting the deal
again and replaying the path to each node. `compare` checks an engine against the reference
and, on a difference, gives the divide of both and the first node where they disagree: the two
trees are walked down one path in lockstep (`loveletter_ref.lockstep`), each move the first
whose outcome or count differs, to the node where the legal actions or a move's outcome differ.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from jsonschema.exceptions import best_match

from loveletter_ref import Action, Game, Phase
from loveletter_ref.lockstep import MOVE, Divergence, Lockstep, Unmatched, unmatched
from loveletter_ref.spec import Edition, load_spec
from loveletter_ref.spec.schema import pointer_text, validator_for

from .engines.base import Engine, EngineFailure, Json, Reply
from .harness.compare import comparable
from .paths import conformance_dir

TERMINAL_PHASES = ("round_over", "game_over")
"""Phases in which the round has ended: a node in one of them has no children."""

N = TypeVar("N")
A = TypeVar("A")
T = TypeVar("T")


class PerftError(Exception):
    """The engine under test could not be walked: it refused the deal or an action it listed."""


@dataclass(frozen=True)
class Deal:
    """One fixed deal: an edition, a player count, a full deck (top first) and the first player."""

    edition: str
    players: int
    deck: tuple[str, ...]
    first_player: int = 0
    id: str = ""

    def describe(self) -> str:
        """One line naming the deal."""
        name = f"{self.id}: " if self.id else ""
        return (f"{name}{self.edition}, {self.players} players, first player {self.first_player}, "
                f"deck {' '.join(self.deck)}")

    def to_json(self) -> Json:
        """The deal as stored in a perft table."""
        return {"id": self.id, "edition": self.edition, "players": self.players,
                "first_player": self.first_player, "deck": list(self.deck)}


def seeded_deal(edition: Edition, players: int, seed: int, first_player: int = 0) -> Deal:
    """The deal the reference engine shuffles from `seed` (as `llcheck simulate` does)."""
    game = Game(edition, players, seed=seed, first_player=first_player)
    game.start_round()
    return Deal(edition.id, players, tuple(game.record[0]["deck"]), first_player, f"seed-{seed}")


@dataclass
class Level:
    """What one depth holds: the number of nodes, and the terminal ones by winners."""

    nodes: int = 0
    terminals: Counter[str] = field(default_factory=Counter)

    def add(self, other: Level) -> None:
        """Add another count of the same depth."""
        self.nodes += other.nodes
        self.terminals.update(other.terminals)

    def to_json(self) -> Json:
        """`{"nodes": N, "terminals": {"0": n, "1+2": m, "none": k}}`."""
        return {"nodes": self.nodes, "terminals": dict(sorted(self.terminals.items()))}

    def describe(self) -> str:
        """`N nodes (terminal: 0 x3, 1 x2)`."""
        ends = ", ".join(f"{who} x{n}" for who, n in sorted(self.terminals.items()))
        noun = "node" if self.nodes == 1 else "nodes"
        return f"{self.nodes} {noun}" + (f" (terminal: {ends})" if ends else "")

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Level) and self.nodes == other.nodes
                and +self.terminals == +other.terminals)


def winners_key(winners: Sequence[int] | None) -> str:
    """How a terminal node is counted: the winning seats joined by '+', or 'none'."""
    if winners is None:
        return "?"
    return "+".join(str(s) for s in sorted(winners)) or "none"


def action_key(action: Json) -> str:
    """A canonical text for an action, to compare the actions of two engines."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def action_label(action: Json) -> str:
    """A short human form of an action ('Guard on 2 naming Priest'), or its JSON if malformed."""
    try:
        return Action.from_json(action).describe()
    except ValueError:
        return action_key(action)


class Tree(Protocol[N, A]):
    """A game tree to count: the root, the actions of a node, and the child an action leads to."""

    def root(self) -> N:
        """The position right after the deal."""

    def actions(self, node: N) -> list[A]:
        """The legal actions at `node`."""

    def play(self, node: N, action: A) -> tuple[N, str | None]:
        """The child `action` leads to, and its winners key when the round ended there."""

    def as_json(self, action: A) -> Json:
        """The protocol form of an action."""


class ReferenceTree:
    """The reference engine's tree, branched with `Game.clone()`."""

    def __init__(self, deal: Deal, edition: Edition | None = None, game_class: type[Game] = Game):
        self.deal = deal
        self.edition = edition or load_spec(deal.edition)
        self.game_class = game_class

    def root(self) -> Game:
        game = self.game_class(self.edition, self.deal.players, first_player=self.deal.first_player)
        game.start_round(list(self.deal.deck))
        return game

    def actions(self, node: Game) -> list[Action]:
        return node.legal_actions()

    def play(self, node: Game, action: Action) -> tuple[Game, str | None]:
        child = node.clone()
        child.apply_unchecked(action)
        if child.phase is Phase.ROUND_OVER or child.phase is Phase.GAME_OVER:
            return child, winners_key(child.round_winners)
        return child, None

    def as_json(self, action: Action) -> Json:
        return action.to_json()


class EngineTree:
    """An engine's tree, branched by dealing again and replaying the path to each node.

    A node is the tuple of actions from the root. The engine stays where the last call left it,
    so a depth-first walk replays a path only when it moves to a sibling.
    """

    def __init__(self, engine: Engine, deal: Deal):
        if not engine.hello.can("legal_actions"):
            raise PerftError(f"{engine.hello.name} does not list legal actions "
                             "(capability legal_actions), so it cannot be counted")
        self.engine = engine
        self.deal = deal
        self.at: tuple[Json, ...] | None = None

    def root(self) -> tuple[Json, ...]:
        return ()

    def _goto(self, node: tuple[Json, ...]) -> None:
        if self.at == node:
            return
        deal = self.deal
        self.at = None
        reply = _reply("start", self._ask((), self.engine.start, deal.edition, deal.players, list(deal.deck),
                                          deal.first_player))
        if not reply.accepted:
            raise PerftError(f"{self.engine.hello.name} refused the deal: {reply.reason}")
        self.at = ()
        for action in node:
            self._apply(action)

    def _ask(self, path: tuple[Json, ...], request: Callable[..., T], *args: Any) -> T:
        """The engine's answer to one request, its failure naming the deal and the path it was on."""
        try:
            return request(*args)
        except EngineFailure as exc:
            self.at = None  # where the engine is now is unknown: deal again next time
            raise FailedAt(exc, self.deal, path) from None

    def _apply(self, action: Json) -> Json:
        assert self.at is not None
        reply = _reply("apply", self._ask(self.at + (action,), self.engine.apply, action))
        if not reply.accepted:
            path = " / ".join(action_key(a) for a in self.at + (action,))
            self.at = None
            raise PerftError(f"{self.engine.hello.name} lists {action_key(action)} as legal but "
                             f"refuses it ({reply.reason}); path: {path}")
        self.at = self.at + (action,)
        state = reply.state if reply.state is not None else self._ask(self.at, self.engine.state)
        if not isinstance(state, dict):
            raise FailedAt(EngineFailure(f"the engine's state is not an object (got {type(state).__name__})"),
                           self.deal, self.at)
        return state

    def actions(self, node: tuple[Json, ...]) -> list[Json]:
        """The engine's legal actions, without the keys the formats do not define (which are
        neither compared nor sent back)."""
        self._goto(node)
        actions = self._ask(node, self.engine.legal_actions)
        if not isinstance(actions, list) or not all(isinstance(action, dict) for action in actions):
            raise FailedAt(EngineFailure(f"the engine's legal actions are not a list of action objects (got "
                                         f"{type(actions).__name__})"), self.deal, node)
        return [comparable("action", action) for action in actions]

    def play(self, node: tuple[Json, ...], action: Json) -> tuple[tuple[Json, ...], str | None]:
        self._goto(node)
        state = self._apply(action)
        if state.get("phase") in TERMINAL_PHASES:
            return node + (action,), winners_key(state.get("round_winners"))
        return node + (action,), None

    def as_json(self, action: Json) -> Json:
        return action


class FailedAt(EngineFailure):
    """The engine failed while its tree was walked: the failure, the deal and the path it was on."""

    def __init__(self, cause: EngineFailure, deal: Deal, path: tuple[Json, ...]):
        where = " / ".join(action_label(a) for a in path) if path else "none"
        super().__init__(f"{cause} (deal {deal.id or deal.describe()}; actions played: {where})")
        self.cause = cause


def _reply(request: str, reply: Any) -> Reply:
    """An in-process engine's answer to `request`, when it is a Reply (EngineFailure if not)."""
    if not isinstance(reply, Reply):
        raise EngineFailure(f"the engine's answer to {request} is not an llcheck.engines.Reply (got "
                            f"{type(reply).__name__})")
    return reply


def count(tree: Tree[N, A], node: N, depth: int) -> list[Level]:
    """Nodes and terminal outcomes at depths 1..`depth` below `node`."""
    levels = [Level() for _ in range(depth)]
    _walk(tree, node, levels, 0)
    return levels


def _walk(tree: Tree[N, A], node: N, levels: list[Level], level: int) -> None:
    row = levels[level]
    deeper = level + 1 < len(levels)
    for action in tree.actions(node):
        child, outcome = tree.play(node, action)
        row.nodes += 1
        if outcome is not None:
            row.terminals[outcome] += 1
        elif deeper:
            _walk(tree, child, levels, level + 1)


@dataclass
class Branch(Generic[A]):
    """One first move of a divide, with the counts of the sequences that start with it."""

    action: A
    key: str
    label: str
    levels: list[Level]


def divide(tree: Tree[N, A], depth: int) -> list[Branch[A]]:
    """For each legal first move, the counts at depths 1..`depth` of the sequences it starts."""
    root = tree.root()
    out: list[Branch[A]] = []
    for action in tree.actions(root):
        child, outcome = tree.play(root, action)
        first = Level(1, Counter({outcome: 1}) if outcome is not None else Counter())
        below = count(tree, child, depth - 1) if outcome is None and depth > 1 else \
            [Level() for _ in range(depth - 1)]
        as_json = tree.as_json(action)
        out.append(Branch(action, action_key(as_json), action_label(as_json), [first, *below]))
    return out


def total(branches: list[Branch[Any]], depth: int) -> list[Level]:
    """The counts at depths 1..`depth` of a divide, summed over its first moves."""
    levels = [Level() for _ in range(depth)]
    for branch in branches:
        for row, level in zip(levels, branch.levels, strict=True):
            row.add(level)
    return levels


def perft(tree: Tree[N, A], depth: int) -> list[Level]:
    """The counts at depths 1..`depth` from the root of `tree`."""
    return count(tree, tree.root(), depth)


def decision_kinds(tree: Tree[N, A], depth: int) -> set[str]:
    """The kinds of decision counted down to `depth`: action types, and `targets` for group choices."""
    found: set[str] = set()
    _kinds(tree, tree.root(), depth, found)
    return found


def _kinds(tree: Tree[N, A], node: N, depth: int, found: set[str]) -> None:
    for action in tree.actions(node):
        as_json = tree.as_json(action)
        found.add(str(as_json.get("type")))
        if "targets" in as_json:
            found.add("targets")
        if depth > 1:
            child, outcome = tree.play(node, action)
            if outcome is None:
                _kinds(tree, child, depth - 1, found)


@dataclass
class Comparison:
    """An engine's counts next to the reference's, and where they first differ."""

    deal: Deal
    depth: int
    reference: list[Level]
    engine: list[Level]
    first_difference: int | None
    reference_divide: list[Branch[Any]] = field(default_factory=list)
    engine_divide: list[Branch[Any]] = field(default_factory=list)
    divergence: Divergence | None = None
    """The first node where the two disagree (its `detail` says how), when it was found."""
    path: list[Json] = field(default_factory=list)
    """The actions from the deal to that node (ending with the move whose outcome differs, if so)."""

    @property
    def ok(self) -> bool:
        """True when every depth matches."""
        return self.first_difference is None

    def disagreement(self) -> str:
        """The path to the first node where they disagree (one action per line) and the difference."""
        assert self.divergence is not None
        lines = [f"after {len(self.path)} action(s) from the deal:"]
        lines += [f"  {action_label(a)}" for a in self.path]
        lines.append(f"  {self.divergence.detail}")
        return "\n".join(lines)


def first_difference(expected: Sequence[Level], actual: Sequence[Level]) -> int | None:
    """The first depth (1-based) at which two count lists differ, or None."""
    for depth, (a, b) in enumerate(zip(expected, actual, strict=True), start=1):
        if a != b:
            return depth
    return None


def compare(engine: Engine, deal: Deal, depth: int, expected: list[Level] | None = None,
            edition: Edition | None = None, split: bool = False) -> Comparison:
    """Count `deal` on `engine` and on the reference (or take `expected`), and explain a difference.

    On a difference first found at depth n, the divides of both trees at depth n are kept
    (each first move with the counts below it, so the implementer sees which move diverges),
    and the walk goes down the differing moves to the first node where the legal actions or a
    move's outcome differ. With `split` (and no `expected`), both are counted by divide at
    `depth`, so that a match keeps the divides too (equal totals from differing first moves are
    a difference at `depth`).
    """
    reference = ReferenceTree(deal, edition)
    tested = EngineTree(engine, deal)
    split = split and expected is None
    if split:
        ours, theirs = divide(reference, depth), divide(tested, depth)
        wanted, got = total(ours, depth), total(theirs, depth)
    else:
        wanted = expected if expected is not None else perft(reference, depth)
        got = perft(tested, depth)
    at = first_difference(wanted[:depth], got)
    if at is None and split and _by_move(ours) != _by_move(theirs):
        at = depth
    result = Comparison(deal, depth, wanted[:depth], got, at)
    if at is None and not split:
        return result
    where = at or depth
    if split:  # a divide at `depth` holds the divides at every smaller depth
        result.reference_divide, result.engine_divide = _cut(ours, where), _cut(theirs, where)
    else:
        result.reference_divide, result.engine_divide = divide(reference, where), divide(tested, where)
    if at is not None:
        result.divergence, result.path = locate(reference, tested, at)
    return result


def _cut(branches: list[Branch[A]], depth: int) -> list[Branch[A]]:
    """A divide's branches with their counts to `depth` only (the divide at that depth)."""
    return [replace(branch, levels=branch.levels[:depth]) for branch in branches]


def _by_move(branches: list[Branch[Any]]) -> dict[str, list[Level]]:
    return {branch.key: branch.levels for branch in branches}


class _Cursor(Generic[N, A]):
    """One tree walked down a single path, as a side of the lockstep that locates a divergence: the
    node reached, its legal actions by key, and the child each leads to (played once, whether it
    is looked at or moved to)."""

    def __init__(self, tree: Tree[N, A]):
        self.tree = tree
        self.node: N
        self.actions: dict[str, A] = {}
        self.children: dict[str, tuple[N, str | None]] = {}

    def deal(self, deal: object, /) -> None:
        """Stand at the root (the deal is the tree's own)."""
        self.node = self.tree.root()

    def listed(self) -> list[str]:
        """The keys of the node's legal actions, in the tree's order, repeats included."""
        listed = [(action_key(self.tree.as_json(a)), a) for a in self.tree.actions(self.node)]
        self.actions, self.children = dict(listed), {}
        return [key for key, _ in listed]

    def child(self, key: str) -> tuple[N, str | None]:
        """The child the action of `key` leads to, and its winners key when the round ends there."""
        if key not in self.children:
            self.children[key] = self.tree.play(self.node, self.actions[key])
        return self.children[key]

    def act(self, key: str, /) -> str | None:
        """Move to the child of `key`; its winners key when the round ends there."""
        self.node, outcome = self.child(key)
        return outcome


def locate(reference: Tree[Any, Any], tested: Tree[Any, Any],
           depth: int) -> tuple[Divergence | None, list[Json]]:
    """Follow the first differing move down to the node where the two trees disagree: the
    divergence there (None if none is found), and the path to it."""
    ours, theirs = _Cursor(reference), _Cursor(tested)
    steps = Lockstep(ours, theirs, json.loads)
    steps.deal(None)

    def found(what: str, expected: Any, actual: Any, detail: str) -> tuple[Divergence, list[Json]]:
        path = [json.loads(key) for kind, key in steps.trail.steps if kind == MOVE]
        return steps.part(what, expected, actual, detail), path

    for remaining in range(depth, 0, -1):
        listed, their_list = ours.listed(), theirs.listed()
        apart = unmatched(listed, their_list)
        if apart.missing or apart.extra:
            return found("legal_actions", _actions(listed), _actions(their_list), _set_difference(apart))
        if apart.repeated:
            return found("legal_actions", _actions(listed), _actions(their_list),
                         "the engine lists an action more than once: " + _labels(sorted(apart.repeated)))
        key = _differing_child(ours, theirs, remaining)
        if key is None:
            return None, []
        ref_end, test_end = steps.act(key)
        if ref_end != test_end:
            return found("round end", ref_end, test_end, f"this action should {_ending(ref_end)}, "
                                                          f"but on the engine it {_ending(test_end, 's')}")
    return None, []


def _differing_child(reference: _Cursor[Any, Any], tested: _Cursor[Any, Any], remaining: int) -> str | None:
    """The key of the first move whose outcome or subtree differs."""
    for key in reference.actions:
        ref_child, ref_end = reference.child(key)
        test_child, test_end = tested.child(key)
        if ref_end != test_end:
            return key
        if ref_end is None and remaining > 1:
            want = count(reference.tree, ref_child, remaining - 1)
            got = count(tested.tree, test_child, remaining - 1)
            if want != got:
                return key
    return None


def _actions(keys: list[str]) -> list[Json]:
    return [json.loads(key) for key in keys]


def _ending(outcome: str | None, verb_ending: str = "") -> str:
    """What an action does to the round, as a verb phrase (`verb_ending` "s" for the third person)."""
    if outcome is None:
        return f"leave{verb_ending} the round going"
    return f"end{verb_ending} the round with winners {outcome}"


def _set_difference(apart: Unmatched) -> str:
    parts = []
    if apart.missing:
        parts.append("legal but not listed by the engine: " + _labels(sorted(apart.missing)))
    if apart.extra:
        parts.append("listed by the engine but illegal: " + _labels(sorted(apart.extra)))
    return "; ".join(parts)


def _labels(keys: list[str]) -> str:
    return ", ".join(action_label(json.loads(key)) for key in keys)


# -- published tables --------------------------------------------------------------------------


def table_path(edition: str) -> Path:
    """Where the published perft table of an edition lives."""
    return conformance_dir() / "perft" / f"{edition}.json"


@dataclass
class TableEntry:
    """A published deal with its counts."""

    deal: Deal
    levels: list[Level]
    complete: bool


def table_entry_json(entry: TableEntry) -> Json:
    """A table entry as stored."""
    return {**entry.deal.to_json(), "complete": entry.complete,
            "depths": [{"depth": d, **level.to_json()} for d, level in enumerate(entry.levels, 1)]}


def schema_path() -> Path:
    """The JSON Schema of perft tables."""
    return conformance_dir() / "schema" / "perft.schema.json"


def load_table(path: Path) -> list[TableEntry]:
    """The deals of a perft table, checked against its schema (ValueError names what is wrong)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: cannot read a perft table ({exc})") from None
    error = best_match(validator_for(schema_path()).iter_errors(data))
    if error is not None:
        raise ValueError(f"{path}: {pointer_text(tuple(error.absolute_path))}: {error.message}")
    try:
        return [_entry(raw) for raw in data["deals"]]
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _entry(raw: Json) -> TableEntry:
    deal = Deal(raw["edition"], raw["players"], tuple(raw["deck"]), raw.get("first_player", 0),
                raw.get("id", ""))
    levels = []
    for depth, row in enumerate(raw["depths"], start=1):
        if row["depth"] != depth:
            raise ValueError(f"deal {deal.id}: depth {row['depth']} listed where {depth} was expected")
        levels.append(Level(row["nodes"], Counter(row["terminals"])))
    return TableEntry(deal, levels, bool(raw.get("complete", False)))


def iter_table(entries: Sequence[TableEntry], depth: int | None) -> Iterator[tuple[TableEntry, int]]:
    """Each entry with the depth to check it to (its listed depth, capped by `depth`)."""
    for entry in entries:
        yield entry, min(len(entry.levels), depth) if depth else len(entry.levels)
