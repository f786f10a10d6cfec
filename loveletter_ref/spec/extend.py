"""`extends: BASE`: an edition written as another edition plus what it adds or replaces.

The derived file's header fields replace the base's, and those it leaves out are inherited (but
`id`, `prefix` and `title`, which name the new edition); its sources are added; a card with a base
card's name replaces that card's fields, and its rules replace the base rules with the same id
(in place) or are added after them; other cards are added; general rules likewise by id. Every
inherited clause takes the derived edition's prefix. Problems in inherited content are located at
the derived file's `extends:` line; the base file is validated on its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .yamlsafe import MAX_BYTES, Pointer, Positions, confined

MAX_DEPTH = 16
"""Longest chain of editions extending one another."""

OWN_FIELDS = ("id", "prefix", "title")
"""Header fields every edition states for itself: they name it."""

MERGED_FIELDS = ("cards", "rules", "sources", "extends")
"""Fields merged item by item rather than replaced."""


def base_file(spec: Path, base: str, bundled: dict[str, Path]) -> Path:
    """The file `extends: BASE` of the spec file `spec` names: a bundled edition's by id, else a
    regular file in the spec's own folder (symlinks followed), resolved; Refused (from
    `confined`) for anything else, before it is opened."""
    if base in bundled:
        return bundled[base].resolve()
    folder = spec.resolve().parent
    return confined(folder, base, (folder,), MAX_BYTES, "extends", f"the spec's own folder {folder} "
                    f"(extends takes a bundled edition, {', '.join(bundled)}, or a file beside {spec.name})")


def _keyed(item: Any, key: str) -> bool:
    """Whether a list item is a mapping with a hashable `key`, as merging by id needs."""
    return isinstance(item, dict) and isinstance(item.get(key), (str, int))


class _Merger:
    """Builds the merged document and a position map for it."""

    def __init__(self, derived: dict[str, Any], positions: Positions):
        self.derived = derived
        self.positions = positions
        self.merged_positions: Positions = {}
        self.inherited_at = positions.get(("extends",), (1, 1))

    def take(self, source: Pointer, target: Pointer) -> None:
        """Carry the positions of the derived subtree at `source` over to `target`."""
        size = len(source)
        for pointer, where in self.positions.items():
            if pointer[:size] == source:
                self.merged_positions[target + pointer[size:]] = where

    def inherit(self, target: Pointer) -> None:
        """Mark the subtree at `target` as inherited."""
        self.merged_positions[target] = self.inherited_at

    def by_id(self, base: list[dict[str, Any]], own: list[dict[str, Any]], key: str,
              at: Pointer, own_at: Pointer, merge_item: Any = None) -> list[dict[str, Any]]:
        """Merge two lists of mappings identified by `key`, base order first. The derived file is not
        validated yet: a value of the wrong shape is kept as it is, for the schema to locate."""
        if not isinstance(own, list):
            self.take(own_at, at)
            return own
        own_index = {item[key]: i for i, item in enumerate(own) if _keyed(item, key)}
        out: list[dict[str, Any]] = []
        for item in base:
            where = at + (len(out),)
            if item[key] in own_index:
                i = own_index[item[key]]
                if merge_item is None:
                    out.append(own[i])
                    self.take(own_at + (i,), where)
                else:
                    out.append(merge_item(item, own[i], where, own_at + (i,)))
            else:
                out.append(item)
                self.inherit(where)
        for i, item in enumerate(own):
            if not _keyed(item, key) or item[key] not in {b[key] for b in base}:
                self.take(own_at + (i,), at + (len(out),))
                out.append(item)
        return out

    def card(self, base: dict[str, Any], own: dict[str, Any], at: Pointer, own_at: Pointer) -> dict[str, Any]:
        """A base card with a derived card of its name merged in."""
        merged = {**base, **{k: v for k, v in own.items() if k != "rules"}}
        self.inherit(at)
        for field in own:
            if field != "rules":
                self.take(own_at + (field,), at + (field,))
        merged["rules"] = self.by_id(base.get("rules", []), own.get("rules", []), "id",
                                     at + ("rules",), own_at + ("rules",))
        return merged

    def document(self, base: dict[str, Any]) -> dict[str, Any]:
        own = self.derived
        merged = {key: value for key, value in base.items() if key not in OWN_FIELDS + MERGED_FIELDS}
        for key in merged:
            self.inherit((key,))
        for key, value in own.items():
            if key not in MERGED_FIELDS:
                merged[key] = value
                self.take((key,), (key,))
        sources = own.get("sources", {})
        merged["sources"] = {**base.get("sources", {}), **sources} if isinstance(sources, dict) else sources
        self.take(("sources",), ("sources",))
        merged["cards"] = self.by_id(base.get("cards", []), own.get("cards", []), "name",
                                     ("cards",), ("cards",), self.card)
        merged["rules"] = self.by_id(base.get("rules", []), own.get("rules", []), "id",
                                     ("rules",), ("rules",))
        self.merged_positions.setdefault((), (1, 1))
        return merged


def merge(base: dict[str, Any], derived: dict[str, Any],
          positions: Positions) -> tuple[dict[str, Any], Positions]:
    """The derived document with its base merged in, and positions for the merged document."""
    merger = _Merger(derived, positions)
    return merger.document(base), merger.merged_positions
