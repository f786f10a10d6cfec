"""A minimal progress bar on stderr, shown only on a terminal."""

from __future__ import annotations

import sys
import time


class Progress:
    """Draws `[#####.....] done/total label` at most ten times a second."""

    def __init__(self, total: int, label: str, enabled: bool | None = None):
        self.total = max(total, 1)
        self.planned = total
        self.done = 0
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.start = time.monotonic()
        self.last = 0.0

    def update(self, done: int) -> None:
        """Redraw if enough time has passed (or at the end)."""
        self.done = done
        now = time.monotonic()
        if not self.enabled or (done < self.total and now - self.last < 0.1) or now - self.start < 0.5:
            return
        self.last = now
        width = 30
        filled = width * done // self.total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} {self.label}")
        sys.stderr.flush()

    def left(self) -> str:
        """What is not done yet, as a stopped command reports it (`interrupts.unfinished`)."""
        return f"{self.planned - self.done} of {self.planned} {self.label}"

    def close(self) -> None:
        """Erase the bar."""
        if self.enabled and time.monotonic() - self.start >= 0.5:
            sys.stderr.write("\r" + " " * 70 + "\r")
            sys.stderr.flush()


class Status:
    """One line on stderr saying what a long command is doing now, rewritten in place; shown only
    on a terminal, and erased at the end."""

    def __init__(self, enabled: bool | None = None):
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.width = 0

    def __call__(self, text: str) -> None:
        """Say what is being done now."""
        if self.enabled:
            line = text[:100]
            sys.stderr.write("\r" + line.ljust(self.width))
            sys.stderr.flush()
            self.width = len(line)

    def close(self) -> None:
        """Erase the line."""
        if self.enabled and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
            self.width = 0
