"""What the reference engine expects of a logged game, as a conformance case, and the log's own
answers, one per input of that case: the two sides `llcheck verify` plays in lockstep with the
harness's runner, so a log gets the same verdicts, divergences and quotes as an engine.

A log is verified as far as it goes: a deal with no deck is read from the state the engine
reported after it (`deck_from_state`); expectations are made only of what the log recorded
(states, events, legal actions); the reference's refusal of a logged action ends the case there
(the log accepted it: that is the divergence). What could not be checked is listed (`notes`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from loveletter_ref import Action, DeckError, Game, IllegalActionError, RuleGapError
from loveletter_ref.engine import DECIDING
from loveletter_ref.lockstep.divergence import describe_action
from loveletter_ref.spec import Edition

from ..engines.base import Json, Reply
from ..engines.onestep import as_plays, split
from ..harness.cases import Case
from .reading import Entry, GameLog

LOG_GROUP = "log"
"""The group of a logged game's case and result."""

SETUP_KEYS = ("starter", "set_aside", "face_up", "hands")
"""The state keys compared first after a deal: what the setup rules decide (who starts, the
set-aside and face-up cards, the hands dealt), so that a setup bug is named as one."""


@dataclass
class Expected:
    """A logged game as a case, the log's answers in the order the case asks for them, and what
    could not be checked."""

    case: Case
    replies: list[Reply]
    legal: list[list[Json] | None]
    """The legal actions the log recorded after each reply (None: not recorded)."""
    notes: list[str] = field(default_factory=list)
    stopped: int | None = None
    """The log line where the reference refused what the log did (None: it refused nothing)."""


def deck_from_state(game: Game, state: Json, events: list[Json] | None) -> list[str] | None:
    """The deck a round was dealt from, top first, as the state reported after its deal shows it
    (docs/formats.md#deck-order-and-setup): the set-aside cards, the face-up cards, each seat's
    dealt cards, the starter's draw, the draw pile. Set-aside cards the state hides (left out, or
    not card names) are the cards the edition's deck still lacks. None when the state cannot say."""
    names = set(game.tables.names)
    if not _cards_lists(state, ("deck", "set_aside", "face_up")) or not (
            isinstance(state.get("hands"), list) and all(_cards(hand) for hand in state["hands"])):
        return None
    try:
        hands, starter, pile = state["hands"], state["starter"], state["deck"]
        aside, face_up = list(state["set_aside"]), list(state["face_up"])
        dealt = [list(hand) for hand in hands]
        drawn = [e["card"] for e in events or () if e.get("type") == "draw" and e.get("player") == starter]
        draw = drawn[-1] if drawn and drawn[-1] in dealt[starter] else dealt[starter][-1]
        dealt[starter].remove(draw)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError):
        return None
    shown = [c for c in aside if c in names]
    rest = face_up + [c for hand in dealt for c in hand] + [draw] + list(pile)
    if not all(isinstance(c, str) for c in rest):
        return None
    missing = Counter(game.tables.names[c] for c in game.edition.deck(game.players))
    missing.subtract(shown + rest)
    hidden = max(0, game.tables.number("set_aside") - len(shown))
    lacking = sorted(missing.elements())
    inferred = lacking if len(lacking) == hidden else []
    return shown + inferred + rest


def _cards(value: object) -> bool:
    """True for a list of card names (strings; `None` too, for a card kept hidden)."""
    return isinstance(value, list) and all(card is None or isinstance(card, str) for card in value)


def _cards_lists(state: Json, keys: tuple[str, ...]) -> bool:
    return all(_cards(state.get(key)) for key in keys)


def expected(edition: Edition, log: GameLog) -> Expected:
    """The case a logged game is checked with, and the log's answers."""
    game = Game(edition, log.players, first_player=log.first_player, tokens=log.tokens)
    rounds: list[Json] = []
    replies: list[Reply] = []
    legal: list[list[Json] | None] = []
    notes: list[str] = []
    used: set[str] = set()
    refused: str | None = None
    stopped: int | None = None
    stop = False
    state: Json = {}
    for number, round_ in enumerate(log.rounds, 1):
        deal = round_.deal
        deck = deal.deck if deal.deck is not None else (
            deck_from_state(game, deal.state, deal.events) if deal.state is not None else None)
        if deck is None:
            notes.append(f"round {number} has no deck, and no state that shows its deal: it and what "
                         "follows are not checked")
            stop = True
            break
        if deal.deck is None:
            notes.append(f"round {number}: the deck is read from the state after its deal")
        state = deal.state or state
        try:
            events = game.start_round(deck, first_player=deal.first)
        except RuleGapError as exc:
            notes.append(f"round {number}: the rules are silent here ({exc.reason}); it and what follows "
                         "are not checked")
            stop = True
            break
        except DeckError as exc:
            rounds.append({"deck": deck, "refused": True})
            replies.append(Reply(True, deal.events or [], state))
            legal.append(None)
            refused = exc.clause or edition.general["deck_size"].id
            notes.append(f"round {number}: the reference refuses its deal: {exc}")
            stop, stopped = True, deal.line
            break
        used.update(e["clause"] for e in events if "clause" in e)
        rounds.append({"deck": deck, "start": _expect(game, events, deal, SETUP_KEYS)})
        replies.append(Reply(True, deal.events or [], state))
        legal.append(_legal(deal))
        steps: list[Json] = []
        for entry in round_.steps:
            state = entry.state or state
            stop, refused = _play(game, entry, steps, replies, legal, state, used, notes)
            if stop:
                stopped = entry.line if refused is not None else None
                break
        if steps:
            rounds[-1]["steps"] = steps
        if deal.deck is None and _hides_set_aside(game, deal.state):
            notes.append(f"round {number}: the set-aside card is hidden: it is the card the deal lacks, "
                         "and set_aside is not compared")
            _without_key(rounds[-1], "set_aside")
        if stop:
            break
    else:
        if game.phase in DECIDING and log.rounds:
            notes.append("the log ends before its round does")
    return Expected(_case(edition, log, rounds, refused, used), replies, legal, notes, stopped)


def _legal_now(game: Game, action: Json) -> bool:
    """True when the reference would accept `action` (a one-step play with its keep) now."""
    trial = game.clone()
    try:
        for part in split(action):
            if part is not None:
                trial.apply(Action.from_json(part))
    except (ValueError, IllegalActionError, RuleGapError):
        return False
    return True


def _hides_set_aside(game: Game, state: Json | None) -> bool:
    """True when a deal's state shows fewer set-aside cards than the edition sets aside."""
    shown = state.get("set_aside") if isinstance(state, dict) else None
    names = set(game.tables.names)
    count = sum(1 for c in shown if c in names) if isinstance(shown, list) else 0
    return count < game.tables.number("set_aside")


def _without_key(round_: Json, key: str) -> None:
    """Leave `key` out of every state a round's case expects."""
    for expect in [round_.get("start", {}), *(step.get("expect", {}) for step in round_.get("steps", ()))]:
        if isinstance(expect.get("state"), dict):
            expect["state"].pop(key, None)


def _play(game: Game, entry: Entry, steps: list[Json], replies: list[Reply],
          legal: list[list[Json] | None], state: Json, used: set[str],
          notes: list[str]) -> tuple[bool, str | None]:
    """Add one logged action to the case: whether the case stops there, and the clause of the
    reference's refusal if it refuses the action."""
    assert entry.action is not None
    if entry.refused is not None:  # refused as the rules refuse it, the game goes on; else it parts here
        allowed = _legal_now(game, entry.action)
        steps.append({"action": entry.action, **({} if allowed else {"refused": True})})
        replies.append(Reply(False, reason=entry.refused))
        legal.append(None)
        return allowed, None
    first, keep = split(entry.action)
    parts = [first] if keep is None else [first, keep]
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        try:
            action = Action.from_json(part)
            events = game.apply(action)
        except (ValueError, IllegalActionError) as exc:
            clause = getattr(exc, "clause", None) or game.tables.general["turn_play"].id
            steps.append({"action": part, "refused": True})
            replies.append(Reply(True, entry.events or [], state))
            legal.append(None)
            notes.append(f"line {entry.line}: the reference refuses {describe_action(part)}: "
                         f"{getattr(exc, 'reason', exc)}; the rest of the game is not checked")
            return True, clause
        except RuleGapError as exc:
            notes.append(f"line {entry.line}: the rules are silent here ({exc.reason}); the rest of "
                         "the game is not checked")
            return True, None
        used.update(e["clause"] for e in events if "clause" in e)
        used.update(c.id for c in game.edition.clauses.values() if c.card == action.card)
        if last:
            steps.append({"action": part, "expect": _expect(game, events, entry)})
            replies.append(Reply(True, entry.events or [], state))
            legal.append(_legal(entry))
        else:  # the play of a one-step action: its keep, next, is what the engine answered
            steps.append({"action": part})
            replies.append(Reply(True, [], state))
            legal.append(None)
    return False, None


def _legal(entry: Entry) -> list[Json] | None:
    return as_plays(entry.legal_actions) if entry.legal_actions is not None else None


def _expect(game: Game, events: list[Json], entry: Entry, first: tuple[str, ...] = ()) -> Json:
    """What the case expects after a deal or an action: what the log recorded, as the reference
    has it (the state's keys `first` compared first)."""
    out: Json = {}
    if entry.events is not None:
        out["events"] = [{k: v for k, v in e.items() if k != "clause"} for e in events]
    if entry.state is not None:
        state = game.state()
        out["state"] = {**{key: state[key] for key in first if key in state}, **state}
    if entry.legal_actions is not None:
        out["legal_actions"] = [a.to_json() for a in game.legal_actions()]
    return out


def _case(edition: Edition, log: GameLog, rounds: list[Json], refused: str | None, used: set[str]) -> Case:
    """The case: focused on the clause of the reference's refusal when there is one, else naming
    every clause the game touched (a broad case, charged by the suspects of its divergence)."""
    if refused is not None:
        clauses: tuple[str, ...] = (refused,)
    else:
        general = {c.id for c in edition.general.values()}
        clauses = tuple(c for c in edition.clauses if c in used or c in general)
    return Case(id=f"log/{log.path.name}/game-{log.number}",
                description=f"game {log.number} of {log.path}"
                            + (f", recorded from {log.engine}" if log.engine else ""),
                clauses=clauses, tags=("log",), status=LOG_GROUP, edition=log.edition, players=log.players,
                first_player=log.first_player, tokens=tuple(log.tokens) if log.tokens is not None else None,
                assumes=None, needs=(), rounds=tuple(rounds), result=None, path=log.path, line=log.line)
