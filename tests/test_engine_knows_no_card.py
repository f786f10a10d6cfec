"""The reference engine plays every spec from its vocabulary alone: no card is named in its code."""

from __future__ import annotations

import re
from pathlib import Path

import loveletter_ref
from loveletter_ref.spec import known_specs, load_spec

PACKAGE = Path(loveletter_ref.__file__).parent


def card_names() -> set[str]:
    """Every card name of every bundled edition and reading."""
    return {card.name for path in known_specs().values() for card in load_spec(path).cards}


def test_no_card_name_appears_anywhere_in_the_reference_engine():
    names = card_names()
    assert {"Guard", "Princess", "Bishop", "Jester"} <= names
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")\b")
    found = [f"{path.relative_to(PACKAGE.parent)}:{number}: {hit.group(0)}"
             for path in sorted(PACKAGE.rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for hit in [pattern.search(line)] if hit]
    assert found == []
