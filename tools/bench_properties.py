#!/usr/bin/env python3
"""Benchmark the property-based tests: what a `run_properties` campaign costs, and where it goes.

For every edition and player count, the `ci` profile runs every property against the reference
engine in process, then again without the two whole-game properties (hidden information needs
resampled replays, replay needs a mirror engine), so that their share shows. One player count is
also run against `llcheck serve` over the protocol. CPU seconds of this process (in process) and
wall seconds (over the protocol, where the engine runs in another process) are reported with the
number of actions the state machine applied: the best of several repeats.

    python tools/bench_properties.py [--profile ci] [--repeat R] [--edition E ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import time
from typing import Any

from llcheck.engines import ReferenceEngine
from llcheck.engines.loader import engine_factory, serve_command
from llcheck.properties import property_names, run_properties
from loveletter_ref import load_spec

WHOLE_GAME = ("hidden-information", "replay")
EDITIONS = ("classic", "z-man-2019", "premium")


def actions_of(results: list[Any]) -> int:
    """The number of actions the campaign applied (from the first result's summary)."""
    found = re.search(r"(\d+) actions", results[0].message)
    return int(found.group(1)) if found else 0


def measure(factory: Any, edition: str, players: int, profile: str, names: list[str] | None,
            repeat: int, clock: Any) -> dict[str, Any]:
    """Best seconds of `repeat` campaigns, and the actions one campaign applied."""
    best = float("inf")
    results: list[Any] = []
    for _ in range(repeat):
        start = clock()
        results = run_properties(factory, edition, players, profile, 0, properties=names)
        best = min(best, clock() - start)
    failed = [r.name for r in results if r.status != "passed"]
    if failed:
        raise SystemExit(f"{edition} {players}p: properties did not pass: {failed}")
    return {"seconds": round(best, 3), "actions": actions_of(results)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="ci")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--edition", action="append", help="edition(s) to measure (default: all three)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    step_only = [name for name in property_names() if name not in WHOLE_GAME]
    rows = []
    for edition in args.edition or EDITIONS:
        spec = load_spec(edition)
        for players in range(spec.min_players, spec.max_players + 1):
            every = measure(ReferenceEngine, edition, players, args.profile, None, args.repeat,
                            time.process_time)
            steps = measure(ReferenceEngine, edition, players, args.profile, step_only, args.repeat,
                            time.process_time)
            rows.append({"edition": edition, "players": players, "all": every, "step_invariants": steps})
    served = engine_factory(serve_command())
    protocol = measure(served, "classic", 2, args.profile, None, 1, time.perf_counter)
    report = {"python": platform.python_version(), "profile": args.profile, "rows": rows,
              "protocol_classic_2p": protocol}
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"profile {args.profile}, Python {report['python']}, CPU seconds, best of {args.repeat}")
    print("| edition | players | every property | actions | step invariants only |")
    print("| --- | --- | --- | --- | --- |")
    for row in rows:
        print(f"| {row['edition']} | {row['players']} | {row['all']['seconds']:.2f} s | "
              f"{row['all']['actions']} | {row['step_invariants']['seconds']:.2f} s |")
    total = sum(row["all"]["seconds"] for row in rows)
    print(f"| total | | {total:.2f} s | | {sum(r['step_invariants']['seconds'] for r in rows):.2f} s |")
    print(f"classic, 2 players, over the protocol (llcheck serve): {protocol['seconds']:.2f} s wall, "
          f"{protocol['actions']} actions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
