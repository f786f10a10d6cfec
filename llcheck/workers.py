"""Work shared among worker processes (`--jobs`), which end at once when the run is stopped.

A stop signal (Ctrl-C, SIGTERM, SIGHUP) is for the main process alone: the workers ignore Ctrl-C
and hang-ups, and the main process, stopped, ends them with SIGTERM before it goes on. A worker
that started engine programs kills them first (`cleanup`); any other dies at once, even deep in
a solver's C code. A worker still there `END_GRACE` seconds later is killed: a SIGTERM that lands
just as an idle worker starts waiting for work is noted by Python but never acted on, and would
leave the main process waiting for it forever. A run that finishes signals no worker: they are
told there is no more work, and exit.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.pool import Pool
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any, TypeVar

Item = TypeVar("Item")
Answer = TypeVar("Answer")

END_GRACE = 3.0
"""Seconds a worker is given to end (and kill its engine programs) once sent SIGTERM."""


def in_workers(work: Callable[[Item], Answer], items: Sequence[Item], jobs: int, *,
               first: Callable[[Item], Any] | None = None,
               cleanup: Callable[[], None] | None = None) -> Iterator[Answer]:
    """`work(item)` for every item, given in the items' order (`as_done`, each answer held until
    those before it are given): in up to `jobs` worker processes (started in the order `first`
    sorts the items by, when given), or here when there is one job or one item. `work` and the
    items are sent to the workers, so they must pickle."""
    held: dict[int, Answer] = {}
    following = 0
    for index, answer in as_done(work, items, jobs, first=first, cleanup=cleanup):
        held[index] = answer
        while following in held:
            yield held.pop(following)
            following += 1


def as_done(work: Callable[[Item], Answer], items: Sequence[Item], jobs: int, *,
            first: Callable[[Item], Any] | None = None,
            cleanup: Callable[[], None] | None = None) -> Iterator[tuple[int, Answer]]:
    """`(index, work(item))` for every item, as each one finishes (so that a run stopped midway
    keeps all it finished): in up to `jobs` worker processes, started in the order `first` sorts
    the items by, when given; with one job or one item, here and in the items' order."""
    if jobs <= 1 or len(items) <= 1:
        for index, item in enumerate(items):
            yield index, work(item)
        return
    order = sorted(range(len(items)), key=lambda i: first(items[i])) if first else range(len(items))
    with _pool(min(jobs, len(items)), cleanup) as pool:
        pending = {i: pool.apply_async(work, (items[i],)) for i in order}
        while pending:
            finished = [i for i, answer in pending.items() if answer.ready()]
            if not finished:  # a bounded wait, so that a stop signal is handled at once
                next(iter(pending.values())).wait(0.05)
            for i in finished:
                yield i, pending.pop(i).get()


@contextlib.contextmanager
def _pool(processes: int, cleanup: Callable[[], None] | None) -> Iterator[Pool]:
    """Worker processes: forked where that is safe (they start at once, with this process's
    modules), spawned elsewhere. When the block ends they exit, done; when it is left by an
    exception (Ctrl-C, or the caller dropping the answers), they are sent SIGTERM, and those
    still there `END_GRACE` seconds later SIGKILL."""
    methods = multiprocessing.get_all_start_methods()
    method = "fork" if "fork" in methods and sys.platform != "darwin" else "spawn"
    others = set(multiprocessing.active_children())
    pool = multiprocessing.get_context(method).Pool(processes, initializer=_worker_signals,
                                                    initargs=(cleanup,))
    try:
        yield pool
    except BaseException:
        workers = [child for child in multiprocessing.active_children() if child not in others]
        stragglers = threading.Timer(END_GRACE, _kill, (workers,))
        stragglers.start()
        try:
            pool.terminate()  # SIGTERM to each worker, then waits for every one
        finally:
            stragglers.cancel()
        raise
    pool.close()
    pool.join()


def _kill(workers: list[BaseProcess]) -> None:
    """SIGKILL to the workers that are still there."""
    for worker in workers:
        with contextlib.suppress(OSError):
            worker.kill()  # a no-op for one already reaped


def _worker_signals(cleanup: Callable[[], None] | None) -> None:
    """Leave Ctrl-C and hang-ups to the main process; on SIGTERM run `cleanup` and exit. (Not by
    an exception: hypothesis would take it for a failure of the engine, and one raised in a
    garbage-collector callback is lost.)"""
    for name in ("SIGINT", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL if cleanup is None else functools.partial(_ended, cleanup))


def _ended(cleanup: Callable[[], None], number: int, frame: FrameType | None) -> None:
    cleanup()
    os._exit(128 + number)
