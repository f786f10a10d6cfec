"""Verdicts and witnesses do not depend on the machine's load or on Python's hash seed: z3 works
within resource limits (counts of solver steps) and the searches within counts of games."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

BUSY = "while True: pass"
"""A process that keeps one core busy."""

PAIR = ["disputes", "nl-2019-classic-variant", "classic", "--games", "5", "--json"]
"""A pair settled with z3 proofs, searched witnesses and clauses settled on their own (where the
reading's silences cut its games short), small enough for CI."""


@contextmanager
def cpu_load(processes: int) -> Iterator[None]:
    """Busy subprocesses competing for the CPU while the block runs."""
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(processes)]
    try:
        yield
    finally:
        for process in busy:
            process.kill()
            process.wait()


def settle(hash_seed: str) -> bytes:
    """The JSON `llcheck disputes` prints for PAIR, from a fresh process."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-m", "llcheck", *PAIR], capture_output=True, env=env, check=False)
    assert done.returncode in (0, 1), done.stderr.decode()
    return done.stdout


def test_a_pair_settles_to_the_same_bytes_idle_and_under_cpu_load():
    idle = settle("1")
    with cpu_load(os.cpu_count() or 1):
        loaded = settle("2")
    assert b'"proof"' in idle and b'"witness"' in idle  # z3 and the search both had a say
    assert b'"alone"' in idle
    assert loaded == idle
