"""Counts in words: `1 clause`, `2 clauses`."""

from __future__ import annotations


def counted(count: int, word: str, many: str | None = None) -> str:
    """`count` and `word`, in the plural (`many`, else `word` + s) unless the count is one."""
    return f"{count} {word if count == 1 else many or word + 's'}"
