#!/usr/bin/env python3
"""Soak the worker pools of `--jobs`: start and end many, and fail on the first that hangs.

A pool that ends can hang only on a rare race (a SIGTERM landing just as an idle worker starts
waiting for work), so one run of a command proves little: this starts `--pools` of them, the
way campaigns use them (engine cleanup on SIGTERM), each with a few short tasks, and either takes
every answer (a finished run) or drops the rest after the first (a stopped run), alternately.
A pool that has not ended `--watchdog` seconds after it began is a hang: the main thread's stack
is printed and the exit code is 1; the worker it waits for is left running, to be looked at
(`py-spy dump --pid PID`).

    python tools/soak_workers.py [--pools N] [--seed S] [--watchdog S]
"""

from __future__ import annotations

import argparse
import faulthandler
import random
import sys
import time
from pathlib import Path

from llcheck.engines.process import kill_leftovers
from llcheck.workers import as_done

ROOT = Path(__file__).resolve().parents[1]


def busy(seconds: float) -> float:
    """Keep a worker busy for `seconds` (a task)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return seconds


def soak(pools: int, seed: int, watchdog: float) -> float:
    """Run the pools; seconds taken (the process exits 1 from the watchdog on a hang)."""
    draw = random.Random(seed)
    began = time.monotonic()
    for number in range(pools):
        tasks = [draw.uniform(0.0, 0.02) for _ in range(draw.randint(2, 6))]
        faulthandler.dump_traceback_later(watchdog, exit=True)
        print(f"\rpool {number + 1}/{pools}", end="", file=sys.stderr, flush=True)
        answers = as_done(busy, tasks, 2, cleanup=kill_leftovers)
        if number % 2:
            next(answers)
            answers.close()
        else:
            assert len(dict(answers)) == len(tasks)
        faulthandler.cancel_dump_traceback_later()
    print(file=sys.stderr)
    return time.monotonic() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pools", type=int, default=2000, help="pools started and ended (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the tasks (default 0)")
    parser.add_argument("--watchdog", type=float, default=30.0,
                        help="seconds after which a pool that has not ended is a hang (default 30)")
    args = parser.parse_args()
    if args.pools < 1 or args.watchdog <= 0:
        parser.error("--pools must be at least 1 and --watchdog positive")
    seconds = soak(args.pools, args.seed, args.watchdog)
    print(f"{args.pools} pools started and ended in {seconds:.1f} s, none hung (seed {args.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
