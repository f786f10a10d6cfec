"""Deliberately broken specs: an edition with one clause's parameters changed.

The edition's file is read, one clause is rewritten, and the result is validated (schema and
semantic checks, quotes aside) and compiled under the edition's own id and prefix, so that the
mutant plays "classic" as far as any harness can tell.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import cache
from typing import Any

from loveletter_ref.errors import SpecError
from loveletter_ref.spec import Edition, find_spec, known_specs, load_spec, schema_path
from loveletter_ref.spec.compile import compile_spec
from loveletter_ref.spec.schema import schema_problems
from loveletter_ref.spec.semantic import semantic_problems
from loveletter_ref.spec.yamlsafe import load_yaml

Rewrite = Callable[[str, Any], Any]
"""(edition id, the clause's current parameters) -> its new parameters."""

EDITIONS = ("classic", "z-man-2019")
"""The editions a spec mutant rewrites; other bundled editions are played unchanged."""


def find_clause(data: dict[str, Any], key: str) -> dict[str, Any] | None:
    """The raw clause with id `key` among the spec's card rules and general rules."""
    clauses = [rule for card in data.get("cards", []) for rule in card.get("rules", [])]
    clauses += data.get("rules", [])
    return next((c for c in clauses if c.get("id") == key), None)


def mutated(edition_id: str, key: str, kind: str, rewrite: Rewrite) -> Edition | None:
    """The edition with clause `key` (a `kind` rule) rewritten, or None if it has no such clause."""
    path = find_spec(edition_id)
    data, positions = load_yaml(path)
    data = copy.deepcopy(data)
    clause = find_clause(data, key)
    if clause is None or kind not in clause:
        return None
    clause[kind] = rewrite(edition_id, clause[kind])
    problems = schema_problems(data, positions, str(path), schema_path()) or semantic_problems(
        data, positions, str(path))
    if problems:
        raise SpecError(problems)
    return compile_spec(data, positions, path)


@cache
def specs(key: str, kind: str, rewrite: Rewrite) -> dict[str, Edition]:
    """Every bundled edition, with clause `key` rewritten in those of `EDITIONS` that have it."""
    out: dict[str, Edition] = {}
    for edition_id, path in known_specs().items():
        if path.parent.name != "editions":
            continue
        changed = mutated(edition_id, key, kind, rewrite) if edition_id in EDITIONS else None
        out[edition_id] = changed or load_spec(edition_id)
    return out
