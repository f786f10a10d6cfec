"""Load YAML as plain data, remembering where every value came from.

Only plain data is built (mappings, sequences, strings, numbers, booleans, null): no tags that
construct objects. Size and alias expansion are bounded so that hostile files fail fast with a
located message instead of exhausting memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..errors import Problem, SpecError

MAX_BYTES = 2_000_000
"""Largest file accepted, in bytes."""

MAX_NODES = 200_000
"""Largest number of values a document may expand to (aliases count each time they are used)."""

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML was built with it (about ten times faster), else the pure one."""

Pointer = tuple[str | int, ...]
Positions = dict[Pointer, tuple[int, int]]

_PLAIN_TAGS = {
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}


class _Builder:
    """Turns a composed node graph into plain data while counting expanded nodes."""

    def __init__(self, file: str, loader: yaml.SafeLoader):
        self.file = file
        self.loader = loader
        self.positions: Positions = {}
        self.budget = MAX_NODES

    def fail(self, node: yaml.Node, message: str) -> SpecError:
        mark = node.start_mark
        return SpecError([Problem(self.file, mark.line + 1, mark.column + 1, message)])

    def build(self, node: yaml.Node, path: Pointer) -> Any:
        self.budget -= 1
        if self.budget < 0:
            raise self.fail(node, f"document expands to more than {MAX_NODES} values "
                                  "(aliases used too often?); refusing it")
        self.positions.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if node.tag not in _PLAIN_TAGS:
            raise self.fail(node, f"unsupported YAML tag {node.tag!r}: only plain data is allowed")
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        return self.loader.construct_object(node, deep=True)

    def _mapping(self, node: yaml.MappingNode, path: Pointer) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise self.fail(key_node, "merge keys (<<) are not supported")
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.fail(key_node, "mapping keys must be plain strings or numbers")
            key = self.loader.construct_object(key_node)
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise self.fail(key_node, f"mapping key {key!r} must be a string or an integer")
            key = str(key)
            if key in out:
                raise self.fail(key_node, f"duplicate key {key!r}")
            self.positions[path + (key,)] = (key_node.start_mark.line + 1,
                                              key_node.start_mark.column + 1)
            out[key] = self.build(value_node, path + (key,))
        return out


class TooLarge(Exception):
    """A file holds more bytes than a reader accepts."""


def read_bounded(path: str | Path, max_bytes: int) -> bytes:
    """A file's bytes, reading at most one byte past `max_bytes` whatever the file is (a device
    or a pipe has no size to check first): TooLarge beyond that, OSError when it cannot be read."""
    with open(path, "rb") as handle:
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise TooLarge(f"file is larger than the limit of {max_bytes:,} bytes")
    return raw


def read_text(path: Path, max_bytes: int = MAX_BYTES) -> str:
    """Read a UTF-8 file, refusing oversized or badly encoded input with a located error."""
    name = str(path)
    try:
        raw = read_bounded(path, max_bytes)
    except TooLarge as exc:
        raise SpecError([Problem(name, 1, 1, str(exc))]) from None
    except OSError as exc:
        raise SpecError([Problem(name, 1, 1, f"cannot read file: {exc.strerror or exc}")]) from None
    return decode(raw, name)


def decode(raw: bytes, name: str) -> str:
    """Decode UTF-8 bytes, locating the first bad byte as LINE:COL."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise SpecError([Problem(name, line, col, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x})")]) \
            from None


def parse_yaml(text: str, name: str) -> tuple[Any, Positions]:
    """Parse one YAML document into plain data and a map from JSON pointer to (line, col)."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise SpecError([Problem(name, 1, 1, "the document is empty")])
        builder = _Builder(name, loader)
        return builder.build(node, ()), builder.positions
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        if _char_at(text, line, col) == "\t":
            raise SpecError([Problem(name, line, col, "tab character; YAML indents with spaces")]) \
                from None
        message = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        raise SpecError([Problem(name, line, col, f"malformed YAML: {message}")]) from None
    except yaml.YAMLError as exc:
        raise SpecError([Problem(name, 1, 1, f"malformed YAML: {exc}")]) from None
    except RecursionError:
        raise SpecError([Problem(name, 1, 1, "document is nested too deeply")]) from None
    finally:
        loader.dispose()


def _char_at(text: str, line: int, col: int) -> str:
    """The character at 1-based LINE:COL of `text` ('' past the end)."""
    lines = text.split("\n")
    return lines[line - 1][col - 1:col] if line <= len(lines) else ""


def load_yaml(path: Path) -> tuple[Any, Positions]:
    """Read and parse a YAML file safely (see module docstring)."""
    return parse_yaml(read_text(path), str(path))


def locate(positions: Positions, pointer: Pointer) -> tuple[int, int]:
    """Position of the deepest known ancestor of `pointer` (1, 1 when nothing is known)."""
    for end in range(len(pointer), -1, -1):
        found = positions.get(tuple(pointer[:end]))
        if found:
            return found
    return (1, 1)
