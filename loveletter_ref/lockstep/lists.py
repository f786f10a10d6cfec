"""How two sides' lists compare: the first item at which they differ, and two lists as sets."""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any


def first_index(want: Sequence[Any], got: Sequence[Any],
                same: Callable[[Any, Any], bool] = operator.eq) -> int:
    """The first position where two lists differ by `same` (the shorter length if one is a prefix)."""
    for i, (a, b) in enumerate(zip(want, got, strict=False)):
        if not same(a, b):
            return i
    return min(len(want), len(got))


@dataclass(frozen=True)
class Unmatched:
    """Two lists compared as sets: what only the first holds (`missing` from the second, in the
    first's order), what only the second holds (`extra`, in its order), and what the second holds
    more than once (`repeated`); each item stands for all those with its key, as the last of them."""

    missing: list[Any]
    extra: list[Any]
    repeated: list[Any]

    def __bool__(self) -> bool:
        return bool(self.missing or self.extra or self.repeated)


def _itself(item: Any) -> Any:
    return item


def unmatched(want: Sequence[Any], got: Sequence[Any], key: Callable[[Any], Hashable] = _itself,
              got_key: Callable[[Any], Hashable] | None = None) -> Unmatched:
    """`want` and `got` compared as sets of their items' keys (the items themselves by default;
    `got_key` for the second list's, when its items need another)."""
    wanted = {key(item): item for item in want}
    keys = [(got_key or key)(item) for item in got]
    listed = dict(zip(keys, got, strict=True))
    return Unmatched([wanted[k] for k in wanted if k not in listed],
                     [listed[k] for k in listed if k not in wanted],
                     [listed[k] for k, times in Counter(keys).items() if times > 1])
