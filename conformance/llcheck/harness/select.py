"""Which cases a run takes: by edition, by corpus folder, by reading, and by id globs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

from ..shard import Shard
from .cases import Case

DEFAULT_GROUPS = ("required", "optional", "golden")
"""Corpus folders run by default; disputed cases follow a rulebook reading and run on request."""


@dataclass(frozen=True)
class Selection:
    """`--edition`, `--status`, `--assume`, `--run`, `--skip` and `--shard` as one filter."""

    editions: Sequence[str] = ()
    groups: Sequence[str] = DEFAULT_GROUPS
    assume: str | None = None
    run: Sequence[str] = ()
    skip: Sequence[str] = ()
    shard: Shard | None = None

    def wants_id(self, case_id: str) -> bool:
        """True when the id matches a --run glob (or there is none) and no --skip glob, and is in
        the --shard part (when given)."""
        if self.run and not any(fnmatchcase(case_id, glob) for glob in self.run):
            return False
        if self.shard is not None and not self.shard.takes(case_id):
            return False
        return not any(fnmatchcase(case_id, glob) for glob in self.skip)

    def wants(self, case: Case) -> bool:
        """True when the run takes `case`."""
        if self.editions and case.edition not in self.editions:
            return False
        if self.assume is not None and case.assumes != self.assume:
            return False
        if case.status not in self.groups:
            return False
        return self.wants_id(case.id)

    def choose(self, cases: Iterable[Case]) -> list[Case]:
        """The cases the run takes, in corpus order."""
        return [case for case in cases if self.wants(case)]
