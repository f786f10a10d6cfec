"""JSON Schema validation with errors located in the YAML source."""

from __future__ import annotations

import itertools
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

MAX_PROBLEMS = 50
"""Most schema problems reported for one file; a line after them says that more were left out."""

MAX_MESSAGE = 300
"""Longest schema message, in characters (a value quoted in it is cut)."""


@cache
def _schema(schema_path: Path) -> dict[str, Any]:
    """The schema file at `schema_path`, read once."""
    loaded: dict[str, Any] = json.loads(schema_path.read_text(encoding="utf-8"))
    return loaded


@cache
def validator_for(schema_path: Path) -> jsonschema.Draft202012Validator:
    """A compiled 2020-12 validator for the schema file at `schema_path`."""
    return jsonschema.Draft202012Validator(_schema(schema_path))


@cache
def _definition_validator(schema_path: Path, definition: str) -> jsonschema.Draft202012Validator:
    """A validator for one of the schema's `$defs` alone (its references resolved in the schema)."""
    return jsonschema.Draft202012Validator({"$defs": _schema(schema_path)["$defs"],
                                            "$ref": f"#/$defs/{definition}"})


def fits(value: Any, definition: str, schema_path: Path) -> bool:
    """True when `value` is valid against the schema's `$defs/<definition>` (a clause, say): what
    a change to a valid document needs checked when it replaces that one part."""
    return _definition_validator(schema_path, definition).is_valid(value)


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
    return text.replace("{value}", brief(error.instance)) if isinstance(text, str) else None


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


def brief(value: Any) -> str:
    """`repr(value)` when it is short, else the value named by its kind and size."""
    quoted = repr(value)
    return quoted if len(quoted) <= 80 else _kind(value)


def short_message(error: ValidationError) -> str:
    """jsonschema's message with a long value it quotes (a whole list or mapping) named by its
    kind, and cut to MAX_MESSAGE characters whatever else it holds."""
    message = error.message
    if len(message) > 80:
        quoted = repr(error.instance)
        if len(quoted) > 80 and message.startswith(quoted):
            message = _kind(error.instance) + message[len(quoted):]
    if len(message) <= MAX_MESSAGE:
        return message
    return f"{message[:MAX_MESSAGE]}... ({len(message) - MAX_MESSAGE:,} more characters)"


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
    errors = _errors(data, schema_path)
    for error in itertools.islice(errors, MAX_PROBLEMS):
        pointer, message = _describe(error)
        line, col = locate(positions, pointer)
        found.append(Problem(file, line, col, message))
    shown = sorted(set(found), key=lambda p: (p.line, p.col, p.message))
    if next(errors, None) is not None:
        shown.append(Problem(file, shown[-1].line, shown[-1].col,
                             f"more schema problems not shown (at most {MAX_PROBLEMS} are reported)"))
    return shown


def _errors(data: Any, schema_path: Path) -> Iterator[ValidationError]:
    yield from validator_for(schema_path).iter_errors(data)
