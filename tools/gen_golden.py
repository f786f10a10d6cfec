#!/usr/bin/env python3
"""Record golden traces: seeded random games played by the reference engine, as conformance cases.

The games to record are data, `tools/data/golden-traces.json`: an edition, a player count and a
seed each. Each whole game (every round until someone wins) is dealt from its seed and played
with random legal actions (the policy of random baseline games, `llcheck.baseline.units.choose`);
every step records the action, the events it caused and the complete state after it. The cases
go to `conformance/golden/<edition>/<N>-players.json`, each file naming what wrote it; an entry
with `"rounds": 1` records the game's first round alone, into `<N>-players-one-round.json`. The same
seeds always give the same files, so a change in the engine's behaviour shows up as a failing
golden case (and as a difference from `--check`); regenerate on purpose after a deliberate change.

    python tools/gen_golden.py [--check]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from llcheck.atomic import write_atomic
from llcheck.baseline.observe import sorted_actions
from llcheck.baseline.units import choose
from llcheck.harness.cases import formatted
from loveletter_ref import Action, Game, Phase, load_spec
from loveletter_ref.engine import DECIDING
from loveletter_ref.spec import Edition

Json = dict[str, Any]

ROOT = Path(__file__).resolve().parents[1]
TRACES = ROOT / "tools" / "data" / "golden-traces.json"
GOLDEN = ROOT / "conformance" / "golden"


def strip(events: list[Json]) -> list[Json]:
    """Events without the reference engine's `clause` annotations (harnesses ignore them)."""
    return [{k: v for k, v in event.items() if k != "clause"} for event in events]


def record(edition: Edition, players: int, seed: int, rounds: int | None = None) -> tuple[Json, set[str]]:
    """One whole game (or its first `rounds` rounds): the case's rounds and result, and the ids of
    the clauses its events came from."""
    rng = random.Random(seed)
    game = Game(edition, players)
    cards = [edition.names[c] for c in edition.deck(players)]
    record_rounds: list[Json] = []
    used: set[str] = set()
    while game.phase is not Phase.GAME_OVER and (rounds is None or len(record_rounds) < rounds):
        deck = cards[:]
        rng.shuffle(deck)
        events = game.start_round(deck)
        round_: Json = {"deck": deck, "start": {"events": strip(events), "state": game.state()}, "steps": []}
        while game.phase in DECIDING:
            legal = sorted_actions([a.to_json() for a in game.legal_actions()])
            action = Action.from_json(choose(rng, legal))
            events = game.apply(action)
            used.update(e["clause"] for e in events if "clause" in e)
            used.update(_card_clauses(edition, action.card))
            round_["steps"].append({"action": action.to_json(),
                                    "expect": {"events": strip(events), "state": game.state()}})
        record_rounds.append(round_)
    result = ({"tokens": game.tokens, "game_winners": game.game_winners} if rounds is None
              else {"round_winners": game.round_winners})
    return {"rounds": record_rounds, "result": result}, used


def _card_clauses(edition: Edition, card: str) -> set[str]:
    return {c.id for c in edition.clauses.values() if c.card == card}


def golden_case(edition: Edition, players: int, seed: int, rounds: int | None = None) -> Json:
    """The golden case of an edition, a player count and a seed: a whole game, or (`rounds` 1) a
    single round, which engines without capability `games` play too."""
    game, used = record(edition, players, seed, rounds)
    general = {c.id for c in edition.general.values()}
    clauses = [c for c in edition.clauses if c in used or c in general]
    if rounds == 1:
        return {"id": f"{edition.prefix}.golden/{players}-players-one-round-seed-{seed}",
                "description": f"A single {players}-player round of random legal moves, recorded from the "
                               f"reference engine (seed {seed})",
                "clauses": clauses, "tags": ["golden", "one-round"], "edition": edition.id,
                "players": players, **game}
    return {
        "id": f"{edition.prefix}.golden/{players}-players-seed-{seed}",
        "description": f"A whole {players}-player game of random legal moves, recorded from the "
                       f"reference engine (seed {seed})",
        "clauses": clauses, "tags": ["golden", "games"], "edition": edition.id, "players": players,
        "needs": ["games"], **game,
    }


def traces() -> list[Json]:
    """The games to record: tools/data/golden-traces.json."""
    return list(json.loads(TRACES.read_text(encoding="utf-8"))["traces"])


def files() -> Iterator[tuple[Path, str]]:
    """Every golden file with its text."""
    for trace in traces():
        edition, players, seed = load_spec(trace["edition"]), trace["players"], trace["seed"]
        rounds = trace.get("rounds")
        source = edition.path.relative_to(ROOT) if edition.path is not None else edition.id
        what = "a single round of a" if rounds == 1 else "a whole"
        doc = {"generated": f"by tools/gen_golden.py from {source}, seed {seed}; do not edit",
               "description": f"Golden trace: {what} {players}-player {edition.id} game recorded from the "
                              "reference engine",
               "cases": [golden_case(edition, players, seed, rounds)]}
        name = f"{players}-players-one-round.json" if rounds == 1 else f"{players}-players.json"
        yield GOLDEN / edition.id / name, formatted(doc)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare instead of writing; exit 1 on a difference")
    args = parser.parse_args()
    wanted = dict(files())
    stale = [p for p in GOLDEN.glob("*/*.json") if p not in wanted]
    changed = [p for p, text in wanted.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    if args.check:
        for path in changed + stale:
            print(f"{path.relative_to(ROOT)}: differs from what the reference engine records now "
                  "(regenerate on purpose: python tools/gen_golden.py)")
        return 1 if changed or stale else 0
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, wanted[path])
    for path in stale:
        path.unlink()
    print(f"{len(wanted)} golden files; {len(changed)} written, {len(stale)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
