"""The rules side plays every spec from its vocabulary alone: no card is named in its code.

The engine and the spec compiler name no card anywhere, comments included. The z3 model and the
comparison of readings interpret any spec too, so their code names no card either; their
docstrings may, where they tell the game by example ("Premium's value 6 is the King alone")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import loveletter_ref
from loveletter_ref.spec import known_specs, load_spec

PACKAGE = Path(loveletter_ref.__file__).parent
STRICT = ("engine", "spec")
"""Subpackages in which not even a comment names a card."""


def card_names() -> set[str]:
    """Every card name of every bundled edition and reading."""
    return {card.name for path in known_specs().values() for card in load_spec(path).cards}


def pattern() -> re.Pattern[str]:
    names = card_names()
    assert {"Guard", "Princess", "Bishop", "Jester"} <= names
    return re.compile(r"\b(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")\b")


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the constant nodes that are docstrings (of modules, classes, functions or
    attributes: a string standing alone as a statement)."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


def code_words(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string literal that is not a docstring, and every identifier."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            out.append((node.lineno, node.value))
        elif isinstance(node, ast.Name):
            out.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            out.append((node.lineno, node.attr))
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            out.append((node.lineno, node.name))
    return out


def test_no_card_name_appears_anywhere_in_the_engine_or_the_compiler():
    names = pattern()
    found = [f"{path.relative_to(PACKAGE.parent)}:{number}: {hit.group(0)}"
             for folder in STRICT for path in sorted((PACKAGE / folder).rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for hit in [names.search(line)] if hit]
    assert found == []


def test_no_card_name_appears_in_the_code_of_the_rules_side():
    names = pattern()
    found = [f"{path.relative_to(PACKAGE.parent)}:{number}: {hit.group(0)}"
             for path in sorted(PACKAGE.rglob("*.py"))
             for number, text in code_words(path)
             for hit in [names.search(text)] if hit]
    assert found == []
