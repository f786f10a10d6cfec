#!/usr/bin/env python3
"""Benchmark what robustness costs: how long the harness takes to notice each badly behaved
engine of the zoo (tests/engines/hostile/) and go on with a fresh one, what an engine's start and
stop cost with the process guard (limits, its own group, the sweep for marked processes), how
long one sweep of /proc takes, and how much memory the harness needs to refuse a 100 MB line.

    python tools/bench_hostile.py [--repeat R] [--timeout S] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import resource
import sys
import time
from pathlib import Path

from llcheck.engines import EngineFailure, SubprocessEngine
from llcheck.engines.loader import serve_command
from llcheck.engines.process import Launch, marked
from llcheck.harness.cases import load_corpus
from llcheck.harness.runner import run_cases

ROOT = Path(__file__).resolve().parents[1]

ZOO = ROOT / "tests" / "engines" / "hostile"
CASES = load_corpus(ROOT / "tests" / "cases")
MEMBERS = ["bad_answer.py not-json", "bad_answer.py truncated", "bad_answer.py stale", "bad_answer.py deep",
           "bad_answer.py huge-line", "dies_mid_case.py", "hangs.py", "closes_stdout.py", "eats_memory.py",
           "errors_everywhere.py", "stderr_flood.py", "escapes.py"]
"""Zoo engines timed over the five fixture cases (each name: script and argument)."""


def zoo_run(member: str, timeout: float) -> tuple[float, int, str]:
    """Wall seconds of the five fixture cases against a zoo engine, engines started, statuses."""
    argv = [sys.executable, *(str(ZOO / part) if part.endswith(".py") else part for part in member.split())]
    started = []

    def make() -> SubprocessEngine:
        started.append(1)
        return SubprocessEngine(argv, timeout=timeout, launch=Launch(memory_mib=256))

    began = time.perf_counter()
    outcome = run_cases(CASES, make)
    statuses = ",".join(sorted({r.status for r in outcome.results}))
    return time.perf_counter() - began, len(started), statuses


def start_and_stop() -> tuple[float, float]:
    """Seconds from starting `llcheck serve` to its hello, and to stop it (sweep included)."""
    began = time.perf_counter()
    engine = SubprocessEngine(serve_command())
    greeted = time.perf_counter()
    engine.close()
    return greeted - began, time.perf_counter() - greeted


def sweep() -> tuple[float, int]:
    """Seconds of one sweep of /proc for marked processes, and the processes there are."""
    processes = sum(1 for entry in Path("/proc").iterdir() if entry.name.isdigit())
    began = time.perf_counter()
    marked("no-such-mark")
    return time.perf_counter() - began, processes


def huge_line_memory() -> int:
    """Growth of the harness's peak memory (MiB) while it refuses a 100 MB line."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    engine = SubprocessEngine([sys.executable, str(ZOO / "bad_answer.py"), "huge-line"])
    with contextlib.suppress(EngineFailure):
        engine.start("classic", 2, [], 0)
    engine.close()
    return (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) >> 10


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="measurements; the best is kept")
    parser.add_argument("--timeout", type=float, default=0.5, help="per-request timeout of the zoo runs")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    info = {
        "python": platform.python_version(), "machine": platform.machine(), "repeat": args.repeat,
        "timeout": args.timeout, "huge_line_mib": huge_line_memory(),
        "zoo": {m: min((zoo_run(m, args.timeout) for _ in range(args.repeat)), key=lambda r: r[0])
                for m in MEMBERS},
        "serve_start_stop_s": min((start_and_stop() for _ in range(args.repeat)), key=lambda r: sum(r)),
        "sweep": min((sweep() for _ in range(args.repeat * 10)), key=lambda r: r[0]),
    }
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    print(f"Python {info['python']} on {info['machine']}; best of {args.repeat}; per-request timeout "
          f"{args.timeout}s\n")
    print(f"{'zoo engine, 5 fixture cases':30} {'seconds':>8} {'starts':>7}  statuses")
    for member, (seconds, starts, statuses) in info["zoo"].items():
        print(f"{member:30} {seconds:>8.2f} {starts:>7}  {statuses}")
    hello, stop = info["serve_start_stop_s"]
    print(f"\nllcheck serve: start to hello {hello:.3f} s, stop and sweep {stop:.3f} s")
    print(f"one sweep of /proc: {info['sweep'][0] * 1000:.2f} ms for {info['sweep'][1]} processes")
    print(f"harness peak memory growth refusing a 100 MB line: {info['huge_line_mib']} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
