"""An engine under test and the reference engine, played side by side and compared at every move.

After each deal and each action the engine's events (capability `events`) and state must equal
the reference's; before each decision its legal actions (capability `legal_actions`) must be the
reference's as a set; an illegal action must be refused with the state left unchanged; at the
end of each round (and wherever play stops) a player's view (capability `views`) must be the
reference's. The first difference raises `Found`, whose divergence names the suspected clauses
and, like a failed case, says where it is with expected and actual. Keys the formats do not
define are left out of every comparison (`harness.compare.comparable`), but a view must carry
none: a card the player has not seen may hide in one.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, NoReturn

from loveletter_ref import Action, Game, Phase
from loveletter_ref.engine import view
from loveletter_ref.engine.state import StateCache
from loveletter_ref.engine.tables import Memo
from loveletter_ref.errors import IllegalActionError
from loveletter_ref.lockstep import Divergence, Lockstep, Parted, Trail, compact, first_index, unmatched
from loveletter_ref.spec import Edition

from ..engines.base import Engine, EngineFailure, Json, Reply
from ..engines.guard import AdapterFailure, adapters_own, raised
from ..engines.reference import action_json
from ..harness.blame import card_clauses, event_suspects, kinds_clauses, named_clause, state_suspects, unique
from ..harness.compare import MISSING, comparable, comparable_events, format_keys, without_clauses
from ..perft import action_key, action_label

LIVE = (Phase.PLAY, Phase.KEEP, Phase.RESPOND)
"""Phases in which a decision is due."""

ENGINE = "engine"
"""The kind of a difference where the engine failed to answer at all."""


@dataclass(frozen=True, slots=True)
class Step:
    """One action sent to the engine: a legal one, or an illegal probe it must refuse."""

    action: Action
    probe: bool = False


_step: Callable[[Action], Step] = Memo(Step, limit=8192).__getitem__
"""The step of each legal action, made once (a game's few hundred actions recur in every game; a
step is frozen, so one object serves every trail)."""


@dataclass
class Record:
    """What was played, to rebuild the game: the setup, and the trail of the decks and steps sent."""

    players: int
    first_player: int
    tokens: tuple[int, ...] | None
    trail: Trail = field(default_factory=Trail)

    @property
    def rounds(self) -> list[tuple[list[str], list[Step]]]:
        """Per round, its deck and the steps sent."""
        return self.trail.rounds()

    @property
    def where(self) -> str:
        """`round R, step S` of the last step recorded (step 0: the deal)."""
        return f"round {self.trail.round}, step {self.trail.step}"


class Skipped(Exception):
    """A difference the run looks past (a clause it ignores, or a deviation already recorded):
    the game ends there, counted under `clause`."""

    def __init__(self, clause: str, lost: bool):
        super().__init__(clause)
        self.clause = clause
        self.lost = lost
        """True when the engine failed (it is to be started again)."""


Skip = Callable[[tuple[str, ...]], str | None]
"""The suspected clauses of a difference -> the clause it is looked past under, or None."""


class Found(Parted):
    """The engine and the reference disagree: where and how (the divergence, with the suspected
    clauses), the `kind` of answer that differs (`deal`, `accepted`, `refused`, `events`, `state`,
    `legal_actions`, `views`, or `engine` when the engine failed), and what was played."""

    def __init__(self, divergence: Divergence, kind: str, record: Record):
        super().__init__(divergence)
        self.kind = kind
        self.record = record

    @property
    def message(self) -> str:
        """The difference in one line."""
        return self.divergence.detail

    @property
    def clauses(self) -> tuple[str, ...]:
        """The suspected clauses, most likely first."""
        return self.divergence.clauses

    @property
    def point(self) -> Divergence | None:
        """The divergence as a failed case reports it; None where the engine failed (nothing to
        set against what the reference did)."""
        return None if self.kind == ENGINE else self.divergence


def strip_view(seen: Json) -> Json:
    """A view whose log has no `clause` fields."""
    log = seen.get("log")
    return {**seen, "log": without_clauses(log)} if isinstance(log, list) else seen


class _Reference:
    """The reference game as the first side: a deal starts its next round, a legal action is
    applied unchecked (it was chosen among the legal ones), an illegal probe changes nothing."""

    def __init__(self, game: Game):
        self.game = game

    def deal(self, deck: list[str], /) -> list[Json]:
        return self.game.start_round(deck)

    def act(self, step: Step, /) -> list[Json]:
        return [] if step.probe else self.game.apply_unchecked(step.action)


class _Engine:
    """The engine under test as the second side: its first deal starts the game, each later one
    deals the next round, and every step is sent as its action's JSON form, through `ask` (which
    makes a failure a difference)."""

    def __init__(self, engine: Engine, ask: Callable[..., Any], edition: str, players: int,
                 first_player: int, tokens: Sequence[int] | None, combined: bool = False):
        self.engine = engine
        self.ask = ask
        self.setup = (edition, players, first_player, tokens)
        self.started = False
        self.combined = combined
        """Ask for combined replies (capability `combined`)."""

    def deal(self, deck: list[str], /) -> Reply:
        engine = self.engine
        if self.started:
            return self.ask(engine.next_round_combined if self.combined else engine.next_round, list(deck))
        self.started = True
        edition, players, first_player, tokens = self.setup
        start = engine.start_combined if self.combined else engine.start
        return self.ask(start, edition, players, list(deck), first_player, tokens)

    def act(self, step: Step, /) -> Reply:
        action, engine = step.action, self.engine
        return self.ask(engine.apply_combined if self.combined else engine.apply, dict(action_json(action)),
                        card=action.card)


def _shown(step: Step) -> Json:
    return dict(action_json(step.action))


Steps = Lockstep[list[str], Step, list[Json], Reply]


class Differential:
    """Drives an engine and a reference `Game` through the same game in lockstep, comparing as they go.

    The reference's state after each step comes from a `StateCache`, which names again only what
    the step changed; the state it compares is the whole state all the same. Each step is given to
    both sides through `Lockstep` (which keeps the trail of what was sent) and compared at once;
    what differs is worded only when something does. To an engine claiming `combined`, each step
    is one request: its reply carries the legal actions `legal` compares next, and a refused
    probe's reply the state it must have kept."""

    def __init__(self, engine: Engine, edition: Edition, players: int, ignore: Collection[str] = (),
                 skip: Skip | None = None):
        self.engine = engine
        self.ignore = frozenset(ignore)
        self.skip = skip
        self.edition = edition
        self.players = players
        caps = engine.hello.capabilities
        self.check_legal = "legal_actions" in caps
        self.check_events = "events" in caps
        self.check_views = "views" in caps
        self.combined = "combined" in caps
        self.offered: list[Json] | None = None
        """The legal actions the engine's last combined reply listed (None: ask for them)."""
        keys = format_keys()
        self.state_keys = keys["state"]
        self.view_keys = keys["view"]
        self.state: Json = {}
        self.expected: Json | None = None
        """The reference's state as last compared."""
        self.listed: list[Action] | None = None
        """The reference's legal actions as `legal` last gave them (None once the reference moved)."""
        self._new_game(0, None)

    def _new_game(self, first_player: int, tokens: Sequence[int] | None) -> None:
        """A new reference game, and a new trail of what is sent to the engine."""
        self.reference: Game = Game(self.edition, self.players, first_player=first_player, tokens=tokens)
        self.cache = StateCache(self.reference)
        self.expected = self.listed = self.offered = None
        self.steps = self._lockstep(first_player, tokens)
        self.record = Record(self.players, first_player, tuple(tokens) if tokens is not None else None,
                             self.steps.trail)

    def _lockstep(self, first_player: int, tokens: Sequence[int] | None) -> Steps:
        return Lockstep(_Reference(self.reference),
                        _Engine(self.engine, self._call, self.edition.id, self.players, first_player, tokens,
                                self.combined),
                        _shown)

    # -- dealing ---------------------------------------------------------------------------

    def start(self, deck: list[str], first_player: int, tokens: Sequence[int] | None) -> None:
        """Start a game on both sides and compare the deal."""
        self._new_game(first_player, tokens)
        want, reply = self.steps.deal(deck)
        self._dealt(reply, want)

    def next_round(self, deck: list[str]) -> None:
        """Deal the next round on both sides and compare."""
        self.listed = None
        want, reply = self.steps.deal(deck)
        self._dealt(reply, want)

    def _dealt(self, reply: Reply, want: list[Json]) -> None:
        self.offered = reply.legal
        if not reply.accepted:
            suspects = unique(named_clause(self.edition, reply.clause)
                              + kinds_clauses(self.edition, ("deck_size", "set_aside", "face_up", "deal")))
            self._fail("deal", f"the engine refused the deal: {reply.reason}", suspects,
                       ("deal refused", "accepted", {"refused": reply.reason}))
        self._compare(reply, want, None, at_start=True)

    # -- deciding --------------------------------------------------------------------------

    @property
    def live(self) -> bool:
        """True while the reference waits for a decision."""
        return self.reference.phase in LIVE

    @property
    def round_over(self) -> bool:
        """True when the round has ended and the game goes on."""
        return self.reference.phase is Phase.ROUND_OVER

    def legal(self) -> list[Action]:
        """The reference's legal actions, checked against the engine's list when it gives one (the
        one its last combined reply carried, else asked for)."""
        legal = self.listed = self.reference.legal_actions()
        if self.check_legal:
            got, self.offered = self.offered, None
            if got is None:
                got = self._call(self.engine.legal_actions)
            want = list(map(action_json, legal))
            if legal_differs(want, got):
                self._compare_sets(want, got)
        return legal

    def _compare_sets(self, want: list[Json], got: list[Json]) -> None:
        listed = [a for a in got if isinstance(a, dict)]
        apart = unmatched(want, listed, action_key, lambda a: action_key(comparable("action", a)))
        parts = []
        if apart.missing:
            parts.append("legal but not listed: " + ", ".join(action_label(a) for a in apart.missing))
        if apart.extra:
            parts.append("listed but illegal: " + ", ".join(action_label(a) for a in apart.extra))
        if apart.repeated or len(got) != len(listed):
            parts.append("the list repeats actions")
        suspects = [c for a in apart.extra for c in self._illegal_because(a)]
        suspects += [c for a in apart.missing for c in card_clauses(self.edition, a.get("card"))]
        if apart.missing:  # a play left out may be hidden by a rule forcing another card
            suspects += kinds_clauses(self.edition, ("forced_with",))
        self._fail("legal_actions", f"legal actions differ: {'; '.join(parts)}", unique(suspects),
                   ("legal_actions", want, got))

    def _illegal_because(self, action: Json) -> list[str]:
        try:
            return self._refusal(Action.from_json(action)) or []
        except ValueError:
            return []

    def _refusal(self, action: Action) -> list[str] | None:
        """The clause the reference refuses `action` by ([] when it names none); None when legal."""
        try:
            self.reference.check(action)
        except IllegalActionError as exc:
            return [exc.clause] if exc.clause else []
        return None

    def probe(self, action: Action) -> bool:
        """Send an action the engine must refuse, keeping its state; False (and nothing sent) when
        the reference finds it legal after all. (Whether it is legal is looked up in the list
        `legal` gave; the clause it breaks is asked of the reference only if the engine errs.)"""
        if self._legal_now(action):
            return False
        _, reply = self.steps.act(Step(action, probe=True))
        if reply.accepted:
            self._fail("accepted", f"the engine accepted the illegal action {action.describe()}",
                       self._refusal(action) or [], ("action accepted", "refused", "accepted"))
        kept = reply.state if reply.state is not None else self._call(self.engine.state)
        after = self._comparable_state(kept)
        if after != self.state:
            keys = sorted(k for k in set(after) | set(self.state) if after.get(k) != self.state.get(k))
            self._fail("state", f"the engine refused the illegal action {action.describe()} but its "
                                f"state changed ({', '.join(keys)})", self._refusal(action) or [],
                       (f"state.{keys[0]} (changed by a refused action)", self.state.get(keys[0]),
                        after.get(keys[0])))
        return True

    def _legal_now(self, action: Action) -> bool:
        """True when the reference finds `action` legal now (in the list `legal` gave, if any)."""
        return action in (self.listed if self.listed is not None else self.reference.legal_actions())

    def play(self, action: Action) -> None:
        """Apply a legal action on both sides and compare (the two sides are stepped here rather
        than through `Lockstep.act`: this is the fuzzer's innermost loop)."""
        self.listed = None
        self.steps.trail.move(_step(action))
        want = self.reference.apply_unchecked(action)
        engine = self.engine
        apply = engine.apply_combined if self.combined else engine.apply
        reply = self._call(apply, dict(action_json(action)), card=action.card)
        self.offered = reply.legal
        if not reply.accepted:
            named = named_clause(self.edition, reply.clause)
            suspects = unique(named + card_clauses(self.edition, action.card))
            self._fail("refused", f"the engine refused the legal action {action.describe()}: "
                                  f"{reply.reason}", suspects,
                       ("action refused", "accepted", {"refused": reply.reason}))
        self._compare(reply, want, action)

    def compare_view(self, seat: int) -> None:
        """A player's view must be the reference's, and carry no key the formats do not define."""
        if not self.check_views:
            return
        want = view(self.reference, seat, self.expected)
        got = self._call(self.engine.view, seat)
        if self.view_differs(want, got):
            undefined = [key for key in got if key not in self.view_keys] if isinstance(got, dict) else []
            if undefined:
                key = undefined[0]
                self._fail("views", f"views carry undefined key {key} (player {seat}'s view)", [],
                           (f"view {seat}.{key}", None, got[key]))
            want, got = comparable("view", want), comparable("view", got)
            keys = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
            detail = _first_log_difference(want, got) if keys == ["log"] else ""
            self._fail("views", f"player {seat}'s view differs in {', '.join(keys)}{detail}",
                       state_suspects(self.edition, want, got, None),
                       (f"view {seat}.{keys[0]}", want.get(keys[0]), got.get(keys[0], MISSING)))

    def settle(self) -> None:
        """Check what is still to be checked when a game ends: nothing here, every answer was
        compared as it came (`Pipelined` reads its answers now)."""

    # -- comparing ---------------------------------------------------------------------------

    def _compare(self, reply: Reply, want: list[Json], action: Action | None, at_start: bool = False) -> None:
        if self.events_differ(want, reply.events):
            expected, got = comparable_events(want), comparable_events(reply.events)
            i = first_index(expected, got)
            self._fail("events", f"events differ at event {i + 1}: expected "
                                 f"{_at(expected, i)}, the engine sent {_at(got, i)}",
                       event_suspects(self.edition, want, got, _card(action), at_start, self._out()),
                       ("events", expected, reply.events))
        state = self._comparable_state(reply.state if reply.state is not None
                                       else self._call(self.engine.state))
        expected_state = self._expect()
        if state != expected_state:
            keys = [k for k in expected_state if expected_state[k] != state.get(k, MISSING)]
            keys += [k for k in state if k not in expected_state]
            detail = "; ".join(f"{k}: expected {_short(expected_state.get(k, MISSING))}, the engine has "
                               f"{_short(state.get(k, MISSING))}" for k in keys[:3])
            self._fail("state", f"state differs: {detail}",
                       state_suspects(self.edition, expected_state, state, _card(action), at_start),
                       (f"state.{keys[0]}", expected_state.get(keys[0]), state.get(keys[0])))
        self.state = state

    def _expect(self) -> Json:
        """The reference's state now (kept as `expected`), as the engine's is compared with it."""
        expected = self.expected = self.cache.state()
        return self.unignored(expected) if self.ignore else expected

    # -- what counts as a difference (one predicate each, for this class and `Pipelined`) -----------

    def events_differ(self, want: list[Json], got: list[Json]) -> bool:
        """True when the engine's events are not the reference's (capability `events`; `clause`
        fields and keys the formats do not define left out)."""
        return self.check_events and got != want and events_apart(want, got)

    def view_differs(self, want: Json, got: Any) -> bool:
        """True when the engine's view is not the reference's, or carries a key the formats do not
        define (its log compared as events are)."""
        if got == want:
            return False
        if not isinstance(got, dict) or any(key not in self.view_keys for key in got):
            return True
        log, want_log = got.get("log"), want.get("log")
        if isinstance(log, list) and isinstance(want_log, list) and want.keys() <= self.view_keys:
            return {**got, "log": None} != {**want, "log": None} or events_apart(want_log, log)
        return bool(comparable("view", got) != comparable("view", want))

    def unignored(self, state: Json) -> Json:
        """The reference's state less the keys ignored."""
        return {k: v for k, v in state.items() if k not in self.ignore}

    def _out(self) -> list[int]:
        """The seats out of the round, as the reference has it."""
        return [seat for seat, out in enumerate(self.reference.state().get("eliminated") or []) if out]

    def _comparable_state(self, state: Any) -> Json:
        """The engine's state as compared: the keys the formats define, less those ignored (the
        state itself when it has no other key: the usual case, checked without a copy)."""
        if not isinstance(state, dict):
            return {}
        if self.ignore or not self.state_keys.issuperset(state):
            return {k: v for k, v in comparable("state", state).items() if k not in self.ignore}
        return state

    def _call(self, request: Callable[..., Any], *args: Any, card: str | None = None) -> Any:
        """Ask the engine (`request(*args)`); a failure, or any exception an in-process adapter lets
        out, is a difference (suspecting the rules of the card being played, if any)."""
        try:
            return request(*args)
        except AdapterFailure as exc:  # the message says what the adapter raised
            self._fail(ENGINE, str(exc), card_clauses(self.edition, card))
        except EngineFailure as exc:
            self._fail(ENGINE, f"the engine failed: {exc}", card_clauses(self.edition, card))
        except BaseException as exc:  # an in-process adapter's own error (sys.exit() too): the engine failed
            if not adapters_own(exc):
                raise
            self._fail(ENGINE, raised(exc), card_clauses(self.edition, card))

    def _fail(self, kind: str, message: str, clauses: list[str],
              point: tuple[str, Any, Any] | None = None) -> NoReturn:
        """Raise Found; `point` is (what, expected, actual) as a failed case reports them (none
        where the engine failed)."""
        what, expected, actual = point if point is not None else (kind, None, None)
        divergence = self.steps.part(what, expected, None if actual is MISSING else actual, message,
                                     clauses or kinds_clauses(self.edition, ("turn_play",)))
        looked_past = self.skip(divergence.clauses) if self.skip is not None else None
        if looked_past is not None:
            raise Skipped(looked_past, kind == ENGINE)
        raise Found(divergence, kind, self.record)


def events_apart(want: list[Any], got: list[Any]) -> bool:
    """`comparable_events(want) != comparable_events(got)`, event by event: only a pair that differs
    as it is (most often a `clause` the reference gives and the engine does not) is compared
    without the keys comparing leaves out."""
    if len(want) != len(got):
        return True
    for expected, sent in zip(want, got, strict=True):
        if expected != sent and comparable("event", expected) != comparable("event", sent):
            return True
    return False


def legal_differs(want: list[Json], got: Any) -> bool:
    """True when the engine's legal actions are not the reference's as a set: one missing, one
    listed that is not legal, one listed twice, or an item that is not an action.

    The same list in the same order is equal at once; another order of actions whose values are
    all strings, whole numbers or null (where Python's equality is JSON's) is compared as sets of
    each action's items; only lists that differ even so, or hold other values (`true`, which
    Python finds equal to `1`; a keep's list), are compared by each action's canonical text
    (`action_key`), which also leaves out the keys the formats do not define."""
    if got == want:
        return False
    listed = [a for a in got if isinstance(a, dict)] if isinstance(got, list) else []
    if not isinstance(got, list) or len(listed) != len(got):
        return True
    if len(got) == len(want) and _plain(got) and _plain(want):
        keys = set(map(frozenset, map(dict.items, got)))
        if len(keys) == len(got) and keys == set(map(frozenset, map(dict.items, want))):
            return False
    return bool(unmatched(want, listed, action_key, lambda a: action_key(comparable("action", a))))


_PLAIN = frozenset({str, int, type(None)})
"""The value types whose equality in Python is their equality in JSON."""


def _plain(actions: list[Json]) -> bool:
    """True when every value of every action is a string, a whole number or null."""
    return set(map(type, chain.from_iterable(map(dict.values, actions)))) <= _PLAIN


def _card(action: Action | None) -> str | None:
    return action.card if action is not None else None


def _at(events: list[Json], i: int) -> str:
    return _short(events[i]) if i < len(events) else "nothing more"


def _short(value: Any, limit: int = 160) -> str:
    """A value as compact JSON (`<missing>` for a key not sent), shortened to `limit` characters."""
    return MISSING if value is MISSING else compact(value, limit)


def _first_log_difference(want: Json, got: Json) -> str:
    log_want, log_got = want.get("log") or [], got.get("log") or []
    i = first_index(log_want, log_got)
    return f" (log event {i + 1}: expected {_at(log_want, i)}, the engine shows {_at(log_got, i)})"
