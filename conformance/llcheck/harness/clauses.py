"""Clause ids to the rulebook quotes they rest on, for reports (editions and readings alike)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from loveletter_ref.errors import SpecError
from loveletter_ref.spec import Clause, Edition, known_specs, load_spec

_OWN: dict[str, Clause] = {}
"""The clauses of the specs a run was given as files (`use_specs`), by full id."""


def use_specs(specs: Iterable[Edition]) -> None:
    """Quote the clauses of these specs (given as files: --edition FILE) in the reports from now on,
    before any bundled clause of the same id; the specs of an earlier call are forgotten."""
    _OWN.clear()
    for spec in specs:
        _OWN.update(spec.clauses)


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
    """`FILE:LINE «quote» (gloss)` for a clause id, or a note that no spec of the run has it."""
    clause = _OWN.get(clause_id) or _index().get(clause_id)
    if clause is not None:
        return clause.quote()
    return "(no spec of this run has this clause)" if _OWN else "(no bundled spec has this clause)"
