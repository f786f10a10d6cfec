"""Load YAML as plain data, remembering where every value came from.

Only plain data is built (mappings, sequences, strings, numbers, booleans, null): no tags that
construct objects. Size and alias expansion are bounded so that hostile files fail fast with a
located message instead of exhausting memory.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

from ..errors import Problem, SpecError, escape_controls

MAX_BYTES = 2_000_000
"""Largest file accepted, in bytes."""

MAX_NODES = 200_000
"""Largest number of values a document may expand to (aliases count each time they are used)."""

MAX_EXPANDED_CHARS = 10_000_000
"""Most characters the strings of a document may expand to (an aliased string counts each time)."""

MAX_INT_DIGITS = 100
"""Longest integer accepted in any input file, in digits (Python refuses beyond 4,300 anyway)."""

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
        self.chars = MAX_EXPANDED_CHARS

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
        return self._scalar(node)

    def _scalar(self, node: yaml.Node) -> Any:
        self.chars -= len(node.value)
        if self.chars < 0:
            raise self.fail(node, f"document expands to more than {MAX_EXPANDED_CHARS:,} characters "
                                  "(aliases of long strings?); refusing it")
        if node.tag == "tag:yaml.org,2002:int" and len(node.value) > MAX_INT_DIGITS:
            raise self.fail(node, f"an integer of {len(node.value):,} digits (at most {MAX_INT_DIGITS})")
        try:
            return self.loader.construct_object(node, deep=True)
        except (ValueError, OverflowError) as exc:
            raise self.fail(node, f"unusable value: {exc}") from None

    def _mapping(self, node: yaml.MappingNode, path: Pointer) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise self.fail(key_node, "merge keys (<<) are not supported")
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.fail(key_node, "mapping keys must be plain strings or numbers")
            key = self._scalar(key_node)
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


class Refused(Exception):
    """A path a file names is not one it may read; the message names the path, nothing of any file."""


class Missing(Refused):
    """A path a file names, inside the folders it may read, names no file."""


def confined(base: Path, name: str, folders: tuple[Path, ...], max_bytes: int, what: str,
             region: str) -> Path:
    """The path `name` names from the folder `base`, resolved (symlinks followed), when it is a
    regular file of at most `max_bytes` inside one of `folders`; else Refused, decided from the
    path and its metadata before anything is opened (a FIFO would block; /proc and devices are
    not files). `what` names the path in messages ("rulebook file"), `region` what it may read."""
    shown = escape_controls(name)
    try:
        real = (base / name).resolve()
        inside = any(real.is_relative_to(folder.resolve()) for folder in folders)
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL in the name, ...
        raise Refused(f"{what} {shown!r} cannot be looked up") from None
    if not inside:
        raise Refused(f"{what} {shown!r} is outside {escape_controls(region)}")
    try:
        info = os.stat(real)
    except (OSError, ValueError):
        raise Missing(f"{what} {shown!r} does not exist") from None
    if not stat.S_ISREG(info.st_mode):
        raise Refused(f"{what} {shown!r} is not a regular file")
    if info.st_size > max_bytes:
        raise Refused(f"{what} {shown!r} is larger than the limit of {max_bytes:,} bytes")
    return real


def read_regular(path: Path, max_bytes: int) -> bytes:
    """The bytes of a file `confined` accepted, opened without blocking and checked again once
    open (the path may have been swapped meanwhile): Refused if it is no longer a regular file."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Refused(f"{escape_controls(str(path))!r} is not a regular file")
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise Refused(f"{escape_controls(str(path))!r} is larger than the limit of {max_bytes:,} bytes")
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
        col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1  # in characters
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
        line, col = _inside(text, mark.line + 1, mark.column + 1) if mark else (1, 1)
        if _char_at(text, line, col) == "\t":
            raise SpecError([Problem(name, line, col, "tab character; YAML indents with spaces")]) \
                from None
        message = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        raise SpecError([Problem(name, line, col, f"malformed YAML: {message}")]) from None
    except yaml.reader.ReaderError as exc:  # a character YAML refuses (NUL, ESC): located by position
        char = chr(exc.character) if isinstance(exc.character, int) else str(exc.character)
        at = text.find(char)  # the first such character: libyaml counts its position in bytes
        line, col = _line_col(text, at if at >= 0 else exc.position)
        raise SpecError([Problem(name, line, col, f"the character {char!r} (U+{ord(char[:1] or ' '):04X}) "
                                                  "is not allowed in YAML")]) from None
    except yaml.YAMLError as exc:
        raise SpecError([Problem(name, 1, 1, f"malformed YAML: {exc}")]) from None
    except RecursionError:
        raise SpecError([Problem(name, 1, 1, "document is nested too deeply")]) from None
    finally:
        loader.dispose()


def _inside(text: str, line: int, col: int) -> tuple[int, int]:
    """LINE:COL moved back into `text` (the parser marks the end of a file without a final line
    break on the line after it)."""
    lines = text.split("\n")
    if line > len(lines):
        return len(lines), len(lines[-1]) + 1
    return line, min(col, len(lines[line - 1]) + 1)


def _line_col(text: str, position: int) -> tuple[int, int]:
    """1-based LINE:COL of the character at `position` of `text`."""
    before = text[:position]
    return before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1


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
