"""Mutating valid documents (specs, cases) for the hostile-input tests."""

from __future__ import annotations

from typing import Any

Path = tuple[Any, ...]


def paths(data: Any, prefix: Path = ()) -> list[Path]:
    """Every JSON pointer in `data`, the document itself first."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths(value, (*prefix, index))
    return found


def mutate(data: Any, path: Path, how: str, value: Any) -> Any:
    """`data` with the value at `path` deleted, renamed (a key) or replaced by `value`."""
    if not path:
        return value
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if how == "delete":
        del parent[last]
    elif how == "rename" and isinstance(parent, dict):
        parent[f"{last}_"] = parent.pop(last)
    else:
        parent[last] = value
    return data
