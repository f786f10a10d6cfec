"""Play random legal games with the reference engine and print statistics: win rate by seat,
rounds per game, turns per round, how rounds ended, eliminations by card. The same seed gives the
same output.

Random play: each decision picks a playable card, then a target, then a guess, each uniformly.
Game g is seeded from the master seed; seat 0 starts every game's first round.

Every round is counted under one ending: last_standing, showdown, all_eliminated, or
game_won_mid_round (a token gained during the round reached the target and ended the game at
once, as Premium allows). A turn counts once it has begun, the turn such a win cuts short
included.

A reading may be silent where a game goes (RuleGapError): that game stops there and is counted,
by clause, under `stopped_by_silence`; the rates by seat are over the games that finished, the
round figures over the rounds that ended."""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from typing import Any

from loveletter_ref import Game, Phase
from loveletter_ref.engine import DECIDING
from loveletter_ref.errors import RuleGapError

from .. import exitcodes
from ..arguments import GAMES, PLAYERS, SEED
from ..interrupts import unfinished
from ..progress import Progress
from ..specs import check_players, edition_arg, parse_choices, version_choices

EXAMPLES = """examples:
  llcheck simulate --edition classic --players 4 --games 2000 --seed 7
  llcheck simulate --edition premium --players 6 --games 500 --json
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--edition", required=True, metavar="NAME|FILE",
                        help="the edition or reading to play: a bundled id or a spec file")
    parser.add_argument("--players", type=PLAYERS, required=True, metavar="N", help="players at the table")
    parser.add_argument("--games", type=GAMES, default=1000, metavar="G", help="games to play (default 1000)")
    parser.add_argument("--seed", type=SEED, default=0, metavar="S",
                        help="seed of the deals and choices: the same seed plays the same games (default 0)")
    parser.add_argument("--version-of", action="append", metavar="CLAUSE=N",
                        help="for a reading: play version N of a contradicted clause")
    parser.add_argument("--json", action="store_true", help="print JSON")


MID_ROUND = "game_won_mid_round"
"""The ending of a round that stops without a `round_end` event: the game ended during it."""


def simulate(edition_name: str, players: int, games: int, seed: int,
             choices: dict[str, int] | None = None, progress: Progress | None = None) -> dict[str, Any]:
    """Statistics of `games` random games (see the module docstring)."""
    edition = edition_arg(edition_name, choices)
    check_players(edition, players)
    master = random.Random(seed)
    wins = Counter[int]()
    round_wins = Counter[int]()
    eliminations = Counter[str]()
    rounds_per_game: list[int] = []
    turns_per_round: list[int] = []
    endings = Counter[str]()
    silences = Counter[str]()
    first_silent: int | None = None
    for done in range(games):
        game = Game(edition, players, seed=master.getrandbits(63))
        policy = random.Random(master.getrandbits(63))
        try:
            _play(game, policy, eliminations, turns_per_round, endings, round_wins)
        except RuleGapError as exc:  # a reading silent here: the game cannot go on, the next one can
            silences[exc.clause] += 1
            first_silent = done + 1 if first_silent is None else first_silent
        else:
            wins.update(game.game_winners or [])
            rounds_per_game.append(game.round)
        if progress:
            progress.update(done + 1)
    finished = games - sum(silences.values())
    out = {
        "edition": edition.id, "players": players, "games": games, "seed": seed, "finished": finished,
        "win_rate_by_seat": {str(s): round(wins[s] / finished, 4) if finished else 0.0
                             for s in range(players)},
        "round_wins_by_seat": {str(s): round_wins[s] for s in range(players)},
        "rounds_per_game": _summary(rounds_per_game),
        "turns_per_round": _summary(turns_per_round),
        "round_endings": dict(sorted(endings.items())),
        "eliminations_by_card": {name: eliminations[name] for name in edition.names
                                 if eliminations[name]},
    }
    if silences:
        out["stopped_by_silence"] = {"games": sum(silences.values()), "first_game": first_silent,
                                     "by_clause": dict(silences.most_common())}
    return out


def _play(game: Game, policy: random.Random, eliminations: Counter[str], turns_per_round: list[int],
          endings: Counter[str], round_wins: Counter[int]) -> None:
    """Play one game to its end with random legal actions, counting its rounds (RuleGapError where
    the rules are silent)."""
    while game.phase is not Phase.GAME_OVER:
        game.start_round()
        while game.phase in DECIDING:
            game.apply_unchecked(game.sample_action(policy))
        turns, ending = 0, MID_ROUND
        for event in game.log:
            if event["type"] == "turn":
                turns += 1
            elif event["type"] == "eliminate":
                eliminations[event["by"]] += 1
            elif event["type"] == "round_end":
                ending = event["reason"]
        turns_per_round.append(turns)
        endings[ending] += 1
        round_wins.update(game.round_winners or [])


def _summary(values: list[int]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "min": 0, "max": 0}
    return {"mean": round(sum(values) / len(values), 3), "min": min(values), "max": max(values)}


def run(args: argparse.Namespace) -> int:
    progress = Progress(args.games, "games")
    try:
        with unfinished(progress.left):
            stats = simulate(args.edition, args.players, args.games, args.seed,
                             version_choices([args.edition], parse_choices(args.version_of))[0], progress)
    finally:
        progress.close()
    if args.json:
        print(json.dumps(stats, indent=2))
        return exitcodes.OK
    print(f"{stats['edition']}, {stats['players']} players, {stats['games']} games, seed {stats['seed']}")
    print("game wins by seat:  " + "  ".join(f"{s}: {r:.1%}" for s, r in stats["win_rate_by_seat"].items()))
    print("round wins by seat: " + "  ".join(f"{s}: {n}" for s, n in stats["round_wins_by_seat"].items()))
    for key in ("rounds_per_game", "turns_per_round"):
        summary = stats[key]
        print(f"{key.replace('_', ' ')}: mean {summary['mean']}, min {summary['min']}, max {summary['max']}")
    print("round endings: " + ", ".join(f"{k} {v}" for k, v in stats["round_endings"].items()))
    print("eliminations by card: " + ", ".join(f"{k} {v}" for k, v in stats["eliminations_by_card"].items()))
    silent = stats.get("stopped_by_silence")
    if silent:
        print(f"stopped where the rules are silent: {silent['games']} of {stats['games']} games (the first: "
              f"game {silent['first_game']}); by clause: "
              + ", ".join(f"{k} {v}" for k, v in silent["by_clause"].items()))
    return exitcodes.OK
