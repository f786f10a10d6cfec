"""The reference engine, in process, behind the adapter interface."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from loveletter_ref import Action, Game
from loveletter_ref.engine import view
from loveletter_ref.engine.state import StateCache
from loveletter_ref.engine.tables import Memo
from loveletter_ref.errors import DeckError, IllegalActionError, RuleGapError, SpecError
from loveletter_ref.spec import Edition, known_specs, load_spec

from .. import __version__
from ..specs import gap_message
from .base import CAPABILITIES, Engine, EngineFailure, Hello, Json, Reply


class ReferenceEngine(Engine):
    """Plays by the bundled specs (or by `specs` given explicitly, e.g. readings or variants).

    `game_class` lets a test substitute a deliberately broken subclass of `Game`.
    """

    def __init__(self, specs: dict[str, Edition] | None = None, game_class: type[Game] = Game,
                 name: str = "loveletter-reference"):
        self.specs = specs
        self.game_class = game_class
        self._bundled: dict[str, Edition] = {}  # bundled specs loaded so far, by edition id
        editions = tuple(specs) if specs is not None else tuple(known_specs())
        self.hello = Hello(name, __version__, editions, frozenset(CAPABILITIES))
        self.game: Game | None = None
        self._states: StateCache | None = None
        """The game's state, named again only where it changed (a state per answer)."""
        self._served_as: str | None = None
        """The edition id the game was started as, when its spec has another id (a reading served
        as the edition it describes): states and views report the id the harness asked for."""

    def _spec(self, edition: str) -> Edition:
        if edition not in self.hello.editions:  # only what hello lists: an edition is never a path
            raise EngineFailure(f"{self.hello.name} does not play {edition!r} "
                                f"(it plays {', '.join(self.hello.editions)})")
        if self.specs is not None:
            return self.specs[edition]
        if edition not in self._bundled:  # looked up once: finding a bundled spec reads its folder
            try:
                self._bundled[edition] = load_spec(edition)
            except SpecError as exc:
                raise EngineFailure(f"bundled spec {edition!r} does not load: {exc}") from None
        return self._bundled[edition]

    def _game(self) -> Game:
        if self.game is None:
            raise EngineFailure("no game has been started")
        return self.game

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        spec = self._spec(edition)
        try:  # a refused start changes nothing: a game in progress goes on
            game = self.game_class(spec, players, first_player=first_player, tokens=tokens)
            events = game.start_round(list(deck))
        except DeckError as exc:
            return Reply(False, reason=str(exc), clause=exc.clause)
        except RuleGapError as exc:
            raise _gap(spec, exc) from None  # the rules are silent here: the game cannot go on
        self.game = game
        self._states = StateCache(game)
        self._served_as = edition if game.edition.id != edition else None
        return Reply(True, events, self._state())

    def next_round(self, deck: Sequence[str]) -> Reply:
        game = self._game()
        try:
            events = game.start_round(list(deck))
        except (DeckError, IllegalActionError) as exc:
            return Reply(False, reason=str(exc), clause=getattr(exc, "clause", None))
        except RuleGapError as exc:
            raise _gap(game.edition, exc) from None
        return Reply(True, events, self._state())

    def _state(self) -> Json:
        """The current game's state, as served: from the cache (see StateCache), as a dictionary of
        the caller's own (a caller may replace a key; the values are shared with later states, so it
        must not change them in place)."""
        assert self._states is not None
        state = self._states.state()
        return {**state, "edition": self._served_as} if self._served_as is not None else dict(state)

    def legal_actions(self) -> list[Json]:
        return list(map(dict.copy, map(action_json, self._game().legal_actions())))

    def apply(self, action: Json) -> Reply:
        game = self._game()
        try:
            events = game.apply(parsed_action(action))
        except ValueError as exc:
            return Reply(False, reason=f"malformed action: {exc}")
        except IllegalActionError as exc:
            return Reply(False, reason=exc.reason, clause=exc.clause)
        except RuleGapError as exc:
            raise _gap(game.edition, exc) from None
        return Reply(True, events, self._state())

    def state(self) -> Json:
        self._game()
        return self._state()

    def view(self, player: int) -> Json:
        game = self._game()
        if not 0 <= player < game.players:
            raise EngineFailure(f"there is no player {player}")
        return view(game, player, self._state())


action_json: Callable[[Action], Json] = Memo(Action.to_json, limit=8192).__getitem__
"""An action's JSON form, worked out once (the same few hundred actions recur in every game, and
both sides of a fuzzed game look up every legal action): shared, so hand out copies only."""


class _ParsedActions(dict[tuple[tuple[str, object], ...], Action]):
    """Actions parsed from their JSON forms, by the form's items (the same few hundred recur in
    every game, and parsing one checks every field through a few calls). Only forms whose values
    are strings, whole numbers (not booleans) or null are remembered, so that a key equal in
    Python but not in JSON (`true` and `1`) never finds another's action; emptied at `LIMIT`."""

    LIMIT = 8192

    def parse(self, action: Json) -> Action:
        """`Action.from_json(action)`, remembered (ValueError as it raises)."""
        if type(action) is not dict:
            return Action.from_json(action)
        for value in action.values():  # a loop, not all(...): no generator on this hot path
            kind = type(value)
            if kind is not str and kind is not int and value is not None:
                return Action.from_json(action)
        key = tuple(action.items())
        found = self.get(key)
        if found is None:
            if len(self) >= self.LIMIT:
                self.clear()
            found = self[key] = Action.from_json(action)
        return found


parsed_action: Callable[[Json], Action] = _ParsedActions().parse
"""An action parsed from its JSON form, remembered for plain forms."""


def _gap(spec: Edition, exc: RuleGapError) -> EngineFailure:
    """The engine cannot go on where the rules are silent: blamed on an edition of your own."""
    return EngineFailure(gap_message(spec, exc.clause, exc.reason) or str(exc))
