"""The human report: what ran against what, each failure with its clause quotes, where the
engine diverged and how to replay it, the golden traces in a section of their own, verdicts per
clause and per tag, and the totals line (the golden traces counted apart)."""

from __future__ import annotations

import itertools
import shlex
from collections import Counter
from typing import Any

from loveletter_ref.errors import escape_controls
from loveletter_ref.lockstep import compact, first_index, shorten
from loveletter_ref.plural import counted

from .clauses import clause_quote
from .compare import whole_value_detail, without_clauses
from .report import Report, apart
from .results import (
    ERRORED,
    FAILED,
    KNOWN_FAILURE,
    NOT_APPLICABLE,
    PASSED,
    SKIPPED,
    STATUSES,
    UNEXPECTED_PASS,
    Result,
    Tally,
    by_key,
)

WIDTH = 160
"""Expected and actual values longer than this are shortened (the JSON report keeps them whole)."""

QUOTED_CLAUSES = 8
"""A failed case naming more clauses than this (a whole recorded game) has them counted, not quoted."""

NOT_RUN_NAMED = 5
"""How many of the further results not run for one reason the text names."""

LABELS = {FAILED: "FAILED", ERRORED: "ERRORED", UNEXPECTED_PASS: "UNEXPECTED PASS",
          KNOWN_FAILURE: "known failure", SKIPPED: "skipped"}


def header(report: Report) -> list[str]:
    """Who was checked, with what."""
    info, hello = report.info, report.info.hello
    shown = info.options.get("editions") or hello.editions
    editions = ", ".join(e + (f" ({', '.join(map(str, hello.players[e]))} players only)"
                              if e in hello.players else "") for e in shown)
    ignored = f"; ignored, unknown to this llcheck: {', '.join(hello.ignored)}" if hello.ignored else ""
    version = f" (version {hello.capabilities_version})" if hello.capabilities_version > 1 else ""
    who = f"{hello.name} {hello.version} (protocol {hello.protocol})"
    return [f"llcheck {info.command}: {who} via {info.impl}",
            f"editions: {editions}; capabilities: {', '.join(sorted(hello.capabilities)) or 'none'}"
            f"{version}{ignored}"]


def failure(result: Result) -> list[str]:
    """Everything a user needs to understand and replay one bad result."""
    where = f"  [{result.group}, {result.edition}]" if result.edition else ""
    lines = [f"{LABELS.get(result.status, result.status)} {result.id}{where}"]
    if result.description:
        lines.append(f"  {result.description}")
    shown = result.clauses
    if result.charged is not None and len(result.charged) < len(result.clauses):
        shown = result.charged
        why = "named by its diagnosis" if result.reading else "suspected at its first divergence"
        lines.append(f"  clauses: {len(result.clauses)}; charged with this failure: the {len(shown)} "
                     f"{why}; the other {len(result.clauses) - len(shown)} are not judged by this case")
    if result.file and len(shown) > QUOTED_CLAUSES:
        lines.append(f"  clauses: {len(shown)} (llcheck cases --show {shlex.quote(result.id)} "
                     "quotes them)")
    else:
        lines += [f"  clause {c}: {clause_quote(c)}" for c in shown]
    if result.file:
        lines.append(f"  case: {result.file}")
    if result.known_failure and result.status == UNEXPECTED_PASS:
        lines.append(f"  {result.message}")
    elif result.divergence is not None:
        d = result.divergence
        if result.kind == "case":
            lines.append(f"  {d.where()}: {d.what}")
            if d.detail and d.detail != whole_value_detail(d.expected, d.actual):  # else said just below
                lines.append(f"    {d.detail}")
        else:  # the message says where, what differs, the suspects and the saved case
            lines += [f"  {result.message}", f"  {d.where()}: {d.what}"]
        expected, actual = compact_pair(d.expected, d.actual, WIDTH)
        lines.append(f"    expected: {expected}")
        lines.append(f"    actual:   {actual}")
        if result.diagnosis:
            lines.append(f"  diagnosis: {result.diagnosis}")
    elif result.message:
        lines.append(f"  {result.message}")
    if result.replay_case is not None:
        replay_case = compact(result.replay_case)
        lines.append(f"  replay case: {replay_case}" if len(replay_case) <= WIDTH * 4 else
                     f"  replay case: {len(replay_case):,} characters, too long to show: the --json and "
                     "--results reports hold it whole")
    if result.replay:
        lines.append(f"  replay: {result.replay}")
    return lines


def _table(title: str, tallies: dict[str, Tally]) -> list[str]:
    """One row per key; the `unjudged` column (broad cases that name the clause but whose failure
    was charged to others) only when some row has one."""
    if not tallies:
        return []
    width = max(len(title), *(len(key) for key in tallies))
    unjudged = any(t.not_judged for t in tallies.values())
    heads = ("cases", PASSED, FAILED, ERRORED, SKIPPED, "known") + (("unjudged",) if unjudged else ())
    lines = [f"{title:<{width}}  " + " ".join(f"{h:>7}" for h in heads) + "  verdict"]
    for key, tally in tallies.items():
        counts = (tally.total, tally[PASSED], tally[FAILED] + tally[UNEXPECTED_PASS], tally[ERRORED],
                  tally[SKIPPED], tally[KNOWN_FAILURE]) + ((tally.not_judged,) if unjudged else ())
        cells = [f"{n:>{max(7, len(h))}}" for n, h in zip(counts, heads, strict=True)]
        lines.append(f"{key:<{width}}  " + " ".join(cells) + f"  {tally.verdict()}")
    return lines


def text_report(report: Report, quiet: bool = False) -> str:
    """The whole report; `quiet` leaves out the per-clause and per-tag tables."""
    lines = header(report)
    others, golden = apart(report.results)
    lines += bad_results(_bad(others))
    for status, title in ((SKIPPED, "skipped"), (NOT_APPLICABLE, "not applicable")):
        reasons = Counter(r.message for r in report.results if r.status == status)
        if reasons:
            lines += ["", f"{title}: " + "; ".join(f"{why} ({n})" for why, n in sorted(reasons.items()))]
    known = [r for r in report.results if r.status == KNOWN_FAILURE]
    if known:
        lines += ["", "known failures (still failing, as listed):"]
        lines += [f"  {r.id}: {r.known_failure}" for r in known]
    lines += campaigns(report.results)
    lines += golden_traces(golden)
    if not quiet:
        for title, keys in (("clause", "clauses"), ("tag", "tags")):
            table = _table(title, by_key(report.results, keys))
            lines += [""] + table if table else []
    lines += ["", totals(report)]
    return "\n".join(escape_controls(line) for line in lines)


def _bad(results: list[Result]) -> list[Result]:
    return [r for r in results if r.status in (FAILED, ERRORED, UNEXPECTED_PASS)]


def bad_results(bad: list[Result]) -> list[str]:
    """Each bad result in full, but for cases not run for a reason already shown: those are
    counted after the rest, a few ids named (an engine that cannot be restarted leaves every
    case after it not run, for the one reason)."""
    lines: list[str] = []
    again: dict[str, list[Result]] = {}
    for result in bad:
        if result.not_run and result.message in again:
            again[result.message].append(result)
            continue
        if result.not_run:
            again[result.message] = [result]
        lines += [""] + failure(result)
    for first, *rest in again.values():
        if rest:
            ids = ", ".join(r.id for r in rest[:NOT_RUN_NAMED])
            ids += ", ..." if len(rest) > NOT_RUN_NAMED else ""
            lines += ["", f"{LABELS[ERRORED]} {len(rest)} more not run, for the same reason as {first.id} "
                          f"(the --json and --results reports list each): {ids}"]
    return lines


def campaigns(results: list[Result]) -> list[str]:
    """What the property and fuzzing runs that passed covered (a failure is shown in full above)."""
    lines = []
    properties = [r for r in results if r.kind == "property"]
    if properties:
        good = sum(r.status == PASSED for r in properties)
        names = {r.id.split("/")[1] for r in properties} - {"all"}
        counts: dict[str, set[int]] = {}
        for r in properties:
            counts.setdefault(r.edition, set()).add(r.players or 0)
        where = "; ".join(f"{e} with {', '.join(map(str, sorted(n)))} players" for e, n in counts.items())
        noun = "property" if len(names) == 1 else "properties"
        outside = sum(r.status == NOT_APPLICABLE for r in properties)
        also = f", {outside} not applicable" if outside else ""
        lines += ["", f"properties: {good} of {len(properties)} passed{also} "
                      f"({len(names)} {noun}, for {where})"]
    fuzz = [r for r in results if r.kind == "fuzz" and r.status == PASSED]
    if fuzz:
        lines += ["", "fuzzing, passed (games start from chosen tokens, most last a round or two):"]
        lines += [f"  {r.id}: {r.message}" for r in fuzz]
    dealt = [r for r in results if r.kind == "dealt" and r.status == PASSED]
    if dealt:
        lines += ["", "logged games (engine-dealt rounds, one-step Chancellor), passed:"]
        lines += [f"  {r.id}: {r.message}" for r in dealt]
    return lines


def golden_traces(golden: list[Result]) -> list[str]:
    """The golden traces' section: how many passed, for which editions and player counts, and each
    bad one in full."""
    if not golden:
        return []
    good = sum(r.status == PASSED for r in golden)
    counts: dict[str, list[int]] = {}
    for r in golden:
        counts.setdefault(r.edition, []).append(r.players or 0)
    where = "; ".join(f"{e} with {', '.join(map(str, sorted(set(n))))} players" for e, n in counts.items())
    outside = sum(r.status == NOT_APPLICABLE for r in golden)
    also = f", {outside} not applicable" if outside else ""
    return ["", f"golden traces: {good} of {len(golden)} passed{also} ({where})"] + bad_results(_bad(golden))


def totals(report: Report) -> str:
    """The last line: `N passed, N failed, N errored, N skipped in S s`, the golden traces counted
    apart (`...; golden traces: N passed, ...`) when some ran."""
    others, golden = report.tallies()
    text = others.line() + (f"; golden traces: {golden.line()}" if golden.total else "")
    text += f" in {report.seconds:.2f}s"
    if report.interrupted:
        kept = sum(report.tally[s] for s in STATUSES)
        text += f" (interrupted: {counted(kept, 'result')} kept"
        text += f"; not run: {report.not_run})" if report.not_run else ")"
    return text


def compact_pair(expected: Any, actual: Any, limit: int) -> tuple[str, str]:
    """Both values as `compact` JSON shortened to `limit` characters, unless the two would then
    read the same: then each starts (after `...`) at the first list item or object key whose
    values differ, `clause` fields aside, so that alike-looking lines never hide a difference."""
    whole = compact(expected), compact(actual)
    short = shorten(whole[0], limit), shorten(whole[1], limit)
    starts = _first_difference(expected, actual) if short[0] == short[1] and whole[0] != whole[1] else None
    if starts is None:
        return short
    return shorten("..." + whole[0][starts[0]:], limit), shorten("..." + whole[1][starts[1]:], limit)


def _first_difference(expected: Any, actual: Any) -> tuple[int, int] | None:
    """Where, in each value's compact JSON, the first item or key that differs begins (None for
    values that are not both lists or both objects)."""
    if isinstance(expected, list) and isinstance(actual, list):
        i = first_index(without_clauses(expected), without_clauses(actual))
        return _item_at(expected, i), _item_at(actual, i)
    if isinstance(expected, dict) and isinstance(actual, dict):
        key = next((k for k in expected if expected[k] != actual.get(k)), None)
        if key is None or key not in actual:
            return None
        return _key_at(expected, key), _key_at(actual, key)
    return None


def _item_at(value: list[Any], i: int) -> int:
    """Where item `i` begins in the compact JSON of `value`."""
    return len(compact(value[:i])) - 1 + (2 if i else 0)


def _key_at(value: dict[str, Any], key: str) -> int:
    """Where `key` begins in the compact JSON of `value`."""
    before = dict(itertools.takewhile(lambda item: item[0] != key, value.items()))
    return len(compact(before)) - 1 + (2 if before else 0)
