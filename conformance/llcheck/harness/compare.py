"""How an engine's answers are compared with a case's expectations (docs/cases.md, matching).

Values are compared as JSON: `true` is not `1`. Events are compared as exact lists once every
`clause` field is dropped; states and views partially (only the keys a case gives); legal
actions as sets, each listed once. Keys the formats do not define (docs/formats.md, *Keys the formats do not
define*) are left out first, in cases (the state kept after a refused action too), fuzzing and
baselines alike (`comparable`; fuzzing fails a view that carries one, `format_keys`). Each
function returns None when the values agree, else a one-line detail.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from loveletter_ref.lockstep import compact, first_index, unmatched

from ..protocol.schema import schema_path

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


@cache
def format_keys() -> dict[str, frozenset[str]]:
    """The top-level keys the formats define for a `state`, a `view`, an `event` (of any type) and
    an `action` (of any type), read from the protocol schema."""
    defs = json.loads(schema_path().read_text(encoding="utf-8"))["$defs"]

    def keys(*names: str) -> frozenset[str]:
        return frozenset(key for name in names for key in defs[name].get("properties", {}))

    return {"state": keys("state"), "view": keys("view"),
            "event": keys(*(name for name in defs if name.startswith("event_"))) - {"clause"},
            "action": keys(*(name for name in defs if name.startswith("action_")))}


def comparable(kind: str, value: Any) -> Any:
    """A `state`, `view`, `event` or `action` as it is compared: without the top-level keys the
    formats do not define for its kind (an event also without `clause`; a view's log likewise)."""
    if not isinstance(value, dict):
        return value
    defined = format_keys()[kind]
    out = {key: item for key, item in value.items() if key in defined}
    if kind == "view" and isinstance(out.get("log"), list):
        out["log"] = comparable_events(out["log"])
    return out


def comparable_events(events: list[Any]) -> list[Any]:
    """Events as they are compared (`comparable`)."""
    return [comparable("event", event) for event in events]


def events_detail(expected: list[Any], actual: list[Any]) -> str | None:
    """How two event lists differ (`comparable`), or None."""
    want, got = comparable_events(expected), comparable_events(actual)
    index = first_index(want, got, same)
    if index < min(len(want), len(got)):
        a, b = want[index], got[index]
        return f"event {index + 1}: expected {compact(a, DETAIL)}, got {compact(b, DETAIL)}"
    if len(want) > len(got):
        return f"expected {len(want)} events, got {len(got)}; missing: {_listed(want[len(got):])}"
    if len(got) > len(want):
        return f"expected {len(want)} events, got {len(got)}; extra: {_listed(got[len(want):])}"
    return None


def _listed(events: list[Any]) -> str:
    """Events as compact JSON separated by commas, shortened to `DETAIL` characters in all."""
    text = compact(events)[1:-1]
    return text if len(text) <= DETAIL else text[:DETAIL - 3] + "..."


def value_detail(expected: Any, actual: Any) -> str | None:
    """How two values differ (the first differing item of a list), or None."""
    if same(expected, actual):
        return None
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        index = first_index(expected, actual, same)
        return f"at [{index}]: {whole_value_detail(expected[index], actual[index])}"
    return whole_value_detail(expected, actual)


def whole_value_detail(expected: Any, actual: Any) -> str:
    """`expected X, got Y`, each value shortened."""
    return f"expected {compact(expected, DETAIL)}, got {compact(actual, DETAIL)}"


def without_tokens(value: Any, log_key: str | None = None) -> Any:
    """What an engine that keeps no favour tokens is compared on (capability `tokens`): events
    (a list) without `token` events; a state, view or result (an object) without `tokens`, and the
    events under `log_key` likewise."""
    if isinstance(value, list):
        return [e for e in value if not (isinstance(e, dict) and e.get("type") == "token")]
    if not isinstance(value, dict):
        return value
    out = {key: item for key, item in value.items() if key != "tokens"}
    if log_key is not None and isinstance(out.get(log_key), list):
        out[log_key] = without_tokens(out[log_key])
    return out


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
    return json.dumps(comparable("action", action), sort_keys=True, ensure_ascii=False)


def actions_detail(expected: list[Any], actual: list[Any]) -> str | None:
    """How two lists of legal actions differ as sets, or that the actual one repeats an action; None
    when neither (the order is free)."""
    apart = unmatched(expected, actual, _key)
    if not apart:
        return None
    parts = []
    if apart.missing:
        parts.append(f"{len(apart.missing)} missing (first: {compact(apart.missing[0])})")
    if apart.extra:
        parts.append(f"{len(apart.extra)} not legal (first: {compact(apart.extra[0])})")
    if apart.repeated:
        parts.append(f"{len(apart.repeated)} listed more than once (first: {compact(apart.repeated[0])})")
    return "; ".join(parts)
