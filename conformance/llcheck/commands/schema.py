"""Print a JSON Schema llcheck reads or writes, or where the installed copy is, to point an editor
at it: yaml-language-server takes `# yaml-language-server: $schema=PATH` as a spec file's first
line (--modeline prints that line), VS Code's YAML extension the same or a `yaml.schemas`
setting. Schemas: spec (spec files), case (case files), report (check --json and --results),
baseline (record --out), perft (perft tables), protocol (engine protocol messages), log (the game
logs verify reads)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from loveletter_ref.spec import schema_path as spec_schema

from ..baseline.store import schema_path as baseline_schema
from ..harness.cases import schema_path as case_schema
from ..harness.report import report_schema_path
from ..logs.reading import schema_path as log_schema
from ..perft import schema_path as perft_schema
from ..protocol.schema import schema_path as protocol_schema

SCHEMAS: dict[str, Callable[[], Path]] = {
    "spec": spec_schema, "case": case_schema, "report": report_schema_path, "baseline": baseline_schema,
    "perft": perft_schema, "protocol": protocol_schema, "log": log_schema,
}
"""Each schema by name: the function giving its installed path."""

EXAMPLES = """examples:
  llcheck schema --path                            # the spec schema's installed path
  llcheck schema --modeline > my-edition.yaml      # a new spec file's first line
  llcheck schema case > case.schema.json
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", default="spec", choices=sorted(SCHEMAS), metavar="NAME",
                        help=f"which schema (default spec; choices: {', '.join(SCHEMAS)})")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--path", action="store_true", help="print the installed schema's absolute path")
    shown.add_argument("--modeline", action="store_true",
                       help="print the yaml-language-server line that points a YAML file at the schema")


def run(args: argparse.Namespace) -> int:
    path = SCHEMAS[args.name]().resolve()
    if args.path:
        print(path)
    elif args.modeline:
        print(f"# yaml-language-server: $schema={path}")
    else:
        print(path.read_text(encoding="utf-8"), end="")
    return 0
