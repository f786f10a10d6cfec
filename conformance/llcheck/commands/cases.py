"""Inspect and check the conformance case corpus (the format: docs/cases.md).

--validate: every file matches the schema, ids are unique, every clause a case names exists,
every deck is its edition's deck, every clause of every edition, every clause pair and every
player-count clause at 2 and at 3+ players is covered by a required case (of the bundled corpus
only), and every case passes against the reference engine (exit 2 for bad files, 1 for gaps or
failures). --coverage: clause -> required cases, then clause pair -> required cases and
player-count clause -> required cases at 2 and at 3+ players, the gaps listed (exit 1 if any).
--list: the cases, filtered by --tag, --clause, --edition, --status. --show ID: one case.
--format: rewrite every file that is not in the canonical formatting (exit 2 for a file that is not JSON)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from loveletter_ref.plural import counted
from loveletter_ref.spec import load_spec

from .. import exitcodes
from ..atomic import write_atomic
from ..engines.pipes import printable
from ..errors import UsageError
from ..harness.cases import (
    STATUSES,
    Case,
    CaseError,
    corpus_files,
    coverage,
    load_corpus,
    reformatted,
)
from ..harness.clauses import clause_quote
from ..harness.jsonfmt import dumps
from ..harness.pairs import GROUPS, PairCoverage, gap_text, pair_coverage
from ..harness.selfcheck import validate

EXAMPLES = """examples:
  llcheck cases --list --tag countess               # the cases about the Countess
  llcheck cases --show classic.countess.forced/with-king
  llcheck cases --coverage --edition classic
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--validate", action="store_true", help="run every self-check of the corpus")
    action.add_argument("--coverage", action="store_true",
                        help="print clause -> required cases, clause pairs and player counts")
    action.add_argument("--list", action="store_true", help="list the cases (the default)")
    action.add_argument("--show", metavar="ID", help="print one case, with its clauses' quotes")
    action.add_argument("--format", action="store_true",
                        help="rewrite the files that are not in the canonical formatting")
    parser.add_argument("--tag", action="append", default=[], metavar="T", help="--list: cases with this tag")
    parser.add_argument("--clause", action="append", default=[], metavar="C",
                        help="--list: cases naming this clause id")
    parser.add_argument("--edition", action="append", default=[], metavar="E", help="only this edition")
    parser.add_argument("--status", action="append", default=[], choices=STATUSES,
                        help="only this corpus folder")
    parser.add_argument("--root", type=Path, metavar="DIR",
                        help="a case folder of your own, its golden traces in DIR/golden/ (default: the "
                             "bundled corpus, conformance/cases/ and conformance/golden/)")
    parser.add_argument("--json", action="store_true",
                        help="--coverage, --list: print JSON; --show: the case's JSON alone")


ALLOWED = {"validate": (), "coverage": ("edition", "json"), "show": ("json",), "format": ()}
"""The options each action takes besides --root (--list takes every one)."""


def run(args: argparse.Namespace) -> int:
    _check_options(args)
    if args.root is not None and not corpus_files(args.root):
        raise UsageError(f"--root {printable(str(args.root))} holds no case files (STATUS/EDITION/NAME.json, "
                         "docs/cases.md)")
    if args.validate:
        return _validate(args.root)
    if args.format:
        return _format(args.root)
    cases = load_corpus(args.root)
    if args.show is not None:
        return _show(cases, args.show, args.json)
    if args.coverage:
        return _coverage(cases, args.edition, args.json)
    _check_filters(cases, args)
    return _list(_chosen(cases, args), args.json)


def _check_options(args: argparse.Namespace) -> None:
    """UsageError for an option the chosen action would silently ignore."""
    action = next((name for name in ALLOWED if getattr(args, name) not in (None, False)), None)
    if action is None:
        return
    for option in ("tag", "clause", "edition", "status", "json"):
        if getattr(args, option) and option not in ALLOWED[action]:
            takes = ", ".join(f"--{name}" for name in ("root", *ALLOWED[action]))
            raise UsageError(f"--{action} does not take --{option} (it takes {takes}); "
                             "--list filters the cases")


def _check_filters(cases: list[Case], args: argparse.Namespace) -> None:
    """UsageError naming a --tag, --clause or --edition that no case of the corpus has (a typo
    would otherwise list nothing, and say nothing about why)."""
    for option, values, known in (("--tag", args.tag, {tag for case in cases for tag in case.tags}),
                                  ("--clause", args.clause,
                                   {clause for case in cases for clause in case.clauses}),
                                  ("--edition", args.edition, {case.edition for case in cases})):
        for value in values:
            if value not in known:
                near = sorted(name for name in known if value.lower() in name.lower())[:5]
                hint = f" (did you mean {', '.join(near)}?)" if near else \
                    (f" ({option[2:]}s: {', '.join(sorted(known))})" if len(known) <= 12 else "")
                raise UsageError(f"{option} {printable(value, 100)}: no case of the corpus has it{hint}")


def _chosen(cases: list[Case], args: argparse.Namespace) -> list[Case]:
    def wanted(case: Case) -> bool:
        return ((not args.edition or case.edition in args.edition)
                and (not args.status or case.status in args.status)
                and all(tag in case.tags for tag in args.tag)
                and all(clause in case.clauses for clause in args.clause))
    return [case for case in cases if wanted(case)]


def _list(cases: list[Case], as_json: bool) -> int:
    if as_json:
        print(json.dumps([{"id": c.id, "status": c.status, "edition": c.edition, "players": c.players,
                           "clauses": list(c.clauses), "tags": list(c.tags), "description": c.description,
                           "file": c.where, "generated": c.generated} for c in cases],
                         indent=2, ensure_ascii=False))
        return exitcodes.OK
    width = max((len(c.id) for c in cases), default=0)
    for case in cases:
        print(f"{case.id:<{width}}  {case.status:<8}  {case.description}")
    counts = Counter(case.status for case in cases)
    if not cases:
        print("0 cases: no case matches every filter given")
        return exitcodes.OK
    print(f"{len(cases)} cases: " + ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s]))
    return exitcodes.OK


def _show(cases: list[Case], case_id: str, as_json: bool = False) -> int:
    if not case_id.strip():
        raise UsageError("--show takes a case id (llcheck cases --list lists them)")
    found = next((case for case in cases if case.id == case_id), None)
    if found is None:
        near = [case.id for case in cases if case_id in case.id][:5]
        raise UsageError(f"no case {printable(repr(case_id), 100)}"
                         + (f" (did you mean {', '.join(near)}?)" if near else ""))
    if as_json:  # the case alone, for a program to read
        print(dumps(found.to_json()))
        return exitcodes.OK
    print(f"# {found.where} [{found.status}]")
    if found.generated:
        print(f"# generated {found.generated}")
    for clause in found.clauses:
        print(f"# {clause}: {clause_quote(clause)}")
    print(dumps(found.to_json()))
    return exitcodes.OK


def _coverage(cases: list[Case], editions: list[str], as_json: bool) -> int:
    table = coverage(cases)
    pairs = pair_coverage(cases)
    if editions:
        wanted = {clause for name in editions for clause in load_spec(name).clauses}
        table = {clause: ids for clause, ids in table.items() if clause in wanted}
        pairs = pairs.only(wanted)
    uncovered = [clause for clause, ids in table.items() if not ids]
    if as_json:
        print(json.dumps({"coverage": table, "uncovered": uncovered, **pairs.to_json()}, indent=2))
    else:
        width = max((len(clause) for clause in table), default=0)
        for clause, ids in table.items():
            print(f"{clause:<{width}}  {len(ids):>3}  {', '.join(ids) if ids else 'UNCOVERED'}")
        covered = len(table) - len(uncovered)
        print(f"{covered} of {len(table)} clauses covered by required cases"
              + (f"; uncovered: {', '.join(uncovered)}" if uncovered else ""))
        _print_pairs(pairs)
    return exitcodes.FAILED if uncovered or pairs.uncovered or pairs.count_gaps else exitcodes.OK


def _print_pairs(pairs: PairCoverage) -> None:
    """The clause pairs, then the player-count clauses, each table ending with its count and gaps."""
    names = [str(pair) for pair in pairs.pairs]
    width = max((len(name) for name in names), default=0)
    print()
    for name, ids in zip(names, pairs.pairs.values(), strict=True):
        print(f"{name:<{width}}  {len(ids):>3}  {', '.join(ids) if ids else 'UNCOVERED'}")
    missing = pairs.uncovered
    print(f"{len(names) - len(missing)} of {len(names)} clause pairs covered by required cases"
          + (f"; uncovered: {', '.join(map(str, missing))}" if missing else ""))
    width = max((len(clause) for clause in pairs.player_counts), default=0)
    print()
    print(f"{'player-count clause':<{width}}  " + "  ".join(f"{group + ' players':>11}" for group in GROUPS))
    for clause, groups in pairs.player_counts.items():
        cells = [str(len(groups[group])) if groups.get(group) else ("none" if group in groups else "-")
                 for group in GROUPS]
        print(f"{clause:<{width}}  " + "  ".join(f"{cell:>11}" for cell in cells))
    gaps = [gap_text(*gap) for gap in pairs.count_gaps]
    complete = sum(1 for groups in pairs.player_counts.values() if all(groups.values()))
    print(f"{complete} of {len(pairs.player_counts)} player-count clauses named by required cases at 2 "
          "players and at 3 or more" + (f"; missing: {', '.join(gaps)}" if gaps else ""))


def _validate(root: Path | None) -> int:
    try:
        verdict = validate(root)
    except CaseError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"llcheck cases: {counted(len(exc.problems), 'problem')} in the case files", file=sys.stderr)
        return exitcodes.BAD_INPUT
    for problem in verdict.problems:
        print(problem, file=sys.stderr)
    if verdict.problems:
        return exitcodes.BAD_INPUT
    uncovered, pairs, gaps = verdict.uncovered, verdict.uncovered_pairs, verdict.count_gaps
    for clause in uncovered:
        print(f"{clause}: no required case names this clause", file=sys.stderr)
    for pair in pairs:
        print(f"{pair}: no required case naming {pair.clause} plays it with {pair.partner}", file=sys.stderr)
    for clause, group in gaps:
        print(f"{clause}: no required case names this clause at {group} players", file=sys.stderr)
    for result in verdict.failures:
        print(f"{result.file}: case {result.id}: {result.status} against the reference engine: "
              f"{result.message}; replay: {result.replay}", file=sys.stderr)
    counts = Counter(case.status for case in verdict.cases)
    files = len({case.path for case in verdict.cases})
    folders = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
    failures = len(verdict.failures)
    summary = "coverage not required of a folder of your own (--coverage --root shows it)"
    if root is None:
        summary = (f"{len(uncovered)} clauses, {len(pairs)} clause pairs and {len(gaps)} player counts "
                   "uncovered")
    print(f"{files} files, {len(verdict.cases)} cases ({folders}); {summary}; "
          f"{failures} failing against the reference")
    return exitcodes.FAILED if uncovered or pairs or gaps or verdict.failures else exitcodes.OK


def _format(root: Path | None) -> int:
    """Rewrite each file that is not in the canonical formatting; a file that is not JSON is left as
    it is, and named (exit 2)."""
    files = corpus_files(root)
    problems = []
    rewritten = 0
    for path in files:
        try:
            text, canonical = reformatted(path)
        except CaseError as exc:
            problems += exc.problems
            continue
        if text != canonical:
            write_atomic(path, canonical)
            rewritten += 1
            print(f"{path}: reformatted")
    for problem in problems:
        print(problem, file=sys.stderr)
    unread = len({problem.file for problem in problems})
    print(f"{len(files)} files, {rewritten} reformatted" + (f", {unread} not JSON (left as they are)"
                                                             if unread else ""))
    return exitcodes.BAD_INPUT if problems else exitcodes.OK
