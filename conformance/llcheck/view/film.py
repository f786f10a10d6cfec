"""A game as a film for the viewer: the table after every deal and action, played by the reference
engine from a case or a game record, with the point where two sides part marked on its frame."""

from __future__ import annotations

from typing import Any

from loveletter_ref.engine.actions import Action
from loveletter_ref.engine.game import Game
from loveletter_ref.errors import EngineError
from loveletter_ref.lockstep import Divergence
from loveletter_ref.lockstep.divergence import describe_action
from loveletter_ref.spec import Clause, Edition

Json = dict[str, Any]


def cards_of(edition: Edition) -> list[Json]:
    """Each card's face: name, value, and what it does in the rulebook's words (its first rule)."""
    out = []
    for card in edition.cards:
        clause = card.steps[0].clause if card.steps else card.clause
        out.append({"name": card.name, "value": card.value, "text": _words(clause)})
    return out


def _words(clause: Clause) -> str:
    """A clause's rule in words: its first source's gloss, else its quote."""
    source = clause.sources[0] if clause.sources else None
    return (source.gloss or source.quote) if source is not None else ""


def clause_quotes(edition: Edition, ids: list[str]) -> list[Json]:
    """The clauses named, each with its quote (a clause this edition lacks says so)."""
    out = []
    for clause_id in ids:
        clause = edition.clauses.get(clause_id)
        quote = clause.quote() if clause is not None else f"(not a clause of {edition.id})"
        out.append({"id": clause_id, "quote": quote})
    return out


def film(edition: Edition, players: int, rounds: list[Json], *, title: str, first_player: int = 0,
         tokens: list[int] | None = None, clauses: list[str] | None = None,
         divergence: Divergence | None = None, record: bool = False) -> Json:
    """The frames of a game whose rounds give each deck and the actions played on it (`steps` of a
    case, each `{"action": ..., "refused": true?}`, or `actions` of a game record). A step the
    reference engine refuses, or a deck it cannot deal, is a frame saying so, as the case expects
    or not; the game stops at the first answer it cannot give. The sides part at the divergence's
    round and step in a case; a `record` (the replay of a fuzzing or property failure, whose steps
    the divergence counts with the probes between them) ends where they part."""
    game = Game(edition, players, first_player=first_player, tokens=tokens)
    frames: list[Json] = []
    for number, round_ in enumerate(rounds, 1):
        try:
            events = game.start_round(round_["deck"], first_player=round_.get("first"))
        except EngineError as exc:
            frames.append(_frame(None, f"round {number}, deal refused", [], number, 0, note=str(exc)))
            break
        frames.append(_frame(game.state(), f"round {number}, deal", events, number, 0))
        steps = round_.get("steps") or [{"action": a} for a in round_.get("actions", ())]
        for step_number, step in enumerate(steps, 1):
            label = f"round {number}, step {step_number}: {describe_action(step['action'])}"
            try:
                action = Action.from_json(step["action"])
                if step.get("refused"):
                    game.check(action)  # raises: the case expects a refusal
                    frames.append(_frame(game.state(), label, [], number, step_number,
                                         note="the case expects a refusal, the reference engine allows it"))
                    continue
                events = game.apply(action)
            except EngineError as exc:
                frames.append(_frame(game.state(), label, [], number, step_number,
                                     refused=True, note=step.get("note") or str(exc)))
                if step.get("refused"):
                    continue
                return _film(edition, title, frames, clauses, divergence, record)
            frames.append(_frame(game.state(), label, events, number, step_number, note=step.get("note")))
    return _film(edition, title, frames, clauses, divergence, record)


def _frame(state: Json | None, label: str, events: list[Json], round_: int, step: int, *,
           refused: bool = False, note: str | None = None) -> Json:
    frame: Json = {"label": label, "state": state, "events": events, "round": round_, "step": step}
    if refused:
        frame["refused"] = True
    if note:
        frame["note"] = note
    return frame


def _film(edition: Edition, title: str, frames: list[Json], clauses: list[str] | None,
          divergence: Divergence | None, record: bool) -> Json:
    out: Json = {"title": title, "edition": edition.id, "cards": cards_of(edition), "frames": frames,
                 "clauses": clause_quotes(edition, clauses or [])}
    if divergence is not None:
        out["parted"] = _parted(frames, divergence, record)
        suspected = [c for c in divergence.clauses if c not in (clauses or [])]
        out["clauses"] += clause_quotes(edition, suspected)
    return out


def _parted(frames: list[Json], divergence: Divergence, record: bool) -> Json:
    """Where the two sides part: the frame (the last one for a record, or when the place is not in
    the film), what differs, and each side's answer."""
    at = len(frames) - 1
    for n, frame in enumerate([] if record else frames):
        if frame["round"] == divergence.round and frame["step"] == (divergence.step or 0):
            at = n
            break
    return {"frame": at, "where": divergence.where(), "what": divergence.what, "detail": divergence.detail,
            "expected": divergence.expected, "actual": divergence.actual}


def of_case(case: Json, edition: Edition, divergence: Divergence | None = None) -> Json:
    """The film of a conformance case (a corpus case, a saved fuzz case or a witness in case form)."""
    title = f"{case['id']}: {case.get('description', '')}".rstrip(": ")
    return film(edition, case["players"], list(case["rounds"]), title=title,
                first_player=case.get("first_player", 0), tokens=case.get("tokens"),
                clauses=list(case.get("clauses", ())), divergence=divergence)


def of_record(record: Json, edition: Edition, title: str, clauses: list[str] | None = None,
              divergence: Divergence | None = None) -> Json:
    """The film of a game record (`loveletter_ref.engine.replay.game_record`, the replay of a
    fuzzing or property failure)."""
    return film(edition, record["players"], list(record["rounds"]), title=title,
                first_player=record.get("first_player", 0), tokens=record.get("tokens"), clauses=clauses,
                divergence=divergence, record=True)
