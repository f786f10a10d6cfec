"""What the benchmark scripts report about the machine they ran on."""

from __future__ import annotations

import os
import platform
import time


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
