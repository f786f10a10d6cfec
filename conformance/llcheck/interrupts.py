"""The signals that stop a run: Ctrl-C (SIGINT), SIGTERM and SIGHUP all end it the same way.

While cases run (`polled`), the first signal only asks the run to stop: the runner kills the
engines, keeps every verdict already reached, and the reports are written as for a finished run.
A second signal, or a first one while anything else runs (starting the engine, properties,
fuzzing), raises KeyboardInterrupt at once, as Ctrl-C does in any Python program. While the
reports are written (`held`), signals are noted and otherwise wait until they are done.

Every command that stops on a signal says what it did not run: the work it was doing declares
itself with `unfinished`, and the command line prints `not_run()` with the exit code 130. A z3
solver would swallow Ctrl-C (it answers "unknown" and the run goes on) and hold off any other
signal until it returns: `watch_solvers` makes every stop signal interrupt it instead.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
"""The signals that stop a run (those the platform has, and the user has not told to ignore)."""


_ACTIVE: list[StopSignals] = []
"""The StopSignals handling signals now (innermost last)."""

_NOT_RUN: list[str] = []
"""What the innermost work a stop interrupted had left undone (`unfinished`), once it was stopped."""


@contextlib.contextmanager
def unfinished(describe: Callable[[], str]) -> Iterator[None]:
    """Within the block, a stop (KeyboardInterrupt) notes `describe()`: what of the block's work
    is not done yet, as the innermost such block tells it."""
    try:
        yield
    except KeyboardInterrupt:
        if not _NOT_RUN:
            _NOT_RUN.append(describe())
        raise


def not_run() -> str | None:
    """What the stopped work had left undone, once (None when no work declared itself)."""
    return _NOT_RUN.pop() if _NOT_RUN else None


def watch_solvers() -> None:
    """Make a stop signal interrupt a z3 solver at once (main thread only; idempotent). The
    signal's own handler runs as soon as the solver returns, with its answer "unknown" unused."""
    if threading.current_thread() is not threading.main_thread() or _WATCHING:
        return
    reader, writer = os.pipe()
    os.set_blocking(writer, False)
    signal.set_wakeup_fd(writer, warn_on_full_buffer=False)
    _WATCHING.append(writer)
    threading.Thread(target=_interrupt_solvers, args=(reader,), name="llcheck-signals", daemon=True).start()


_WATCHING: list[int] = []
"""The write end of the wakeup pipe, once `watch_solvers` ran."""


def _interrupt_solvers(reader: int) -> None:
    """Wait for signals (their numbers come through the wakeup pipe); interrupt z3 on a stop signal."""
    stops = {getattr(signal, name) for name in STOP_SIGNALS if hasattr(signal, name)}
    while True:
        try:
            numbers = os.read(reader, 64)
        except OSError:
            return
        z3 = sys.modules.get("z3")
        if z3 is not None and stops.intersection(numbers):
            z3.main_ctx().interrupt()


def forget_solvers() -> None:
    """In a forked worker: signals no longer wake the parent's watcher."""
    if _WATCHING:
        signal.set_wakeup_fd(-1)


def real_interrupt() -> bool:
    """Whether a KeyboardInterrupt being handled now may come from a real stop signal: only in the
    main thread (signals reach no other), and there, when no StopSignals watches or one has seen a
    signal. Otherwise it is an in-process adapter's own (`raise KeyboardInterrupt` in its code)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    return not _ACTIVE or any(watcher.received is not None for watcher in _ACTIVE)


class StopSignals:
    """Handles the stop signals while active (a no-op outside the main thread)."""

    def __init__(self) -> None:
        self.requested = threading.Event()
        self.received: str | None = None
        self.left: str | None = None
        """What the stopped run did not run, when the command says (`check`)."""
        self.mode = "raise"
        self.saved: dict[int, Any] = {}

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for name in STOP_SIGNALS:
                number = getattr(signal, name, None)
                if number is not None and signal.getsignal(number) is not signal.SIG_IGN:  # nohup stays
                    self.saved[number] = signal.signal(number, self._handle)
            _ACTIVE.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        if self in _ACTIVE:
            _ACTIVE.remove(self)
        for number, handler in self.saved.items():
            signal.signal(number, handler)
        self.saved.clear()

    @contextlib.contextmanager
    def polled(self) -> Iterator[threading.Event]:
        """Within the block the first signal only sets the event returned."""
        self.mode = "poll"
        try:
            yield self.requested
        finally:
            self.mode = "raise"

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Within the block signals are only noted."""
        self.mode = "hold"
        try:
            yield
        finally:
            self.mode = "raise"

    def _handle(self, number: int, frame: FrameType | None) -> None:
        """Note the signal; stop the run as the current mode says."""
        self.received = self.received or signal.Signals(number).name
        first = not self.requested.is_set()
        self.requested.set()
        if self.mode == "hold" or (self.mode == "poll" and first):
            return
        raise KeyboardInterrupt
