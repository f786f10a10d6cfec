#!/usr/bin/env python3
"""Benchmark the z3 probes: the whole catalogue for every edition and player count.

Each (edition, player count) runs in its own process, `--jobs` at a time (the target is the
full catalogue for every edition and player count within 10 minutes on 2 cores). Reported: the time to encode
the round, to prove the invariant by induction and the lemmas, to unroll the whole round when a
bounded search needs it, each query's time and how it was answered (P: reachable, with a witness
found by playouts; R: reachable, with a witness from the bounded search; U: unreachable; ?:
unknown), and the wall-clock total. Every witness is replayed by the reference engine as part of its answer;
a result that contradicts its expectation, or a witness the engine does not confirm, is listed
and makes the exit code 1.

    python tools/bench_probes.py [--jobs J] [--edition E ...] [--rlimit N] [--playouts N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import z3

from llcheck.commands.probe import probe
from loveletter_ref import load_spec
from loveletter_ref.probes.catalogue import QUERIES
from loveletter_ref.probes.playouts import PLAYOUTS
from loveletter_ref.spec import known_specs


def configurations(editions: list[str]) -> list[tuple[str, int]]:
    """Every (edition, player count), largest first so that parallel runs finish together."""
    out = []
    for name in editions:
        spec = load_spec(name)
        out += [(name, n) for n in range(spec.min_players, spec.max_players + 1)]
    return sorted(out, key=lambda c: (-c[1], c[0]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="configurations probed in parallel")
    parser.add_argument("--edition", action="append", help="edition(s) to probe (default: every bundled one)")
    parser.add_argument("--players", action="append", type=int, help="player count(s) (default: every one)")
    parser.add_argument("--rlimit", type=int, default=1_000_000_000,
                        help="z3 resource units per solver call of a query")
    parser.add_argument("--playouts", type=int, default=PLAYOUTS,
                        help="seeded rounds of the reference engine played before a bounded search")
    parser.add_argument("--seed", type=int, default=0, help="seed of the playouts")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()
    bundled = [name for name, path in known_specs().items() if path.parent.name == "editions"]
    editions = args.edition or bundled
    jobs = [(e, n) for e, n in configurations(editions) if not args.players or n in args.players]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        calls = [(e, {}, n, list(QUERIES), args.rlimit, True, args.playouts, args.seed) for e, n in jobs]
        reports = list(pool.map(probe, *zip(*calls, strict=True)))
    wall = time.perf_counter() - start
    reports.sort(key=lambda r: (r["edition"], r["players"]))
    info = {"python": platform.python_version(), "z3": z3.get_version_string(), "machine": platform.machine(),
            "cpus": os.cpu_count(), "jobs": args.jobs, "playouts": args.playouts,
            "wall_seconds": round(wall, 1), "load_average": [round(x, 2) for x in os.getloadavg()],
            "reports": reports}
    surprises = [(r["edition"], r["players"], row["condition"], row["surprise"])
                 for r in reports for row in r["results"] if row["surprise"]]
    if args.json:
        print(json.dumps(info, indent=2))
    else:
        print_tables(info)
        for surprise in surprises:
            edition, players, name, what = surprise
            print(f"SURPRISE: {edition} {players} players, {name}: {what}")
    return 1 if surprises else 0


def print_tables(info: dict) -> None:
    """Per configuration: encoding and induction times, then seconds per query."""
    reports = info["reports"]
    print(f"Python {info['python']}, z3 {info['z3']}, {info['machine']}, {info['cpus']} CPUs, "
          f"{info['jobs']} jobs, {info['playouts']} playouts: whole catalogue in {info['wall_seconds']} s "
          f"wall-clock (load average at the end {', '.join(map(str, info['load_average']))})")
    heads = [f"{r['edition'][:7]} {r['players']}p" for r in reports]
    print(f"{'':28} " + " ".join(f"{h:>11}" for h in heads))
    print(f"{'encode':28} " + " ".join(f"{r['build_seconds']:>11.1f}" for r in reports))
    print(f"{'invariant (induction)':28} " + " ".join(f"{r['invariant_seconds']:>11.1f}" for r in reports))
    print(f"{'lemmas':28} " + " ".join(f"{r['lemma_seconds']:>11.1f}" for r in reports))
    print(f"{'unroll (when needed)':28} " + " ".join(f"{r['unroll_seconds']:>11.1f}" for r in reports))
    for name in QUERIES:
        cells = []
        for r in reports:
            row = next(x for x in r["results"] if x["condition"] == name)
            mark = {"reachable": "R", "unreachable": "U", "unknown": "?"}[row["status"]]
            mark = "P" if row["method"] == "playout" else mark
            cells.append("n/a" if row["method"] == "not applicable" else f"{row['seconds']:.1f} {mark}")
        print(f"{name:28} " + " ".join(f"{c:>11}" for c in cells))
    totals = [r["build_seconds"] + r["invariant_seconds"] + r["lemma_seconds"]
              + sum(x["seconds"] for x in r["results"]) for r in reports]
    print(f"{'total (one core)':28} " + " ".join(f"{t:>11.1f}" for t in totals))
    print(f"{'processor time':28} " + " ".join(f"{r['cpu_seconds']:>11.1f}" for r in reports))


if __name__ == "__main__":
    sys.exit(main())
