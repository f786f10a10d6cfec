"""`llcheck simulate`: statistics of random games that account for every round."""

from __future__ import annotations

import json

from llcheck.cli import main


def simulate(capsys, *args: str) -> dict:
    assert main(["simulate", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_round_is_counted_under_a_named_ending(capsys):
    """premium.game.end: a Bishop or Constable token that reaches the target ends the game during
    a round; such a round has no showdown and no last player standing, and is counted as won
    mid-round, with the turn it cut short (so no round has 0 turns)."""
    stats = simulate(capsys, "--edition", "premium", "--players", "5", "--games", "300", "--seed", "1")
    endings = stats["round_endings"]
    rounds = stats["rounds_per_game"]["mean"] * stats["games"]
    assert abs(sum(endings.values()) - rounds) < 0.5
    assert set(endings) == {"game_won_mid_round", "last_standing", "showdown"}
    assert endings["game_won_mid_round"] > 0
    assert stats["turns_per_round"]["min"] >= 1


def test_the_text_lists_each_ending(capsys):
    assert main(["simulate", "--edition", "premium", "--players", "5", "--games", "300", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    endings = next(line for line in lines if line.startswith("round endings: "))
    assert endings.startswith("round endings: game_won_mid_round ")


def test_a_reading_silent_where_a_game_goes_counts_that_game_by_clause_and_goes_on(capsys):
    """tr-2019 does not say what the Prince does on an empty deck (tr-2019.prince.empty-deck, among
    others): such games stop there and are counted; the others finish and make the statistics."""
    stats = simulate(capsys, "--edition", "tr-2019", "--players", "3", "--games", "300", "--seed", "7")
    silent = stats["stopped_by_silence"]
    assert silent["games"] + stats["finished"] == 300 and 0 < silent["games"] < 300
    assert sum(silent["by_clause"].values()) == silent["games"]
    assert "tr-2019.prince.empty-deck" in silent["by_clause"]
    assert abs(sum(stats["win_rate_by_seat"].values()) - 1) < 0.01
    assert "stopped_by_silence" not in simulate(capsys, "--edition", "z-man-2019", "--players", "3",
                                                "--games", "50", "--seed", "7")
