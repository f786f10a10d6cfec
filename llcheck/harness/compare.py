"""How an engine's answers are compared with a case's expectations (docs/cases.md, matching).

Values are compared as JSON: `true` is not `1`. Events are compared as exact lists once every
`clause` field is dropped; states and views partially (only the keys a case gives); legal
actions as sets. Each function returns None when the values agree, else a one-line detail.
"""

from __future__ import annotations

import json
from typing import Any

from .results import compact

MISSING = "<missing>"
"""Stands for a key the engine did not send, in reports."""


def same(a: Any, b: Any) -> bool:
    """JSON equality: like ==, but booleans are not numbers."""
    if type(a) is not type(b):
        numbers = (int, float)
        return (isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool)
                and not isinstance(b, bool) and a == b)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


DETAIL = 240
"""Values quoted in a one-line difference are shortened to this many characters (reports keep the
whole expected and actual values)."""


def without_clauses(events: list[Any]) -> list[Any]:
    """Events with their `clause` annotations removed."""
    return [{k: v for k, v in e.items() if k != "clause"} if isinstance(e, dict) else e for e in events]


def events_detail(expected: list[Any], actual: list[Any]) -> str | None:
    """How two event lists differ (clause fields ignored), or None."""
    want, got = without_clauses(expected), without_clauses(actual)
    for index, (a, b) in enumerate(zip(want, got, strict=False)):
        if not same(a, b):
            return f"event {index + 1}: expected {compact(a, DETAIL)}, got {compact(b, DETAIL)}"
    if len(want) > len(got):
        return f"expected {len(want)} events, got {len(got)}; missing: {compact(want[len(got)], DETAIL)}"
    if len(got) > len(want):
        return f"expected {len(want)} events, got {len(got)}; extra: {compact(got[len(want)], DETAIL)}"
    return None


def value_detail(expected: Any, actual: Any) -> str | None:
    """How two values differ (the first differing item of a list), or None."""
    if same(expected, actual):
        return None
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        for index, (a, b) in enumerate(zip(expected, actual, strict=True)):
            if not same(a, b):
                return f"at [{index}]: expected {compact(a, DETAIL)}, got {compact(b, DETAIL)}"
    return f"expected {compact(expected, DETAIL)}, got {compact(actual, DETAIL)}"


def partial_difference(expected: dict[str, Any], actual: dict[str, Any],
                       log_key: str | None = None) -> tuple[str, Any, str] | None:
    """The first key of `expected` whose value differs in `actual`: (key, actual value, detail).

    `log_key` names a key holding events, compared without their clause fields.
    """
    for key, want in expected.items():
        if key not in actual:
            return key, MISSING, f"the engine sent no {key!r}"
        got = actual[key]
        if key == log_key and isinstance(want, list) and isinstance(got, list):
            detail = events_detail(want, got)
        else:
            detail = value_detail(want, got)
        if detail is not None:
            return key, got, detail
    return None


def _key(action: Any) -> str:
    return json.dumps(action, sort_keys=True, ensure_ascii=False)


def actions_detail(expected: list[Any], actual: list[Any]) -> str | None:
    """How two lists of legal actions differ as sets, or None."""
    want = {_key(a): a for a in expected}
    got = {_key(a): a for a in actual}
    missing = [want[k] for k in want if k not in got]
    extra = [got[k] for k in got if k not in want]
    if not missing and not extra:
        return None
    parts = []
    if missing:
        parts.append(f"{len(missing)} missing (first: {compact(missing[0])})")
    if extra:
        parts.append(f"{len(extra)} not legal (first: {compact(extra[0])})")
    return "; ".join(parts)
