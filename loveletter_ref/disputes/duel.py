"""One game played under two specs at once, step by step, with what each step showed.

A *table* is one reference-engine game under one spec; a *look* is what a step (a deal or an
action) showed at that table: accepted, refused or left open by the rules (a rule gap), the
events, who is still in, the tokens, the winners, and the actions legal next. Two looks are
compared after every step; the first step at which they differ is where two rulebooks part.

Actions are compared in a spec-neutral form: a guess names the set of cards it hits, so that
"value 3" under a spec that guesses values and a card's name under one that names cards are the
same decision when that card is the only one of value 3.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from loveletter_ref import Action, Game, Phase
from loveletter_ref.engine import PLAY
from loveletter_ref.errors import DeckError, IllegalActionError, RuleGapError
from loveletter_ref.spec import Edition

IN_PLAY = (Phase.PLAY, Phase.KEEP, Phase.RESPOND)
"""Phases in which a decision is due."""

Move = tuple[Any, ...]
"""An action in spec-neutral form (see `neutral`)."""


def denotes(edition: Edition, players: int, guess: str | int | None) -> tuple[str, ...] | None:
    """The cards a guess hits: a name hits that card, a value every card with that value in the
    deck for `players` (in Premium a value may name one card at some player counts only)."""
    if guess is None:
        return None
    if isinstance(guess, int):
        return _named_by_value(edition, players, guess)
    return (guess,)


@lru_cache(maxsize=4096)
def _named_by_value(edition: Edition, players: int, value: int) -> tuple[str, ...]:
    return tuple(sorted(card.name for card in edition.cards
                        if card.value == value and card.count_for(players)))


def neutral(edition: Edition, players: int, action: Action) -> Move:
    """The spec-neutral form of an action (its guess replaced by the cards it hits)."""
    if action.guess is None:
        return tuple(action)
    return (action[0], action[1], action[2], denotes(edition, players, action.guess), *action[4:])


def _event_key(edition: Edition, players: int, event: dict[str, Any]) -> dict[str, Any]:
    """An event in comparable form: without the engine's `clause` note, guesses neutral."""
    if "clause" not in event and "guess" not in event:
        return event
    return {k: denotes(edition, players, v) if k == "guess" else v for k, v in event.items() if k != "clause"}


def event_id(event: dict[str, Any]) -> tuple[Any, ...]:
    """A comparable event as a hashable value."""
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(event.items()))


@dataclass(frozen=True)
class Look:
    """What one step showed at one table."""

    status: str
    """`ok`, `refused` (an illegal action, a deal or player count the spec does not allow) or
    `gap` (the rules do not decide what happens next)."""
    clause: str | None = None
    """For `refused` and `gap`: the key of the clause the engine names."""
    reason: str = ""
    events: tuple[dict[str, Any], ...] = ()
    raw_events: tuple[dict[str, Any], ...] = field(default=(), compare=False)
    alive: tuple[bool, ...] = ()
    tokens: tuple[int, ...] = ()
    round_winners: tuple[int, ...] | None = None
    game_winners: tuple[int, ...] | None = None
    legal: frozenset[Move] = frozenset()
    trigger: Move | None = None
    """For a gap found while listing the actions due next: one of them, which needs the clause."""
    open: tuple[tuple[Move, str], ...] = ()
    """Cards the player on turn holds whose plays the rules cannot list (a silent rule they
    need), while other cards can be played: a play of each, with the key of the clause it needs.
    The game goes on with the other cards; it stops on the gap only if such a play is made."""

    @property
    def outcome(self) -> tuple[Any, ...]:
        """The parts of a look that a table sees as the game's result so far."""
        return (self.status, self.alive, self.tokens, self.round_winners, self.game_winners)


class Table:
    """One reference-engine game under one spec, driven one step at a time."""

    def __init__(self, edition: Edition, players: int, first_player: int = 0,
                 tokens: Sequence[int] | None = None):
        self.edition = edition
        self.prefix = edition.prefix + "."
        self.moves: dict[Move, Action] = {}
        self.dead = False
        self.game: Game | None = None
        try:
            self.game = Game(edition, players, first_player=first_player, tokens=tokens)
        except DeckError as exc:
            self.dead = True
            self.unplayable = str(exc)

    def _after(self, events: list[dict[str, Any]]) -> Look:
        game = self.game
        assert game is not None
        unlisted: dict[Move, str] = {}
        try:
            legal = game.legal_actions() if game.phase in IN_PLAY else []
        except RuleGapError as exc:
            legal, unlisted = self._listable(exc)
            if not legal:
                self.dead = True
                return Look("gap", self._key(exc.clause), exc.reason, raw_events=tuple(events),
                            trigger=self._trigger(exc.clause))
        self.moves = {neutral(self.edition, game.players, a): a for a in legal}
        return Look(
            "ok", events=tuple(_event_key(self.edition, game.players, e) for e in events),
            raw_events=tuple(events),
            alive=tuple(game.alive), tokens=tuple(game.tokens),
            round_winners=None if game.round_winners is None else tuple(game.round_winners),
            game_winners=None if game.game_winners is None else tuple(game.game_winners),
            legal=frozenset(self.moves), open=tuple(sorted(unlisted.items(), key=repr)))

    def _listable(self, gap: RuleGapError) -> tuple[list[Action], dict[Move, str]]:
        """When the rules cannot list every play due (a card needs a silent rule): the plays of
        the cards they can list, and a play of each card they cannot, with the clause it needs.
        The engine checks a play against the plays of its own card only, so the player may play
        any other card; RuleGapError again when the decision is not a play."""
        game = self.game
        assert game is not None
        if game.phase is not Phase.PLAY:
            raise gap
        legal: list[Action] = []
        unlisted: dict[Move, str] = {}
        for card in game._playable():  # the engine's own per-card listing
            try:
                legal += game._card_actions(card)
            except RuleGapError as exc:
                play = Action(PLAY, game.tables.names[card])
                unlisted[neutral(self.edition, game.players, play)] = self._key(exc.clause)
        return legal, unlisted

    def deal(self, deck: Sequence[str]) -> Look:
        """Start the next round from `deck` (top first)."""
        if self.game is None:
            return Look("refused", None, self.unplayable)
        try:
            events = self.game.start_round(list(deck))
        except IllegalActionError as exc:
            return Look("refused", self._key(exc.clause), exc.reason)
        except DeckError as exc:
            self.dead = True
            return Look("refused", "setup.deck", str(exc))
        except RuleGapError as exc:
            self.dead = True
            return Look("gap", self._key(exc.clause), exc.reason)
        return self._after(events)

    def act(self, move: Move) -> Look:
        """Apply the action whose neutral form is `move`."""
        game = self.game
        assert game is not None
        action = self.action(move)
        try:
            events = game.apply(action)
        except IllegalActionError as exc:
            return Look("refused", self._key(exc.clause), exc.reason)
        except RuleGapError as exc:
            self.dead = True
            return Look("gap", self._key(exc.clause), exc.reason)
        return self._after(events)

    def _trigger(self, clause_id: str) -> Move | None:
        """A play the player on turn could make that needs the clause the rules are silent on."""
        game = self.game
        assert game is not None
        if game.phase is not Phase.PLAY:
            return None
        for name in sorted({game.tables.names[c] for c in game.hands[game.current]}):
            action = Action(PLAY, name)
            try:
                game.check(action)
            except RuleGapError as exc:
                if exc.clause == clause_id:
                    return neutral(self.edition, game.players, action)
            except IllegalActionError:
                continue
        return None

    def _key(self, clause_id: str) -> str:
        """A clause id without this spec's prefix (clauses are compared across specs by key)."""
        return clause_id[len(self.prefix):] if clause_id.startswith(self.prefix) else clause_id

    def refusal(self, move: Move) -> str | None:
        """The key of the clause that forbids `move` now (None when it is allowed)."""
        game = self.game
        if game is None or self.dead:
            return None
        try:
            game.check(self.action(move))
        except IllegalActionError as exc:
            return self._key(exc.clause)
        except RuleGapError as exc:
            return self._key(exc.clause)
        return None

    def action(self, move: Move) -> Action:
        """This table's own form of a neutral action (for its replay)."""
        return self.moves.get(move) or Action._make((*move[:3], _guess_for(self.edition, move), *move[4:]))

    @property
    def phase(self) -> Phase | None:
        """The game's phase, None once it cannot go on."""
        return None if self.dead or self.game is None else self.game.phase


def _guess_for(edition: Edition, move: Move) -> str | int | None:
    """This spec's way of naming the cards a neutral guess hits: a value when the played card
    guesses values, else a card name."""
    hit = move[3]
    if hit is None:
        return None
    by_value = any(step.kind == "guess" and not step.clause.silent and step.clause.rule["by"] == "value"
                   for card in edition.cards if card.name == move[1] for step in card.steps)
    values = {card.value for card in edition.cards if card.name in hit}
    return values.pop() if by_value and len(values) == 1 else str(hit[0])


def differ(a: Look, b: Look) -> bool:
    """True when two looks differ in what happened (what may happen next aside: an action
    legal at one table only makes a difference when someone takes it)."""
    return a.outcome != b.outcome or a.events != b.events or a.clause != b.clause


def observable(a: Look, b: Look) -> bool:
    """True when the tables see different results: a refusal or a gap on one side only,
    or different players out, tokens or winners."""
    if a.status != b.status:
        return True
    return a.status == "ok" and a.outcome != b.outcome


def both_stuck(a: Look, b: Look) -> bool:
    """True when neither table can go on (both refused or both hit a gap)."""
    return a.status != "ok" and b.status != "ok"
