"""Known-failures lists: cases an engine is known to fail, each with the reason, that must keep
failing. A listed case that passes is an unexpected pass and fails the run, so the list stays honest.

The file is text, one case per line: the case id, whitespace, then the reason (required).
Blank lines and lines starting with `#` are ignored:

    # loveletter 0.0.5 deviations
    classic.baron.tie/equal-priests   both players are knocked out on a Baron tie
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from loveletter_ref.spec.yamlsafe import TooLarge, read_bounded

from ..errors import UsageError
from .results import ERRORED, FAILED, KNOWN_FAILURE, PASSED, UNEXPECTED_PASS, Result

MAX_BYTES = 5_000_000
"""The largest known-failures list read."""

GENERATED_PREFIXES = ("property/", "fuzz/")
"""Ids of results that are not corpus cases (properties and fuzzing campaigns)."""


@dataclass(frozen=True)
class KnownFailures:
    """Case id -> (line, reason), read from `path`."""

    path: str
    entries: dict[str, tuple[int, str]]

    @classmethod
    def load(cls, path: str | Path) -> KnownFailures:
        """Read a list; UsageError (FILE:LINE: problem) when it is unreadable or malformed."""
        name = str(path)
        try:
            text = read_bounded(path, MAX_BYTES).decode("utf-8")
        except TooLarge as exc:
            raise UsageError(f"{name}: {exc}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"{name}: cannot read the known-failures list: "
                             f"{getattr(exc, 'strerror', None) or exc}") from None
        entries: dict[str, tuple[int, str]] = {}
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            case_id, *rest = stripped.split(None, 1)
            reason = rest[0] if rest else ""
            if not reason.strip():
                raise UsageError(f"{name}:{number}: give the reason after the case id {case_id!r}")
            if case_id in entries:
                first = entries[case_id][0]
                raise UsageError(f"{name}:{number}: {case_id} is already listed on line {first}")
            entries[case_id] = (number, reason.strip())
        return cls(name, entries)

    def check_ids(self, known: Iterable[str]) -> None:
        """UsageError naming the first listed id that is no case of the corpus."""
        ids = set(known)
        for case_id, (number, _) in self.entries.items():
            if case_id not in ids and not case_id.startswith(GENERATED_PREFIXES):
                raise UsageError(f"{self.path}:{number}: no case has the id {case_id!r}")

    def unplayable(self, editions: Mapping[str, str], plays: Collection[str]) -> list[str]:
        """`ID (line N)` for each listed case whose edition (by id, from `editions`) is not in `plays`:
        an engine that does not play it never runs the case, so the entry is never checked."""
        return [f"{case_id} (line {number})" for case_id, (number, _) in self.entries.items()
                if case_id in editions and editions[case_id] not in plays]

    def apply(self, result: Result) -> Result:
        """The result as the list sees it: a known failure, an unexpected pass, or unchanged."""
        entry = self.entries.get(result.id)
        if entry is None:
            return result
        number, reason = entry
        if result.status in (FAILED, ERRORED):
            return replace(result, status=KNOWN_FAILURE, known_failure=reason)
        if result.status == PASSED:
            return replace(result, status=UNEXPECTED_PASS, known_failure=reason,
                           message=f"passed, but {self.path}:{number} lists it as a known failure "
                                   f"({reason}); remove it from the list")
        return replace(result, known_failure=reason)
