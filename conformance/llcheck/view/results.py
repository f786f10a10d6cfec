"""A conformance report (the JSON form of `check --json`) as a viewer page: a row per result, and
for each failing case a film of its game with the point where the engine parted from the rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from loveletter_ref.errors import EngineError, SpecError
from loveletter_ref.lockstep import Divergence
from loveletter_ref.spec import Edition

from ..harness.results import BAD
from .film import of_case, of_record
from .page import page

Json = dict[str, Any]


def divergence_of(data: Json | None) -> Divergence | None:
    """A divergence from its JSON report form."""
    if not isinstance(data, dict):
        return None
    return Divergence(data.get("round"), data.get("step"), str(data.get("what", "")), data.get("expected"),
                      data.get("actual"), str(data.get("detail", "")), data.get("action"))


def _film(result: Json, game: Json, spec_of: Callable[[str], Edition]) -> Json:
    """The film of a result's game: a conformance case, or the game record a fuzzing or property
    failure replays."""
    edition, divergence = spec_of(game["edition"]), divergence_of(result.get("divergence"))
    if "id" in game:
        return of_case(game, edition, divergence)
    return of_record(game, edition, f"{result['id']}: {result.get('description', '')}".rstrip(": "),
                     list(result.get("clauses", ())), divergence)


def report_films(report: Json, case_of: Callable[[str], Json | None],
                 spec_of: Callable[[str], Edition]) -> tuple[list[Json], Json]:
    """The films and the report rows of a JSON report. `case_of` gives a corpus case by id (None when
    there is none); a result's own `replay_case` (fuzzing, properties) comes first."""
    results = list(report.get("results", [])) + list(report.get("golden", {}).get("results", []))
    films: list[Json] = []
    rows = []
    for result in results:
        row = {key: result.get(key) for key in ("id", "status", "clauses", "message")}
        row["film"] = None
        case = result.get("replay_case") or case_of(result["id"])
        if result.get("status") in BAD and case is not None:
            try:
                films.append(_film(result, case, spec_of))
                row["film"] = len(films) - 1
            except (SpecError, EngineError, KeyError) as exc:  # a case the reference cannot set up
                row["message"] = f"{row['message']} (no film: {exc})"
        rows.append(row)
    summary = report.get("summary", {})
    counts = ", ".join(f"{n} {status.replace('_', ' ')}" for status, n in summary.items()
                       if isinstance(n, int))
    engine = report.get("engine", {})
    return films, {"summary": f"{engine.get('impl', '')}: {counts}", "rows": rows}


def report_page(title: str, report: Json, case_of: Callable[[str], Json | None],
                spec_of: Callable[[str], Edition]) -> str:
    """The `--html` page of a JSON report: its rows, each failing result linked to its game."""
    films, rows = report_films(report, case_of, spec_of)
    return page(title, films, rows)
