"""Command-line argument types shared by the subcommands."""

from __future__ import annotations

import argparse
from pathlib import Path

MAX_SECONDS = 1_000_000.0
"""The longest time limit taken (about eleven days): beyond it, timers overflow."""


def seconds(text: str) -> float:
    """A time limit in seconds: a positive, finite number up to MAX_SECONDS."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not 0 < value <= MAX_SECONDS:  # false for NaN too
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0 and at most "
                                         f"{MAX_SECONDS:,.0f}, not {text!r}")
    return value


def is_file(value: str) -> bool:
    """True when `value` names an existing file (False for a name the system cannot take)."""
    try:
        return Path(value).is_file()
    except (OSError, ValueError):  # a name too long, a NUL byte
        return False
