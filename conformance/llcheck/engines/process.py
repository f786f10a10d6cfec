"""Starting an engine program and making sure that it, and everything it started, ends.

The program runs without a shell, in its own session and process group, with the working
directory and environment the user asked for and the resource limits of docs/robustness.md:
no core files, a cap on its data memory, and (on Linux) death with the harness. Every process
it starts inherits a mark in its environment (`LLCHECK_ENGINE_RUN`), so that a kill reaches the
children that left its process group too. Whatever is still running when the harness exits is
killed then.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

try:
    import resource
except ImportError:  # not on Windows: no limits there
    resource = None  # type: ignore[assignment]

MARK = "LLCHECK_ENGINE_RUN"
"""The environment variable that marks every process an engine program starts."""

DEFAULT_MEMORY_MIB = 4096
"""The default cap on an engine's data memory (RLIMIT_DATA), in MiB."""

_PR_SET_PDEATHSIG = 1
_PROC = Path("/proc")


@dataclass(frozen=True)
class Launch:
    """How an engine program is started.

    `env` is added to (and overrides) the harness's own environment; `memory_mib` caps the
    program's data memory (heap and private mappings, not reserved address space, so that
    runtimes reserving large address ranges, like the JVM, V8 or Go, still start); None is no cap.
    """

    cwd: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    memory_mib: int | None = DEFAULT_MEMORY_MIB


class EngineProcess:
    """A running engine program, with the pipes to it, and the means to end all it started."""

    def __init__(self, argv: list[str], launch: Launch):
        self.mark = uuid.uuid4().hex
        env = {**os.environ, **launch.env, MARK: self.mark}
        start = _child_setup(launch.memory_mib, os.getpid())
        self.popen = _launcher().submit(
            subprocess.Popen, argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=launch.cwd, env=env, start_new_session=True, preexec_fn=start).result()
        _LIVE.add(self)
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        os.set_blocking(self.popen.stdin.fileno(), False)

    def kill(self) -> None:
        """Kill the program's process group and every other process carrying its mark."""
        if hasattr(os, "killpg"):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.popen.pid, signal.SIGKILL)
        if self.popen.poll() is None:
            self.popen.kill()
        for _ in range(10):
            strays = marked(self.mark)
            if not strays:
                break
            for pid in strays:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)

    def end_input(self) -> None:
        """Close the program's standard input (the end of input, which it treats like stop)."""
        if self.popen.stdin is not None:
            with contextlib.suppress(OSError):
                self.popen.stdin.close()

    def release(self) -> None:
        """Once the program is dead: forget it and close the harness's ends of its pipes."""
        _LIVE.discard(self)
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


def marked(mark: str) -> list[int]:
    """The running processes whose environment carries `mark` (Linux; elsewhere none are found)."""
    needle = f"{MARK}={mark}".encode()
    found = []
    for entry in _proc_entries():
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:  # gone, or not ours to read
            continue
        if needle in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


def _proc_entries() -> list[Path]:
    if not _PROC.is_dir():
        return []
    own = str(os.getpid())
    return [entry for entry in _PROC.iterdir() if entry.name.isdigit() and entry.name != own]


def _child_setup(memory_mib: int | None, harness: int) -> Callable[[], None] | None:
    """What the new process runs before the program: its limits, computed here beforehand."""
    if resource is None:
        return None
    limits = [(resource.RLIMIT_CORE, 0)]
    if memory_mib is not None:
        limits.append((resource.RLIMIT_DATA, memory_mib << 20))
    settings = [(which, _within_hard(which, value)) for which, value in limits]
    prctl = _prctl()

    def setup() -> None:
        for which, value in settings:
            resource.setrlimit(which, value)
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != harness:  # the harness died before the line above
                os._exit(1)

    return setup


def _within_hard(which: int, value: int) -> tuple[int, int]:
    """(soft, hard) limits setting `value`, kept within the hard limit the harness has."""
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    return value, hard


def _prctl() -> Callable[..., int] | None:
    """libc's prctl on Linux (for the parent-death signal), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return function


_LIVE: set[EngineProcess] = set()
"""Engine programs this process started and has not yet released, killed when it exits (a forked
worker starts with none: those of the process it was forked from are not its own to kill)."""

if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_LIVE.clear)

_launchers: dict[int, ThreadPoolExecutor] = {}
_launchers_lock = threading.Lock()


def _launcher() -> ThreadPoolExecutor:
    """The one thread of this process that starts engines.

    The parent-death signal of a child fires when the *thread* that started it ends; starting
    every engine from one thread that lives as long as the harness makes it fire with the harness.
    """
    with _launchers_lock:
        pid = os.getpid()
        if pid not in _launchers:  # first use, or a forked child of the harness
            _launchers[pid] = ThreadPoolExecutor(max_workers=1, thread_name_prefix="llcheck-engine-launcher")
        return _launchers[pid]


@atexit.register
def kill_leftovers() -> None:
    """Kill every engine program (and what it started) this process started that still runs:
    when the harness exits, or a worker process is ended."""
    for process in list(_LIVE):
        process.kill()
