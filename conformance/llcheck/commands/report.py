"""Join the JSON reports of a run split with `check --shard K/N` into the report of the whole run:
the same JSON report, JUnit report, text report and exit code as `check` without --shard
(docs/ci.md, "Sharding"); only the timings differ. Exit codes: those of check for the whole run;
2 when a file is not the report of a part, or the parts do not make one run."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..atomic import write_atomic
from ..errors import UsageError
from ..harness.junit import junit_xml
from ..harness.merge import merge
from ..harness.report import json_text
from ..harness.text import text_report

EXAMPLES = """examples:
  llcheck check --impl 'node my-engine.js' --shard 1/2 --json part-1.json
  llcheck report --merge part-1.json part-2.json --json report.json --junit junit.xml
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--merge", nargs="+", required=True, type=Path, metavar="FILE",
                        help="the JSON reports of every part (check --shard K/N --json FILE), in any order")
    parser.add_argument("--json", nargs="?", const=True, metavar="FILE",
                        help="the whole run's JSON report: alone, on stdout in place of the text report; "
                             "with FILE, written to FILE beside the text report")
    parser.add_argument("--junit", metavar="FILE", help="write the whole run's JUnit XML report")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="leave out the per-clause and per-tag tables")


def run(args: argparse.Namespace) -> int:
    report = merge(args.merge)
    for option, path in (("--json", args.json), ("--junit", args.junit)):
        if isinstance(path, str) and any(Path(path).resolve() == given.resolve() for given in args.merge):
            raise UsageError(f"{option} {path} would overwrite a report it joins")
    try:
        if isinstance(args.json, str):
            write_atomic(args.json, json_text(report))
        if args.junit:
            write_atomic(args.junit, junit_xml(report))
    except OSError as exc:
        raise UsageError(f"cannot write {exc.filename}: {exc.strerror or exc}") from None
    print(json_text(report) if args.json is True else text_report(report, quiet=args.quiet),
          end="" if args.json is True else "\n")
    return report.exit_code
