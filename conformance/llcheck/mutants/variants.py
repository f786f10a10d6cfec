"""Deliberately broken specs: an edition with one clause's parameters changed.

The clause is rewritten by `loveletter_ref.variants` (validated, and compiled under the
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

EDITIONS = ("classic", "z-man-2019")
"""The editions a spec mutant rewrites; other bundled editions are played unchanged."""


def mutated(edition_id: str, key: str, kind: str, rewrite: Rewrite) -> Edition | None:
    """The edition with clause `key` (a `kind` rule) rewritten, or None if it has no such clause."""
    rule = stated(load_spec(edition_id), key, kind)
    return None if rule is None else rewritten(edition_id, key, kind, rewrite(edition_id, rule))


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
