"""Check spec files: every problem is printed as FILE:LINE:COL: message (exit 2); a valid file
gets a one-line summary (exit 0). Quotes are checked against the shared rulebooks when found
($LLCHECK_RULEBOOKS or ../shared/rulebooks)."""

from __future__ import annotations

import argparse
import sys

from loveletter_ref.paths import rulebooks_dir
from loveletter_ref.spec import check_spec, find_spec, load_spec

from .. import exitcodes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="spec files (or bundled spec ids)")


def run(args: argparse.Namespace) -> int:
    failed = False
    books = rulebooks_dir()
    for name in args.files:
        problems = check_spec(name)
        if problems:
            failed = True
            for problem in problems:
                print(problem, file=sys.stderr)
            continue
        spec = load_spec(name)
        sizes = sorted({len(spec.deck(n)) for n in range(spec.min_players, spec.max_players + 1)})
        silent = sum(1 for c in spec.clauses.values() if c.silent)
        contradicted = sum(1 for c in spec.clauses.values() if c.versions)
        extra = f", {silent} silent, {contradicted} contradicted" if spec.kind == "reading" else ""
        quotes = "quotes checked" if books else "quotes not checked (rulebooks not found)"
        print(f"{find_spec(name)}: ok: {spec.kind} {spec.id}, {len(spec.cards)} cards "
              f"({'/'.join(map(str, sizes))}), {len(spec.clauses)} clauses{extra}, "
              f"{spec.min_players}-{spec.max_players} players; {quotes}")
    return exitcodes.BAD_INPUT if failed else exitcodes.OK
