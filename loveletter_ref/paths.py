"""Where the bundled rules data lives: the specs and their schema, and the rulebooks they cite."""

from __future__ import annotations

import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def data_root() -> Path:
    """The folder holding `spec/`: the checkout, or the copy a wheel carries (`_data/`)."""
    bundled = _HERE / "_data"
    return bundled if bundled.is_dir() else _HERE.parent


def spec_dir() -> Path:
    """The `spec/` folder."""
    return data_root() / "spec"


def rulebook_dirs() -> tuple[Path, ...]:
    """The folders the rulebook files are looked up in, in order: those $LLCHECK_RULEBOOKS lists
    when set (separated by os.pathsep, ':' on POSIX; whether or not they exist: the quote checks
    report a missing one), else ../shared/rulebooks next to the checkout if present; none: quotes
    are not checked."""
    env = os.environ.get("LLCHECK_RULEBOOKS")
    if env:
        return tuple(Path(part) for part in env.split(os.pathsep) if part)
    shared = data_root().parent / "shared" / "rulebooks"
    return (shared,) if shared.is_dir() else ()
