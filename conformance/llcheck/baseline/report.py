"""The baseline part of a check's reports: text, the JSON report's `baseline` section, JUnit.

Each changed case or game is printed like a conformance failure: what it is, the first step whose
answers differ, what differs there, before and after, and a command replaying just that unit.
"""

from __future__ import annotations

import shlex
import xml.etree.ElementTree as ET
from collections.abc import Callable

from loveletter_ref.plural import counted

from ..harness.junit import clean, repository_path
from .checking import FileOutcome, no_longer_claimed
from .delta import Json
from .diff import CHANGED, NOT_RUN, SAME, Outcome, change_json, parts_of, show, where
from .diff import summary as parts_summary

WIDTH = 160
"""Before and after values longer than this are shortened in text (the JSON report keeps them)."""

LABELS = {CHANGED: "CHANGED", NOT_RUN: "NOT RUN"}


def replay_command(base: str, path: str, unit_id: str) -> str:
    """The command that replays one unit of a baseline (`base`: the check command and engine)."""
    return f"{base} --baseline {shlex.quote(path)} --run {shlex.quote(unit_id)}"


Record = Callable[[str, str], str]
"""The command that records a baseline again, from its edition and its file: the engine as the
check ran it (`--impl` and the engine options); the rest comes from the baseline's header."""


def record_command(impl: str, engine_args: list[str], editions: dict[str, str]) -> Record:
    """`Record` for a check of `impl` with these engine options; `editions` names the spec file of
    an edition given as a file (by id), which a header cannot hold."""
    def command(edition: str, path: str) -> str:
        words = ["llcheck", "record", "--impl", impl, *engine_args]
        if edition in editions:
            words += ["--edition", editions[edition]]
        return shlex.join([*words, "--out", path])
    return command


def text_lines(files: list[FileOutcome], base: str, record: Record, interrupted: bool,
               failing: bool = False) -> list[str]:
    """The baseline section of the text report (`failing`: the run has failures of its own, to fix
    before a change is accepted)."""
    lines: list[str] = []
    for done in files:
        baseline = done.baseline
        lines += ["", f"baseline {baseline.path}: {baseline.edition}, recorded from {baseline.engine}"]
        lines += [f"  note: {note}" for note in done.notes]
        for outcome in done.outcomes:
            if outcome.status != SAME:
                lines += [""] + _unit(outcome, replay_command(base, baseline.path, outcome.unit.id))
        if done.changed:
            first = "once the failures above are fixed, " if failing else ""
            command = record(baseline.edition, baseline.path)
            lines += ["", f"  {first}to accept these changes on purpose: {command}"]
        lines.append(_summary(done))
    if interrupted:
        lines.append("baseline: interrupted; the cases and games compared so far are shown")
    return lines


def _unit(outcome: Outcome, replay: str) -> list[str]:
    unit = outcome.unit
    lines = [f"{LABELS[outcome.status]} {unit.kind} {unit.id}"]
    change = outcome.change
    if change is not None:
        lines.append(f"  {where(change)}: {parts_summary(parts_of(change))}")
        if change.detail:
            lines.append(f"    {change.detail}")
        lines.append(f"    before: {show(change.expected, WIDTH)}")
        lines.append(f"    after:  {show(change.actual, WIDTH)}")
    elif outcome.message:
        lines.append(f"  {outcome.message}")
    lines.append(f"  replay: {replay}")
    return lines


def _summary(done: FileOutcome) -> str:
    cases = sum(1 for outcome in done.outcomes if outcome.unit.kind == "case")
    games = len(done.outcomes) - cases
    text = (f"baseline: {counted(cases, 'case')} and {counted(games, 'game')}: {done.count(SAME)} same, "
            f"{done.count(CHANGED)} changed, {done.count(NOT_RUN)} not run in {done.seconds:.2f}s")
    if done.dropped:
        text += f"; capabilities no longer claimed: {', '.join(sorted(done.dropped))}"
    return text


def to_json(files: list[FileOutcome], base: str, record: Record) -> list[Json]:
    """The `baseline` section of the JSON report: one entry per file."""
    return [_file_json(done, base, record) for done in files]


def _file_json(done: FileOutcome, base: str, record: Record) -> Json:
    baseline = done.baseline
    return {
        "file": baseline.path, "edition": baseline.edition, "recorded": baseline.header,
        "summary": {"total": len(done.outcomes), SAME: done.count(SAME), CHANGED: done.count(CHANGED),
                    NOT_RUN: done.count(NOT_RUN)},
        "dropped_capabilities": sorted(done.dropped), "notes": done.notes, "seconds": round(done.seconds, 3),
        "update": record(baseline.edition, baseline.path) if done.changed else None,
        "units": [_unit_json(outcome, replay_command(base, baseline.path, outcome.unit.id))
                  for outcome in done.outcomes],
    }


def _unit_json(outcome: Outcome, replay: str) -> Json:
    change = outcome.change
    out: Json = {"id": outcome.unit.id, "kind": outcome.unit.kind, "status": outcome.status,
                 "seconds": round(outcome.seconds, 6), "message": outcome.message,
                 "change": change_json(change, outcome.inputs) if change is not None else None,
                 "replay": replay if outcome.status != SAME else None}
    return out


CHANGE = "baseline_changed"
"""The name of the testcase property, and of the suite's count, that marks a baseline change."""


def junit_suites(section: list[Json]) -> list[ET.Element]:
    """One `<testsuite name="baseline/EDITION">` per file, one `<testcase>` per case or game.

    A change is no failure (exit 4, which CI recipes only warn about): a changed unit passes, with
    a `baseline_changed` property saying what changed and the details in `<system-out>`, and the
    suite counts the changes in its own `baseline_changed` property. A unit not run is an `<error>`.
    """
    suites = []
    for done in section:
        units, dropped = done["units"], done["dropped_capabilities"]
        suite = ET.Element("testsuite", name=f"baseline/{done['edition']}",
                           tests=str(len(units) + bool(dropped)), failures="0",
                           errors=str(done["summary"][NOT_RUN]), skipped="0", time=f"{done['seconds']:.3f}")
        properties = ET.SubElement(suite, "properties")
        where = clean(repository_path(done["file"]))
        ET.SubElement(properties, "property", name="baseline", value=where)
        changes = done["summary"][CHANGED] + bool(dropped)
        ET.SubElement(properties, "property", name=CHANGE, value=str(changes))
        if dropped:  # a change of its own (exit 4), which no case or game shows
            case = ET.SubElement(suite, "testcase", classname=f"baseline.{done['edition']}.engine",
                                 name="capabilities", time="0.000000", file=where)
            message = f"{no_longer_claimed(dropped)}: what it gave is no longer compared"
            _changed(case, message, f"{message}\nto accept this change on purpose: {done['update']}")
        for unit in units:
            suite.append(_testcase(done, unit, where))
        suites.append(suite)
    return suites


def _changed(case: ET.Element, summary: str, details: str) -> None:
    """Mark a passing testcase as changed from the baseline."""
    properties = ET.SubElement(case, "properties")
    ET.SubElement(properties, "property", name=CHANGE, value=clean(summary))
    ET.SubElement(case, "system-out").text = clean(details)


def _testcase(done: Json, unit: Json, where: str) -> ET.Element:
    case = ET.Element("testcase", classname=f"baseline.{done['edition']}.{unit['kind']}",
                      name=clean(unit["id"]), time=f"{unit['seconds']:.6f}", file=where)
    if unit["status"] == CHANGED:
        change = unit["change"]
        _changed(case, f"behaves differently from the baseline: {parts_summary(change['what'])}",
                 _details(change, unit))
    elif unit["status"] == NOT_RUN:
        message = clean(unit["message"])
        ET.SubElement(case, "error", message=message, type="not_run").text = message
    return case


def _details(change: Json, unit: Json) -> str:
    where = f"round {change['round']}, step {change['step']}" if change["round"] else "the case"
    before, after = show(change["before"]), show(change["after"])
    lines = [f"{where}: {parts_summary(change['what'])}", change["detail"], f"before: {before}",
             f"after:  {after}", f"replay: {unit['replay']}"]
    return "\n".join(line for line in lines if line)
