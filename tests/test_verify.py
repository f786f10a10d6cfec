"""`llcheck verify LOG...` (issue 25): recorded games checked against an edition with check's
verdicts, divergences, quotes and replays; what a log lacks is reported as not checked."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import jsonschema
import pytest

from llcheck.baseline.observe import sorted_actions
from llcheck.baseline.units import choose
from llcheck.cli import main
from llcheck.harness.report import report_schema_path
from llcheck.logs.dealt import play_dealt
from llcheck.logs.reading import log_lines
from loveletter_ref import Action, Game, load_spec
from loveletter_ref.engine import DECIDING

sys.path.insert(0, str(Path(__file__).parent / "engines"))

from one_round import OneRound  # noqa: E402
from one_round_variants import BaronTieOut  # noqa: E402

Json = dict


def write(path: Path, lines: list[Json]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def reference_log(edition: str, players: int, seed: int, *, deck: bool = True,
                  states: bool = True) -> list[Json]:
    """A game of the reference engine as a log: seeded random legal actions, states and events."""
    spec = load_spec(edition)
    rng = random.Random(seed)
    game = Game(spec, players)
    cards = [spec.names[c] for c in spec.deck(players)]
    rng.shuffle(cards)
    events = game.start_round(cards)

    def reported(events: list[Json]) -> Json:
        return {"state": game.state(), "events": events} if states else {}

    lines = [{"game": {"format": "llcheck-log/1", "edition": edition, "players": players}},
             {"deal": {"deck": cards} if deck else {}, **reported(events)}]
    while game.phase in DECIDING:
        action = choose(rng, sorted_actions([a.to_json() for a in game.legal_actions()]))
        lines.append({"action": action, **reported(game.apply(Action.from_json(action)))})
    return lines


def verify(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["verify", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_thousand_games_of_the_one_round_engine_verify(capsys, tmp_path):
    engine, spec = OneRound(), load_spec("z-man-2019")
    lines = [line for seed in range(1000) for line in log_lines(play_dealt(engine, spec, 2, seed))]
    assert any(line.get("action", {}).get("keep") for line in lines)  # one-step Chancellors among them
    assert not any("deck" in line.get("deal", {}) for line in lines)  # every deal read from its state
    code, out, _ = verify(capsys, str(write(tmp_path / "games.jsonl", lines)), "-q")
    assert code == 0, out
    assert out.startswith("llcheck verify: 1000 games in 1 log")
    assert "1000 passed, 0 failed" in out
    assert "not checked: round 1: the deck is read from the state after its deal (1000 games)" in out


def test_a_buggy_engines_logs_fail_on_the_clause_it_breaks(capsys, tmp_path):
    engine, spec = BaronTieOut(), load_spec("z-man-2019")
    lines = [line for seed in range(300) for line in log_lines(play_dealt(engine, spec, 2, seed))]
    code, out, _ = verify(capsys, str(write(tmp_path / "games.jsonl", lines)))
    assert code == 1
    assert "clause z19.baron.tie: " in out
    table = [row for row in out.splitlines() if row.startswith("z19.baron.tie ")]
    assert table and table[0].split()[-1] == "fails"
    # each diverging game is diagnosed, confirmed on the log's other games, and the engine's
    # reading closes the report as check's does
    assert "diagnosis: your engine plays as if `z19.baron.tie` were `both_out`" in out
    reading = out[out.index("your engine's reading"):].splitlines()
    assert reading[1].startswith("  z19.baron.tie: ")


@pytest.mark.clause("classic.guard.guess")
def test_a_hand_edited_illegal_move_is_found_with_its_clause_and_line(capsys, tmp_path):
    lines = reference_log("classic", 2, 11)
    index = next(i for i, line in enumerate(lines) if line.get("action", {}).get("card") == "Guard")
    lines[index]["action"]["guess"] = "Guard"  # the Guard may not name a Guard
    log = write(tmp_path / "edited.jsonl", lines)
    report = tmp_path / "report.json"
    code, out, _ = verify(capsys, str(log), "-q", "--json", str(report))
    assert code == 1
    data = json.loads(report.read_text())
    jsonschema.Draft202012Validator(json.loads(report_schema_path().read_text())).validate(data)
    assert (data["report"], data["summary"]["failed"]) == ("llcheck-verify", 1)
    assert data["results"][0]["charged"] is None and data["results"][0]["clauses"] == ["classic.guard.guess"]
    assert "FAILED log/edited.jsonl/game-1" in out
    assert "clause classic.guard.guess: " in out
    assert f"case: {log}:{index + 1}" in out
    assert "naming Guard): action accepted" in out
    assert f"replay: llcheck verify {log} --game 1" in out
    assert "the reference refuses Guard on" in out


def test_a_changed_state_is_the_first_divergence(capsys, tmp_path):
    lines = reference_log("z-man-2019", 3, 4)
    lines[3]["state"]["discards"] = [[], [], []]
    code, out, _ = verify(capsys, str(write(tmp_path / "changed.jsonl", lines)), "--game", "1", "-q")
    assert code == 1
    assert "round 1, step 2 " in out and ": state.discards" in out


def test_many_games_and_logs_and_one_game_replayed(capsys, tmp_path):
    first = write(tmp_path / "a.jsonl", reference_log("classic", 4, 1) + reference_log("premium", 5, 2))
    second = write(tmp_path / "b.jsonl", reference_log("z-man-2019", 2, 3, deck=False))
    code, out, _ = verify(capsys, str(first), str(second), "-q")
    assert code == 0, out
    assert out.startswith("llcheck verify: 3 games in 2 logs")
    code, out, _ = verify(capsys, str(first), "--game", "2", "-q")
    assert (code, out.splitlines()[0]) == (0, f"llcheck verify: 1 game in 1 log ({first}); editions: premium")


def test_a_log_without_deck_or_states_is_checked_as_far_as_it_goes(capsys, tmp_path):
    bare = reference_log("classic", 2, 5, deck=False, states=False)
    code, out, _ = verify(capsys, str(write(tmp_path / "bare.jsonl", bare)))
    assert code == 0
    assert "not checked: round 1 has no deck, and no state that shows its deal" in out
    assert "0 passed, 0 failed, 0 errored, 1 skipped" in out  # nothing checked is not a pass
    lines = reference_log("classic", 2, 5, states=False)  # a deck, no states: the moves' legality is checked
    lines[-1]["action"] = {"type": "play", "card": "Countess"}
    code, out, _ = verify(capsys, str(write(tmp_path / "moves.jsonl", lines)), "-q")
    assert code == 1 and "action accepted" in out


HEADER = json.dumps({"game": {"format": "llcheck-log/1", "edition": "classic", "players": 2}}) + "\n"


@pytest.mark.parametrize(("text", "message"), [
    ('{"deal": {}}\n', "bad.jsonl:1: a log starts with a game line"),
    (HEADER + "not json\n", "bad.jsonl:2: not JSON"),
    (HEADER + '{"action": {"type": "play", "card": "Guard"}}\n', "bad.jsonl:2: an action before the game"),
    (HEADER.replace("log/1", "log/9"), "bad.jsonl:1: "),
    (HEADER.replace("classic", "nope"), "bad.jsonl:1: edition 'nope' cannot be loaded"),
    ("", "bad.jsonl:1: no game in the log"),
    (HEADER.replace('"players": 2', '"players": 9'), "bad.jsonl:1: classic is for 2-4 players, not 9"),
    (HEADER.replace('"players": 2', '"players": 2, "tokens": [1]'), "bad.jsonl:1: tokens must list 2"),
])
def test_an_unusable_log_is_one_located_line_and_exit_2(capsys, tmp_path, text, message):
    (tmp_path / "bad.jsonl").write_text(text, encoding="utf-8")
    code, out, err = verify(capsys, str(tmp_path / "bad.jsonl"))
    assert code == 2 and out == ""
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err


@pytest.mark.clause("z19.setup.set-aside")
def test_a_hidden_set_aside_card_is_inferred_from_the_deal_and_not_compared(capsys, tmp_path):
    lines = reference_log("z-man-2019", 2, 8, deck=False)
    for line in lines[1:]:
        line["state"]["set_aside"] = []
    code, out, _ = verify(capsys, str(write(tmp_path / "hidden.jsonl", lines)), "-q")
    assert code == 0, out
    assert "round 1: the set-aside card is hidden: it is the card the deal lacks" in out
    lines[1]["state"]["face_up"] = lines[1]["state"]["face_up"][:2]  # a card lost: the deal cannot be whole
    code, out, _ = verify(capsys, str(write(tmp_path / "short.jsonl", lines)), "-q")
    assert code == 1 and "round 1, deal: deal accepted" in out and "clause z19.setup.deck: " in out


def test_a_refusal_in_a_log_is_right_when_the_rules_refuse_it_too(capsys, tmp_path):
    lines = reference_log("classic", 2, 11)
    index = next(i for i, line in enumerate(lines) if line.get("action", {}).get("card") == "Guard")
    wrong = {"action": {**lines[index]["action"], "guess": "Guard"}, "refused": "no Guard may be named"}
    tried = write(tmp_path / "tried.jsonl", [*lines[:index], wrong, *lines[index:]])
    code, out, _ = verify(capsys, str(tried), "-q")
    assert code == 0, out  # an illegal try, refused, then the game as played
    right = {"action": lines[index]["action"], "refused": "not now"}
    code, out, _ = verify(capsys, str(write(tmp_path / "balked.jsonl", [*lines[:index], right])), "-q")
    assert code == 1 and "action refused" in out and "the engine refused it: not now" in out


@pytest.mark.clause("classic.guard.guess")
def test_the_html_page_shows_the_diverging_game_on_a_table(capsys, tmp_path):
    lines = reference_log("classic", 2, 11)
    index = next(i for i, line in enumerate(lines) if line.get("action", {}).get("card") == "Guard")
    lines[index]["action"]["guess"] = "Guard"
    page = tmp_path / "games.html"
    log = write(tmp_path / "edited.jsonl", lines + reference_log("classic", 3, 2))
    code, _, _ = verify(capsys, str(log), "-q", "--html", str(page))
    assert code == 1
    found = re.search(r'<script type="application/json" id="llcheck-data">(.*?)</script>', page.read_text(),
                      re.S)
    assert found is not None
    data = json.loads(found.group(1))
    rows = {row["id"].rpartition("/")[2]: row for row in data["report"]["rows"]}
    assert (rows["game-1"]["status"], rows["game-1"]["film"]) == ("failed", 0)
    assert (rows["game-2"]["status"], rows["game-2"]["film"]) == ("passed", None)
    [film] = data["films"]
    frame = film["frames"][film["parted"]["frame"]]
    assert (frame["round"], frame["step"]) == (1, index - 1)  # the log's lines before: a header, a deal
    assert film["parted"]["what"] == "action accepted"
