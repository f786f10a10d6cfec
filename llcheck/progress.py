"""A minimal progress bar on stderr, shown only on a terminal."""

from __future__ import annotations

import sys
import time


class Progress:
    """Draws `[#####.....] done/total label` at most ten times a second."""

    def __init__(self, total: int, label: str, enabled: bool | None = None):
        self.total = max(total, 1)
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.start = time.monotonic()
        self.last = 0.0

    def update(self, done: int) -> None:
        """Redraw if enough time has passed (or at the end)."""
        now = time.monotonic()
        if not self.enabled or (done < self.total and now - self.last < 0.1) or now - self.start < 0.5:
            return
        self.last = now
        width = 30
        filled = width * done // self.total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} {self.label}")
        sys.stderr.flush()

    def close(self) -> None:
        """Erase the bar."""
        if self.enabled and time.monotonic() - self.start >= 0.5:
            sys.stderr.write("\r" + " " * 70 + "\r")
            sys.stderr.flush()
