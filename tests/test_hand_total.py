"""The `out_if_hand_total` property (the Minister of Love Letter's Japanese original): whoever holds
the card while the values in their hand add up to the limit or more is out of the round.

The edition is tests/data/specs/kanai-factory.yaml, a spec that is not bundled: these tests also
show that an edition of one's own can be played, fuzzed and checked like a bundled one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import deal, play, types

from llcheck.cli import main
from llcheck.engines import ReferenceEngine
from llcheck.fuzz import run_fuzz
from loveletter_ref import Game, Phase, load_spec
from loveletter_ref.disputes.verify import ending
from loveletter_ref.errors import SpecError
from loveletter_ref.spec import spec_dir

KANAI_FILE = Path(__file__).parent / "data" / "specs" / "kanai-factory.yaml"
KANAI = load_spec(KANAI_FILE)
LIMIT = "kanai.minister.limit"


class NoLimitGame(Game):
    """Broken on purpose: the Minister never knocks anyone out."""

    def check_hand_total(self, seat: int) -> None:
        """Ignore the limit."""


class NoLimitEngine(ReferenceEngine):
    """The reference engine playing the Kanai Factory edition without the Minister's limit."""

    def __init__(self) -> None:
        super().__init__({KANAI.id: KANAI}, NoLimitGame, name="no-minister-limit")


def _eliminations(events: list[dict]) -> list[tuple[int, str, str]]:
    return [(e["player"], e["by"], e["clause"]) for e in events if e["type"] == "eliminate"]


def test_reaching_the_limit_at_the_turn_draw_knocks_the_holder_out_and_passes_the_turn():
    game = deal(KANAI, 3, ["Minister", "Soldier", "Clown"], ["Wizard", "Knight"])
    assert game.alive == [False, True, True]
    assert _eliminations(game.log) == [(0, "Minister", LIMIT)]
    assert game.discards[0] == [KANAI.card("Minister").index, KANAI.card("Wizard").index]
    assert game.phase is Phase.PLAY and game.current == 1
    assert types(game.log)[-2:] == ["turn", "draw"]


def test_a_hand_below_the_limit_keeps_its_holder_in():
    game = deal(KANAI, 3, ["Minister", "Soldier", "Clown"], ["Priestess"])  # 7 + 4 = 11
    assert game.alive == [True, True, True]
    assert game.current == 0 and game.phase is Phase.PLAY
    assert {a.card for a in game.legal_actions()} == {"Minister", "Priestess"}


def test_the_minister_drawn_counts_and_played_does_nothing():
    game = deal(KANAI, 3, ["General", "Soldier", "Clown"], ["Minister"])  # 6 + 7 = 13
    assert game.alive == [False, True, True]
    game = deal(KANAI, 3, ["Soldier", "Clown", "Knight"], ["Minister"])  # 1 + 7: nothing forced
    assert {a.card for a in game.legal_actions()} == {"Soldier", "Minister"}
    events = game.apply(play("Minister"))
    assert types(events)[:1] == ["play"] and "eliminate" not in types(events)
    assert game.current == 1


def test_with_two_players_a_round_can_end_at_its_deal():
    game = deal(KANAI, 2, ["Soldier", "Minister"], ["Princess"], first=1)
    assert game.phase is Phase.ROUND_OVER
    assert game.round_winners == [0] and game.tokens == [1, 0]
    assert _eliminations(game.log) == [(1, "Minister", LIMIT)]


def test_a_draw_by_a_card_effect_counts_too(tmp_path):
    """z-man-2019 with the Countess (8) out at 15 instead of forced: the Chancellor's second draw
    takes its holder over the limit, and no keep decision follows."""
    text = (spec_dir() / "editions" / "z-man-2019.yaml").read_text(encoding="utf-8")
    assert text.count("forced_with: [King, Prince]") == 1
    variant = tmp_path / "z19-countess-limit.yaml"
    variant.write_text(text.replace("forced_with: [King, Prince]", "out_if_hand_total: 15"), encoding="utf-8")
    spec = load_spec(variant)
    game = deal(spec, 3, ["Countess", "Guard", "Guard"], ["Chancellor", "Handmaid", "Baron", "Guard"])
    assert game.alive == [True, True, True]  # 8 + 6 = 14
    events = game.apply(play("Chancellor"))
    assert types(events)[:4] == ["play", "draw", "draw", "eliminate"]
    assert _eliminations(events) == [(0, "Countess", "z19.countess.forced")]
    assert game.phase is Phase.PLAY and game.current == 1 and game.pending is None


def test_a_limit_the_card_reaches_alone_is_refused_by_the_validator(tmp_path):
    bad = tmp_path / "bad-limit.yaml"
    text = KANAI_FILE.read_text(encoding="utf-8")
    bad.write_text(text.replace("out_if_hand_total: 12", "out_if_hand_total: 7"), encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(bad)
    assert "out_if_hand_total 7 must be above Minister's own value 7" in str(info.value)
    assert f"{bad}:" in str(info.value)


def test_fuzzing_finds_an_engine_that_ignores_the_limit_and_blames_it():
    assert run_fuzz(lambda: ReferenceEngine({KANAI.id: KANAI}), KANAI, 3, 60, 1, None).ok
    found = run_fuzz(NoLimitEngine, KANAI, 3, 60, 1, None)
    assert found.status == "fail", found.message
    assert LIMIT in found.clauses, found.message


def test_check_takes_an_edition_from_its_file_and_replays_with_that_file(capsys, tmp_path):
    assert main(["check", "--impl", "reference", "--edition", str(KANAI_FILE), "--fuzz", "20", "-q"]) == 0
    assert "fuzz/kanai-factory/3p: no difference in 20 games" in capsys.readouterr().out
    code = main(["check", "--impl", "python:test_hand_total:NoLimitEngine", "--edition", str(KANAI_FILE),
                 "--fuzz", "60", "--seed", "1", "--fuzz-dir", str(tmp_path), "-q"])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAILED fuzz/kanai-factory/3p" in out and LIMIT in out
    assert f"--edition {KANAI_FILE}" in out


def test_check_over_the_protocol_serves_the_reference_the_edition_file():
    assert main(["check", "--edition", str(KANAI_FILE), "--fuzz", "5", "-q"]) == 0




def test_disputes_find_a_game_that_a_different_limit_changes(capsys, tmp_path):
    other = tmp_path / "kanai-13.yaml"
    text = KANAI_FILE.read_text(encoding="utf-8")
    other.write_text(text.replace("out_if_hand_total: 12", "out_if_hand_total: 13")
                     .replace("\nid: kanai-factory\n", "\nid: kanai-13\n"), encoding="utf-8")
    code = main(["disputes", str(KANAI_FILE), str(other), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [(v["clause"], v["status"]) for v in data["verdicts"]] == [("minister.limit", "observable")]
    replays = data["verdicts"][0]["witness"]["replays"]
    at_12, at_13 = ending(KANAI, replays["kanai-factory"]), ending(load_spec(other), replays["kanai-13"])
    assert at_12[0] == at_13[0] == "ok" and at_12 != at_13  # both replay, to different outcomes


def test_perft_compares_an_engine_on_a_deal_of_an_edition_file(capsys):
    """Seat 0 keeps the Minister, draws the Wizard on their second turn (7 + 5) and is out."""
    deck = ("Soldier Soldier Soldier Soldier Minister Clown Soldier Knight Wizard Knight Priestess Priestess "
            "Clown Wizard General Princess")
    args = ["perft", "--edition", str(KANAI_FILE), "--players", "2", "--deck", deck, "--depth", "3"]
    assert main([*args, "--impl", "reference"]) == 0
    assert "perft matches the reference to depth 3" in capsys.readouterr().out
    assert main([*args, "--impl", "python:test_hand_total:NoLimitEngine"]) == 1
    out = capsys.readouterr().out
    assert ("Soldier on 1 naming Knight: 2 nodes (terminal: 0 x1, 1 x1) / 2 nodes (terminal: 0 x1)  "
            "<-- differs") in out
    assert "should end the round with winners 1" in out


def test_an_edition_file_is_recorded_and_checked_against_its_baseline(capsys, tmp_path):
    baseline = str(tmp_path / "kanai.jsonl")
    assert main(["record", "--impl", "reference", "--edition", str(KANAI_FILE), "--out", baseline,
                 "--games", "3"]) == 0
    assert main(["check", "--impl", "reference", "--edition", str(KANAI_FILE), "--baseline", baseline,
                 "-q"]) == 0
    assert main(["check", "--impl", "python:test_hand_total:NoLimitEngine", "--edition", str(KANAI_FILE),
                 "--baseline", baseline, "-q"]) == 4
    out = capsys.readouterr().out
    assert "changed" in out
    assert (f"to accept these changes on purpose: llcheck record --impl python:test_hand_total:NoLimitEngine "
            f"--edition {KANAI_FILE} --out {baseline}") in out
