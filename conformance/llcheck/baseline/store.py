"""The baseline file: reading it (every problem located as FILE:LINE), writing it atomically.

JSON lines with sorted keys and no spaces (conformance/schema/baseline.schema.json): a header,
then the records of each case or game in turn, then an end line counting what came before, so
that a file cut short is recognised. Nothing in it depends on when or where it was recorded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from loveletter_ref.spec.schema import pointer_text
from loveletter_ref.spec.yamlsafe import TooLarge, read_bounded

from ..atomic import write_atomic
from ..errors import UsageError
from ..paths import conformance_dir
from .delta import Json
from .observe import canonical

MAX_BYTES = 100_000_000
"""The largest baseline file read (the bundled Premium baseline is 3 MB)."""

FORMAT = "llcheck-baseline"
"""The `format` of the header line."""

VERSION = 1
"""The format version this llcheck writes and reads."""

MERGE_MARKERS = ("<<<<<<<", "|||||||", "=======", ">>>>>>>")
"""How the lines git writes around a merge conflict begin."""


class BaselineError(UsageError):
    """A baseline file cannot be used: unreadable, malformed, cut short or of another version.

    `header` is its header when that could still be read (it says how the file was recorded).
    """

    def __init__(self, message: str, path: str = "", header: Json | None = None):
        super().__init__(message)
        self.path = path
        self.header = header


@dataclass
class Unit:
    """One case or game: its records in order, or why it was skipped."""

    kind: str
    id: str
    records: list[Json] = field(default_factory=list)
    skipped: Json | None = None

    @property
    def key(self) -> Json:
        """How its records name it: `{"case": id}` or `{"game": id}`."""
        return {self.kind: self.id}

    def lines(self) -> list[Json]:
        """Its lines in the file."""
        if self.skipped is not None:
            return [{"at": self.key, "skipped": self.skipped}]
        return self.records


@dataclass
class Baseline:
    """A recorded baseline: the header and every unit, in file order."""

    header: Json
    units: list[Unit]
    path: str = ""

    @property
    def edition(self) -> str:
        """The edition recorded."""
        return str(self.header["edition"])

    @property
    def capabilities(self) -> frozenset[str]:
        """The capabilities the engine claimed when it was recorded."""
        return frozenset(self.header["capabilities"])

    @property
    def engine(self) -> str:
        """`name version` of the engine recorded."""
        engine = self.header["engine"]
        return f"{engine['name']} {engine['version']}"

    def lines(self) -> Iterator[Json]:
        """Every line of the file, the end line included."""
        yield self.header
        records = 0
        for unit in self.units:
            for line in unit.lines():
                records += 1
                yield line
        yield {"end": {"units": len(self.units), "records": records}}

    def text(self) -> str:
        """The whole file."""
        return "".join(canonical(line) + "\n" for line in self.lines())


def schema_path() -> Path:
    """The JSON Schema of one line of a baseline file."""
    return conformance_dir() / "schema" / "baseline.schema.json"


def write(baseline: Baseline, path: str) -> int:
    """Write the file all at once (`write_atomic`); its size in bytes. OSError when the folder
    cannot be written; an interrupted write leaves `path` as it was."""
    return write_atomic(path, baseline.text())


def read(path: str) -> Baseline:
    """Read and check a baseline file; BaselineError (`FILE:LINE: problem`) when it is unusable."""
    try:
        lines = read_bounded(path, MAX_BYTES).decode("utf-8").splitlines()
    except TooLarge as exc:
        raise BaselineError(f"{path}: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise BaselineError(f"{path}: cannot read the baseline: {reason}") from None
    return _Reader(path).read(lines)


class _Reader:
    """Parses the lines of one file, checking each against the schema and the file's structure."""

    def __init__(self, path: str):
        self.path = path
        self.header: Json | None = None
        """The header, once it is known to be one."""
        self.edition: Any = None
        """The header's edition, which every recorded start must play."""

    def fail(self, number: int, message: str) -> BaselineError:
        """A located problem."""
        return BaselineError(f"{self.path}:{number}: {message}", self.path, self.header)

    def read(self, lines: list[str]) -> Baseline:
        if not lines:
            raise self.fail(1, "the file is empty (record a baseline with llcheck record)")
        header = self._header(self._json(1, lines[0]))
        units: list[Unit] = []
        seen: dict[str, int] = {}
        for number, text in enumerate(lines[1:], 2):
            line = self._json(number, text)
            if "end" in line:
                self._end(number, line, units, len(lines))
                return Baseline(header, units, self.path)
            self._valid(number, line)
            self._add(number, line, units, seen)
        raise self.fail(len(lines), "the file is cut short: it has no end line")

    def _json(self, number: int, text: str) -> Json:
        if text.startswith(MERGE_MARKERS):
            raise self.fail(number, f"a git merge conflict marker ({text[:7]}): a baseline is not merged by "
                                    "hand, it is recorded again")
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise self.fail(number, f"malformed JSON at column {exc.colno}: {exc.msg}") from None
        except RecursionError:
            raise self.fail(number, "the line is nested too deeply") from None
        if not isinstance(value, dict):
            raise self.fail(number, "a line must be a JSON object")
        return value

    def _header(self, line: Json) -> Json:
        if line.get("format") != FORMAT:
            raise self.fail(1, f"not an llcheck baseline (the first line must have \"format\": \"{FORMAT}\")")
        version = line.get("version")
        if isinstance(version, int) and version > VERSION:
            raise self.fail(1, f"baseline format version {version} is newer than this llcheck reads "
                               f"({VERSION}); upgrade llcheck")
        self._valid(1, line, "header")
        self.header, self.edition = line, line.get("edition")
        return line

    def _valid(self, number: int, line: Json, definition: str | None = None) -> None:
        """Check a line against one definition of the schema (a record or skipped case by default)."""
        if definition is None:
            definition = "skipped" if "skipped" in line else "record"
        fast = _fast_validator(definition)
        if fast is not None and fast.is_valid(line):
            return
        errors = list(_validator(definition).iter_errors(line))
        if errors:
            error = max(errors, key=lambda e: len(e.absolute_path))
            where = pointer_text(tuple(error.absolute_path))
            raise self.fail(number, f"{where}: {error.message}")

    def _add(self, number: int, line: Json, units: list[Unit], seen: dict[str, int]) -> None:
        at = line["at"]
        kind = "case" if "case" in at else "game"
        unit_id = at[kind]
        current = units[-1] if units else None
        if current is None or (current.kind, current.id) != (kind, unit_id) or current.skipped is not None:
            if unit_id in seen:
                raise self.fail(number, f"{kind} {unit_id!r} appears again (first at line {seen[unit_id]})")
            seen[unit_id] = number
            current = Unit(kind, unit_id)
            units.append(current)
            if "skipped" in line:
                current.skipped = line["skipped"]
                return
            if not ("start" in line["in"] and at["round"] == 1 and at["step"] == 0):
                raise self.fail(number, f"{kind} {unit_id!r} must begin with the start of round 1, step 0")
        elif "skipped" in line:
            raise self.fail(number, f"case {unit_id!r} is both recorded and skipped")
        start = line["in"].get("start")
        if isinstance(start, dict) and "edition" in start and start["edition"] != self.edition:
            raise self.fail(number, f"{kind} {unit_id!r} plays {start['edition']!r}, but the header says the "
                                    f"baseline is of {self.edition!r}")
        current.records.append(line)

    def _end(self, number: int, line: Json, units: list[Unit], total: int) -> None:
        self._valid(number, line, "end")
        if number != total:
            raise self.fail(number + 1, "nothing may follow the end line")
        records = sum(len(unit.lines()) for unit in units)
        want = line["end"]
        if (want["units"], want["records"]) != (len(units), records):
            raise self.fail(number, f"the end line counts {want['units']} units and {want['records']} "
                                    f"records, the file has {len(units)} and {records}")


def _definition(definition: str) -> Json:
    """The baseline schema narrowed to one of its definitions."""
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    return {"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"}


@cache
def _fast_validator(definition: str) -> Any:
    """A `jsonschema-rs` validator of one definition, or None where that package is missing."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    return jsonschema_rs.Draft202012Validator(_definition(definition))


@cache
def _validator(definition: str) -> Any:
    """A `jsonschema` validator of one definition, to name what is wrong with a line."""
    return Draft202012Validator(_definition(definition))
