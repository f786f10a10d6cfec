"""`llcheck`: one command, one subcommand per job.

Each subcommand lives in `llcheck.commands.<name>` and provides `add_arguments(parser)` and
`run(args) -> int`. Errors the user can fix end as one line on stderr and a documented exit code.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from loveletter_ref.errors import EngineError, SpecError

from . import __version__, exitcodes
from .errors import UsageError

COMMANDS = {
    "validate": "check spec files against the schema and the semantic rules",
    "show": "print an edition's cards and rules with their clause ids",
    "simulate": "play random legal games and print statistics",
}
"""Subcommand name -> one-line help; the module `llcheck.commands.<name>` implements it."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="llcheck", description="Love Letter rules checker and conformance suite.")
    parser.add_argument("--version", action="version", version=f"llcheck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, help_text in COMMANDS.items():
        module = importlib.import_module(f"llcheck.commands.{name.replace('-', '_')}")
        command = sub.add_parser(name, help=help_text, description=module.__doc__)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run llcheck; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except SpecError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return exitcodes.BAD_INPUT
    except (UsageError, EngineError) as exc:
        print(f"llcheck {args.command}: {exc}", file=sys.stderr)
        return exitcodes.BAD_INPUT
    except KeyboardInterrupt:
        print(f"llcheck {args.command}: interrupted", file=sys.stderr)
        return exitcodes.INTERRUPTED
    except BrokenPipeError:
        sys.stderr.close()
        return exitcodes.OK
