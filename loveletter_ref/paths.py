"""Where the bundled data lives: specs, schemas and the conformance corpus."""

from __future__ import annotations

import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def data_root() -> Path:
    """The folder holding `spec/` and `conformance/` (the checkout, or the installed copy)."""
    bundled = _HERE / "_data"
    return bundled if bundled.is_dir() else _HERE.parent


def spec_dir() -> Path:
    """The `spec/` folder."""
    return data_root() / "spec"


def conformance_dir() -> Path:
    """The `conformance/` folder."""
    return data_root() / "conformance"


def rulebooks_dir() -> Path | None:
    """The shared rulebooks folder: $LLCHECK_RULEBOOKS, else ../shared/rulebooks next to the checkout."""
    env = os.environ.get("LLCHECK_RULEBOOKS")
    candidates = [Path(env)] if env else []
    candidates.append(data_root().parent / "shared" / "rulebooks")
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return None
