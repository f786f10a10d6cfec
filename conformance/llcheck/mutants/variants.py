"""Deliberately broken specs: an edition with one clause's parameters changed (or two).

The clauses are rewritten by `loveletter_ref.variants` (validated, and compiled under the
edition's own id and prefix), so that the mutant plays "classic" as far as any harness can tell.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from loveletter_ref.spec import Edition, known_specs, load_spec
from loveletter_ref.variants import rewritten, stated

Rewrite = Callable[[str, Any], Any]
"""(edition id, the clause's current parameters) -> its new parameters."""

Change = tuple[str, str, Rewrite]
"""A clause key, its rule kind, and how its parameters are rewritten."""

EDITIONS = ("classic", "z-man-2019")
"""The editions a spec mutant rewrites; other bundled editions are played unchanged."""


def mutated(edition_id: str, changes: tuple[Change, ...]) -> Edition | None:
    """The edition with each change's clause rewritten, or None if it has none of them (a clause
    it lacks is left alone)."""
    edition = load_spec(edition_id)
    rules = [(key, kind, rewrite(edition_id, rule)) for key, kind, rewrite in changes
             if (rule := stated(edition, key, kind)) is not None]
    return rewritten(edition_id, rules) if rules else None


@cache
def specs(changes: tuple[Change, ...]) -> dict[str, Edition]:
    """Every bundled edition, with the changes made in those of `EDITIONS` that have the clauses."""
    out: dict[str, Edition] = {}
    for edition_id, path in known_specs().items():
        if path.parent.name != "editions":
            continue
        changed = mutated(edition_id, changes) if edition_id in EDITIONS else None
        out[edition_id] = changed or load_spec(edition_id)
    return out
