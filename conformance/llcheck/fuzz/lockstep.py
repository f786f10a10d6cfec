"""An engine under test and the reference engine, played side by side and compared at every move.

After each deal and each action the engine's events (capability `events`) and state must equal
the reference's; before each decision its legal actions (capability `legal_actions`) must be the
reference's as a set; an illegal action must be refused with the state left unchanged; at the
end of each round (and wherever play stops) a player's view (capability `views`) must be the
reference's. The first difference raises `Divergence`, which names the suspected clauses and,
like a failed case, says where it is with expected and actual. Keys the formats do not define
are left out of every comparison (`harness.compare.comparable`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from loveletter_ref import Action, Game, Phase
from loveletter_ref.engine import view
from loveletter_ref.errors import IllegalActionError
from loveletter_ref.spec import Edition

from ..engines.base import Engine, EngineFailure, Json, Reply
from ..engines.guard import AdapterFailure, adapters_own, raised
from ..engines.reference import action_json
from ..harness.blame import (
    card_clauses,
    event_suspects,
    first_index,
    kinds_clauses,
    named_clause,
    state_suspects,
    unique,
)
from ..harness.compare import MISSING, comparable, comparable_events, format_keys, without_clauses
from ..harness.results import Divergence as Point
from ..harness.results import compact
from ..perft import action_key, action_label

LIVE = (Phase.PLAY, Phase.KEEP, Phase.RESPOND)
"""Phases in which a decision is due."""


class Divergence(Exception):
    """The engine and the reference disagree. `kind` says about what, `clauses` who is suspected,
    `point` where, with expected and actual (None for an engine that failed)."""

    def __init__(self, kind: str, message: str, clauses: list[str]):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.clauses = clauses
        self.point: Point | None = None
        self.record: Record | None = None


@dataclass
class Step:
    """One action sent to the engine: a legal one, or an illegal probe it must refuse."""

    action: Action
    probe: bool = False


@dataclass
class Record:
    """What was played, to rebuild the game: per round its deck and the steps sent."""

    players: int
    first_player: int
    tokens: tuple[int, ...] | None
    rounds: list[tuple[list[str], list[Step]]] = field(default_factory=list)

    @property
    def where(self) -> str:
        """`round R, step S` of the last step recorded (step 0: the deal)."""
        return f"round {len(self.rounds)}, step {len(self.rounds[-1][1])}"


def strip_view(seen: Json) -> Json:
    """A view whose log has no `clause` fields."""
    log = seen.get("log")
    return {**seen, "log": without_clauses(log)} if isinstance(log, list) else seen


class Lockstep:
    """Drives an engine and a reference `Game` through the same game, comparing as they go."""

    def __init__(self, engine: Engine, edition: Edition, players: int, ignore: Collection[str] = ()):
        self.engine = engine
        self.ignore = frozenset(ignore)
        self.edition = edition
        self.players = players
        caps = engine.hello.capabilities
        self.check_legal = "legal_actions" in caps
        self.check_events = "events" in caps
        self.check_views = "views" in caps
        self.state_keys = format_keys()["state"]
        self.reference: Game = Game(edition, players)
        self.record = Record(players, 0, None)
        self.state: Json = {}
        self.expected: Json | None = None
        """The reference's state as last compared (None once the reference has moved on)."""

    # -- dealing ---------------------------------------------------------------------------

    def start(self, deck: list[str], first_player: int, tokens: Sequence[int] | None) -> None:
        """Start a game on both sides and compare the deal."""
        self.reference = Game(self.edition, self.players, first_player=first_player, tokens=tokens)
        self.expected = None
        self.record = Record(self.players, first_player, tuple(tokens) if tokens is not None else None)
        self.record.rounds.append((list(deck), []))
        want = self.reference.start_round(deck)
        reply = self._call(self.engine.start, self.edition.id, self.players, deck, first_player, tokens)
        self._dealt(reply, want)

    def next_round(self, deck: list[str]) -> None:
        """Deal the next round on both sides and compare."""
        self.record.rounds.append((list(deck), []))
        self.expected = None
        want = self.reference.start_round(deck)
        self._dealt(self._call(self.engine.next_round, deck), want)

    def _dealt(self, reply: Reply, want: list[Json]) -> None:
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
        """The reference's legal actions, checked against the engine's list when it gives one."""
        legal = self.reference.legal_actions()
        if self.check_legal:
            got = self._call(self.engine.legal_actions)
            want = list(map(action_json, legal))
            if got != want:
                self._compare_sets(want, got)
        return legal

    def _compare_sets(self, want: list[Json], got: list[Json]) -> None:
        want_keys = {action_key(a): a for a in want}
        got_keys = {action_key(comparable("action", a)): a for a in got if isinstance(a, dict)}
        if want_keys.keys() == got_keys.keys() and len(got) == len(got_keys):
            return
        missing = [want_keys[k] for k in want_keys if k not in got_keys]
        extra = [got_keys[k] for k in got_keys if k not in want_keys]
        parts = []
        if missing:
            parts.append("legal but not listed: " + ", ".join(action_label(a) for a in missing))
        if extra:
            parts.append("listed but illegal: " + ", ".join(action_label(a) for a in extra))
        if len(got) != len(got_keys):
            parts.append("the list repeats actions")
        suspects = [c for a in extra for c in self._illegal_because(a)]
        suspects += [c for a in missing for c in card_clauses(self.edition, a.get("card"))]
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
        the reference finds it legal after all."""
        clause = self._refusal(action)
        if clause is None:
            return False
        self.record.rounds[-1][1].append(Step(action, probe=True))
        reply = self._call(self.engine.apply, dict(action_json(action)), card=action.card)
        if reply.accepted:
            self._fail("accepted", f"the engine accepted the illegal action {action.describe()}", clause,
                       ("action accepted", "refused", "accepted"))
        after = self._comparable_state(self._call(self.engine.state))
        if after != self.state:
            keys = sorted(k for k in set(after) | set(self.state) if after.get(k) != self.state.get(k))
            self._fail("state", f"the engine refused the illegal action {action.describe()} but its "
                                f"state changed ({', '.join(keys)})", clause,
                       (f"state.{keys[0]} (changed by a refused action)", self.state.get(keys[0]),
                        after.get(keys[0])))
        return True

    def play(self, action: Action) -> None:
        """Apply a legal action on both sides and compare."""
        self.record.rounds[-1][1].append(Step(action))
        self.expected = None
        want = self.reference.apply_unchecked(action)
        reply = self._call(self.engine.apply, dict(action_json(action)), card=action.card)
        if not reply.accepted:
            named = named_clause(self.edition, reply.clause)
            suspects = unique(named + card_clauses(self.edition, action.card))
            self._fail("refused", f"the engine refused the legal action {action.describe()}: "
                                  f"{reply.reason}", suspects,
                       ("action refused", "accepted", {"refused": reply.reason}))
        self._compare(reply, want, action)

    def compare_view(self, seat: int) -> None:
        """A player's view must be the reference's."""
        if not self.check_views:
            return
        want = view(self.reference, seat, self.expected)
        got = self._call(self.engine.view, seat)
        if got != want:
            want, got = comparable("view", want), comparable("view", got)
        if got != want:
            keys = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
            detail = _first_log_difference(want, got) if keys == ["log"] else ""
            self._fail("views", f"player {seat}'s view differs in {', '.join(keys)}{detail}",
                       state_suspects(self.edition, want, got, None),
                       (f"view {seat}.{keys[0]}", want.get(keys[0]), got.get(keys[0], MISSING)))

    # -- comparing ---------------------------------------------------------------------------

    def _compare(self, reply: Reply, want: list[Json], action: Action | None, at_start: bool = False) -> None:
        card = action.card if action is not None else None
        if self.check_events and reply.events != want:
            expected, got = comparable_events(want), comparable_events(reply.events)
            if expected != got:
                i = first_index(expected, got)
                self._fail("events", f"events differ at event {i + 1}: expected "
                                     f"{_at(expected, i)}, the engine sent {_at(got, i)}",
                           event_suspects(self.edition, want, got, card, at_start),
                           ("events", expected, reply.events))
        state = self._comparable_state(reply.state if reply.state is not None
                                       else self._call(self.engine.state))
        expected_state = self.expected = self.reference.state()
        if self.ignore:
            expected_state = {k: v for k, v in expected_state.items() if k not in self.ignore}
        if state != expected_state:
            keys = [k for k in expected_state if expected_state[k] != state.get(k, MISSING)]
            keys += [k for k in state if k not in expected_state]
            detail = "; ".join(f"{k}: expected {_short(expected_state.get(k, MISSING))}, the engine has "
                               f"{_short(state.get(k, MISSING))}" for k in keys[:3])
            self._fail("state", f"state differs: {detail}",
                       state_suspects(self.edition, expected_state, state, card, at_start),
                       (f"state.{keys[0]}", expected_state.get(keys[0]), state.get(keys[0])))
        self.state = state

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
            self._fail("engine", str(exc), card_clauses(self.edition, card))
        except EngineFailure as exc:
            self._fail("engine", f"the engine failed: {exc}", card_clauses(self.edition, card))
        except BaseException as exc:  # an in-process adapter's own error (sys.exit() too): the engine failed
            if not adapters_own(exc):
                raise
            self._fail("engine", raised(exc), card_clauses(self.edition, card))

    def _fail(self, kind: str, message: str, clauses: list[str],
              point: tuple[str, Any, Any] | None = None) -> NoReturn:
        """Raise the Divergence; `point` is (what, expected, actual) as a failed case reports them."""
        problem = Divergence(kind, message, clauses or kinds_clauses(self.edition, ("turn_play",)))
        problem.record = self.record
        if point is not None:
            what, expected, actual = point
            steps = self.record.rounds[-1][1] if self.record.rounds else []
            action = dict(action_json(steps[-1].action)) if steps else None
            problem.point = Point(len(self.record.rounds), len(steps), what, expected,
                                  None if actual is MISSING else actual, message, action)
        raise problem


def _at(events: list[Json], i: int) -> str:
    return _short(events[i]) if i < len(events) else "nothing more"


def _short(value: Any, limit: int = 160) -> str:
    """A value as compact JSON (`<missing>` for a key not sent), shortened to `limit` characters."""
    return MISSING if value is MISSING else compact(value, limit)


def _first_log_difference(want: Json, got: Json) -> str:
    log_want, log_got = want.get("log") or [], got.get("log") or []
    i = first_index(log_want, log_got)
    return f" (log event {i + 1}: expected {_at(log_want, i)}, the engine shows {_at(log_got, i)})"
