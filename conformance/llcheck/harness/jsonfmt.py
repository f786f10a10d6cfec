"""JSON written for people: nested values on one line while they fit, indented otherwise, and
long lists of plain values (decks) wrapped like text."""

from __future__ import annotations

import json
from typing import Any

WIDTH = 110
"""Longest line the formatter aims for."""


def dumps(value: Any, indent: int = 0, lead: int = 0) -> str:
    """`value` as JSON text starting `lead` characters into a line indented by `indent`."""
    flat = json.dumps(value, ensure_ascii=False)
    if indent + lead + len(flat) <= WIDTH or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            name = json.dumps(key, ensure_ascii=False) + ": "
            items.append(pad + name + dumps(item, indent + 2, len(name)))
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if not any(isinstance(item, (dict, list)) for item in value):
        words = [json.dumps(item, ensure_ascii=False) for item in value]
        return "[\n" + _wrap(words, pad) + "\n" + " " * indent + "]"
    lines = [pad + dumps(item, indent + 2) for item in value]
    return "[\n" + ",\n".join(lines) + "\n" + " " * indent + "]"


def _wrap(words: list[str], pad: str) -> str:
    """Comma-separated `words` in lines of at most WIDTH characters, each starting with `pad`."""
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(pad) + len(line) + len(word) + 2 > WIDTH:
            lines.append(pad + line + ",")
            line = ""
        line += (", " if line else "") + word
    return "\n".join(lines + [pad + line])
