"""The state machine: hypothesis deals decks and picks decisions; the properties judge each step.

Decks are permutations of the edition's deck for the player count; decisions come from the
engine's own list of legal actions (or, for an engine that does not list them, from actions
generated from the spec, refusals allowed). Games run round after round (`next_round`, for engines
claiming `games`) from hypothesis-chosen starting tokens until someone wins, then a new game
starts. After every deal and every action, each enabled property checks what happened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, TypeVar

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from loveletter_ref.lockstep import compact

from ..engines.base import Engine, Reply
from .choices import candidate_actions
from .context import Context
from .failures import EngineBroke, Violation, guarded, violation
from .invariants import KNOWN_PHASES, Invariant
from .rules import Rules
from .trace import ACT, DEAL, DECISION_PHASES, GameTrace, Json, RoundTrace, Transition

T = TypeVar("T")

STATE_LISTS = ("deck", "set_aside", "face_up")
STATE_SEATS = ("hands", "discards", "eliminated", "protected", "tokens")


@dataclass(frozen=True)
class Subject:
    """What a machine plays: the engine, the rules, the properties to check, the shared context."""

    engine: Engine
    rules: Rules
    properties: tuple[type[Invariant], ...]
    ctx: Context

    def enabled(self, name: str) -> bool:
        """True when the property called `name` is being checked."""
        return any(prop.name == name for prop in self.properties)


class GameMachine(RuleBasedStateMachine):
    """Plays games on `subject.engine` and checks `subject.properties` after every step."""

    subject: ClassVar[Subject]

    def __init__(self) -> None:
        super().__init__()
        subject = self.subject
        self.engine = subject.engine
        self.facts = subject.rules
        self.caps = subject.ctx.capabilities
        self.checks = [prop(subject.rules, subject.ctx) for prop in subject.properties]
        self.views = subject.enabled("hidden-information")
        self.games: list[GameTrace] = []
        self.fresh: list[Transition] = []
        self.state: Json = {}

    def teardown(self) -> None:
        """Count the example (once every choice in it is drawn: stopping a run earlier would look,
        to hypothesis, like a game that drew differently on a second run)."""
        self.subject.ctx.ended_example()

    # -- what may happen next ----------------------------------------------------------------

    @property
    def game(self) -> GameTrace:
        """The game being played."""
        return self.games[-1]

    @property
    def due(self) -> bool:
        """A player owes the engine a decision."""
        return not self.game.abandoned and self.state.get("phase") in DECISION_PHASES

    @property
    def between_rounds(self) -> bool:
        """A round is over and the game goes on."""
        return not self.game.abandoned and self.state.get("phase") == "round_over" and "games" in self.caps

    @property
    def finished(self) -> bool:
        """The game is over (or cannot go on): the next step starts a new one."""
        return not self.due and not self.between_rounds

    # -- steps -------------------------------------------------------------------------------

    def begin(self, deck: list[str], first: int, tokens: list[int] | None) -> None:
        """Start a new game and deal its first round."""
        self.games.append(GameTrace(self.facts.edition.id, self.facts.players, first, tokens,
                                    [self.new_round(deck, 1)]))
        self.subject.ctx.counts.games += 1
        self.subject.ctx.counts.rounds += 1
        edition, players = self.facts.edition.id, self.facts.players
        reply = self.call(lambda: self.engine.start(edition, players, deck, first, tokens))
        self.dealt(reply, None)

    def deal_next(self, deck: list[str]) -> None:
        """Deal the next round of the game."""
        before = self.state
        self.game.rounds.append(self.new_round(deck, len(self.game.rounds) + 1))
        self.subject.ctx.counts.rounds += 1
        reply = self.call(lambda: self.engine.next_round(deck))
        self.dealt(reply, before)

    def dealt(self, reply: Reply, before: Json | None) -> None:
        """Record a deal; a refused one breaks `legality` (or ends the game when it is not checked)."""
        if not reply.accepted:
            self.broken(f"the engine refused to deal round {len(self.game.rounds)} from a valid deck: "
                        f"{reply.reason}")
            return
        self.settle(Transition(DEAL, before, self.after(reply), events=self.events(reply),
                               views=self.seen()))

    def decide(self, data: st.DataObject) -> None:
        """Let hypothesis pick the next decision and apply it."""
        listed: list[Json] | None = None
        if "legal_actions" in self.caps:
            listed = self.call(self.engine.legal_actions)
            if not isinstance(listed, list) or not all(isinstance(a, dict) for a in listed):
                raise EngineBroke(f"legal_actions is not a list of actions: {compact(listed, 160)}",
                                  self.game.replay())
            if listed:
                self.attempt(data.draw(st.sampled_from(listed), label="action"), listed)
                return
            if self.subject.enabled("legality"):
                self.broken(f"the engine lists no legal action for player {self.state.get('turn')} "
                            f"in phase {self.state.get('phase')}")
        candidates = candidate_actions(self.facts, self.state)
        if candidates:
            first = data.draw(st.integers(0, len(candidates) - 1), label="first candidate")
            for i in range(len(candidates)):
                if self.attempt(candidates[(first + i) % len(candidates)], None):
                    return
        self.broken(f"the engine accepts none of the {len(candidates)} actions the rules could allow "
                    f"player {self.state.get('turn')} in phase {self.state.get('phase')}")

    def attempt(self, action: Json, listed: list[Json] | None) -> bool:
        """Apply one action; record the transition; True if the engine accepted it."""
        before = self.state
        reply = self.call(lambda: self.engine.apply(action), action)
        after = self.after(reply) if reply.accepted else self.after(None)
        self.settle(Transition(ACT, before, after, reply.accepted, action, self.events(reply), listed,
                               self.seen() if reply.accepted else None, reply.reason))
        if reply.accepted:
            self.subject.ctx.counts.actions += 1
        return reply.accepted

    def probe_end(self, deck: list[str]) -> None:
        """Ask for one more round of a game that is over: the engine must refuse (`game-end`)."""
        if self.state.get("phase") != "game_over" or "games" not in self.caps or self.game.abandoned:
            return
        if not self.subject.enabled("game-end"):
            return
        reply = self.call(lambda: self.engine.next_round(deck))
        if reply.accepted:
            error = violation("game-end")(f"the engine dealt round {len(self.game.rounds) + 1} of a game "
                                          f"that is over (players {self.state.get('game_winners')} won)")
            error.replay = self.game.replay()
            error.where = "after the game"
            self.subject.ctx.failed(error)
            raise error

    # -- bookkeeping -------------------------------------------------------------------------

    def new_round(self, deck: list[str], number: int) -> RoundTrace:
        """The trace of round `number`, about to be dealt from `deck`, with its observers."""
        watch = list(range(self.facts.players)) if self.views else []
        return RoundTrace(list(deck), observers=watch)

    def call(self, request: Callable[[], T], action: Json | None = None) -> T:
        """Call the engine; its failures end the run (EngineBroke)."""
        return guarded(request, self.game.replay, action)

    def after(self, reply: Reply | None) -> Json:
        """The state after a reply (asked for when the reply carries none), checked for shape."""
        state = reply.state if reply is not None and reply.state is not None else self.call(self.engine.state)
        problem = malformed(state, self.facts.players)
        if problem:
            raise EngineBroke(f"the engine's state is malformed: {problem}", self.game.replay())
        return state

    def events(self, reply: Reply) -> list[Json] | None:
        """The reply's events, for engines claiming `events`."""
        return list(reply.events) if "events" in self.caps else None

    def seen(self) -> dict[int, Json] | None:
        """The views of the round's observers, when the hidden-information property runs."""
        if not self.views:
            return None
        return {p: self.call(partial(self.engine.view, p)) for p in self.game.rounds[-1].observers}

    def settle(self, t: Transition) -> None:
        """Record a transition for the properties to check."""
        self.game.rounds[-1].transitions.append(t)
        self.fresh.append(t)
        self.state = t.after
        if t.after.get("phase") not in KNOWN_PHASES:
            self.game.abandoned = True

    def broken(self, message: str) -> None:
        """The engine cannot go on: a `legality` violation, or the end of this game when unchecked."""
        if self.subject.enabled("legality"):
            error = violation("legality")(message)
            error.replay = self.game.replay()
            steps = sum(1 for t in self.game.rounds[-1].transitions if t.kind == ACT)
            error.where = f"round {len(self.game.rounds)}, after step {steps}"
            self.subject.ctx.failed(error)
            raise error
        self.game.abandoned = True

    def check(self) -> None:
        """Run every property on every transition since the last check."""
        fresh, self.fresh = self.fresh, []
        for t in fresh:
            for prop in self.checks:
                try:
                    prop.check(t, self.game)
                except Violation as error:
                    error.replay = error.replay or self.game.replay(upto=t)
                    error.where = error.where or self.game.locate(t)
                    error.attempt = None if t.accepted else t.action
                    self.subject.ctx.failed(error)
                    raise


def malformed(state: Any, players: int) -> str | None:
    """What is wrong with the shape of a JSON state (None when it has every field properly)."""
    if not isinstance(state, dict):
        return f"expected a JSON object, got {type(state).__name__}"
    for key in ("phase", "turn", "round_winners", "game_winners", *STATE_LISTS, *STATE_SEATS):
        if key not in state:
            return f"no {key!r} field"
    if not isinstance(state["phase"], str):
        return "'phase' is not a string"
    for key in STATE_LISTS:
        if not isinstance(state[key], list):
            return f"{key!r} is not a list"
    for key in STATE_SEATS:
        if not isinstance(state[key], list) or len(state[key]) != players:
            return f"{key!r} does not hold one entry per player"
    for key in ("hands", "discards"):
        if not all(isinstance(cards, list) for cards in state[key]):
            return f"{key!r} does not hold a list of cards per player"
    for key in ("round_winners", "game_winners"):
        if state[key] is not None and not isinstance(state[key], list):
            return f"{key!r} is neither null nor a list"
    cards = [*state["deck"], *state["set_aside"], *state["face_up"],
             *(c for key in ("hands", "discards") for pile in state[key] for c in pile)]
    if not all(isinstance(card, str) for card in cards):
        return "a card is not a card name"
    turn = state["turn"]
    if state["phase"] in DECISION_PHASES and (not isinstance(turn, int) or not 0 <= turn < players):
        return f"phase {compact(state['phase'])} with no player on turn (turn: {compact(turn)})"
    return None


def machine_for(subject: Subject) -> type[GameMachine]:
    """A state machine class bound to `subject` (its strategies depend on the edition)."""
    rules = subject.rules
    games = "games" in subject.ctx.capabilities
    decks = st.permutations([rules.edition.names[c] for c in rules.edition.deck(rules.players)])
    firsts = st.integers(0, rules.players - 1)
    tokens: st.SearchStrategy[list[int] | None] = (
        st.lists(st.integers(0, rules.target - 1), min_size=rules.players, max_size=rules.players)
        if games else st.none())

    class PropertyMachine(GameMachine):
        """Plays `subject.engine` under the rules of one edition and player count."""

        @initialize(deck=decks, first=firsts, tokens=tokens)
        def start(self, deck: list[str], first: int, tokens: list[int] | None) -> None:
            """Start the first game."""
            self.begin(deck, first, tokens)

        @precondition(lambda self: self.due)
        @rule(data=st.data())
        def act(self, data: st.DataObject) -> None:
            """Make the decision that is due."""
            self.decide(data)

        @precondition(lambda self: self.between_rounds)
        @rule(deck=decks)
        def next_round(self, deck: list[str]) -> None:
            """Deal the next round."""
            self.deal_next(deck)

        @precondition(lambda self: self.finished)
        @rule(deck=decks, first=firsts, tokens=tokens)
        def new_game(self, deck: list[str], first: int, tokens: list[int] | None) -> None:
            """Check that the finished game stays over, then start another."""
            self.probe_end(deck)
            self.begin(deck, first, tokens)

        @invariant()
        def properties_hold(self) -> None:
            """Every enabled property holds for what just happened."""
            if self.games:
                self.check()

    PropertyMachine.subject = subject
    return PropertyMachine
