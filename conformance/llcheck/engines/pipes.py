"""The three pipes to an engine program, each guarded against what a broken program can do.

Answers are read as lines of at most `MAX_LINE` bytes, each waited for at most a given time;
requests are written without ever blocking longer than the same limit (a program that stops
reading cannot stall the harness); stderr is drained all the time by a thread that keeps only
its last few kilobytes (a program that floods it can neither block nor fill the harness's
memory). Text the engine wrote is passed through `printable` before it reaches a report.
"""

from __future__ import annotations

import os
import re
import selectors
import threading
import time

from loveletter_ref.errors import escape_controls

MAX_LINE = 16 << 20
"""The longest answer accepted, in bytes (a runaway engine must not exhaust memory)."""

STDERR_TAIL = 8 << 10
"""Bytes of the engine's stderr kept, to quote a line of it when it fails."""

ERROR_LINE = re.compile(r"\s*(?:Uncaught |Exception in thread |thread '[^']*' panicked|panic:|fatal error:"
                        r"|FATAL|[\w.$]*(?:Error|Exception)\b)")
"""A stderr line that states an error: an exception (Python, Node, Java, .NET), a Go or Rust panic."""

def printable(text: str, limit: int = 300) -> str:
    """`text` as one safe line: whitespace runs as one space, control characters escaped, at most
    `limit` characters (the cut says how much was left out)."""
    safe = escape_controls(" ".join(text.split()))
    if len(safe) > limit:
        return f"{safe[:limit]}... ({len(safe) - limit} more characters)"
    return safe


class PipeTimeout(TimeoutError):
    """Nothing could be read or written within the time allowed."""


class LineReader:
    """Reads newline-terminated lines from a pipe, waiting at most a given time for each."""

    def __init__(self, fd: int, max_line: int = MAX_LINE):
        self.fd = fd
        self.max_line = max_line
        self.buffer = bytearray()
        self.selector = selectors.DefaultSelector()
        self.selector.register(fd, selectors.EVENT_READ)

    def readline(self, timeout: float) -> bytes:
        """The next non-blank line: PipeTimeout, EOFError, or LineTooLong when it is too long."""
        deadline = time.monotonic() + timeout
        searched = 0
        while True:
            end = self.buffer.find(b"\n", searched)
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[:end + 1]
                searched = 0
                if line.strip():
                    return line
                continue
            searched = len(self.buffer)
            if searched > self.max_line:
                raise LineTooLong(self.max_line)
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.selector.select(remaining):
                raise PipeTimeout
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                raise EOFError
            self.buffer += chunk

    def pending(self) -> int:
        """Bytes read after the last complete line (a partial answer)."""
        return len(self.buffer.strip())

    def fill(self) -> None:
        """Read what the pipe holds now into the buffer, without waiting (lines are taken out by
        `readline`). Nothing is read once the buffer holds more than the line limit: a program
        that writes without being read must then wait, as the harness does (it stops at its
        timeout). EOFError when the pipe is closed."""
        if len(self.buffer) > self.max_line:
            return
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            raise EOFError
        self.buffer += chunk

    def close(self) -> None:
        """Stop watching the pipe."""
        self.selector.close()


class LineTooLong(ValueError):
    """The engine wrote more than the line limit without a line break."""

    def __init__(self, limit: int):
        super().__init__(f"is longer than {limit >> 20} MiB without a line break")


def write_all(fd: int, data: bytes, timeout: float, answers: LineReader | None = None) -> None:
    """Write `data` to a non-blocking pipe within `timeout` seconds (PipeTimeout, BrokenPipeError).

    With `answers` (the reader of the program's output, when requests are sent before earlier
    answers are read), what the program writes is read into that reader's buffer while the pipe
    is full: a program blocked writing its answers stops reading, and both would wait forever."""
    deadline = time.monotonic() + timeout
    view = memoryview(data)
    selector: selectors.BaseSelector | None = None  # made only when the pipe is full: most writes need none
    try:
        while view:
            try:
                view = view[os.write(fd, view):]
                continue
            except BlockingIOError:
                pass
            if selector is None:
                selector = selectors.DefaultSelector()
                selector.register(fd, selectors.EVENT_WRITE)
                if answers is not None:
                    selector.register(answers.fd, selectors.EVENT_READ)
            remaining = deadline - time.monotonic()
            ready = selector.select(remaining) if remaining > 0 else []
            if not ready:
                raise PipeTimeout
            if answers is not None and any(key.fd == answers.fd for key, _ in ready):
                answers.fill()
    finally:
        if selector is not None:
            selector.close()


class StderrTail(threading.Thread):
    """Drains the engine's stderr (free text) and keeps its last kilobytes for error messages."""

    def __init__(self, fd: int):
        super().__init__(daemon=True, name="llcheck-engine-stderr")
        self.fd = fd
        self.tail = bytearray()
        self.total = 0
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.start()

    def run(self) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self.fd, selectors.EVENT_READ)
            while not self.stopping.is_set():
                if not selector.select(0.2):
                    continue
                try:
                    chunk = os.read(self.fd, 1 << 16)
                except OSError:  # the pipe was closed under it
                    return
                if not chunk:
                    return
                with self.lock:
                    self.total += len(chunk)
                    self.tail += chunk
                    del self.tail[:-STDERR_TAIL]

    def last(self) -> str:
        """The line of the engine's stderr that best says why it failed, made printable ('' if it
        wrote nothing): the last that looks like an error (`TypeError: ...`, `panic: ...`, see
        `ERROR_LINE`), else the last non-blank one. Runtimes write more after the error (a stack
        trace, Node's version line), so the last line alone rarely says anything."""
        with self.lock:
            text = self.tail.decode("utf-8", "replace")
        lines = [line for line in text.splitlines() if line.strip()]
        errors = [line for line in lines if ERROR_LINE.match(line)]
        return printable((errors or lines or [""])[-1], 200)

    def stop(self, wait: float = 1.0) -> None:
        """Stop draining (at the end of the output, or after `wait` seconds at most)."""
        self.join(timeout=wait)
        self.stopping.set()
        self.join(timeout=0.5)
