"""Where the harness's language-neutral data lives: the case corpus, schemas, tables, examples."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def conformance_dir() -> Path:
    """The `conformance/` folder: beside this package in a checkout, inside it once installed.

    A wheel carries the data as `llcheck/_data/` (pyproject's force-include); a checkout and an
    editable install read the folder this package sits in, so both find the same files."""
    bundled = _HERE / "_data"
    return bundled if bundled.is_dir() else _HERE.parent
