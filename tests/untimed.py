"""Reports with their timings left out, to compare two runs of the same command."""

from __future__ import annotations

from typing import Any


def untimed(report: Any) -> Any:
    """A JSON report with what differs between two runs of the same command left out: when it
    started, how long things took (`seconds`, `build_seconds`, ...). The rest must match."""
    if isinstance(report, dict):
        return {key: untimed(value) for key, value in report.items()
                if key != "started" and not key.endswith("seconds")}
    if isinstance(report, list):
        return [untimed(value) for value in report]
    return report
