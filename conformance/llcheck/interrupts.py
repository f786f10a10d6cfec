"""The signals that stop a run: Ctrl-C (SIGINT), SIGTERM and SIGHUP all end it the same way.

While cases run (`polled`), the first signal only asks the run to stop: the runner kills the
engines, keeps every verdict already reached, and the reports are written as for a finished run.
A second signal, or a first one while anything else runs (starting the engine, properties,
fuzzing), raises KeyboardInterrupt at once, as Ctrl-C does in any Python program. While the
reports are written (`held`), signals are noted and otherwise wait until they are done.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
"""The signals that stop a run (those the platform has, and the user has not told to ignore)."""


_ACTIVE: list[StopSignals] = []
"""The StopSignals handling signals now (innermost last)."""


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
