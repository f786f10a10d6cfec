"""Settle disputes between rulebooks.

`llcheck disputes A B` lists every clause on which two specs (two readings, or a reading and an
edition) differ, each with a verdict: observable (a witness game, told as a story and given as
a replay for each spec, that the two play differently), vacuous (z3 proved that no game ever
consults the clause) or undecided within the budget (with what was tried). A clause left
undecided, or vacuous because one side's games stop on its silences first, is also settled on
its own: the spec with only that clause taken from the other side.

`llcheck disputes A` lists a reading's contradictions, each settled between its versions, and
its silences, each with a game that needs the clause (the reference engine stops with a rule
gap naming it) or a proof that no game ever does.

`llcheck disputes --all` settles the bundled readings against the editions they describe and
against each other, and writes docs/disputes.md (and the data behind it, docs/disputes.json,
which doubles as a cache: unchanged specs are not searched again); `--check` only says whether
those files are up to date.

Exit codes: 0 when no difference can show (every one is vacuous, or there is none; --all: the
files were written or are up to date), 1 when some difference is observable or undecided
(--check: the files are out of date), 2 for bad usage or an invalid spec."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from loveletter_ref.disputes import (
    Budget,
    audit,
    audit_json,
    audit_text,
    compare,
    comparison_json,
    comparison_text,
    open_side,
    told_apart,
)

from .. import cluster, exitcodes
from ..arguments import GAMES, JOBS, Z3_UNITS
from ..catalogue import DEFAULT_BUDGET, DEFAULT_DATA, DEFAULT_OUTPUT, DEFAULT_Z3, Catalogue
from ..errors import UsageError
from ..progress import Status
from ..specs import parse_choices, version_choices
from ..view.disputes import dispute_films
from ..view.page import write_page

RLIMIT = 60_000_000
"""z3's resource limit per solver call for one comparison or audit (`rlimit` units)."""


EXAMPLES = """examples:
  llcheck disputes tr-2019 nl-2019                 # where two translations part
  llcheck disputes nl-2019 z-man-2019 --json --games 60
  llcheck disputes --all                           # rewrite docs/disputes.md
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("specs", nargs="*", metavar="SPEC",
                        help="one reading (its contradictions and silences), or two specs to compare")
    parser.add_argument("--all", action="store_true", help="settle every bundled reading; write the report")
    parser.add_argument("--version-of", action="append", metavar="CLAUSE=N",
                        help="play version N of a contradicted clause (on whichever side has it)")
    parser.add_argument("--rlimit", type=Z3_UNITS, default=None, metavar="N",
                        help=f"z3's resource limit per solver call, in rlimit units (solver steps, "
                             f"the same at any load; default {RLIMIT}; --all: {DEFAULT_Z3})")
    parser.add_argument("--games", type=GAMES, default=None, metavar="N",
                        help=f"games per player count in the broad search (default {Budget.games})")
    parser.add_argument("--no-alone", action="store_true",
                        help="do not also settle clauses on their own (those undecided, or vacuous "
                             "because a side's games stop on its silences first)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--html", metavar="FILE",
                        help="two specs: also write the ruling table as a page for a browser, each witness "
                             "game linked to its table where the two part (docs/viewer.md)")
    parser.add_argument("--output", type=Path, default=None, metavar="FILE",
                        help=f"--all: the report to write (default {DEFAULT_OUTPUT})")
    parser.add_argument("--data", type=Path, default=None, metavar="FILE",
                        help=f"--all: the verdicts kept beside it (default {DEFAULT_DATA})")
    parser.add_argument("--check", action="store_true",
                        help="--all: only check that the files are up to date")
    parser.add_argument("--refresh", action="store_true",
                        help="--all: search again even where the specs did not change")
    parser.add_argument("--jobs", type=JOBS, default=1, metavar="N",
                        help="--all: settle entries in N processes (the results do not depend on N)")
    cluster.add_argument(parser, "--all's entries (one task each)")


def run(args: argparse.Namespace) -> int:
    if args.all:
        if args.specs:
            raise UsageError("--all takes no spec names")
        return _catalogue(args)
    if args.check or args.refresh or args.output or args.data or args.jobs != 1 or args.cluster:
        raise UsageError("--check, --refresh, --jobs, --cluster, --output and --data go with --all")
    if len(args.specs) not in (1, 2):
        raise UsageError("give one reading, two specs, or --all")
    chosen = version_choices(args.specs, parse_choices(args.version_of))
    opened = [open_side(name, mine) for name, mine in zip(args.specs, chosen, strict=True)]
    sides = told_apart(opened, args.specs)
    limit = args.rlimit or RLIMIT
    budget = Budget(games=args.games or Budget.games)
    if len(sides) == 1:
        data = audit_json(sides[0], audit(sides[0], budget, limit))
        _print(data, args.json, audit_text)
        return exitcodes.OK if all(v["status"] == "vacuous" for v in data["verdicts"]) else exitcodes.FAILED
    status = Status()
    try:
        comparison = compare(sides[0], sides[1], budget, limit, alone=not args.no_alone, say=status)
    finally:
        status.close()
    data = comparison_json(comparison)
    if args.html:
        films, rows = dispute_films(data, [(side.label, side.edition) for side in sides])
        try:
            write_page(args.html, f"llcheck disputes {' '.join(args.specs)}", films, rows)
        except OSError as exc:
            raise UsageError(f"--html {args.html}: {exc.strerror or exc}") from None
    _print(data, args.json, comparison_text)
    return exitcodes.OK if all(v["status"] == "vacuous" for v in data["verdicts"]) else exitcodes.FAILED


def _print(data: dict[str, object], as_json: bool, text: object) -> None:
    if as_json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        assert callable(text)
        print(text(data))


def _catalogue(args: argparse.Namespace) -> int:
    budget = DEFAULT_BUDGET if args.games is None else replace(DEFAULT_BUDGET, games=args.games)
    catalogue = Catalogue(args.output or DEFAULT_OUTPUT, args.data or DEFAULT_DATA, budget,
                          args.rlimit or DEFAULT_Z3, progress=True)
    if args.check:
        problems = catalogue.check()
        for problem in problems:
            print(f"llcheck disputes: {problem}", file=sys.stderr)
        if problems:
            return exitcodes.FAILED
        print(f"{catalogue.output} and {catalogue.data} are up to date")
        return exitcodes.OK
    cluster.require(args.cluster)
    written = catalogue.write(refresh=args.refresh, jobs=args.jobs, cluster=args.cluster)
    print(f"wrote {catalogue.output} and {catalogue.data} ({written})")
    return exitcodes.OK
