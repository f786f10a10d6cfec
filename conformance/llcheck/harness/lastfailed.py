"""`check --lf`: the results that went wrong in the previous run, read from its results stream
(`--results FILE`), as `--run` globs."""

from __future__ import annotations

import json
from fnmatch import fnmatchcase
from pathlib import Path

from ..engines.pipes import printable
from ..errors import UsageError
from .results import BAD


def failed_ids(path: str) -> list[str]:
    """The ids of the failed, errored and unexpectedly passing results in a results stream (a
    missing file has none); UsageError naming FILE:LINE for a line that is not one of its lines."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"--lf: cannot read {printable(path)}: {getattr(exc, 'strerror', None) or exc}") \
            from None
    ids: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            record = json.loads(line)
            kind = record["type"]
        except (ValueError, TypeError, KeyError):
            raise UsageError(f"{printable(path)}:{number}: not a line of a results stream (check "
                             "--results): --lf reads the previous run's results from it") from None
        if kind in ("result", "golden") and record.get("status") in BAD and isinstance(record.get("id"), str):
            ids.append(record["id"])
    return list(dict.fromkeys(ids))


def escaped(case_id: str) -> str:
    """A --run glob matching exactly `case_id`."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in case_id)


def rerun(failed: list[str], run: list[str]) -> list[str]:
    """The --run globs of a --lf run: each failed id that the given --run globs (if any) take."""
    return [escaped(i) for i in failed if not run or any(fnmatchcase(i, glob) for glob in run)]
