#!/usr/bin/env python3
"""Benchmark the reference engine: random legal rounds per second, per edition and player count.

A round is dealt from the game's seed and played to its end with `Game.sample_action` (a
playable card, then a target, then a guess, each uniform), events and all. Games continue
round after round until someone wins, then a new game starts, as `llcheck simulate` plays.
The best of several repeats is reported, with a calibration loop that shows how fast this
machine runs plain Python.

    python tools/bench_engine.py [--rounds N] [--repeat R] [--edition E ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loveletter_ref import Game, Phase, load_spec  # noqa: E402
from loveletter_ref.engine import DECIDING  # noqa: E402


def play_rounds(edition_name: str, players: int, rounds: int, seed: int) -> tuple[float, int]:
    """Seconds to play `rounds` random rounds, and the number of turns they took."""
    edition = load_spec(edition_name)
    rng = random.Random(seed)
    game = Game(edition, players, seed=seed)
    turns = 0
    start = time.perf_counter()
    for done in range(rounds):
        if game.phase is Phase.GAME_OVER:
            game = Game(edition, players, seed=seed + done)
        game.start_round()
        while game.phase in DECIDING:
            game.apply_unchecked(game.sample_action(rng))
        turns += game.turns
    return time.perf_counter() - start, turns


def calibrate(repeat: int) -> float:
    """Microseconds for a fixed pure-Python loop (a machine-speed yardstick)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(2000):
            [i for i in range(100)]
        best = min(best, time.perf_counter() - start)
    return best / 2000 * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5000, help="rounds per measurement")
    parser.add_argument("--repeat", type=int, default=5, help="measurements; the best is kept")
    parser.add_argument("--edition", action="append", help="edition(s) to measure (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    editions = args.edition or ["classic", "z-man-2019"]
    rows = []
    for name in editions:
        edition = load_spec(name)
        for players in range(edition.min_players, edition.max_players + 1):
            best = min(play_rounds(name, players, args.rounds, args.seed) for _ in range(args.repeat))
            seconds, turns = best
            rows.append({"edition": name, "players": players,
                         "us_per_round": round(seconds / args.rounds * 1e6, 1),
                         "rounds_per_second": round(args.rounds / seconds),
                         "turns_per_round": round(turns / args.rounds, 2)})
    info = {"python": platform.python_version(), "machine": platform.machine(),
            "calibration_us": round(calibrate(args.repeat), 2), "rounds": args.rounds,
            "repeat": args.repeat, "results": rows}
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    print(f"Python {info['python']} on {info['machine']}; calibration loop "
          f"{info['calibration_us']} us ([i for i in range(100)]); best of {args.repeat} x "
          f"{args.rounds} rounds")
    print(f"{'edition':12} {'players':>7} {'us/round':>9} {'rounds/s':>9} {'turns/round':>12}")
    for row in rows:
        print(f"{row['edition']:12} {row['players']:>7} {row['us_per_round']:>9} "
              f"{row['rounds_per_second']:>9} {row['turns_per_round']:>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
