"""A comparison of two rulebook readings (`disputes A B --json`) as a viewer page: a row per
differing clause, and for each witness game a film played under the first reading that ends
where the two part, each reading's answer there side by side."""

from __future__ import annotations

from typing import Any

from loveletter_ref.errors import EngineError
from loveletter_ref.spec import Edition

from .film import clause_quotes, of_record

Json = dict[str, Any]


def _answer(frame: Json) -> Any:
    """What a reading does at the last step of its replay: the table, or why it refuses or stops."""
    if frame.get("refused") or frame["state"] is None:
        return {"refused": frame.get("note", "")}
    return frame["state"]


def parting_film(title: str, replays: Json, sides: list[tuple[str, Edition]], clauses: list[str],
                 what: str, detail: str) -> Json:
    """The film of a game under the first of two sides (`replays` by side label, each in its side's
    form) that ends where they part, each side's answer there side by side."""
    (left, left_spec), (right, right_spec) = sides
    film, other = (of_record(replays[label], spec, title) for label, spec in sides)
    film["clauses"] = clause_quotes(left_spec, [f"{left_spec.prefix}.{c}" for c in clauses]) + \
        clause_quotes(right_spec, [f"{right_spec.prefix}.{c}" for c in clauses])
    last = film["frames"][-1]
    film["parted"] = {"frame": len(film["frames"]) - 1, "where": last["label"], "what": what,
                      "detail": detail, "sides": [left, right],
                      "expected": _answer(last), "actual": _answer(other["frames"][-1])}
    return film


def _witness_film(verdict: Json, witness: Json, sides: list[tuple[str, Edition]]) -> Json | None:
    """The film of one witness of a verdict (None when a side has no replay of its own in it)."""
    replays = witness.get("replays", {})
    if not all(label in replays for label, _ in sides):
        return None
    title = f"{verdict['clause']}: where {sides[0][0]} and {sides[1][0]} part"
    clause = verdict["clause"]
    return parting_film(title, replays, sides, [clause], clause, witness.get("story", ""))


def dispute_films(data: Json, sides: list[tuple[str, Edition]]) -> tuple[list[Json], Json]:
    """The films and report rows of a comparison; `sides` are the two readings as played, each by
    the label its replays are filed under."""
    films: list[Json] = []
    rows = []
    for verdict in data["verdicts"]:
        row = {"id": verdict["clause"], "status": verdict["status"], "clauses": [verdict["clause"]],
               "message": verdict.get("kind", ""), "film": None}
        witness = verdict.get("witness")
        if witness:
            try:
                film = _witness_film(verdict, witness, sides)
            except (EngineError, KeyError) as exc:  # a replay the reference cannot set up
                row["message"] = f"{row['message']} (no film: {exc})"
                film = None
            if film is not None:
                films.append(film)
                row["film"] = len(films) - 1
        rows.append(row)
    summary = ", ".join(f"{n} {status.replace('_', ' ')}" for status, n in data["summary"].items())
    return films, {"summary": f"{data['a']['label']} vs {data['b']['label']}: {summary}", "rows": rows}
