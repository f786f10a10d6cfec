"""Changes between two JSON objects, as a baseline stores states and views (docs/ci.md, format).

A record keeps, for the state and for each seat's view, only what changed since the previous
record of the same case or game, so that one change in behaviour changes one line of the file:

- `{KEY: value}` for a key that is new or holds another value;
- `{"+": {KEY: [items]}}` for a list that only grew at its end (a view's log);
- `{"-": [KEY, ...]}` for keys that went away;
- `{"=": value}` for a value stored whole: one that is not an object, or an object that uses one
  of the reserved keys `+`, `-`, `=` itself.

The first record of a unit is a change from nothing, so it holds every key. `{}` means unchanged.
"""

from __future__ import annotations

import json
from typing import Any

Json = dict[str, Any]

GROWN, GONE, WHOLE = "+", "-", "="
RESERVED = frozenset((GROWN, GONE, WHOLE))
"""Keys with a meaning of their own in a change."""


def change(old: Any, new: Any) -> Json:
    """What turns `old` into `new` (`old` is None before the first record)."""
    if not isinstance(new, dict) or RESERVED & new.keys():
        return {WHOLE: new}
    before: Json = old if isinstance(old, dict) else {}
    out: Json = {}
    grown: Json = {}
    for key, value in new.items():
        if key in before and same(before[key], value):
            continue
        if key in before and _grew(before[key], value):
            grown[key] = value[len(before[key]):]
        else:
            out[key] = value
    if grown:
        out[GROWN] = grown
    gone = sorted(key for key in before if key not in new)
    if gone:
        out[GONE] = gone
    return out


def same(a: Any, b: Any) -> bool:
    """JSON equality (`true` is not `1`), fast for the plain JSON values an observer holds."""
    if type(a) is not type(b) or a != b:
        return False
    return not isinstance(a, (list, dict)) or _text(a) == _text(b)


_text = json.JSONEncoder(sort_keys=True, default=repr).encode


def _grew(old: Any, new: Any) -> bool:
    """True when `new` is the list `old` with items added at its end."""
    return (isinstance(old, list) and isinstance(new, list) and len(new) > len(old)
            and same(new[:len(old)], old))


def apply_change(old: Any, delta: Json) -> Any:
    """The value `delta` turns `old` into (the inverse of `change`)."""
    if WHOLE in delta:
        return delta[WHOLE]
    out: Json = dict(old) if isinstance(old, dict) else {}
    for key in delta.get(GONE, ()):
        out.pop(key, None)
    for key, items in delta.get(GROWN, {}).items():
        previous = out.get(key)
        out[key] = (list(previous) if isinstance(previous, list) else []) + list(items)
    out.update((key, value) for key, value in delta.items() if key not in RESERVED)
    return out
