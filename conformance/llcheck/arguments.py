"""Command-line argument types shared by the subcommands: every number a command takes has a
documented range (docs/robustness.md, "Numeric arguments"), checked as the arguments are parsed,
before any work starts."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

MAX_SECONDS = 1_000_000.0
"""The longest time limit taken (about eleven days): beyond it, timers overflow."""

MAX_JOBS = 256
"""Most worker processes any command starts."""

MAX_GAMES = 1_000_000_000
"""Most games (simulated, fuzzed, recorded or searched) one command plays."""

MAX_SEED = 2**64 - 1
"""Largest seed: every seed is a whole number from 0 to 2**64 - 1."""

MAX_MEMORY_MIB = 1 << 20
"""Largest engine memory cap, in MiB (1 TiB): beyond it the kernel's limit overflows."""

MAX_PLAYERS = 99
"""Largest player count taken (each edition then allows its own range)."""

MAX_DIGITS = 30
"""Longest number taken, in digits: longer text is refused before it is converted."""


def seconds(text: str) -> float:
    """A time limit in seconds: a positive, finite number up to MAX_SECONDS."""
    try:
        value = float(text) if len(text) <= MAX_DIGITS else float("nan")
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {_shown(text)}") from None
    if not 0 < value <= MAX_SECONDS:  # false for NaN too
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0 and at most "
                                         f"{MAX_SECONDS:,.0f}, not {_shown(text)}")
    return value


def whole(low: int, high: int, unit: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high` (`unit` names what it counts)."""
    def parse(text: str) -> int:
        try:
            value = int(text) if len(text.strip()) <= MAX_DIGITS else None
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number{unit and ' of ' + unit} from {low:,} "
                                             f"to {high:,}, not {_shown(text)}")
        return value

    parse.__name__ = "whole number"  # argparse names the type by it in its own messages
    return parse


def _shown(text: str) -> str:
    """An argument as a message quotes it: repr, cut to 40 characters."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + f"... ({len(text):,} characters)"


SEED = whole(0, MAX_SEED)
JOBS = whole(1, MAX_JOBS)
GAMES = whole(1, MAX_GAMES, "games")
ROUNDS = whole(0, MAX_GAMES, "rounds")
"""A count of rounds to play, 0 for none (`probe --playouts`)."""
PLAYERS = whole(1, MAX_PLAYERS, "players")
SEAT = whole(0, MAX_PLAYERS - 1)
"""A player's seat at the table, from 0."""


MAX_RLIMIT = 2**32 - 1
"""The largest z3 resource limit (z3 takes an unsigned 32-bit count)."""

Z3_UNITS = whole(1, MAX_RLIMIT, "z3 resource units")
"""A z3 resource limit (`rlimit` units, a count of solver steps, the same on any machine)."""
def is_file(value: str) -> bool:
    """True when `value` names an existing file (False for a name the system cannot take)."""
    try:
        return Path(value).is_file()
    except (OSError, ValueError):  # a name too long, a NUL byte
        return False
