#!/usr/bin/env python3
"""Benchmark the conformance harness: the whole corpus against the reference engine in process
and over the protocol, and what one step costs over the protocol compared with a bare JSON echo.

Per-step costs replay the same seeded random games three ways: `apply` on the in-process
reference adapter; `apply` over the protocol to `llcheck serve`; and `apply` to an echo program
that answers every request at once with a canned answer, either a tiny one or one as large as a
typical real answer (events and state). The echo isolates what the pipe, JSON and the client
cost from what the engine does. The best of several repeats is reported.

    python tools/bench_protocol.py [--games N] [--repeat R] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time

from llcheck.engines import Engine, ReferenceEngine, SubprocessEngine
from llcheck.engines.loader import serve_command
from llcheck.harness.cases import load_corpus
from llcheck.harness.runner import run_cases
from llcheck.harness.select import Selection
from loveletter_ref import Game, load_spec
from loveletter_ref.engine import DECIDING

ECHO = r"""
import json, sys
canned = json.loads(sys.argv[1])
hello = {"ok": True, "protocol": "1", "name": "echo", "version": "1", "editions": ["classic"],
         "capabilities": []}
for line in sys.stdin:
    request = json.loads(line)
    answer = hello if request["op"] == "hello" else canned
    sys.stdout.write(json.dumps({"id": request["id"], **answer}) + "\n")
    sys.stdout.flush()
    if request["op"] == "stop":
        break
"""
"""The echo program: parses each request and answers with a canned message (its only argument)."""

Game_ = tuple[str, int, list[str], list[dict]]
"""A recorded game: edition, players, deck, actions."""


def record_games(count: int, seed: int) -> list[Game_]:
    """Seeded random rounds of both editions and every player count, as decks and actions."""
    rng = random.Random(seed)
    games = []
    for n in range(count):
        edition = load_spec(("classic", "z-man-2019")[n % 2])
        players = edition.min_players + n % (edition.max_players - edition.min_players + 1)
        game = Game(edition, players, seed=rng.getrandbits(32))
        game.start_round()
        deck = list(game.record[-1]["deck"])
        actions = []
        while game.phase in DECIDING:
            action = game.sample_action(rng)
            actions.append(action.to_json())
            game.apply(action)
        games.append((edition.id, players, deck, actions))
    return games


def applying(engine: Engine, actions: list[dict]) -> float:
    """Seconds spent in apply sending `actions` one by one."""
    spent = 0.0
    for action in actions:
        began = time.perf_counter()
        engine.apply(action)
        spent += time.perf_counter() - began
    return spent


def replay(engine: Engine, games: list[Game_]) -> tuple[float, int]:
    """Seconds spent in apply over all games, and the number of steps."""
    spent, steps = 0.0, 0
    for edition, players, deck, actions in games:
        engine.start(edition, players, deck, 0, [0] * players)
        spent += applying(engine, actions)
        steps += len(actions)
    return spent, steps


def echo_replay(canned: dict, games: list[Game_]) -> tuple[float, int]:
    """Seconds spent in apply against the echo program answering `canned`."""
    with SubprocessEngine([sys.executable, "-c", ECHO, json.dumps(canned)]) as engine:
        spent = sum(applying(engine, actions) for _, _, _, actions in games)
    return spent, sum(len(actions) for _, _, _, actions in games)


def typical_answer(games: list[Game_]) -> dict:
    """A real answer to apply of median size (events and state), without its id."""
    edition, players, deck, actions = games[0]
    engine = ReferenceEngine()
    engine.start(edition, players, deck, 0, [0] * players)
    answers = []
    for action in actions:
        reply = engine.apply(action)
        answers.append({"ok": True, "accepted": True, "events": reply.events, "state": reply.state})
    return sorted(answers, key=lambda a: len(json.dumps(a)))[len(answers) // 2]


def corpus_seconds(make_engine, jobs: int) -> tuple[float, int]:
    """Wall seconds to run the default corpus selection (engine start included), and the case count."""
    cases = Selection().choose(load_corpus())
    began = time.perf_counter()
    outcome = run_cases(cases, make_engine, jobs=jobs)
    seconds = time.perf_counter() - began
    bad = [r.id for r in outcome.results if r.status != "passed"]
    if bad:
        raise SystemExit(f"the corpus does not pass: {bad[:3]}")
    return seconds, len(cases)


def served() -> Engine:
    """The reference engine over the protocol."""
    return SubprocessEngine(serve_command())


def best(repeat: int, measure) -> tuple[float, int]:
    """The fastest of `repeat` measurements (seconds, count)."""
    return min((measure() for _ in range(repeat)), key=lambda pair: pair[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="recorded rounds replayed per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="measurements; the best is kept")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    load_corpus()  # warm the spec and schema caches
    games = record_games(args.games, args.seed)
    canned = typical_answer(games)
    per_step = {}
    with ReferenceEngine() as engine:
        per_step["in process"] = best(args.repeat, lambda: replay(engine, games))
    with served() as engine:
        per_step["protocol (llcheck serve)"] = best(args.repeat, lambda: replay(engine, games))
    tiny = {"ok": True, "accepted": False, "reason": "echo"}
    per_step["echo, tiny answer"] = best(args.repeat, lambda: echo_replay(tiny, games))
    per_step["echo, typical answer"] = best(args.repeat, lambda: echo_replay(canned, games))
    corpus = {
        "in process": best(args.repeat, lambda: corpus_seconds(ReferenceEngine, 1)),
        "protocol, 1 job": best(args.repeat, lambda: corpus_seconds(served, 1)),
        "protocol, 2 jobs": best(args.repeat, lambda: corpus_seconds(served, 2)),
    }
    info = {
        "python": platform.python_version(), "machine": platform.machine(), "games": args.games,
        "repeat": args.repeat, "typical_answer_bytes": len(json.dumps(canned)),
        "us_per_step": {k: round(s / n * 1e6, 1) for k, (s, n) in per_step.items()},
        "steps": per_step["in process"][1],
        "corpus_seconds": {k: round(s, 3) for k, (s, _) in corpus.items()},
        "corpus_cases": corpus["in process"][1],
    }
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    print(f"Python {info['python']} on {info['machine']}; best of {args.repeat}; "
          f"{info['steps']} steps in {args.games} recorded rounds")
    print(f"\n{'one apply step':28} {'us/step':>9}")
    for key, value in info["us_per_step"].items():
        print(f"{key:28} {value:>9}")
    print(f"(typical answer: {info['typical_answer_bytes']} bytes of JSON)")
    print(f"\n{'whole corpus (' + str(info['corpus_cases']) + ' cases)':28} {'seconds':>9}")
    for key, value in info["corpus_seconds"].items():
        print(f"{key:28} {value:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
