"""In-process adapters for tests/test_cluster.py: the reference engine, with a worker's death."""

from __future__ import annotations

import os
import signal
from collections.abc import Sequence
from pathlib import Path

from llcheck.engines import ReferenceEngine, Reply

MARK = "LLCHECK_TEST_KILLED_MARK"
"""The file whose absence lets KillsItsWorkerOnce kill a worker (it writes it first)."""


def in_dask_worker() -> bool:
    try:
        from distributed import get_worker

        get_worker()
    except (ImportError, ValueError):
        return False
    return True


class KillsItsWorkerOnce(ReferenceEngine):
    """Plays as the reference, but the first three-player game started on a Dask worker kills
    that worker's process (SIGKILL), once per marker file: the task must be run again elsewhere."""

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        mark = Path(os.environ[MARK])
        if players == 3 and in_dask_worker() and not mark.exists():
            mark.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return super().start(edition, players, deck, first_player, tokens)
