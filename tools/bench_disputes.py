#!/usr/bin/env python3
"""Benchmark `llcheck disputes`: one comparison, one audit, the up-to-date check of the report,
and optionally the whole report from scratch.

Times are CPU seconds of this process (the machine may be shared), best of `--repeat`. z3 is
given `--z3` resource units (rlimit) per solver call.

    python tools/bench_disputes.py [--repeat R] [--z3 N] [--all]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from llcheck.catalogue import DEFAULT_BUDGET, DEFAULT_Z3, Catalogue
from loveletter_ref.disputes import Budget, audit, compare, open_side

ROOT = Path(__file__).resolve().parents[1]


def cpu(work: Callable[[], object], repeat: int) -> float:
    """Best CPU time of `repeat` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--z3", type=int, default=DEFAULT_Z3)
    parser.add_argument("--all", action="store_true", help="also build the whole report from scratch")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    budget = Budget()
    rows: dict[str, float] = {}
    pairs = [("nl-2019", "z-man-2019"), ("sl-en-2019", "z-man-2019"), ("bga-classic-premium", "classic")]
    for a, b in pairs:
        rows[f"compare {a} vs {b}"] = cpu(
            lambda a=a, b=b: compare(open_side(a), open_side(b), budget, args.z3), args.repeat)
    for name in ("nl-2019", "fa-guide"):
        rows[f"audit {name}"] = cpu(lambda name=name: audit(open_side(name), budget, args.z3), args.repeat)
    docs = ROOT / "docs"
    report = Catalogue(docs / "disputes.md", docs / "disputes.json", DEFAULT_BUDGET, DEFAULT_Z3)
    rows["llcheck disputes --all --check"] = cpu(report.check, args.repeat)
    if args.all:
        with tempfile.TemporaryDirectory() as tmp:
            fresh = Catalogue(Path(tmp) / "d.md", Path(tmp) / "d.json", DEFAULT_BUDGET, args.z3)
            rows["llcheck disputes --all, from scratch"] = cpu(fresh.write, 1)
    if args.json:
        print(json.dumps({k: round(v, 2) for k, v in rows.items()}, indent=2))
    else:
        for name, seconds in rows.items():
            print(f"{name:<55} {seconds:8.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
