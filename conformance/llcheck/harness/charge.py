"""Which clauses a failed case is charged to (docs/cases.md, *Verdicts per clause*).

A focused case tests the few clauses it names, and its failure counts against each of them. A
*broad* case (a golden trace, or any case naming more than `BROAD` clauses) plays a whole game
that touches nearly every rule, so its failure is charged only to the clauses suspected at its
first divergence (`blame`, as for a difference found by fuzzing), among those the case names; its other
clauses are not judged by it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from loveletter_ref.errors import SpecError
from loveletter_ref.lockstep import Divergence
from loveletter_ref.spec import Edition, load_spec

from .blame import card_clauses, event_suspects, kinds_clauses, state_suspects, unique
from .cases import GOLDEN

BROAD = 8
"""A case naming more clauses than this is broad (and so is every golden case)."""

DEAL_RULES = ("deck_size", "set_aside", "face_up", "deal")
"""The rule kinds behind a deal refused, or accepted when it should not be."""


def is_broad(group: str, clauses: tuple[str, ...]) -> bool:
    """True for a case whose failure is charged to its suspected clauses only."""
    return group == GOLDEN or len(clauses) > BROAD


def charged(group: str, edition: str, clauses: tuple[str, ...],
            divergence: Divergence) -> tuple[str, ...] | None:
    """The clauses a broad case's failure is charged to: the suspects of its first divergence among
    the case's clauses (all of them when none is suspected); None for a focused case (every
    clause is charged) or an edition that is not bundled (no rules to blame with)."""
    if not is_broad(group, clauses):
        return None
    spec = _spec(edition)
    if spec is None:
        return None
    cited = set(clauses)
    named = [c for c in suspects(spec, divergence) if c in cited]
    return tuple(named) if named else tuple(clauses)


@cache
def _spec(edition: str) -> Edition | None:
    try:
        return load_spec(edition)
    except SpecError:
        return None


def suspects(spec: Edition, d: Divergence) -> list[str]:
    """The clauses behind a divergence, most likely first."""
    action = d.action if isinstance(d.action, dict) else {}
    card = action.get("card") if isinstance(action.get("card"), str) else None
    at_start = d.round is not None and not d.step
    what = d.what.split(" (")[0]
    if what == "events":
        return event_suspects(spec, _dicts(d.expected), _dicts(d.actual), card, at_start)
    if what == "legal_actions":
        cards = [a.get("card") for a in _dicts(d.expected) + _dicts(d.actual)]
        return unique(c for name in cards if isinstance(name, str) for c in card_clauses(spec, name))
    if what.startswith("deal "):
        return kinds_clauses(spec, DEAL_RULES)
    if what.startswith("action "):
        return card_clauses(spec, card) + kinds_clauses(spec, ("turn_play", "forced_with"))
    key = what.rpartition(".")[2]
    if "." in what and key:
        return state_suspects(spec, {key: d.expected}, {key: d.actual}, card, at_start)
    return []


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
