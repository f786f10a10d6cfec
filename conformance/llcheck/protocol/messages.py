"""Protocol messages: encoding, decoding, and reading fields safely.

A message is one JSON object on one line. Requests carry `id` and `op`; every response echoes
the `id` and says `ok` (false: the engine could not answer, with `error`). The helpers here check
only what a reader needs to use a message; `schema.schema_problem` checks everything.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

Json = dict[str, Any]

PROTOCOL_VERSION = "1"
"""The protocol version this harness and `llcheck serve` speak."""

OPS = ("hello", "start", "next_round", "legal_actions", "apply", "state", "view", "stop")
"""Every request kind, in the order a session uses them."""


class ProtocolError(ValueError):
    """A message breaks the protocol; the text says how, in one line."""


def encode(message: Json) -> bytes:
    """One message as a UTF-8 line."""
    return (_ENCODER.encode(message) + "\n").encode("utf-8")


def decode(line: bytes | str) -> Json:
    """Parse one line into a message object (ProtocolError if it is not a JSON object).

    orjson reads a line about twice as fast as the standard library: a fuzzing run reads a few
    answers per action. What it refuses is read by the standard library, whose answer (a value or
    the reason there is none) is the one given; so is a line with a run of 19 digits, where orjson
    would read a whole number beyond 64 bits as an approximate float."""
    if type(line) is bytes and _LONG_NUMBER not in line.translate(_DIGITS_AS_ZEROS):
        try:
            message = orjson.loads(line)
        except orjson.JSONDecodeError:
            message = _standard(line)
    else:
        message = _standard(line)
    if not isinstance(message, dict):
        raise ProtocolError(f"a message must be a JSON object, not {_kind(message)}")
    return message


_DIGITS_AS_ZEROS = bytes.maketrans(b"123456789", b"000000000")
_LONG_NUMBER = b"0" * 19
"""Digits enough for a number orjson does not read exactly (beyond -2**63 .. 2**64 - 1), looked
for as zeros in the line with every digit made a zero (ten times faster than a regex)."""


def _standard(line: bytes | str) -> Any:
    """One line as the standard library reads it (ProtocolError where it cannot)."""
    try:
        text = line.decode("utf-8") if isinstance(line, bytes) else line  # UTF-8 only: json would guess
        return _DECODER.decode(text)
    except ValueError as exc:  # bad UTF-8 or syntax, NaN, a number too long to read
        raise ProtocolError(f"not JSON ({exc})") from None
    except RecursionError:
        raise ProtocolError("not JSON (nested too deeply)") from None


def _not_json(name: str) -> Any:
    """Refuse the NaN and Infinity Python's json module would otherwise read."""
    raise ValueError(f"{name} is not a JSON value")


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_DECODER = json.JSONDecoder(parse_constant=_not_json)
"""Made once: `json.dumps` and `json.loads` make an encoder or decoder per call when given options,
and a fuzzing run encodes and decodes a few messages per action."""


def _kind(value: Any) -> str:
    """The JSON name of a value's type."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null",
             int: "a number", float: "a number"}
    return names.get(type(value), type(value).__name__)


def field(message: Json, name: str, kind: type | tuple[type, ...], what: str) -> Any:
    """`message[name]`, or ProtocolError when it is missing or not of `kind` (`what` names it)."""
    if name not in message:
        raise ProtocolError(f"missing field {name!r}")
    value = message[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _tuple(kind)):
        raise ProtocolError(f"field {name!r} must be {what}, not {_kind(value)}")
    return value


def _tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


_OBJECT = {dict}


def objects(value: Any, name: str) -> list[Json]:
    """A list of JSON objects (events, actions), or ProtocolError naming the field."""
    if not isinstance(value, list):
        raise ProtocolError(f"field {name!r} must be an array, not {_kind(value)}")
    if set(map(type, value)) <= _OBJECT:  # the usual answer, confirmed without a loop in Python
        return value
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise ProtocolError(f"{name}[{index}] must be an object, not {_kind(item)}")
    return value
