"""JSON Schema validation with errors located in the YAML source."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, relevance

from ..errors import Problem
from .yamlsafe import Pointer, Positions, locate


@cache
def validator_for(schema_path: Path) -> jsonschema.Draft202012Validator:
    """A compiled 2020-12 validator for the schema file at `schema_path`."""
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def pointer_text(pointer: Pointer) -> str:
    """Human form of a JSON pointer: cards[2].rules[0].choose."""
    text = ""
    for part in pointer:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(document)"


def most_specific(error: ValidationError) -> ValidationError:
    """The error under a oneOf/anyOf failure that the value's JSON type picks (or one in its own words)."""
    while error.context and _own_words(error) is None:
        error = max(_fitting(error.context), key=relevance)
    return error


def _fitting(errors: list[ValidationError]) -> list[ValidationError]:
    """The errors of the alternatives that take the value's JSON type (all, if every one refuses it)."""
    misfits = {e.relative_schema_path[0] for e in errors if e.validator == "type" and not e.relative_path}
    return [e for e in errors if e.relative_schema_path[0] not in misfits] or errors


def _own_words(error: ValidationError) -> str | None:
    """The schema's own message for this failure (its `x-error` by keyword), the value filled in."""
    words = error.schema.get("x-error", {}) if isinstance(error.schema, dict) else {}
    text = words.get(error.validator)
    return text.replace("{value}", repr(error.instance)) if isinstance(text, str) else None


def _describe(error: ValidationError) -> tuple[Pointer, str]:
    """Pointer and message for one schema error, phrased for people writing specs."""
    error = most_specific(error)
    pointer: Pointer = tuple(error.absolute_path)
    own = _own_words(error)
    if own is not None:
        return pointer, f"{pointer_text(pointer)}: {own}"
    if error.validator in ("unevaluatedProperties", "additionalProperties"):
        unknown = re.findall(r"'([^']*)'", error.message.partition("(")[2]) or ["?"]
        names = ", ".join(repr(name) for name in unknown)
        return pointer + (unknown[0],), f"{pointer_text(pointer)}: unknown field or rule {names}"
    return pointer, f"{pointer_text(pointer)}: {short_message(error)}"


def short_message(error: ValidationError) -> str:
    """jsonschema's message with a long value it quotes (a whole list or mapping) named by its kind."""
    quoted = repr(error.instance)
    if len(quoted) <= 80 or not error.message.startswith(quoted):
        return error.message
    return _kind(error.instance) + error.message[len(quoted):]


def _kind(value: Any) -> str:
    """A value named by its JSON kind and size, for messages."""
    if isinstance(value, dict):
        return f"an object of {len(value)} fields"
    if isinstance(value, list):
        return f"an array of {len(value)} items"
    return f"a {len(value)}-character string" if isinstance(value, str) else "the value"


def schema_problems(data: Any, positions: Positions, file: str, schema_path: Path) -> list[Problem]:
    """Every schema violation of `data`, as located problems sorted by position."""
    found: list[Problem] = []
    for error in _errors(data, schema_path):
        pointer, message = _describe(error)
        line, col = locate(positions, pointer)
        found.append(Problem(file, line, col, message))
    return sorted(set(found), key=lambda p: (p.line, p.col, p.message))


def _errors(data: Any, schema_path: Path) -> Iterator[ValidationError]:
    yield from validator_for(schema_path).iter_errors(data)
