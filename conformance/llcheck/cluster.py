"""Work run as tasks on a Dask cluster (`--cluster ADDRESS`, docs/scale.md): the seam `--jobs`
uses (`workers.as_done`), with the same items, the same answers and the same order of report.

`ADDRESS` is a scheduler's (`tcp://host:8786`, `host:8786`), or `local:N`, which starts a cluster of
N single-threaded worker processes on this machine for the run. Each item is one task, sent to
the workers with the work to do on it (pickled: a spec, the engine command, the options); its
answer comes back as it is done. A task whose worker dies is started again on another by the
scheduler (a note on stderr names it); one whose workers keep dying (Dask's `allowed-failures`)
gets the answer `died` gives. A stopped run (Ctrl-C) cancels the tasks not done and keeps the
answers already given. Dask is an optional dependency (`pip install 'loveletter-conformance[cluster]'`).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
import uuid
import warnings
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any, TypeVar

from .errors import UsageError

Item = TypeVar("Item")
Answer = TypeVar("Answer")

LOCAL = "local:"
"""`--cluster local:N`: a cluster of N workers started on this machine for the run."""

MAX_LOCAL = 256
"""The most workers `local:N` starts (as --jobs: beyond it, a typing slip)."""

CONNECT_SECONDS = 10
"""How long a scheduler is given to answer when the run connects to it."""

EVENTS = "llcheck-task"
"""The Dask event topic each task logs its start under, so that a retried task can be named."""


def address(text: str) -> str:
    """A `--cluster` value: `local:N` with N from 1 to MAX_LOCAL, or a scheduler address."""
    if text.startswith(LOCAL):
        count = text[len(LOCAL):]
        if not (count.isascii() and count.isdigit()) or not 1 <= int(count) <= MAX_LOCAL:
            raise argparse.ArgumentTypeError(f"local:N takes a number of workers from 1 to {MAX_LOCAL}, "
                                             f"not {text!r}")
        return text
    if not text.strip() or any(c.isspace() for c in text):
        raise argparse.ArgumentTypeError(f"expected a scheduler address (tcp://HOST:PORT) or local:N, "
                                         f"not {text!r}")
    return text


def add_argument(parser: argparse.ArgumentParser | argparse._ArgumentGroup, what: str) -> None:
    """The `--cluster ADDRESS` option of a command, running `what` as tasks."""
    parser.add_argument("--cluster", type=address, metavar="ADDRESS",
                        help=f"run {what} as tasks on the Dask cluster whose scheduler is at ADDRESS "
                             "(tcp://HOST:PORT), or on N local worker processes with local:N; the report "
                             "is the same as in one process (docs/scale.md; needs the [cluster] extra)")


def require(cluster: str | None) -> None:
    """UsageError before anything runs when --cluster is given and Dask cannot be loaded."""
    if cluster is not None:
        _distributed()


def _distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise UsageError(f"--cluster needs dask.distributed ({exc}): pip install "
                         "'loveletter-conformance[cluster]'") from None
    return distributed


def on_cluster(cluster: str, work: Callable[[Item], Answer], items: Sequence[Item], *,
               first: Callable[[Item], Any] | None, cleanup: Callable[[], None] | None,
               died: Callable[[Item, int | None], Answer]) -> Generator[tuple[int, Answer], None, None]:
    """`(index, work(item))` for every item, as each task finishes, on the cluster at `cluster`:
    submitted in the order `first` sorts them by (higher priority first), each worker running
    `cleanup` when it closes. An item whose task killed its workers is answered `died(item, None)`;
    an exception `work` raises is raised here. Leaving early (Ctrl-C) cancels what is not done."""
    if not items:
        return
    distributed = _distributed()
    order = sorted(range(len(items)), key=lambda i: first(items[i])) if first else list(range(len(items)))
    run = f"llcheck-{uuid.uuid4().hex}"  # task keys of their own, on a scheduler other runs share
    with _client(distributed, cluster) as client:
        if cleanup is not None:
            from .cluster_cleanup import Cleanup  # it needs dask.distributed

            client.register_plugin(Cleanup(cleanup), name="llcheck-cleanup")
        futures = {client.submit(_task, work, items[index], run, index, key=f"{run}-{index}", pure=False,
                                 priority=len(order) - rank): index
                   for rank, index in enumerate(order)}
        try:
            for future in distributed.as_completed(futures):
                index = futures[future]
                try:
                    answer = future.result()
                except distributed.KilledWorker:
                    answer = died(items[index], None)
                yield index, answer
        finally:
            client.cancel([future for future in futures if not future.done()])
            _say_retried(client, run, len(items))


def _task(work: Callable[[Item], Answer], item: Item, run: str, index: int) -> Answer:
    """On a worker: note the start (`EVENTS`), then do the work."""
    from distributed import get_worker

    worker = get_worker()
    worker.log_event(EVENTS, {"run": run, "index": index, "worker": worker.address})
    # the worker's own threads use the random module while hypothesis draws; nothing is drawn from it
    warnings.filterwarnings("ignore", message="Do not use the `random` module inside strategies")
    return work(item)


def _say_retried(client: Any, run: str, tasks: int) -> None:
    """A note on stderr for each task of `run` started more than once (its worker was lost)."""
    with contextlib.suppress(Exception):  # the scheduler may be gone already: the note is all that is lost
        started: dict[int, list[str]] = {}
        for _, event in client.get_events(EVENTS):
            if event.get("run") == run:
                started.setdefault(event["index"], []).append(event["worker"])
        for index, workers in sorted(started.items()):
            if len(workers) > 1:
                print(f"llcheck: cluster: task {index + 1} of {tasks} was started again after its worker "
                      f"was lost (on {', '.join(workers)}); its answer is the last run's", file=sys.stderr)


@contextlib.contextmanager
def _client(distributed: Any, cluster: str) -> Iterator[Any]:
    """A client of the scheduler at `cluster`, or of a local cluster started for the block
    (UsageError when the scheduler cannot be reached)."""
    if cluster.startswith(LOCAL):
        with distributed.LocalCluster(n_workers=int(cluster[len(LOCAL):]), threads_per_worker=1,
                                      processes=True, dashboard_address=None,
                                      silence_logs=logging.ERROR) as local, \
                distributed.Client(local) as client:
            yield client
        return
    try:
        client = distributed.Client(cluster, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"--cluster {cluster}: cannot reach the scheduler ({exc})") from None
    with client:
        yield client
