"""The Dask worker plugin of `--cluster` (loaded only with dask.distributed, by llcheck.cluster)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from distributed import WorkerPlugin


class Cleanup(WorkerPlugin):
    """Runs `cleanup` (ending the engine programs the worker started) when a worker closes: a
    worker process exits without running atexit handlers."""

    def __init__(self, cleanup: Callable[[], None]):
        self.cleanup = cleanup

    def teardown(self, worker: Any) -> None:
        self.cleanup()
