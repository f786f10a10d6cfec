"""Reading a protocol line: orjson's fast answer is always the standard library's answer."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llcheck.protocol import ProtocolError, decode
from llcheck.protocol.messages import _standard


def _as_the_standard_library_reads_it(line: bytes) -> object:
    """What decode gave before it used orjson: the value, or the error's text."""
    try:
        value = _standard(line)
    except ProtocolError as exc:
        return str(exc)
    return value if isinstance(value, dict) else "not an object"


def _read(line: bytes) -> object:
    try:
        return decode(line)
    except ProtocolError as exc:
        return "not an object" if "must be a JSON object" in str(exc) else str(exc)


def _same(line: bytes) -> None:
    got, want = _read(line), _as_the_standard_library_reads_it(line)
    assert repr(got) == repr(want), line  # repr: 1 and 1.0, True and 1, -0.0 and 0.0 told apart


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-2**70, max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20)


@given(st.dictionaries(st.text(max_size=8), _VALUES, max_size=6), st.booleans())
def test_any_message_reads_as_the_standard_library_reads_it(message, ascii_only):
    _same((json.dumps(message, ensure_ascii=ascii_only) + "\n").encode("utf-8"))


@given(st.binary(max_size=60))
def test_any_bytes_read_or_fail_as_with_the_standard_library(data):
    _same(data)


@pytest.mark.parametrize("line", [
    b'{"x":18446744073709551616}', b'{"x":-9223372036854775809}', b'{"x":123456789012345678901234567890}',
    b'{"x":1e400}', b'{"x":"\\ud800"}', b'{"a":1,"a":2}', b'\xef\xbb\xbf{"x":1}', b'{"x":NaN}',
    b'{"x":' + b'[' * 3000 + b']' * 3000 + b'}', b'{"x":"\xff"}', b'[1]', b'{"x":1} 2', b'{"x":1.0,"y":-0.0}',
])
def test_lines_orjson_reads_otherwise_read_as_before(line):
    _same(line)
