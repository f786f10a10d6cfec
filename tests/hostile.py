"""Helpers for the tests of the zoo of badly behaved engines (tests/engines/hostile/)."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).parent
ZOO = TESTS / "engines" / "hostile"
CORPUS = str(TESTS / "cases")
PROC = Path("/proc")


def zoo(script: str, *args: str) -> str:
    """The --impl running a zoo engine."""
    return shlex.join([sys.executable, str(ZOO / script), *args])


def carrying(token: str) -> list[int]:
    """Live processes whose environment holds ZOO_TOKEN=token (zombies hold no environment)."""
    needle = f"ZOO_TOKEN={token}".encode()
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@contextlib.contextmanager
def no_survivors() -> Iterator[str]:
    """A token for the zoo engines of a test to carry; fails if any process carrying it outlives the block."""
    token = uuid.uuid4().hex
    yield token
    deadline = time.monotonic() + 3
    while carrying(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = carrying(token)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"processes left behind: {left}"


def streamed_results(process: subprocess.Popen[str], stream: Path, count: int) -> list[str]:
    """The ids of the first `count` results a running llcheck streams to its --results file
    `stream`, as soon as they are there (failing with its output if it ends before)."""
    done: list[str] = []
    while len(done) < count:
        assert process.poll() is None, process.communicate()
        time.sleep(0.1)
        lines = written_so_far(stream).splitlines()
        done = [json.loads(line)["id"] for line in lines if '"type": "result"' in line]
    return done


def written_so_far(path: Path) -> str:
    """What a running llcheck has written to a report file so far ("" before it opens it: check
    creates the file and removes it again once at the start, to test that it can write there)."""
    try:
        return path.read_text()
    except FileNotFoundError:
        return ""
