#!/usr/bin/env python3
"""Benchmark the reference engine: random legal rounds per second, per edition and player count.

A round is dealt from the game's seed and played to its end with `Game.sample_action` (a
playable card, then a target, then a guess, each uniform), events and all. Games continue
round after round until someone wins, then a new game starts, as `llcheck simulate` plays.
The best of several repeats is reported, with the load average and a calibration loop that
show how fast this machine ran plain Python at the time.

`--instructions` counts CPU instructions per round instead, under valgrind's callgrind (two
runs, with no rounds and with --rounds, so start-up cancels out): a figure that does not
depend on the machine's load, to compare engine versions on a shared machine.

    python tools/bench_engine.py [--rounds N] [--repeat R] [--edition E ...] [--players N ...]
                                 [--instructions] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time

from machine import describe, instructions

from loveletter_ref import Game, Phase, load_spec
from loveletter_ref.engine import DECIDING
from loveletter_ref.spec import known_specs


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


def count_instructions(edition_name: str, players: int, rounds: int, seed: int) -> int:
    """CPU instructions that `rounds` rounds cost, counted by callgrind."""
    def run(count: int) -> int:
        return instructions(__file__, "--play", edition_name, str(players), str(count), str(seed))[0]
    idle = run(0)  # first: it compiles whatever bytecode is stale, which would count against the rounds
    return run(rounds) - idle


def places(editions: list[str], players: list[int] | None) -> list[tuple[str, int]]:
    """Every (edition, player count) to measure."""
    found = []
    for name in editions:
        edition = load_spec(name)
        counts = range(edition.min_players, edition.max_players + 1)
        found += [(name, n) for n in counts if players is None or n in players]
    return found


def measure(name: str, players: int, args: argparse.Namespace) -> dict[str, object]:
    """One row of the report."""
    row: dict[str, object] = {"edition": name, "players": players}
    if args.instructions:
        total = count_instructions(name, players, args.rounds, args.seed)
        row["instructions_per_round"] = total // args.rounds
        return row
    seconds, turns = min(play_rounds(name, players, args.rounds, args.seed) for _ in range(args.repeat))
    row.update(us_per_round=round(seconds / args.rounds * 1e6, 1),
               rounds_per_second=round(args.rounds / seconds),
               turns_per_round=round(turns / args.rounds, 2))
    return row


def main() -> int:
    if sys.argv[1:2] == ["--play"]:
        edition, players, rounds, seed = sys.argv[2], *map(int, sys.argv[3:6])
        play_rounds(edition, players, rounds, seed)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5000, help="rounds per measurement")
    parser.add_argument("--repeat", type=int, default=5, help="measurements; the best is kept")
    parser.add_argument("--edition", action="append", help="edition(s) to measure (default: all bundled)")
    parser.add_argument("--players", type=int, action="append", help="player count(s) (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per round under valgrind instead of timing")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    if args.rounds < 1 or args.repeat < 1:
        parser.error("--rounds and --repeat must be at least 1")
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind on the PATH")
    bundled = [name for name, path in known_specs().items() if path.parent.name == "editions"]
    editions = args.edition or bundled
    unknown = sorted(set(editions) - set(known_specs()))
    if unknown:
        parser.error(f"unknown edition {unknown[0]!r}")
    rows = [measure(name, n, args) for name, n in places(editions, args.players)]
    info = {**describe(args.repeat), "rounds": args.rounds, "repeat": args.repeat, "results": rows}
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    print(f"Python {info['python']} on {info['machine']}; load average {info['load_average']}; "
          f"calibration loop {info['calibration_us']} us ([i for i in range(100)]); "
          + (f"{args.rounds} rounds" if args.instructions
             else f"best of {args.repeat} x {args.rounds} rounds"))
    columns = [key for key in rows[0] if key not in ("edition", "players")] if rows else []
    print(f"{'edition':12} {'players':>7} " + " ".join(f"{c:>22}" for c in columns))
    for row in rows:
        print(f"{row['edition']:12} {row['players']:>7} " + " ".join(f"{row[c]!s:>22}" for c in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
