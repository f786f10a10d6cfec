"""Validation of protocol messages against conformance/protocol/protocol-v1.schema.json."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError

from loveletter_ref.spec.schema import most_specific, pointer_text

from ..paths import conformance_dir


def schema_path() -> Path:
    """The published schema of every protocol message (version 1)."""
    return conformance_dir() / "protocol" / "protocol-v1.schema.json"


@cache
def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(schema_path().read_text(encoding="utf-8"))
    return schema


@cache
def _validator(definition: str) -> jsonschema.Draft202012Validator:
    """A validator for one `$defs` entry (`request`, `response_apply`, `state`, ...)."""
    schema = _schema()
    if definition not in schema["$defs"]:
        raise KeyError(f"the protocol schema has no definition {definition!r}")
    return jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"})


def _describe(error: ValidationError, message: Any) -> str:
    error = most_specific(error)
    path = tuple(error.absolute_path)
    if error.validator in ("additionalProperties", "unevaluatedProperties"):
        names = re.findall(r"'([^']*)'", error.message.partition("(")[2]) or ["?"]
        return f"{pointer_text(path)}: unexpected field {', '.join(repr(n) for n in names)}"
    if error.message.startswith("False schema"):  # a `false` subschema: jsonschema gives no validator
        return f"{pointer_text(path + _forbidden(message, path, error.instance))}: field not allowed here"
    return f"{pointer_text(path)}: {error.message}"


def _forbidden(message: Any, path: tuple[Any, ...], value: Any) -> tuple[str, ...]:
    """The field a `false` property schema refused: jsonschema leaves its name out of the error's
    path, so it is the one field of the object at `path` holding the refused value (if only one does)."""
    for part in path:
        message = message[part]
    fields = [key for key, held in message.items() if held == value] if isinstance(message, dict) else []
    return (fields[0],) if len(fields) == 1 else ()


@cache
def _fast_validator(definition: str) -> Any:
    """A validator of the Rust `jsonschema-rs` package for one definition, or None without it."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    return jsonschema_rs.Draft202012Validator({"$defs": _schema()["$defs"], "$ref": f"#/$defs/{definition}"})


def schema_problem(message: Any, definition: str) -> str | None:
    """The first way `message` breaks `$defs/<definition>`, as one line; None when it is valid.

    Valid messages (nearly all) are confirmed by the fast validator where it is installed; the
    error of an invalid one is found and phrased with `jsonschema`.
    """
    fast = _fast_validator(definition)
    if fast is not None and fast.is_valid(message):
        return None
    errors = sorted(_validator(definition).iter_errors(message), key=_position)
    return _describe(errors[0], message) if errors else None


def _position(error: ValidationError) -> list[tuple[int, int | str]]:
    """Sort key: where in the message an error is, in document order."""
    return [(0, part) if isinstance(part, int) else (1, part) for part in error.absolute_path]


def response_definition(op: str, message: Any, combined: bool = False) -> str:
    """The definition an engine's answer to `op` must follow (`response_error` when ok is false;
    `reply_combined` for a start, next_round or apply that asked for a combined reply)."""
    if isinstance(message, dict) and message.get("ok") is False:
        return "response_error"
    if combined:
        return "reply_combined"
    return f"response_{op}"
