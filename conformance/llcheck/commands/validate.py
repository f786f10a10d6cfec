"""Check spec files: every problem is printed as FILE:LINE:COL: message (exit 2); a valid file
gets a one-line summary (exit 0). Quotes are checked against the shared rulebooks: the folders
$LLCHECK_RULEBOOKS lists (separated by ':'; each must exist), else ../shared/rulebooks when it
exists."""

from __future__ import annotations

import argparse
import sys

from loveletter_ref.paths import rulebook_dirs
from loveletter_ref.plural import counted
from loveletter_ref.spec import Edition, check_spec, find_spec, load_spec

from .. import exitcodes

EXAMPLES = """examples:
  llcheck validate spec/editions/*.yaml            # every bundled edition
  llcheck validate my-edition.yaml                 # an edition of your own: FILE:LINE:COL per problem
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="spec files (or bundled spec ids)")


def run(args: argparse.Namespace) -> int:
    failed = False
    books = rulebook_dirs()
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
        print(f"{find_spec(name)}: ok: {spec.kind} {spec.id}, {len(spec.cards)} cards "
              f"({'/'.join(map(str, sizes))}), {len(spec.clauses)} clauses{extra}, "
              f"{spec.min_players}-{spec.max_players} players; {_quotes(spec, bool(books))}")
    return exitcodes.BAD_INPUT if failed else exitcodes.OK


def _quotes(spec: Edition, books: bool) -> str:
    """How many quotes were checked against rulebook text, and why the others were not."""
    sources = [s for c in spec.clauses.values() for body in c.versions or (c,) for s in body.sources]
    verbatim = sum(1 for s in sources if s.file and not s.paraphrase)
    paraphrases = sum(1 for s in sources if s.paraphrase)
    unfiled = len(sources) - verbatim - paraphrases
    parts = [f"{counted(verbatim, 'quote')} checked" if books or not verbatim else
             f"{counted(verbatim, 'quote')} not checked (rulebooks not found)"]
    parts += [counted(paraphrases, "paraphrase")] if paraphrases else []
    parts += [f"{counted(unfiled, 'quote')} of documents with no rulebook file"] if unfiled else []
    return ", ".join(parts)
