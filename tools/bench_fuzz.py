#!/usr/bin/env python3
"""Benchmark differential fuzzing and deal-perft.

- fuzzing: `run_fuzz` against the reference engine in process (no difference, so every game is
  played to its end and nothing is shrunk), loaded as an in-process adapter is (behind the
  guard), and over the protocol (`llcheck serve` in a subprocess); reported as rounds, actions
  and games per second, per edition and player count;
- the lockstep alone: the same games decoded from random tapes without hypothesis, to show what
  hypothesis costs;
- a campaign: every player count of every edition of the bundled corpus (what `llcheck check
  --impl reference --fuzz N` runs), in one process and with its player counts shared among --jobs
  processes;
- perft: nodes per second of the reference tree (Game.clone) and of an engine tree branched by
  replaying paths (the in-process reference adapter), on one seeded deal; and of the reference
  tree counting every deal of each published table (conformance/perft/).

The best of --repeat runs is kept; the load average and a calibration loop show how fast this
machine ran Python at the time.

`--instructions` counts CPU instructions per round instead, under valgrind's callgrind, of the
lockstep alone (two runs, playing none and all of --games tapes), of `run_fuzz` (two runs that
fuzz 20 games first, then none or --games), and of the reference engine playing the rounds that
run_fuzz played alone (two runs that read them, then play none or all: each deal, and at each
decision its legal actions listed and the action chosen applied), so that start-up cancels out:
figures that do not depend on the machine's load. It prints the ratio of the last two: what a
fuzzed round costs, in engine rounds.

`--node GAMES` measures instead a fuzzing campaign of the classic edition, every player count
(what `llcheck check --fuzz GAMES` runs for the Node.js example, which plays classic only), against
the in-process reference (`--impl reference`) and against the Node.js example over the protocol
(`--impl 'node conformance/examples/node/engine.js'`), taking turns --repeat times, and prints
both rates side by side with their ratio: of the best of each, and the median of the turns' ratios
(a machine whose speed drifts moves both runs of a turn alike).

    python tools/bench_fuzz.py [--games N] [--repeat R] [--protocol-games N] [--edition E ...]
                                [--players N ...] [--jobs J] [--instructions] [--node GAMES] [--json]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from machine import describe, instructions

from llcheck import campaigns
from llcheck.atomic import write_atomic
from llcheck.engines import ReferenceEngine, Reply
from llcheck.engines.loader import REFERENCE, engine_factory, serve_command
from llcheck.engines.subprocess import SubprocessEngine
from llcheck.fuzz import run_fuzz
from llcheck.fuzz.lockstep import Differential
from llcheck.fuzz.play import Tally, Tape, play_game
from llcheck.fuzz.search import TAPE_BYTES
from llcheck.harness.cases import load_corpus
from llcheck.harness.results import Result
from llcheck.perft import EngineTree, ReferenceTree, load_table, perft, seeded_deal, table_path
from loveletter_ref import Action, Game, load_spec

PLACES = (("classic", 2), ("classic", 4), ("z-man-2019", 2), ("z-man-2019", 4), ("z-man-2019", 6),
          ("premium", 8))

NODE = "node conformance/examples/node/engine.js"
"""The bundled Node.js example, as `--impl` names it (run from the repository's top)."""

CAMPAIGN = tuple(dict.fromkeys(case.edition for case in load_corpus()))
"""The editions of the campaign measurement, every player count of each: those of the bundled
corpus, which `llcheck check --impl reference --fuzz N` fuzzes when no --edition is given."""

ROUNDS = re.compile(r"\((\d+) rounds")
"""The rounds a passing fuzz result's message reports."""


def best(runs: list[dict[str, float]]) -> dict[str, float]:
    """The run with the most rounds per second."""
    return max(runs, key=lambda r: r["rounds_per_second"])


ADAPTER = "python:llcheck.engines.reference:ReferenceEngine"
"""The reference engine loaded as any in-process adapter is (`--impl python:MODULE:CLASS`): behind
the guard, which copies what it sends and checks that every answer is JSON."""


def fuzz_rate(edition: str, players: int, games: int, how: str) -> dict[str, float]:
    """One run_fuzz against the reference: `how` is `reference` (in process, as `--impl reference`),
    `adapter` (in process and guarded, as ADAPTER) or `protocol` (`llcheck serve`)."""
    spec = load_spec(edition)
    make = {"reference": functools.partial(ReferenceEngine, {edition: spec}),
            "adapter": engine_factory(ADAPTER),
            "protocol": functools.partial(SubprocessEngine, serve_command(), timeout=30)}[how]
    start = time.perf_counter()
    result = run_fuzz(make, spec, players, games, 1, None)
    seconds = time.perf_counter() - start
    assert result.ok, result.message
    return _rates(result.tally, seconds)


def campaign_rate(games: int, jobs: int, editions: tuple[str, ...] = CAMPAIGN,
                  impl: str = REFERENCE) -> dict[str, float]:
    """A fuzzing campaign of every player count of `editions` against `impl` (the in-process
    reference by default), as `llcheck check --impl IMPL --fuzz games --jobs jobs` runs it (seed 1)."""
    results: list[Result] = []
    specs = [load_spec(e) for e in editions]
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        campaigns.run_fuzz(engine_factory(impl), specs, games, 1, Path(out), results.append, jobs)
        seconds = time.perf_counter() - start
    rounds = 0
    for result in results:
        found = ROUNDS.search(result.message)
        assert result.status == "passed" and found, result.message
        rounds += int(found.group(1))
    return {"jobs": jobs, "seats": len(results), "rounds": rounds, "seconds": round(seconds, 2),
            "rounds_per_second": round(rounds / seconds)}


def lockstep_rate(edition: str, players: int, games: int) -> dict[str, float]:
    """The lockstep on random tapes, without hypothesis."""
    step, tapes = _lockstep(edition, players, games)
    tally = Tally()
    start = time.perf_counter()
    for tape in tapes:
        play_game(step, 255, Tape(tape), tally)
    return _rates(tally, time.perf_counter() - start)


def _lockstep(edition: str, players: int, games: int) -> tuple[Differential, list[bytes]]:
    """A lockstep against the in-process reference, and `games` random tapes (seed 1)."""
    spec = load_spec(edition)
    rng = random.Random(1)
    tapes = [bytes(rng.randrange(256) for _ in range(TAPE_BYTES)) for _ in range(games)]
    return Differential(ReferenceEngine({edition: spec}), spec, players), tapes


def _counted(*args: str) -> tuple[int, int]:
    """The instructions of running this script with `args` under callgrind, and the rounds it printed."""
    counted, printed = instructions(__file__, *args)
    return counted, int(printed.split()[-1])


def _per_round(counted: int, rounds: int) -> int:
    if rounds == 0:
        raise SystemExit("bench_fuzz: the games measured played no whole round; give more --games")
    return counted // rounds


def lockstep_instructions(edition: str, players: int, games: int) -> int:
    """CPU instructions per round of the lockstep alone on `games` tapes, counted by callgrind."""
    place = ("--lockstep", edition, str(players), str(games))
    idle, _ = _counted(*place, "0")  # first: it compiles any stale bytecode
    total, rounds = _counted(*place, str(games))
    return _per_round(total - idle, rounds)


def fuzz_instructions(edition: str, players: int, games: int) -> int:
    """CPU instructions per round of `run_fuzz` (hypothesis included) on `games` games (seed 1),
    counted by callgrind: two runs that first fuzz 20 games (seed 2) and then none or the
    `games`, so that start-up, imports and hypothesis's one-off work (it reads the constants of the
    local modules once, and caches them on disk: a first run primes that cache) cancel out."""
    place = ("--fuzz-run", edition, str(players))
    _counted(*place, "0")
    (idle, _), (total, rounds) = _counted(*place, "0"), _counted(*place, str(games))
    return _per_round(total - idle, rounds)


def engine_instructions(edition: str, players: int, games: int) -> tuple[int, int]:
    """CPU instructions per round of the reference engine playing alone the rounds `run_fuzz` plays
    on `games` games (seed 1), counted by callgrind; and those rounds' count. The games are recorded
    first (outside callgrind) by a run_fuzz whose engine writes down each deal and each action it
    accepts; both counted runs read them, and play none or all."""
    with tempfile.TemporaryDirectory() as folder:
        played = Path(folder) / "rounds.json"
        rounds = record_rounds(edition, players, games, played)
        place = ("--engine-rounds", edition, str(players), str(played))
        (idle, _), (total, _) = _counted(*place, "0"), _counted(*place, "1")
    return _per_round(total - idle, rounds), rounds


class _Recording(ReferenceEngine):
    """The in-process reference as run_fuzz's engine, writing down every game it is dealt and
    every action it accepts (the rounds a fuzzed game plays, without the illegal probes)."""

    def __init__(self, spec: Any):
        super().__init__({spec.id: spec})
        self.games: list[dict[str, Any]] = []

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        reply = super().start(edition, players, deck, first_player, tokens)
        if reply.accepted:
            self.games.append({"first": first_player, "tokens": list(tokens) if tokens is not None else None,
                               "rounds": [{"deck": list(deck), "actions": []}]})
        return reply

    def next_round(self, deck: Sequence[str]) -> Reply:
        reply = super().next_round(deck)
        if reply.accepted:
            self.games[-1]["rounds"].append({"deck": list(deck), "actions": []})
        return reply

    def apply(self, action: dict[str, Any]) -> Reply:
        reply = super().apply(action)
        if reply.accepted:
            self.games[-1]["rounds"][-1]["actions"].append(action)
        return reply


def record_rounds(edition: str, players: int, games: int, path: Path) -> int:
    """Write the games run_fuzz plays on `games` games (seed 1) to `path`; the rounds it counted."""
    spec = load_spec(edition)
    engine = _Recording(spec)
    result = run_fuzz(lambda: engine, spec, players, games, 1, None)
    assert result.ok, result.message
    write_atomic(path, json.dumps(engine.games))
    return result.rounds


def play_rounds(edition: str, players: int, path: Path, play: bool) -> None:
    """Read the recorded games; with `play`, the reference engine plays them alone."""
    spec = load_spec(edition)
    games = [(game["first"], game["tokens"], [(r["deck"], [Action.from_json(a) for a in r["actions"]])
                                              for r in game["rounds"]])
             for game in json.loads(path.read_text(encoding="utf-8"))]
    if not play:
        return
    for first, tokens, rounds in games:
        game = Game(spec, players, first_player=first, tokens=tokens)
        for deck, actions in rounds:
            game.start_round(deck)
            for action in actions:
                game.legal_actions()
                game.apply_unchecked(action)


def node_rates(games: int, repeat: int) -> dict[str, Any]:
    """The classic campaign of `games` games per player count against the in-process reference and
    against the Node.js example, taking turns `repeat` times; the best of each."""
    runs: dict[str, list[dict[str, float]]] = {"reference": [], "node": []}
    for _ in range(repeat):
        runs["reference"].append(campaign_rate(games, 1, ("classic",), REFERENCE))
        runs["node"].append(campaign_rate(games, 1, ("classic",), NODE))
    best = {name: max(found, key=lambda r: r["rounds_per_second"]) for name, found in runs.items()}
    turns = [node["rounds_per_second"] / reference["rounds_per_second"]
             for reference, node in zip(runs["reference"], runs["node"], strict=True)]
    return {"games": games, "repeat": repeat, "reference": best["reference"], "node": best["node"],
            "runs": runs, "ratio": round(best["node"]["rounds_per_second"]
                                         / best["reference"]["rounds_per_second"], 3),
            "turn_ratios": [round(r, 3) for r in turns],
            "median_turn_ratio": round(statistics.median(turns), 3)}


def _rates(tally: Tally, seconds: float) -> dict[str, float]:
    return {"rounds_per_second": round(tally.rounds / seconds), "actions_per_second":
            round((tally.actions + tally.probes) / seconds), "games_per_second": round(tally.games / seconds),
            "rounds_per_game": round(tally.rounds / max(1, tally.games), 2)}


def perft_rate(edition: str, players: int, depth: int, engine: bool) -> dict[str, float]:
    """Nodes per second of perft on a seeded deal."""
    deal = seeded_deal(load_spec(edition), players, 1)
    tree = EngineTree(ReferenceEngine(), deal) if engine else ReferenceTree(deal)
    start = time.perf_counter()
    nodes = sum(level.nodes for level in perft(tree, depth))  # type: ignore[arg-type]
    seconds = time.perf_counter() - start
    return {"nodes": nodes, "nodes_per_second": round(nodes / seconds)}


def table_rate(edition: str) -> dict[str, float]:
    """Nodes per second of the clone tree counting every deal of the published table to its depth."""
    spec = load_spec(edition)
    entries = load_table(table_path(edition))
    start = time.perf_counter()
    nodes = sum(level.nodes for entry in entries
                for level in perft(ReferenceTree(entry.deal, spec), len(entry.levels)))
    seconds = time.perf_counter() - start
    return {"nodes": nodes, "nodes_per_second": round(nodes / seconds)}


def play_tapes(edition: str, players: int, games: int, count: int) -> int:
    """Make `games` tapes, play the first `count` in lockstep and return the rounds played."""
    step, tapes = _lockstep(edition, players, games)
    tally = Tally()
    for tape in tapes[:count]:
        play_game(step, 255, Tape(tape), tally)
    return tally.rounds


def main() -> int:
    if sys.argv[1:2] == ["--lockstep"]:
        edition, players, games, count = sys.argv[2], *map(int, sys.argv[3:6])
        print(play_tapes(edition, players, games, count))
        return 0
    if sys.argv[1:2] == ["--engine-rounds"]:
        edition, players, path, play = sys.argv[2], int(sys.argv[3]), Path(sys.argv[4]), sys.argv[5] == "1"
        play_rounds(edition, players, path, play)
        print(0)
        return 0
    if sys.argv[1:2] == ["--fuzz-run"]:
        edition, players, games = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        spec = load_spec(edition)
        engine = functools.partial(ReferenceEngine, {edition: spec})
        run_fuzz(engine, spec, players, 20, 2, None)
        print(run_fuzz(engine, spec, players, games, 1, None).rounds if games else 0)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games per in-process measurement")
    parser.add_argument("--protocol-games", type=int, default=60, help="games per protocol measurement")
    parser.add_argument("--repeat", type=int, default=3, help="measurements; the best is kept")
    parser.add_argument("--instructions", action="store_true",
                        help="count the lockstep's instructions per round under valgrind instead of timing")
    parser.add_argument("--edition", action="append", help="fuzz only these edition(s)")
    parser.add_argument("--players", type=int, action="append", help="fuzz only these player count(s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes of the parallel campaign (default: the number of cores)")
    parser.add_argument("--node", type=int, metavar="GAMES",
                        help="time the classic campaign of GAMES games per player count against the "
                             "reference in process and the Node.js example over the protocol, side by side")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    if args.instructions:
        return count_instructions(args)
    if args.node:
        return compare_node(args)
    rows = []
    for edition, players in places(args):
        rows.append({"edition": edition, "players": players,
                     "fuzz": best([fuzz_rate(edition, players, args.games, "reference")
                                   for _ in range(args.repeat)]),
                     "adapter": best([fuzz_rate(edition, players, args.games, "adapter")
                                      for _ in range(args.repeat)]),
                     "lockstep": best([lockstep_rate(edition, players, args.games)
                                       for _ in range(args.repeat)]),
                     "protocol": best([fuzz_rate(edition, players, args.protocol_games, "protocol")
                                       for _ in range(args.repeat)])})
    campaign = [best([campaign_rate(args.games, jobs) for _ in range(args.repeat)])
                for jobs in dict.fromkeys((1, args.jobs))]
    perfts = [{"edition": e, "players": p, "depth": d, "tree": kind,
               **max((perft_rate(e, p, d, kind == "engine") for _ in range(args.repeat)),
                     key=lambda r: r["nodes_per_second"])}
              for e, p, d in (("classic", 4, 4), ("z-man-2019", 4, 4)) for kind in ("clone", "engine")]
    tables = [{"edition": e, **max((table_rate(e) for _ in range(args.repeat)),
                                   key=lambda r: r["nodes_per_second"])}
              for e in ("classic", "z-man-2019", "premium")]
    info = {**describe(args.repeat), "games": args.games, "protocol_games": args.protocol_games,
            "repeat": args.repeat, "fuzz": rows, "campaign": campaign, "perft": perfts,
            "perft_tables": tables}
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    print(f"Python {info['python']} on {info['machine']}; load average {info['load_average']}; "
          f"calibration loop {info['calibration_us']} us; best of {args.repeat}")
    print(f"{'edition':11} {'n':>2} {'fuzz r/s':>9} {'actions/s':>9} {'lockstep r/s':>12} "
          f"{'adapter r/s':>11} {'protocol r/s':>12} {'rounds/game':>11}")
    for row in rows:
        print(f"{row['edition']:11} {row['players']:>2} {row['fuzz']['rounds_per_second']:>9} "
              f"{row['fuzz']['actions_per_second']:>9} {row['lockstep']['rounds_per_second']:>12} "
              f"{row['adapter']['rounds_per_second']:>11} {row['protocol']['rounds_per_second']:>12} "
              f"{row['fuzz']['rounds_per_game']:>11}")
    print(f"\ncampaign: {' and '.join(CAMPAIGN)}, every player count, {args.games} games each, in process")
    for row in campaign:
        print(f"  {row['jobs']} process(es): {row['rounds']} rounds in {row['seconds']} s, "
              f"{row['rounds_per_second']} rounds/s")
    print(f"\n{'perft':11} {'n':>2} {'depth':>5} {'tree':>6} {'nodes':>8} {'nodes/s':>8}")
    for row in perfts:
        print(f"{row['edition']:11} {row['players']:>2} {row['depth']:>5} {row['tree']:>6} "
              f"{row['nodes']:>8} {row['nodes_per_second']:>8}")
    print(f"\n{'perft table':11} {'nodes':>8} {'nodes/s':>8}  (clone tree, every published deal)")
    for row in tables:
        print(f"{row['edition']:11} {row['nodes']:>8} {row['nodes_per_second']:>8}")
    return 0


def places(args: argparse.Namespace) -> list[tuple[str, int]]:
    """The (edition, player count) rows to fuzz, less those --edition and --players leave out."""
    return [(e, p) for e, p in PLACES
            if (args.edition is None or e in args.edition) and (args.players is None or p in args.players)]


def count_instructions(args: argparse.Namespace) -> int:
    """The --instructions report: per round at every place, the lockstep's instructions, run_fuzz's,
    the reference engine's alone on the same rounds, and run_fuzz's in engine rounds."""
    if shutil.which("valgrind") is None:
        raise SystemExit("bench_fuzz: --instructions needs valgrind on the PATH")
    rows = []
    for edition, players in places(args):
        fuzz = fuzz_instructions(edition, players, args.games)
        engine, rounds = engine_instructions(edition, players, args.games)
        rows.append({"edition": edition, "players": players,
                     "instructions_per_round": lockstep_instructions(edition, players, args.games),
                     "fuzz_instructions_per_round": fuzz, "engine_instructions_per_round": engine,
                     "rounds": rounds, "fuzz_per_engine_round": round(fuzz / engine, 2)})
    if args.json:
        print(json.dumps({**describe(1), "games": args.games, "lockstep": rows}, indent=2))
        return 0
    print(f"instructions per round counted by callgrind: the lockstep alone on {args.games} random tapes "
          f"(seed 1); run_fuzz on {args.games} games (seed 1); the reference engine playing run_fuzz's "
          "rounds alone; run_fuzz in engine rounds")
    print(f"{'edition':11} {'n':>2} {'lockstep':>12} {'run_fuzz':>12} {'engine':>12} {'rounds':>7} "
          f"{'fuzz/engine':>11}")
    for row in rows:
        print(f"{row['edition']:11} {row['players']:>2} {row['instructions_per_round']:>12} "
              f"{row['fuzz_instructions_per_round']:>12} {row['engine_instructions_per_round']:>12} "
              f"{row['rounds']:>7} {row['fuzz_per_engine_round']:>11}")
    return 0


def compare_node(args: argparse.Namespace) -> int:
    """The --node report: the classic campaign against the reference and the Node.js example."""
    if shutil.which("node") is None:
        raise SystemExit("bench_fuzz: --node needs Node.js (node) on the PATH")
    found = node_rates(args.node, args.repeat)
    if args.json:
        print(json.dumps({**describe(args.repeat), **found}, indent=2))
        return 0
    info = describe(args.repeat)
    print(f"Python {info['python']} on {info['machine']}; load average {info['load_average']}; "
          f"calibration loop {info['calibration_us']} us; best of {args.repeat}, taking turns")
    print(f"classic, every player count, {args.node} games each (seed 1), one process:")
    for name, impl in (("reference", REFERENCE), ("node", NODE)):
        row = found[name]
        print(f"  --impl {impl!r:45} {row['rounds']} rounds in {row['seconds']} s: "
              f"{row['rounds_per_second']} rounds/s")
    print(f"  node / reference: {found['ratio']} (best of each); {found['median_turn_ratio']} (median of the "
          f"{args.repeat} turns, each node run over the reference run just before it: "
          f"{', '.join(map(str, found['turn_ratios']))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
