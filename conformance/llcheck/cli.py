"""`llcheck`: one command, one subcommand per job.

Each subcommand lives in `llcheck.commands.<name>` and provides `add_arguments(parser)` and
`run(args) -> int`. Errors the user can fix end as one line on stderr and a documented exit code.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from types import FrameType
from typing import Any, NoReturn

from loveletter_ref.errors import EngineError, SpecError, escape_controls

from . import __version__, exitcodes, interrupts
from .errors import UsageError
from .workers import WorkerDied

COMMANDS = {
    "validate": "check spec files against the schema and the semantic rules",
    "show": "print an edition's cards and rules with their clause ids",
    "simulate": "play random legal games and print statistics",
    "serve": "run an engine as a protocol program on stdin/stdout",
    "check": "run the conformance corpus against an engine: a verdict per rule clause",
    "record": "record an engine's behaviour as a baseline for check --baseline (regression testing in CI)",
    "cases": "list, show, check and measure the coverage of the conformance case corpus",
    "perft": "count the legal action sequences of a fixed deal, or compare an engine's count",
    "probe": "prove what can never happen in a round and find games for what can (z3)",
    "disputes": "compare rulebook readings: where they differ, a witness game or a proof it never matters",
    "replay": "tell a witness, case or game log step by step under one or two specs, and where they part",
    "report": "join the JSON reports of check --shard K/N parts into the report of the whole run",
    "schema": "print a JSON Schema llcheck uses, or its installed path for an editor (--path)",
    "smoke": "try an engine's handshake, one deal and one action, with a plain diagnosis",
    "view": "write a case, a divergence or a game as a page to step through in a browser",
    "verify": "check recorded games (JSON-lines game logs) against an edition: a verdict per rule clause",
}
"""Subcommand name -> one-line help; the module `llcheck.commands.<name>` implements it."""


EXAMPLES = """examples:
  llcheck smoke --impl 'node my-engine.js'          # a first try of an engine
  llcheck check --impl 'node my-engine.js'          # the conformance corpus against it
  llcheck view classic.countess.forced/with-king    # a case as a game, in the browser
  llcheck COMMAND --help                            # each command's options and examples
"""
"""Shown at the end of `llcheck --help`."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(exitcodes.BAD_INPUT, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered; with `only`, the options of that
    subcommand alone, if it is one (the others are named, with their help line, but their modules,
    some of which load z3 or hypothesis, are not imported)."""
    parser = _Parser(prog="llcheck", description="Love Letter rules checker and conformance suite.",
                     epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"llcheck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, help_text in COMMANDS.items():
        if only is not None and name != only:
            sub.add_parser(name, help=help_text)
            continue
        module = importlib.import_module(f"llcheck.commands.{name.replace('-', '_')}")
        command = sub.add_parser(name, help=help_text, description=module.__doc__,
                                 epilog=getattr(module, "EXAMPLES", None),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run llcheck; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_command_named(argv))
    args, extra = parser.parse_known_args(argv)
    if extra:  # named after the subcommand, not after llcheck as argparse would
        parser.prog = f"llcheck {args.command}"
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    _plain_streams()
    interrupts.watch_solvers()
    try:
        with _stop_signals_interrupt():
            return int(args.run(args))
    except SpecError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return exitcodes.BAD_INPUT
    except (UsageError, EngineError) as exc:  # a file name or an engine's words may hold any character
        print(f"llcheck {args.command}: {escape_controls(str(exc))}", file=sys.stderr)
        return exitcodes.BAD_INPUT
    except WorkerDied as exc:
        print(f"llcheck {args.command}: {exc}", file=sys.stderr)
        return exitcodes.ENGINE
    except KeyboardInterrupt:
        left = interrupts.not_run()
        print(f"llcheck {args.command}: interrupted{'; not run: ' + left if left else ''}", file=sys.stderr)
        return exitcodes.INTERRUPTED


def _command_named(argv: list[str]) -> str:
    """The subcommand `argv` runs: its first word that is no option (llcheck's own, `--help` and
    `--version`, come before it); "" when there is none."""
    return next((word for word in argv if not word.startswith("-")), "")


class _Output(io.RawIOBase):
    """The standard output's file descriptor, as a reader that may stop reading (`| head -1`):
    from the first write it refuses (EPIPE) on, every write is dropped, so that the command runs
    to its end and exits with its own code, whenever the reader stopped."""

    def __init__(self, fd: int):
        super().__init__()
        self.fd = fd
        self.gone = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def write(self, data: Any) -> int:
        if not self.gone:
            try:
                return os.write(self.fd, data)
            except BrokenPipeError:
                self.gone = True
        return len(data)


def _plain_streams() -> None:
    """Characters the terminal's encoding lacks are escaped, not a crash (LC_ALL=C, say); the real
    standard output (not a test's capture) forgives a reader that stopped reading (`_Output`)."""
    if sys.stdout is sys.__stdout__ and sys.stdout is not None:
        real = sys.stdout
        real.flush()
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(_Output(real.fileno())), encoding=real.encoding,
                                      line_buffering=real.line_buffering, write_through=False)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


@contextlib.contextmanager
def _stop_signals_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP stop any command as Ctrl-C does (exit code 130, results kept where the
    command keeps them), unless they are ignored (nohup). `check` installs finer handlers of its own."""
    saved = {}
    if threading.current_thread() is threading.main_thread():
        for name in ("SIGTERM", "SIGHUP"):
            number = getattr(signal, name, None)
            if number is not None and signal.getsignal(number) is signal.SIG_DFL:
                saved[number] = signal.signal(number, _interrupt)
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


def _interrupt(number: int, frame: FrameType | None) -> NoReturn:
    raise KeyboardInterrupt
