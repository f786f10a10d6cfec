"""Run an engine as a protocol program: requests on stdin, one answer per line on stdout
(docs/protocol.md). By default this is the bundled reference engine with every bundled edition,
the program `llcheck check` talks to when no --impl is given. --spec serves the given spec files
instead (a reading is served under the id of the edition it describes, so that the corpus of
that edition runs against it); --impl serves an in-process adapter. Only protocol messages are
written on stdout; --trace copies each request and answer to stderr."""

from __future__ import annotations

import argparse
import sys

from loveletter_ref.spec import Edition

from .. import exitcodes
from ..engines import Engine, EngineFailure, ReferenceEngine
from ..engines.loader import PYTHON_PREFIX, REFERENCE, open_engine
from ..engines.pipes import printable
from ..engines.server import serve
from ..errors import UsageError
from ..specs import edition_arg, parse_choices, version_choices

EXAMPLES = """examples:
  llcheck serve                                    # the reference engine on stdin/stdout
  llcheck check --impl 'llcheck serve --spec my-edition.yaml' --edition my-edition.yaml --fuzz 100
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--impl", default=REFERENCE, metavar="reference|python:MODULE:CLASS",
                        help="the in-process engine to serve (default: reference)")
    parser.add_argument("--spec", action="append", metavar="FILE|ID",
                        help="serve the reference engine with this spec (repeatable), e.g. a reading")
    parser.add_argument("--version-of", action="append", metavar="CLAUSE=N",
                        help="for a reading: play version N of a contradicted clause")
    parser.add_argument("--trace", action="store_true", help="copy every request and answer to stderr")


def served_specs(names: list[str], choices: dict[str, int]) -> dict[str, Edition]:
    """Specs by the edition id they are served under (a reading: the edition it describes)."""
    specs: dict[str, Edition] = {}
    for name, mine in zip(names, version_choices(names, choices), strict=True):
        spec = edition_arg(name, mine)
        key = spec.describes if spec.kind == "reading" and spec.describes else spec.id
        if key in specs:
            raise UsageError(f"--spec {name}: {specs[key].id} is already served as {key}")
        specs[key] = spec
    return specs


def make_engine(args: argparse.Namespace) -> Engine:
    """The engine the arguments name."""
    if args.spec:
        if args.impl != REFERENCE:
            raise UsageError("--spec serves the reference engine; it cannot be combined with --impl")
        specs = served_specs(args.spec, parse_choices(args.version_of))
        ids = ", ".join(spec.id for spec in specs.values())
        return ReferenceEngine(specs, name=f"loveletter-reference ({ids})")
    if args.version_of:
        raise UsageError("--version-of chooses a version of a reading's clause: give the reading with --spec")
    if args.impl != REFERENCE and not args.impl.startswith(PYTHON_PREFIX):
        raise UsageError(f"--impl must be reference or python:MODULE:CLASS, not {args.impl!r}")
    return open_engine(args.impl)


def run(args: argparse.Namespace) -> int:
    try:
        engine = make_engine(args)
    except EngineFailure as exc:  # an adapter that cannot be made: before any request is read
        print(f"llcheck serve: cannot start the engine {printable(args.impl)}: {exc}", file=sys.stderr)
        return exitcodes.ENGINE
    try:
        serve(engine, sys.stdin.buffer, sys.stdout.buffer, sys.stderr if args.trace else None)
    finally:
        engine.close()
    return exitcodes.OK
