"""Command-line argument types shared by the subcommands."""

from __future__ import annotations

import argparse

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


MAX_RLIMIT = 2**32 - 1
"""The largest z3 resource limit (z3 takes an unsigned 32-bit count)."""


def rlimit(text: str) -> int:
    """A z3 resource limit (`rlimit` units, a count of solver steps): a whole number from 1 to
    MAX_RLIMIT. Underscores group digits: 30_000_000."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of z3 resource units, "
                                         f"not {text!r}") from None
    if not 0 < value <= MAX_RLIMIT:
        raise argparse.ArgumentTypeError(f"must be a whole number of z3 resource units from 1 to "
                                         f"{MAX_RLIMIT}, not {text!r}")
    return value
