#!/usr/bin/env python3
"""Benchmark baselines: recording one (`llcheck record`), reading it back, and replaying it
(`llcheck check --baseline`), for each edition, against the reference engine in process and over
the protocol (`llcheck serve`), with the default settings (the whole corpus, --games 2).

The best of several repeats is reported for each figure, with the size of the file.

    python tools/bench_baseline.py [--repeat R] [--games N] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from llcheck.baseline.diff import Replayer
from llcheck.baseline.record import EngineSlot, Plan, record
from llcheck.baseline.store import Baseline, read, write
from llcheck.engines import ReferenceEngine, SubprocessEngine
from llcheck.engines.loader import serve_command
from llcheck.harness.cases import STATUSES, load_corpus
from loveletter_ref.spec import load_spec

ROOT = Path(__file__).resolve().parents[1]

EDITIONS = ("classic", "z-man-2019")


def best(repeat: int, work: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of `repeat` runs of `work`, in seconds, and what the last run returned."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return min(times), result


def replay(make_engine: Callable[[], Any], baseline: Baseline) -> int:
    """Replay every unit on one engine; how many changed (0 for the engine recorded)."""
    slot = EngineSlot(make_engine)
    try:
        replayer = Replayer(baseline.edition, baseline.capabilities, slot.get().hello)
        return sum(replayer.replay(slot, unit).status != "same" for unit in baseline.units)
    finally:
        slot.close()


def measure(edition: str, games: int, repeat: int, folder: Path) -> dict[str, Any]:
    spec = load_spec(edition)
    cases = [case for case in load_corpus() if case.edition == edition]
    plan = Plan(spec, cases, games, 0, None, STATUSES)
    served = lambda: SubprocessEngine(serve_command())  # noqa: E731
    in_process, baseline = best(repeat, lambda: record(EngineSlot(ReferenceEngine), plan))
    path = str(folder / f"{edition}.jsonl")
    size = write(baseline, path)
    figures: dict[str, Any] = {
        "edition": edition, "units": len(baseline.units), "bytes": size,
        "records": sum(len(unit.records) for unit in baseline.units),
        "record_in_process_s": in_process,
        "record_protocol_s": best(repeat, lambda: record(EngineSlot(served), plan))[0],
        "read_s": best(repeat, lambda: read(path))[0],
    }
    figures["replay_in_process_s"], changed = best(repeat, lambda: replay(ReferenceEngine, baseline))
    figures["replay_protocol_s"], changed_served = best(repeat, lambda: replay(served, baseline))
    assert changed == changed_served == 0, "the reference engine must replay its own baseline unchanged"
    return figures


ROWS = [("record, in process", "record_in_process_s"), ("record, over the protocol", "record_protocol_s"),
        ("read and validate the file", "read_s"), ("replay, in process", "replay_in_process_s"),
        ("replay, over the protocol", "replay_protocol_s")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="measurements per figure; the best is kept")
    parser.add_argument("--games", type=int, default=2, help="random games per player count (default 2)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        rows = [measure(edition, args.games, args.repeat, Path(folder)) for edition in EDITIONS]
    if args.json:
        print(json.dumps({"python": platform.python_version(), "editions": rows}, indent=2))
        return 0
    print(f"Python {platform.python_version()}; --games {args.games}; best of {args.repeat}")
    for row in rows:
        print(f"\n{row['edition']}: {row['units']} cases and games, {row['records']} records, "
              f"{row['bytes'] / 1024:.0f} KiB")
        for label, key in ROWS:
            print(f"  {label:<30} {row[key]:8.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
