"""Write a game as a page to open in a browser: a conformance case, a saved fuzzing case or
witness, a game record, every failing case of a `check --json` report, or the witness games of a
`disputes A B --json` comparison, shown on a table (card
faces, hands, discards, protection, tokens) step by step with the arrow keys, the two sides side
by side where they part, and the clauses with their quotes. The page is one self-contained HTML
file (no network). Exit codes: 0 written, 2 bad input."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from loveletter_ref.errors import EngineError, SpecError
from loveletter_ref.plural import counted
from loveletter_ref.spec import Edition, load_spec
from loveletter_ref.spec.yamlsafe import TooLarge, read_bounded

from ..arguments import SEAT, is_file
from ..engines.pipes import printable
from ..errors import UsageError
from ..harness.cases import Case, load_corpus, load_file
from ..view.disputes import dispute_films
from ..view.film import of_case, of_record
from ..view.page import write_page
from ..view.results import report_films

Json = dict[str, Any]

MAX_BYTES = 100_000_000
"""The largest file read (a JSON report of a long run is the largest)."""

DEFAULT_OUT = "llcheck-view.html"
"""Where the page is written unless --html says otherwise."""

EXAMPLES = """examples:
  llcheck view classic.countess.forced/with-king          # a corpus case, by id
  llcheck view report.json --html failures.html           # every failing case of check --json report.json
  llcheck view llcheck-results/fuzz/required/classic/fuzz-classic-2p-982a18eb54.json --seat 1
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="CASE_ID|FILE",
                        help="a case id of the corpus, a case file (a saved fuzzing case too), a game "
                             "record (edition, players, rounds of deck and actions), a check --json report "
                             "or a disputes A B --json comparison")
    parser.add_argument("--case", metavar="ID", help="of a case file holding several cases, this one")
    parser.add_argument("--corpus", metavar="DIR", help="the case folder case ids are looked up in "
                                                        "(default: the bundled corpus)")
    parser.add_argument("--edition", action="append", default=[], metavar="FILE",
                        help="a spec file of your own, for cases and games of its edition (repeatable)")
    parser.add_argument("--seat", type=SEAT, metavar="N",
                        help="show the hands as player N sees them (default: every hand; the page switches)")
    parser.add_argument("--html", default=DEFAULT_OUT, metavar="FILE",
                        help=f"the page to write (default {DEFAULT_OUT})")


class _Specs:
    """Editions by id: the --edition files, else the bundled ones."""

    def __init__(self, files: list[str]):
        self.own = {spec.id: spec for spec in map(load_spec, files)}

    def __call__(self, edition: str) -> Edition:
        if edition in self.own:
            return self.own[edition]
        try:
            return load_spec(edition)
        except SpecError:
            raise UsageError(f"{printable(edition, 100)}: no such bundled edition (give its spec file "
                             "with --edition)") from None


def _read_json(path: Path) -> Any:
    """The JSON document in `path`; UsageError naming FILE:LINE:COL when it is not JSON."""
    try:
        return json.loads(read_bounded(path, MAX_BYTES).decode("utf-8"))
    except json.JSONDecodeError as exc:
        raise UsageError(f"{printable(str(path))}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    except TooLarge as exc:
        raise UsageError(f"{printable(str(path))}: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{printable(str(path))}: cannot read: {getattr(exc, 'strerror', None) or exc}") \
            from None


def _corpus_case(corpus: list[Case], case_id: str) -> Case | None:
    return next((case for case in corpus if case.id == case_id), None)


def _pick(cases: list[Case], wanted: str | None, where: str) -> Case:
    """The case --case names, or the only one."""
    if wanted is None and len(cases) == 1:
        return cases[0]
    if wanted is None:
        raise UsageError(f"{where} holds {len(cases)} cases: name one with --case (ids: "
                         f"{', '.join(c.id for c in cases[:5])}{', ...' if len(cases) > 5 else ''})")
    found = _corpus_case(cases, wanted)
    if found is None:
        raise UsageError(f"--case {printable(wanted, 100)}: {where} has no such case")
    return found


def _page(args: argparse.Namespace, specs: _Specs) -> tuple[str, list[Json], Json | None]:
    """The page's title, films and report rows for the source given."""
    path = Path(args.source)
    corpus_root = Path(args.corpus) if args.corpus else None
    if not is_file(args.source):
        found = _corpus_case(load_corpus(corpus_root), args.source)
        if found is None:
            raise UsageError(f"{printable(args.source, 100)}: neither a file nor a case id of the corpus")
        return found.id, [of_case(found.to_json(), specs(found.edition))], None
    data = _read_json(path)
    if isinstance(data, dict) and data.get("report") == "llcheck-check":
        corpus = {case.id: case.to_json() for case in load_corpus(corpus_root)}
        films, report = report_films(data, corpus.get, specs)
        return f"llcheck check: {data.get('engine', {}).get('impl', '')}", films, report
    if isinstance(data, dict) and isinstance(data.get("verdicts"), list) and {"a", "b"} <= data.keys():
        try:
            sides = [(str(data[side]["label"]), specs(str(data[side]["spec"]))) for side in ("a", "b")]
        except (KeyError, TypeError) as exc:
            raise UsageError(f"{printable(str(path))}: not a disputes --json comparison: missing "
                             f"{exc}") from None
        films, rows = dispute_films(data, sides)
        return f"llcheck disputes {sides[0][0]} {sides[1][0]}", films, rows
    if isinstance(data, dict) and isinstance(data.get("rounds"), list) and "description" not in data:
        edition = specs(str(data.get("edition")))
        try:
            return path.name, [of_record(data, edition, path.name)], None
        except (KeyError, TypeError) as exc:
            raise UsageError(f"{printable(str(path))}: not a game record (edition, players, rounds of deck "
                             f"and actions): missing {exc}") from None
    case = _pick(load_file(path), args.case, printable(str(path)))
    return case.id, [of_case(case.to_json(), specs(case.edition))], None


def run(args: argparse.Namespace) -> int:
    specs = _Specs(args.edition)
    try:
        title, films, report = _page(args, specs)
    except EngineError as exc:  # a game record the reference engine cannot start
        raise UsageError(f"{printable(args.source)}: {exc}") from None
    try:
        write_page(args.html, title, films, report, args.seat)
    except OSError as exc:
        raise UsageError(f"--html {printable(args.html)}: {exc.strerror or exc}") from None
    steps = sum(len(film["frames"]) for film in films)
    print(f"llcheck view: wrote {args.html}: {counted(len(films), 'game')}, {counted(steps, 'step')}")
    return 0
