"""Joining the JSON reports of a run's `--shard` parts into the report of the whole run
(`llcheck report --merge`): the results in the whole run's order, the golden traces apart, the
totals, clause and tag verdicts and exit code counted again, as `check` would have without
`--shard`. Only the timings differ: the run starts when its first part did, and lasts as long
as its longest part.

A file that is not the report of one part, or parts that do not make one run (another count,
a part missing or given twice, other options, another engine or llcheck), is bad input: one
line naming the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from loveletter_ref.lockstep import Divergence, Json, Place
from loveletter_ref.spec.yamlsafe import TooLarge, read_bounded
from loveletter_ref.variants import Alternative

from .. import exitcodes
from ..engines.base import Hello
from ..errors import UsageError
from .report import REPORT_VERSION, Report, RunInfo
from .results import FAILED, UNEXPECTED_PASS, Result, Tally

MAX_BYTES = 1_000_000_000
"""The largest part report read (a report of a million results)."""

SAME = ("llcheck", "protocol", "python", "options", "engine")
"""What every part of one run reports alike."""


class _Part:
    """One part's report, read and checked."""

    def __init__(self, path: Path):
        self.path = path
        try:
            data = json.loads(read_bounded(path, MAX_BYTES).decode("utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, TooLarge) as exc:
            raise self.bad(f"cannot be read as JSON ({getattr(exc, 'strerror', None) or exc})") from None
        if not isinstance(data, dict) or data.get("report") != "llcheck-check":
            raise self.bad("is not a JSON report of llcheck check")
        if data.get("version") != REPORT_VERSION:
            raise self.bad(f"is a report of version {data.get('version')!r}; this llcheck joins version "
                           f"{REPORT_VERSION}")
        shard = data.get("shard")
        if not isinstance(shard, dict):
            raise self.bad("is the report of a whole run, not of a part (check --shard K/N writes those)")
        if "baseline" in data:
            raise self.bad("holds a baseline comparison, which parts do not have")
        try:
            self.index, self.count, order = int(shard["index"]), int(shard["count"]), dict(shard["order"])
            self.results = [_result(r, order) for r in [*data["results"], *data["golden"]["results"]]]
            self.seconds, self.started = float(data["seconds"]), str(data["started"])
            self.code, self.interrupted = int(data["exit_code"]), bool(data["interrupted"])
            engine, self.options = data["engine"], dict(data["options"])
            self.impl = str(engine["impl"])
            self.hello = Hello(engine["name"], engine["version"], tuple(engine["editions"]),
                               frozenset(engine["capabilities"]), engine["protocol"])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise self.bad(f"is not a report of a part as check --shard writes it ({type(exc).__name__}: "
                           f"{exc})") from None
        self.same: dict[str, Any] = {key: data.get(key) for key in SAME}

    def bad(self, why: str) -> UsageError:
        return UsageError(f"--merge {self.path}: {why}")


def _result(data: Json, order: dict[str, Any]) -> tuple[tuple[bool, int], Result]:
    """A result as its report gave it, with where it stands in the whole run's order."""
    divergence, location = data["divergence"], data["location"]
    result = Result(
        data["id"], data["status"], kind=data["kind"], group=data["group"], edition=data["edition"],
        players=data["players"], clauses=tuple(data["clauses"]), tags=tuple(data["tags"]),
        description=data["description"], file=data["file"], message=data["message"],
        divergence=None if divergence is None else Divergence(
            divergence["round"], divergence["step"], divergence["what"], divergence["expected"],
            divergence["actual"], divergence["detail"], divergence["action"]),
        known_failure=data["known_failure"], seconds=float(data["seconds"]), replay=data["replay"],
        replay_case=data["replay_case"],
        charged=None if data["charged"] is None else tuple(data["charged"]),
        reading=tuple(Alternative.of(change["key"], change["kind"], change["rule"], change["source"])
                      for change in data.get("reading", ())),
        diagnosis=data.get("diagnosis", ""),
        location=None if location is None else Place(location["round"], location["step"], location["action"]))
    return (result.kind != "case", int(order[result.id])), result


def merge(paths: list[Path]) -> Report:
    """The report of the whole run whose parts' reports are at `paths` (UsageError when they are
    not the parts of one run)."""
    parts = [_Part(path) for path in paths]
    first = parts[0]
    for part in parts:
        if part.count != first.count:
            raise part.bad(f"is part {part.index} of {part.count}, {first.path} of {first.count}")
        for key in SAME:
            if part.same[key] != first.same[key]:
                raise part.bad(f"has another {key!r} than {first.path}: parts of one run share it")
    given = sorted(part.index for part in parts)
    for index in range(1, first.count + 1):
        if given.count(index) != 1:
            named = [str(part.path) for part in parts if part.index == index]
            what = f"given twice ({', '.join(named)})" if named else "missing"
            raise UsageError(f"--merge: part {index} of {first.count} is {what}")
    ranked = sorted((rank, part.index, n, result) for part in parts
                    for n, (rank, result) in enumerate(part.results))
    results: list[Result] = []
    owner: dict[str, int] = {}
    for _, index, _, result in ranked:  # an engine that would not start: each part says so, once is kept
        if owner.setdefault(result.id, index) == index:
            results.append(result)
    info = RunInfo(first.impl, first.hello, first.options, started=min(part.started for part in parts))
    interrupted = any(part.interrupted for part in parts)
    return Report(info, results, max(part.seconds for part in parts), interrupted,
                  _exit_code(parts, results, interrupted))


def _exit_code(parts: list[_Part], results: list[Result], interrupted: bool) -> int:
    """The whole run's exit code, in the order of docs/ci.md: 2 (a part's bad input or unwritten
    report), 130, 1 for a rules difference, 3 when the engine could not be (re)started in a part,
    1 for any other bad result, else 0."""
    codes = {part.code for part in parts}
    if exitcodes.BAD_INPUT in codes:
        return exitcodes.BAD_INPUT
    if interrupted:
        return exitcodes.INTERRUPTED
    if any(r.status in (FAILED, UNEXPECTED_PASS) for r in results):
        return exitcodes.FAILED
    if exitcodes.ENGINE in codes:
        return exitcodes.ENGINE
    return exitcodes.OK if Tally.of(results).ok else exitcodes.FAILED
