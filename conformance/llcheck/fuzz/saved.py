"""A found difference as data: its replay (docs/formats.md) and a conformance case file.

Both are rebuilt from the record of what was sent, by playing it again on a fresh reference
game; the case expects what the reference did at every step (events, state, legal actions),
refuses the illegal probes, and ends at the step where the engine differed.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from loveletter_ref import Game
from loveletter_ref.engine import game_record, view
from loveletter_ref.spec import Edition
from loveletter_ref.spec.schema import pointer_text, validator_for

from ..atomic import write_atomic
from ..engines.base import Json
from ..harness.compare import without_clauses
from ..paths import conformance_dir
from .lockstep import LIVE, Found, Record, strip_view

NEEDS = {"legal_actions": "legal_actions", "events": "events", "views": "views"}
"""Difference kind -> the capability a case needs to see it."""


def replay_of(edition: Edition, record: Record) -> Json:
    """The legal actions of the record as a replay (probes left out)."""
    game = _fresh(edition, record)
    for deck, steps in record.rounds:
        game.start_round(deck)
        for step in steps:
            if not step.probe:
                game.apply_unchecked(step.action)
    return game_record(game)


def _fresh(edition: Edition, record: Record) -> Game:
    return Game(edition, record.players, first_player=record.first_player, tokens=record.tokens)


def case_of(edition: Edition, found: Found, seed: int) -> Json:
    """A conformance case that reproduces the difference."""
    record = found.record
    game = _fresh(edition, record)
    rounds: list[Json] = []
    for deck, steps in record.rounds:
        start = _expect(game, game.start_round(deck))
        moves: list[Json] = []
        for step in steps:
            if step.probe:
                moves.append({"action": step.action.to_json(), "refused": True})
            else:
                moves.append({"action": step.action.to_json(),
                              "expect": _expect(game, game.apply_unchecked(step.action))})
        rounds.append({"deck": list(deck), "start": start, **({"steps": moves} if moves else {})})
    if found.kind == "views":
        last = rounds[-1]["steps"][-1] if rounds[-1].get("steps") else {"expect": rounds[-1]["start"]}
        last["expect"]["views"] = {str(p): strip_view(view(game, p)) for p in range(record.players)}
    digest = hashlib.sha1(json.dumps(rounds, sort_keys=True).encode()).hexdigest()[:10]
    case: Json = {
        "id": f"fuzz/{edition.id}/{record.players}p-{digest}",
        "description": f"Found by differential fuzzing (seed {seed}): {found.message}",
        "clauses": list(found.clauses),
        "tags": ["fuzz", found.kind.replace("_", "-")],
        "edition": edition.id,
        "players": record.players,
    }
    if record.first_player:
        case["first_player"] = record.first_player
    if record.tokens is not None:
        case["tokens"] = list(record.tokens)
    needs = {NEEDS[found.kind]} if found.kind in NEEDS else set()
    if record.tokens is not None or len(rounds) > 1:
        needs.add("games")
    if needs:
        case["needs"] = sorted(needs)
    case["rounds"] = rounds
    return case


def _expect(game: Game, events: list[Json]) -> Json:
    out: Json = {"events": without_clauses(events), "state": game.state()}
    if game.phase in LIVE:
        out["legal_actions"] = [a.to_json() for a in game.legal_actions()]
    return out


def save_case(case: Json, out_dir: Path) -> Path:
    """Write the case as a corpus file under `out_dir`, laid out like the corpus
    (`required/<edition>/NAME.json`, so that `llcheck check --corpus out_dir` runs it); it is
    checked against the case schema first."""
    document = {"description": f"A difference found by differential fuzzing ({case['id']})",
                "cases": [case]}
    problem = schema_problem(document)
    if problem:
        raise ValueError(f"the saved case would not be valid: {problem}")
    folder = out_dir / "required" / case["edition"]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (case["id"].replace("/", "-") + ".json")
    write_atomic(path, json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    return path


def schema_problem(document: Any) -> str | None:
    """The first violation of the case schema by a case file's content, or None."""
    validator = validator_for(conformance_dir() / "schema" / "case.schema.json")
    error = next(iter(validator.iter_errors(document)), None)
    if error is None:
        return None
    return f"{pointer_text(tuple(error.absolute_path))}: {error.message}"
