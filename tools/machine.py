"""What the benchmark scripts report about the machine they ran on."""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
import time

COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def calibrate(repeat: int) -> float:
    """Microseconds for a fixed pure-Python loop (a machine-speed yardstick)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(2000):
            [i for i in range(100)]
        best = min(best, time.perf_counter() - start)
    return best / 2000 * 1e6


def describe(repeat: int) -> dict[str, object]:
    """Python version, architecture, load average and the calibration loop, for a report."""
    return {"python": platform.python_version(), "machine": platform.machine(),
            "load_average": round(os.getloadavg()[0], 2),
            "calibration_us": round(calibrate(repeat), 2)}


def instructions(script: str, *args: str) -> tuple[int, str]:
    """CPU instructions that running `script args` under this Python costs, counted by valgrind's
    callgrind, and what it printed. String hashes are fixed (`PYTHONHASHSEED=0`): with random ones,
    start-up alone varies by tens of millions of instructions from run to run."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, script,
               *args]
    done = subprocess.run(command, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    found = COLLECTED.search(done.stderr)
    if found is None:
        raise SystemExit(f"{script}: callgrind printed no instruction count:\n{done.stderr}")
    return int(found.group(1)), done.stdout
