"""What running a case (or a property, or a fuzzing campaign) produced, and the run's totals."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from loveletter_ref.lockstep import Divergence, Json, Place
from loveletter_ref.variants import Alternative

PASSED = "passed"
FAILED = "failed"
ERRORED = "errored"
SKIPPED = "skipped"
KNOWN_FAILURE = "known_failure"
"""Failed (or errored) as the known-failures list says it must."""
UNEXPECTED_PASS = "unexpected_pass"
"""Listed as a known failure, but passed: the list is out of date."""
NOT_APPLICABLE = "not_applicable"
"""Outside what the engine plays (an edition, a player count, a capability: harness/applicable.py)."""

STATUSES = (PASSED, FAILED, ERRORED, SKIPPED, KNOWN_FAILURE, UNEXPECTED_PASS, NOT_APPLICABLE)
"""Every status a result can have, in report order."""

BAD = (FAILED, ERRORED, UNEXPECTED_PASS)
"""Statuses that make the run fail (exit code 1)."""

CAMPAIGN_STATUSES = {"passed": PASSED, "pass": PASSED, "failed": FAILED, "fail": FAILED, "skipped": SKIPPED}
"""The statuses of property and fuzzing verdicts as result statuses (anything else is an error)."""


def campaign_status(value: Any) -> str:
    """The result status of a property's or a fuzzing campaign's verdict."""
    return CAMPAIGN_STATUSES.get(value, ERRORED)


@dataclass
class Result:
    """The outcome of one case, property or fuzzing campaign.

    `kind` is `case`, `property` or `fuzz`; `group` is the case's folder (`required`, `optional`,
    `disputed`, `golden`) or the kind itself. `message` is one line (why it failed, errored or was
    skipped); `replay` is a command that runs it again, `replay_case` the game that shows it.
    `charged`, when set, holds the clauses a broad case's failure is charged to (`charge.py`): the
    others of `clauses` are not judged by it.
    """

    id: str
    status: str
    kind: str = "case"
    group: str = "required"
    edition: str = ""
    players: int | None = None
    clauses: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    description: str = ""
    file: str | None = None
    message: str = ""
    divergence: Divergence | None = None
    known_failure: str | None = None
    seconds: float = 0.0
    replay: str | None = None
    replay_case: Json | None = None
    charged: tuple[str, ...] | None = None
    location: Place | None = None
    """Where an errored case's engine failed (the round, step and action being sent)."""
    reading: tuple[Alternative, ...] = field(default=(), compare=False)
    """For a fuzzing result or a diverged logged game: the clause variants the engine was found to play."""
    diagnosis: str = ""
    """For a diverged logged game: what explains it, in one line (`llcheck.logs.diagnosis`)."""
    engine_broken: bool = field(default=False, compare=False)
    not_run: bool = field(default=False, compare=False)
    """Not run because the engine could not be (re)started (exit code 3, docs/ci.md)."""

    def judges(self, clause: str) -> bool:
        """True when this result counts in `clause`'s verdict."""
        return self.charged is None or clause in self.charged

    def to_json(self) -> Json:
        """The JSON report form (one line of the results stream)."""
        return {
            "id": self.id, "kind": self.kind, "status": self.status, "group": self.group,
            "edition": self.edition, "players": self.players, "clauses": list(self.clauses),
            "tags": list(self.tags), "description": self.description, "file": self.file,
            "seconds": round(self.seconds, 6), "message": self.message,
            "divergence": self.divergence.to_json() if self.divergence else None,
            "location": self.location.to_json() if self.location else None,
            "known_failure": self.known_failure, "replay": self.replay, "replay_case": self.replay_case,
            "charged": list(self.charged) if self.charged is not None else None,
            **({"reading": [{"key": change.key, "kind": change.kind, "rule": change.rule,
                             "source": change.source} for change in self.reading]} if self.reading else {}),
            **({"diagnosis": self.diagnosis} if self.diagnosis else {}),
        }


@dataclass(frozen=True)
class Tally:
    """How many results have each status; `not_judged` counts broad cases that name a clause
    without judging it (their failure was charged to other clauses)."""

    counts: Counter[str]
    not_judged: int = 0

    @classmethod
    def of(cls, results: Iterable[Result]) -> Tally:
        """Count the statuses of `results`."""
        return cls(Counter(r.status for r in results))

    def __getitem__(self, status: str) -> int:
        return self.counts[status]

    @property
    def total(self) -> int:
        """Results counted."""
        return sum(self.counts.values())

    @property
    def ok(self) -> bool:
        """True when nothing failed, errored or passed unexpectedly."""
        return not any(self.counts[s] for s in BAD)

    def verdict(self) -> str:
        """A clause's or tag's verdict: fails, errored, known failure, conforms, not judged (only
        broad cases that failed elsewhere name it), or untested."""
        if self.counts[FAILED] or self.counts[UNEXPECTED_PASS]:
            return "fails"
        if self.counts[ERRORED]:
            return "errored"
        if self.counts[KNOWN_FAILURE]:
            return "known failure"
        if self.counts[PASSED]:
            return "conforms"
        return "not judged" if self.not_judged and not self.total else "untested"

    def line(self) -> str:
        """`N passed, N failed, N errored, N skipped` (+ known failures, unexpected passes and
        not applicable)."""
        text = ", ".join(f"{self.counts[s]} {s}" for s in (PASSED, FAILED, ERRORED, SKIPPED))
        known, unexpected = self.counts[KNOWN_FAILURE], self.counts[UNEXPECTED_PASS]
        if known:
            text += f", {known} known failure" + ("s" if known > 1 else "")
        if unexpected:
            text += f", {unexpected} unexpected pass" + ("es" if unexpected > 1 else "")
        if self.counts[NOT_APPLICABLE]:
            text += f", {self.counts[NOT_APPLICABLE]} not applicable"
        return text

    def to_json(self) -> Json:
        """Counts by status, with the total (`not_applicable` only when some are)."""
        return {"total": self.total, **{s: self.counts[s] for s in STATUSES
                                         if s != NOT_APPLICABLE or self.counts[s]}}


def by_key(results: Iterable[Result], keys: str) -> dict[str, Tally]:
    """Tallies per clause (`keys="clauses"`) or per tag (`keys="tags"`), keys sorted. A result
    that does not judge a clause (`Result.judges`) counts there as not judged."""
    groups: dict[str, list[Result]] = {}
    unjudged: Counter[str] = Counter()
    for result in results:
        for key in getattr(result, keys):
            if keys == "clauses" and not result.judges(key):
                unjudged[key] += 1
            else:
                groups.setdefault(key, []).append(result)
    return {key: Tally(Tally.of(groups.get(key, ())).counts, unjudged[key])
            for key in sorted(set(groups) | set(unjudged))}
