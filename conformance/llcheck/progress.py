"""What a long command shows on stderr while it works. On a terminal: one bar (rich) with its count,
the time spent and the time left, never wider than the terminal, erased at the end. Off a terminal
(CI logs, a file): one plain line every `every` seconds, so that a log shows life and, when a run
hangs, where."""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from collections.abc import Callable
from typing import IO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.progress import Progress as RichProgress

EVERY = 5.0
"""Seconds between two plain progress lines off a terminal, unless --progress-every or
$LLCHECK_PROGRESS_EVERY says otherwise."""

ENV = "LLCHECK_PROGRESS_EVERY"
"""The variable setting the default of --progress-every for every command (0: no plain lines)."""


def default_every() -> float:
    """$LLCHECK_PROGRESS_EVERY in seconds (0 for none), else EVERY; a value that is no number of
    seconds is ignored."""
    try:
        value = float(os.environ.get(ENV, EVERY))
    except ValueError:
        return EVERY
    return value if 0 <= value < float("inf") else EVERY


def clock(seconds: float) -> str:
    """`1:02:03`, or `2:03` under an hour."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class _Ticker:
    """Calls `say` every `every` seconds from a daemon thread until stopped (none when `every` is 0)."""

    def __init__(self, every: float, say: Callable[[], None]):
        self.every, self.say = every, say
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None
        if every > 0:
            self.thread = threading.Thread(target=self._run, name="llcheck-progress", daemon=True)
            self.thread.start()

    def _run(self) -> None:
        while not self.stopped.wait(self.every):
            self.say()

    def stop(self) -> None:
        self.stopped.set()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join()


class Progress:
    """A count of `total` things done (`label` names them); the count shown never passes the total
    (more done than expected raises the total)."""

    def __init__(self, total: int, label: str, enabled: bool | None = None, every: float | None = None,
                 stream: IO[str] | None = None):
        self.stream = stream or sys.stderr
        self.total, self.label, self.done, self.last = max(total, 0), label, 0, ""
        self.start = time.monotonic()
        terminal = self.stream.isatty() if enabled is None else enabled
        self.lock = threading.Lock()
        self.bar: RichProgress | None = None
        self.ticker: _Ticker | None = None
        if terminal:
            console = Console(file=self.stream, force_terminal=True, highlight=False)
            self.bar = RichProgress(TextColumn("{task.description}"), BarColumn(bar_width=None),
                                    MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("left"),
                                    TimeRemainingColumn(), console=console, transient=True,
                                    refresh_per_second=4)
            self.task = self.bar.add_task(label, total=max(self.total, 1))
            self.bar.start()
        else:
            self.ticker = _Ticker(default_every() if every is None else every, self._line)

    def update(self, done: int, last: str = "") -> None:
        """`done` things are done now, `last` the one just finished."""
        with self.lock:
            self.done, self.last = done, last or self.last
            self.total = max(self.total, done)
            self._redraw()

    def _redraw(self) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done, total=max(self.total, 1))

    def line(self) -> str:
        """The plain progress line: count, time spent, time left, the thing last finished."""
        with self.lock:
            done, total, last = self.done, self.total, self.last
        spent = time.monotonic() - self.start
        text = f"progress: {done}/{total} {self.label}, {clock(spent)} spent"
        if 0 < done < total:
            text += f", about {clock(spent / done * (total - done))} left"
        return text + (f" (last: {last})" if last else "")

    def _line(self) -> None:
        self.stream.write(self.line() + "\n")
        self.stream.flush()

    def left(self) -> str:
        """What is not done yet, as a stopped command reports it (`interrupts.unfinished`)."""
        with self.lock:
            return f"{self.total - self.done} of {self.total} {self.label}"

    def close(self) -> None:
        """Erase the bar, or stop the plain lines."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
        if self.ticker is not None:
            self.ticker.stop()
            self.ticker = None


class Status:
    """One line saying what a long command is doing now: on a terminal rewritten in place (cut to
    the terminal's width) and erased at the end; off a terminal, printed every `every` seconds."""

    def __init__(self, enabled: bool | None = None, every: float | None = None):
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.width = 0
        self.text = ""
        self.start = time.monotonic()
        self.every = default_every() if every is None else every
        self.ticker: _Ticker | None = None

    def __call__(self, text: str) -> None:
        """Say what is being done now (again after `close`: a command may print between)."""
        self.text = text
        if not self.enabled and self.ticker is None:
            self.ticker = _Ticker(self.every, self._line)
        if self.enabled:
            line = text[:max(20, min(100, shutil.get_terminal_size().columns - 1))]
            sys.stderr.write("\r" + line.ljust(self.width))
            sys.stderr.flush()
            self.width = len(line)

    def _line(self) -> None:
        if self.text:
            sys.stderr.write(f"progress: {clock(time.monotonic() - self.start)} spent: {self.text}\n")
            sys.stderr.flush()

    def close(self) -> None:
        """Erase the line, or stop the plain lines."""
        if self.ticker is not None:
            self.ticker.stop()
            self.ticker = None
        if self.enabled and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
            self.width = 0
