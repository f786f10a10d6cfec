"""Work shared among worker processes (`--jobs`), which end at once when the run is stopped.

Each worker has a pipe of its own to the main process, which hands it one item at a time: no lock
or queue is shared, so a worker ended at any moment (even while it sends an answer) cannot leave
the others or the main process waiting. (multiprocessing.Pool shares two locked queues, and a
worker ended while holding one of their locks hung the run.)

A stop signal (Ctrl-C, SIGTERM, SIGHUP) is for the main process alone: the workers ignore Ctrl-C
and hang-ups, and the main process, stopped, ends them with SIGTERM before it goes on. A worker
that started engine programs kills them first (`cleanup`); any other dies at once, even deep in
a solver's C code. One still there `END_GRACE` seconds later is killed (a SIGTERM that lands just
as an idle worker starts waiting for work is noted by Python but never acted on). A run that
finishes signals no worker: each is told there is no more work, and exits.

A worker that dies while working (killed, out of memory, a crash in C code) is replaced; the item
it held gets the answer `died` gives, or the run ends with `WorkerDied`.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any, TypeVar, cast

from .interrupts import forget_solvers

Item = TypeVar("Item")
Answer = TypeVar("Answer")

END_GRACE = 3.0
"""Seconds a worker is given to end (and kill its engine programs) once sent SIGTERM."""


class WorkerDied(Exception):
    """A worker process died while working on an item (and no `died` answer was given for it)."""

    def __init__(self, exitcode: int | None, option: str = "--jobs"):
        super().__init__(f"a worker process of {option} died while working ({ended(exitcode)})")
        self.exitcode = exitcode


def ended(exitcode: int | None) -> str:
    """How a process ended, in words (`exit code 1`, `killed by SIGKILL`)."""
    if exitcode is None:
        return "its exit code unknown"
    if exitcode >= 0:
        return f"exit code {exitcode}"
    with contextlib.suppress(ValueError):
        return f"killed by {signal.Signals(-exitcode).name}"
    return f"killed by signal {-exitcode}"


def in_workers(work: Callable[[Item], Answer], items: Sequence[Item], jobs: int, *,
               first: Callable[[Item], Any] | None = None,
               cleanup: Callable[[], None] | None = None, cluster: str | None = None) -> Iterator[Answer]:
    """`work(item)` for every item, given in the items' order (`as_done`, each answer held until
    those before it are given): in up to `jobs` worker processes (started in the order `first`
    sorts the items by, when given), or here when there is one job or one item, or as tasks on
    `cluster`. `work` and the items are sent to the workers, so they must pickle."""
    held: dict[int, Answer] = {}
    following = 0
    for index, answer in as_done(work, items, jobs, first=first, cleanup=cleanup, cluster=cluster):
        held[index] = answer
        while following in held:
            yield held.pop(following)
            following += 1


def as_done(work: Callable[[Item], Answer], items: Sequence[Item], jobs: int, *,
            first: Callable[[Item], Any] | None = None, cleanup: Callable[[], None] | None = None,
            died: Callable[[Item, int | None], Answer] | None = None, cluster: str | None = None,
            ) -> Generator[tuple[int, Answer], None, None]:
    """`(index, work(item))` for every item, as each one finishes (so that a run stopped midway
    keeps all it finished): in up to `jobs` worker processes, started in the order `first` sorts
    the items by, when given; with one job or one item, here and in the items' order; with a
    `cluster` address, as tasks there (`llcheck.cluster`, whatever `jobs` says). An item whose
    worker dies is answered `died(item, exit code)` (WorkerDied without it)."""
    if cluster is not None:
        from .cluster import on_cluster  # it brings dask.distributed

        yield from on_cluster(cluster, work, items, first=first, cleanup=cleanup,
                              died=died or _died_on_cluster)
        return
    if jobs <= 1 or len(items) <= 1:
        for index, item in enumerate(items):
            yield index, work(item)
        return
    todo = collections.deque(sorted(range(len(items)), key=lambda i: first(items[i])) if first
                             else range(len(items)))
    with _Workers(min(jobs, len(items)), cleanup) as workers:
        busy: dict[Connection, int] = {}
        while todo or busy:
            gone: list[tuple[Connection, int]] = []
            for link in workers.idle(busy):
                if not todo:
                    break
                busy[link] = todo.popleft()
                try:
                    link.send((work, items[busy[link]]))
                except OSError:  # the worker died while it waited for work
                    gone.append((link, busy.pop(link)))
            for ready in wait(list(busy), timeout=0.1):  # bounded, so that a stop signal is acted on
                link = cast(Connection, ready)
                try:
                    worked, answer = link.recv()
                except (EOFError, OSError):  # the worker is gone
                    gone.append((link, busy.pop(link)))
                    continue
                index = busy.pop(link)
                if not worked:
                    raise answer
                yield index, answer
            for link, index in gone:
                exitcode = workers.replace(link)
                if died is None:
                    raise WorkerDied(exitcode)
                yield index, died(items[index], exitcode)


def _died_on_cluster(item: object, exitcode: int | None) -> Any:
    raise WorkerDied(exitcode, "--cluster")


class _Workers:
    """Worker processes, each with its own pipe; forked where that is safe (they start at once,
    with this process's modules), spawned elsewhere."""

    def __init__(self, count: int, cleanup: Callable[[], None] | None):
        methods = multiprocessing.get_all_start_methods()
        self.context = multiprocessing.get_context("fork" if "fork" in methods and sys.platform != "darwin"
                                                   else "spawn")
        self.cleanup = cleanup
        self.processes: dict[Connection, BaseProcess] = {}
        for _ in range(count):
            self._start()

    def _start(self) -> None:
        mine, theirs = self.context.Pipe()
        start: Any = self.context  # a fork or spawn context (BaseContext declares no Process)
        process = start.Process(target=_serve, args=(theirs, self.cleanup), daemon=True)
        process.start()
        theirs.close()
        self.processes[mine] = process

    def idle(self, busy: dict[Connection, int]) -> list[Connection]:
        """The pipes of the workers not working now."""
        return [link for link in self.processes if link not in busy]

    def replace(self, link: Connection) -> int | None:
        """Start a worker in place of the one at `link`, which is gone; how that one ended."""
        process = self.processes.pop(link)
        link.close()
        process.join(END_GRACE)
        if process.is_alive():  # it closed its pipe, yet lives on
            process.kill()
            process.join()
        self._start()
        return process.exitcode

    def __enter__(self) -> _Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        """Done: tell each worker there is no more work. Stopped (an exception, Ctrl-C, or the
        caller dropping the answers): SIGTERM to each, then SIGKILL to those still there
        `END_GRACE` seconds later."""
        processes = list(self.processes.values())
        if kind is None:
            for link in self.processes:
                with contextlib.suppress(OSError):
                    link.send(None)
        else:
            for process in processes:
                process.terminate()
        deadline = time.monotonic() + END_GRACE
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in processes:
            if process.is_alive():
                process.kill()
                process.join()
        for link in self.processes:
            link.close()


def _serve(link: Connection, cleanup: Callable[[], None] | None) -> None:
    """A worker: `work(item)` for each `(work, item)` received, answered `(True, answer)` or
    `(False, the exception it raised)`, until told there is no more (None) or the pipe closes."""
    _worker_signals(cleanup)
    while True:
        try:
            task = link.recv()
        except (EOFError, OSError):  # the main process is gone
            return
        if task is None:
            return
        work, item = task
        try:
            answer: tuple[bool, Any] = (True, work(item))
        except Exception as exc:  # noqa: BLE001 - raised again in the main process
            answer = (False, exc)
        try:
            link.send(answer)
        except Exception as exc:  # noqa: BLE001 - an answer that does not pickle
            link.send((False, RuntimeError(f"a worker's answer could not be sent back: {exc!r}")))


def _worker_signals(cleanup: Callable[[], None] | None) -> None:
    """Leave Ctrl-C and hang-ups to the main process; on SIGTERM run `cleanup` and exit. (Not by
    an exception: hypothesis would take it for a failure of the engine, and one raised in a
    garbage-collector callback is lost.)"""
    forget_solvers()
    for name in ("SIGINT", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL if cleanup is None else functools.partial(_ended, cleanup))


def _ended(cleanup: Callable[[], None], number: int, frame: FrameType | None) -> None:
    cleanup()
    os._exit(128 + number)
