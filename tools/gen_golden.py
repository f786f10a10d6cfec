#!/usr/bin/env python3
"""Record golden traces: seeded random games played by the reference engine, as conformance cases.

For every edition and player count, one whole game (every round until someone wins) is dealt
from the game's seed and played with random legal actions; every step records the action, the
events it caused and the complete state after it. The cases go to
`conformance/cases/golden/<edition>/<N>-players.json`. The same seeds always give the same files,
so a change in the engine's behaviour shows up as a failing golden case (and as a difference
from `--check`); regenerate on purpose after a deliberate change.

    python tools/gen_golden.py [--check] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from llcheck.harness.jsonfmt import dumps  # noqa: E402
from loveletter_ref import Action, Game, Phase, load_spec  # noqa: E402
from loveletter_ref.engine import DECIDING  # noqa: E402
from loveletter_ref.spec import Edition  # noqa: E402

Json = dict[str, Any]

EDITIONS = ("classic", "z-man-2019", "premium")
GOLDEN = ROOT / "conformance" / "cases" / "golden"
SEED = 2024
"""The default master seed; each game's seed is drawn from it by edition and player count."""


def strip(events: list[Json]) -> list[Json]:
    """Events without the reference engine's `clause` annotations (harnesses ignore them)."""
    return [{k: v for k, v in event.items() if k != "clause"} for event in events]


def choose(rng: random.Random, actions: list[Action]) -> Action:
    """A card uniformly among those that may be played (or kept), then one of its actions uniformly.

    Both draws are taken from lists sorted by their JSON form, so the choice does not depend on
    the order in which the engine lists legal actions.
    """
    forms = sorted(actions, key=lambda a: json.dumps(a.to_json(), sort_keys=True))
    cards = sorted({a.card for a in forms})
    card = cards[rng.randrange(len(cards))]
    mine = [a for a in forms if a.card == card]
    return mine[rng.randrange(len(mine))]


def record(edition: Edition, players: int, seed: int) -> tuple[Json, set[str]]:
    """One whole game: the case's rounds, and the ids of the clauses its events came from."""
    rng = random.Random(seed)
    game = Game(edition, players)
    cards = [edition.names[c] for c in edition.deck(players)]
    rounds: list[Json] = []
    used: set[str] = set()
    while game.phase is not Phase.GAME_OVER:
        deck = cards[:]
        rng.shuffle(deck)
        events = game.start_round(deck)
        round_: Json = {"deck": deck, "start": {"events": strip(events), "state": game.state()}, "steps": []}
        while game.phase in DECIDING:
            action = choose(rng, game.legal_actions())
            events = game.apply(action)
            used.update(e["clause"] for e in events if "clause" in e)
            used.update(_card_clauses(edition, action.card))
            round_["steps"].append({"action": action.to_json(),
                                    "expect": {"events": strip(events), "state": game.state()}})
        rounds.append(round_)
    return {"rounds": rounds, "result": {"tokens": game.tokens, "game_winners": game.game_winners}}, used


def _card_clauses(edition: Edition, card: str) -> set[str]:
    return {c.id for c in edition.clauses.values() if c.card == card}


def golden_case(name: str, players: int, seed: int) -> Json:
    """The golden case of an edition and player count."""
    edition = load_spec(name)
    game, used = record(edition, players, seed)
    general = {c.id for c in edition.general.values()}
    clauses = [c for c in edition.clauses if c in used or c in general]
    return {
        "id": f"{edition.prefix}.golden/{players}-players-seed-{seed}",
        "description": f"A whole {players}-player game of random legal moves, recorded from the "
                       f"reference engine (seed {seed})",
        "clauses": clauses, "tags": ["golden", "games"], "edition": name, "players": players,
        "needs": ["games"], **game,
    }


def files(master: int) -> Iterator[tuple[Path, str]]:
    """Every golden file with its text."""
    for name in EDITIONS:
        edition = load_spec(name)
        for players in range(edition.min_players, edition.max_players + 1):
            seed = random.Random(f"{master}/{name}/{players}").getrandbits(32)
            doc = {"description": f"Golden trace: a whole {players}-player {name} game recorded from the "
                                  "reference engine by tools/gen_golden.py",
                   "cases": [golden_case(name, players, seed)]}
            yield GOLDEN / name / f"{players}-players.json", dumps(doc) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare instead of writing; exit 1 on a difference")
    parser.add_argument("--seed", type=int, default=SEED, help=f"master seed (default {SEED})")
    args = parser.parse_args()
    wanted = dict(files(args.seed))
    stale = [p for p in GOLDEN.glob("*/*.json") if p not in wanted]
    changed = [p for p, text in wanted.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    if args.check:
        for path in changed + stale:
            print(f"{path.relative_to(ROOT)}: differs from what the reference engine records now "
                  "(regenerate on purpose: python tools/gen_golden.py)")
        return 1 if changed or stale else 0
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(wanted[path], encoding="utf-8")
    for path in stale:
        path.unlink()
    print(f"{len(wanted)} golden files; {len(changed)} written, {len(stale)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
