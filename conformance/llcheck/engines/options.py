"""Command-line options saying how an engine program is run: its environment, its working
directory and its memory cap (docs/robustness.md). In-process engines ignore them."""

from __future__ import annotations

import argparse
import os
import re
from typing import Any

from ..arguments import MAX_MEMORY_MIB, whole
from .process import DEFAULT_MEMORY_MIB, MARK, Launch

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def add_arguments(group: Any) -> None:
    """Add --engine-env, --engine-cwd and --engine-memory to a parser or argument group."""
    group.add_argument("--engine-env", action="append", default=[], type=variable, metavar="KEY=VALUE",
                       help="set a variable in the engine's environment, which is otherwise the one "
                            "llcheck runs in (repeatable; reports and replays show it: pass secrets "
                            "through llcheck's own environment instead)")
    group.add_argument("--engine-cwd", type=directory, metavar="DIR",
                       help="the engine's working directory (default: the current one)")
    group.add_argument("--engine-memory", type=whole(0, MAX_MEMORY_MIB, "MiB"), default=DEFAULT_MEMORY_MIB,
                       metavar="MIB",
                       help="cap on the engine's data memory in MiB, 0 for none "
                            f"(default {DEFAULT_MEMORY_MIB})")


def launch(args: argparse.Namespace) -> Launch:
    """The Launch the options describe."""
    return Launch(cwd=args.engine_cwd, env=dict(args.engine_env), memory_mib=args.engine_memory or None)


def described(args: argparse.Namespace) -> dict[str, Any]:
    """The options as a report records them."""
    return {"engine_env": [f"{key}={value}" for key, value in args.engine_env], "engine_cwd": args.engine_cwd,
            "engine_memory_mib": args.engine_memory or None}


def given(args: argparse.Namespace) -> list[str]:
    """The options as the user gave them (those left at their default are left out), for a replay."""
    words = [word for key, value in args.engine_env for word in ("--engine-env", f"{key}={value}")]
    if args.engine_cwd is not None:
        words += ["--engine-cwd", args.engine_cwd]
    if args.engine_memory != DEFAULT_MEMORY_MIB:
        words += ["--engine-memory", str(args.engine_memory)]
    return words


def variable(text: str) -> tuple[str, str]:
    """`KEY=VALUE` as a pair (argparse type)."""
    key, sep, value = text.partition("=")
    if not sep or not _NAME.match(key):
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE with KEY a variable name, not {text!r}")
    if key == MARK:
        raise argparse.ArgumentTypeError(f"{MARK} is set by llcheck itself")
    return key, value


def directory(text: str) -> str:
    """An existing directory (argparse type)."""
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a directory")
    return text
