"""Turn a failing game into a conformance case (docs/cases.md) that any harness can run.

The expectations come from the reference engine playing the same deck and actions: the events
and the full state after every step (and the observing player's view, for a hidden-information
failure). An action the rules refuse becomes a `refused` step that ends the case. Such a case
is a regression test recorded from the reference, not a reading of the rulebooks: review it
before it joins the corpus.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from loveletter_ref import Action, Game
from loveletter_ref.engine import view
from loveletter_ref.errors import DeckError, IllegalActionError

from ..atomic import write_atomic
from ..harness.cases import Case, CaseError, corpus_problems, load_file
from .rules import Rules
from .trace import Json

DESCRIPTION = "Games in which the property-based tests caught an engine breaking a rule"


def with_attempt(replay: Json, attempt: Json | None) -> Json:
    """The replay with `attempt` (the action the engine crashed on or refused) played last."""
    if attempt is None or not replay.get("rounds"):
        return replay
    *done, last = replay["rounds"]
    return {**replay, "rounds": [*done, {**last, "actions": [*last["actions"], attempt]}]}


def case_from_replay(rules: Rules, replay: Json, *, prop: str, message: str, clauses: list[str],
                     attempt: Json | None = None, observer: int | None = None) -> Json:
    """A case replaying `replay` (then `attempt`, if given) with the reference's expectations."""
    game = Game(rules.edition, rules.players, first_player=replay["first_player"],
                tokens=replay.get("tokens"))
    rounds: list[Json] = []
    for round_ in with_attempt(replay, attempt)["rounds"]:
        actions = round_["actions"]
        try:
            start = _expect(game, game.start_round(round_["deck"]), observer)
        except (DeckError, IllegalActionError):
            break  # the rules deal no such round (the game is over): the previous step shows it
        steps = [_step(game, action, observer) for action in actions]
        refused = next((i for i, step in enumerate(steps) if step.get("refused")), None)
        rounds.append({"deck": list(round_["deck"]), "start": start, "steps": steps[:_end(refused)]})
        if refused is not None:
            break
    case: Json = {
        "id": case_id(prop, replay, attempt),
        "description": f"property {prop}: {message}",
        "clauses": clauses or [rules.edition.general["turn_play"].id],
        "tags": ["property", prop],
        "edition": rules.edition.id,
        "players": rules.players,
        "first_player": replay["first_player"],
    }
    if replay.get("tokens") is not None:
        case["tokens"] = list(replay["tokens"])
    needs = (["views"] if observer is not None else []) + (["games"] if len(rounds) > 1 else [])
    if needs:
        case["needs"] = needs
    case["rounds"] = rounds
    return case


def case_id(prop: str, replay: Json, attempt: Json | None) -> str:
    """'property/<prop>/<edition>/<n>p/<digest>': stable for the same game."""
    digest = hashlib.sha256(json.dumps([replay, attempt], sort_keys=True).encode()).hexdigest()[:10]
    return f"property/{prop}/{replay['edition']}/{replay['players']}p/{digest}"


def _end(refused: int | None) -> int | None:
    return None if refused is None else refused + 1


def _step(game: Game, action: Json, observer: int | None) -> Json:
    """One step: the action with the reference's expectations, or a refusal."""
    if game.phase.value not in ("play", "keep", "respond"):
        return {"action": action, "refused": True}
    try:
        events = game.apply(Action.from_json(action))
    except (IllegalActionError, ValueError):
        return {"action": action, "refused": True}
    return {"action": action, "expect": _expect(game, events, observer)}


def _expect(game: Game, events: list[Json], observer: int | None) -> Json:
    out: Json = {"events": [_without_clause(e) for e in events], "state": game.state()}
    if observer is not None:
        out["views"] = {str(observer): view(game, observer)}
    return out


def _without_clause(event: Json) -> Json:
    return {key: value for key, value in event.items() if key != "clause"}


def case_path(root: Path, case: Json) -> Path:
    """Where a case of a property goes in a corpus folder, so `llcheck check --corpus` runs it."""
    prop = case["tags"][-1]
    return root / "required" / case["edition"] / f"property-{prop}-{case['players']}p.json"


def write_cases(path: Path, cases: list[Json]) -> Path:
    """Write a case file (creating folders), then load it back with the corpus loader to validate it.

    Raises the loader's CaseError when the file does not validate.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps({"description": DESCRIPTION, "cases": cases}, indent=1) + "\n")
    validate(path)
    return path


def validate(path: Path) -> list[Case]:
    """Load a case file with the corpus loader and check it against the editions."""
    loaded = load_file(path, status="required")
    problems = corpus_problems(loaded)
    if problems:
        raise CaseError(problems)
    return loaded
