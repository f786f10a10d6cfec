"""Clause ids to the rulebook quotes they rest on, for reports (editions and readings alike)."""

from __future__ import annotations

from functools import cache

from loveletter_ref.errors import SpecError
from loveletter_ref.spec import Clause, known_specs, load_spec


@cache
def _index() -> dict[str, Clause]:
    """Every clause of every bundled spec that loads, by full id."""
    found: dict[str, Clause] = {}
    for path in known_specs().values():
        try:
            spec = load_spec(path)
        except SpecError:
            continue
        for clause_id, clause in spec.clauses.items():
            found.setdefault(clause_id, clause)
    return found


def clause_quote(clause_id: str) -> str:
    """`FILE:LINE «quote» (gloss)` for a clause id, or a note that no bundled spec has it."""
    clause = _index().get(clause_id)
    return clause.quote() if clause is not None else "(no bundled spec has this clause)"
