"""A finished (or interrupted) run as data, its JSON report, and the results stream written as
the run goes. Both follow conformance/schema/report.schema.json, and both keep the golden traces
apart from the other results: their own list and counts, their own lines."""

from __future__ import annotations

import json
import platform
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from .. import __version__
from ..engines.base import Hello
from ..paths import conformance_dir
from ..protocol.messages import PROTOCOL_VERSION
from .cases import GOLDEN
from .clauses import clause_quote
from .results import Json, Result, Tally, by_key

REPORT_VERSION = 2
"""Version of the report format (conformance/schema/report.schema.json); 2 lists golden traces apart."""


def is_golden(result: Result) -> bool:
    """True for the result of a golden trace, which reports list apart from the specified cases."""
    return result.kind == "case" and result.group == GOLDEN


def apart(results: list[Result]) -> tuple[list[Result], list[Result]]:
    """The results but the golden traces', and the golden traces'."""
    return [r for r in results if not is_golden(r)], [r for r in results if is_golden(r)]


@dataclass
class RunInfo:
    """What was run against what: the engine as named and as it introduced itself, the options."""

    impl: str
    hello: Hello
    options: Json
    started: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    command: str = "check"
    """The llcheck command that ran (`check`, `verify`), as the text report's first line names it."""

    def to_json(self) -> Json:
        """The report's header."""
        return {
            "llcheck": __version__, "protocol": PROTOCOL_VERSION, "python": platform.python_version(),
            "started": self.started, "options": self.options,
            "engine": {"impl": self.impl, "name": self.hello.name, "version": self.hello.version,
                       "protocol": self.hello.protocol, "editions": list(self.hello.editions),
                       "capabilities": sorted(self.hello.capabilities), **self._limits()},
        }

    def _limits(self) -> Json:
        """What an engine of capabilities version 2 says beyond its capabilities."""
        hello = self.hello
        out: Json = {}
        if hello.capabilities_version > 1:
            out["capabilities_version"] = hello.capabilities_version
        if hello.players:
            out["players"] = {edition: list(counts) for edition, counts in hello.players.items()}
        return out


@dataclass
class Report:
    """Every result of a run with its totals."""

    info: RunInfo
    results: list[Result]
    seconds: float
    interrupted: bool = False
    exit_code: int = 0
    baseline: list[Json] | None = None
    """`check --baseline`: how the engine compares with each baseline (llcheck/baseline/report.py)."""
    not_run: str = ""
    """An interrupted run: what it did not run, in words (`interrupted` holds it for the JSON)."""
    shard: Json | None = None
    """`check --shard`: which part this is, and where each result stands in the whole run's order
    (`llcheck report --merge` joins the parts)."""

    @property
    def tally(self) -> Tally:
        """Counts by status, of every result."""
        return Tally.of(self.results)

    def tallies(self) -> tuple[Tally, Tally]:
        """Counts by status of the results but the golden traces', and of the golden traces'."""
        others, golden = apart(self.results)
        return Tally.of(others), Tally.of(golden)

    def to_json(self) -> Json:
        """The whole JSON report."""
        clauses = by_key(self.results, "clauses")
        tags = by_key(self.results, "tags")
        others, golden = apart(self.results)
        return {
            "report": f"llcheck-{self.info.command}", "version": REPORT_VERSION, **self.info.to_json(),
            "seconds": round(self.seconds, 3), "interrupted": self.interrupted, "exit_code": self.exit_code,
            "summary": Tally.of(others).to_json(),
            "clauses": [{"id": key, "quote": clause_quote(key), "verdict": t.verdict(), **t.to_json(),
                         "not_judged": t.not_judged} for key, t in clauses.items()],
            "tags": [{"id": key, "verdict": t.verdict(), **t.to_json()} for key, t in tags.items()],
            "results": [r.to_json() for r in others],
            "golden": {"summary": Tally.of(golden).to_json(), "results": [r.to_json() for r in golden]},
            **({"baseline": self.baseline} if self.baseline is not None else {}),
            **({"shard": self.shard} if self.shard is not None else {}),
        }


def open_output(path: str) -> IO[str]:
    """A report file opened for writing now, so that a bad path fails before the run (OSError)."""
    return open(path, "w", encoding="utf-8")  # noqa: SIM115 - the caller closes it when the run ends


def json_text(report: Report) -> str:
    """The JSON report's text."""
    return json.dumps(report.to_json(), indent=1, ensure_ascii=False, default=repr) + "\n"


class ResultsStream:
    """JSON lines written as the run goes: a header, one line per result (`golden` for a golden
    trace's, `result` for the others), a summary at the end.

    Each line is flushed at once, so an interrupted or killed run keeps what it found.
    """

    def __init__(self, out: IO[str]):
        self.out = out

    def _line(self, kind: str, body: Json) -> None:
        self.out.write(json.dumps({"type": kind, **body}, ensure_ascii=False, default=repr) + "\n")
        self.out.flush()

    def begin(self, info: RunInfo) -> None:
        """The header line."""
        self._line("header", info.to_json())

    def result(self, result: Result) -> None:
        """One result line."""
        self._line("golden" if is_golden(result) else "result", result.to_json())

    def end(self, report: Report) -> None:
        """The summary line; closes the stream."""
        others, golden = report.tallies()
        self._line("summary", {"summary": others.to_json(), "golden": golden.to_json(),
                               "seconds": round(report.seconds, 3), "interrupted": report.interrupted,
                               "exit_code": report.exit_code})
        self.out.close()


def report_schema_path() -> Path:
    """The published schema of JSON reports and results streams."""
    return conformance_dir() / "schema" / "report.schema.json"

