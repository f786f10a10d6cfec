"""An engine under test and the reference engine, played side by side and compared at every move.

After each deal and each action the engine's events (capability `events`) and state must equal
the reference's; before each decision its legal actions (capability `legal_actions`) must be the
reference's as a set; an illegal action must be refused with the state left unchanged; at the
end of each round (and wherever play stops) a player's view (capability `views`) must be the
reference's. The first difference raises `Divergence`, which names the suspected clauses.
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
from ..engines.reference import action_json
from ..harness.compare import without_clauses
from ..perft import action_key, action_label
from .blame import card_clauses, event_suspects, first_index, kinds_clauses, state_suspects, unique

LIVE = (Phase.PLAY, Phase.KEEP, Phase.RESPOND)
"""Phases in which a decision is due."""


class Divergence(Exception):
    """The engine and the reference disagree. `kind` says about what, `clauses` who is suspected."""

    def __init__(self, kind: str, message: str, clauses: list[str]):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.clauses = clauses
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
            suspects = kinds_clauses(self.edition, ("deck_size", "set_aside", "face_up", "deal"))
            self._fail("deal", f"the engine refused the deal: {reply.reason}", suspects)
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
        got_keys = {action_key(a): a for a in got if isinstance(a, dict)}
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
        self._fail("legal_actions", f"legal actions differ: {'; '.join(parts)}", unique(suspects))

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
            self._fail("accepted", f"the engine accepted the illegal action {action.describe()}", clause)
        after = self._call(self.engine.state)
        if self.ignore:
            after = {k: v for k, v in after.items() if k not in self.ignore}
        if after != self.state:
            keys = [k for k in set(after) | set(self.state) if after.get(k) != self.state.get(k)]
            self._fail("state", f"the engine refused the illegal action {action.describe()} but its "
                                  f"state changed ({', '.join(sorted(keys))})", clause)
        return True

    def play(self, action: Action) -> None:
        """Apply a legal action on both sides and compare."""
        self.record.rounds[-1][1].append(Step(action))
        self.expected = None
        want = self.reference.apply_unchecked(action)
        reply = self._call(self.engine.apply, dict(action_json(action)), card=action.card)
        if not reply.accepted:
            self._fail("refused", f"the engine refused the legal action {action.describe()}: "
                                  f"{reply.reason}", card_clauses(self.edition, action.card))
        self._compare(reply, want, action)

    def compare_view(self, seat: int) -> None:
        """A player's view must be the reference's."""
        if not self.check_views:
            return
        want = view(self.reference, seat, self.expected)
        got = self._call(self.engine.view, seat)
        if got != want:
            want, got = strip_view(want), strip_view(got)
        if got != want:
            keys = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
            detail = _first_log_difference(want, got) if keys == ["log"] else ""
            self._fail("views", f"player {seat}'s view differs in {', '.join(keys)}{detail}",
                       state_suspects(self.edition, want, got, None))

    # -- comparing ---------------------------------------------------------------------------

    def _compare(self, reply: Reply, want: list[Json], action: Action | None, at_start: bool = False) -> None:
        card = action.card if action is not None else None
        if self.check_events and reply.events != want:
            expected, got = without_clauses(want), without_clauses(reply.events)
            if expected != got:
                i = first_index(expected, got)
                self._fail("events", f"events differ at event {i + 1}: expected "
                                     f"{_at(expected, i)}, the engine sent {_at(got, i)}",
                           event_suspects(self.edition, want, got, card, at_start))
        state = reply.state if reply.state is not None else self._call(self.engine.state)
        expected_state = self.expected = self.reference.state()
        if self.ignore:
            state = {k: v for k, v in state.items() if k not in self.ignore}
            expected_state = {k: v for k, v in expected_state.items() if k not in self.ignore}
        if state != expected_state:
            keys = [k for k in expected_state if expected_state[k] != state.get(k)]
            keys += [k for k in state if k not in expected_state]
            detail = "; ".join(f"{k}: expected {_short(expected_state.get(k))}, the engine has "
                               f"{_short(state.get(k))}" for k in keys[:3])
            self._fail("state", f"state differs: {detail}",
                       state_suspects(self.edition, expected_state, state, card, at_start))
        self.state = state

    def _call(self, request: Callable[..., Any], *args: Any, card: str | None = None) -> Any:
        """Ask the engine (`request(*args)`); a failure, or any exception an in-process adapter lets
        out, is a difference (suspecting the rules of the card being played, if any)."""
        try:
            return request(*args)
        except EngineFailure as exc:
            self._fail("engine", f"the engine failed: {exc}", card_clauses(self.edition, card))
        except Exception as exc:  # an in-process adapter's own error is the engine failing
            self._fail("engine", f"the engine raised {type(exc).__name__}: {exc}",
                       card_clauses(self.edition, card))

    def _fail(self, kind: str, message: str, clauses: list[str]) -> NoReturn:
        problem = Divergence(kind, message, clauses or kinds_clauses(self.edition, ("turn_play",)))
        problem.record = self.record
        raise problem


def _at(events: list[Json], i: int) -> str:
    return _short(events[i]) if i < len(events) else "nothing more"


def _short(value: Any, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _first_log_difference(want: Json, got: Json) -> str:
    log_want, log_got = want.get("log") or [], got.get("log") or []
    i = first_index(log_want, log_got)
    return f" (log event {i + 1}: expected {_at(log_want, i)}, the engine shows {_at(log_got, i)})"
