"""`llcheck view` and the viewer's page, without a browser: what the page holds, and bad input as
one located line with exit code 2."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from llcheck.cli import main
from llcheck.view.film import of_record
from llcheck.view.page import page
from loveletter_ref.engine.game import Game
from loveletter_ref.engine.replay import game_record
from loveletter_ref.spec import load_spec

DATA = Path(__file__).parent.parent / "conformance"
GOLDEN = DATA / "golden" / "classic" / "3-players.json"
COUNTESS = DATA / "cases" / "required" / "classic" / "countess.json"


def _data(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="llcheck-data">(.*?)</script>', html, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_the_page_is_self_contained_and_cannot_be_broken_out_of() -> None:
    film = {"title": "</script><script>alert(1)</script>", "frames": [], "cards": [], "clauses": []}
    html = page("a <title>", [film])
    assert "<title>a &lt;title&gt;</title>" in html
    assert _data(html)["films"][0]["title"] == film["title"]
    assert html.count("</script>") == 2  # the data's and the viewer's, nothing injected
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # no network


def test_a_game_record_plays_every_action(tmp_path: Path, capsys) -> None:
    game = Game(load_spec("z-man-2019"), 3, seed=5)
    game.start_round()
    rng = random.Random(5)
    actions = 0
    while game.round_winners is None:
        game.apply(game.sample_action(rng))
        actions += 1
    record = tmp_path / "game.json"
    record.write_text(json.dumps(game_record(game)))
    out = tmp_path / "game.html"
    assert main(["view", str(record), "--html", str(out)]) == 0
    assert f"1 game, {actions + 1} steps" in capsys.readouterr().out
    film = _data(out.read_text())["films"][0]
    assert film["frames"][-1]["state"] == game.state()
    assert {card["name"] for card in film["cards"]} >= {"Spy", "Chancellor", "Princess"}


def test_a_file_of_several_cases_needs_one_named(tmp_path: Path, capsys) -> None:
    out = tmp_path / "c.html"
    assert main(["view", str(COUNTESS), "--html", str(out)]) == 2
    assert "name one with --case" in capsys.readouterr().err
    prince = "classic.countess.forced/with-prince"
    assert main(["view", str(COUNTESS), "--case", prince, "--html", str(out)]) == 0
    assert _data(out.read_text())["films"][0]["title"].startswith("classic.countess.forced/with-prince")


def test_a_golden_trace_shows_the_whole_game(tmp_path: Path) -> None:
    out = tmp_path / "g.html"
    assert main(["view", str(GOLDEN), "--html", str(out)]) == 0
    frames = _data(out.read_text())["films"][0]["frames"]
    assert len({frame["round"] for frame in frames}) > 1  # every round of the whole game


def test_bad_input_is_one_located_line(tmp_path: Path, capsys) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"rounds": [\n  1,\n')
    assert main(["view", str(broken), "--html", str(tmp_path / "x.html")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"llcheck view: {broken}:3:1: not JSON") and "\n" not in err
    for name in ("classic.no-such-case", "a" * 5000):  # no case, and a name no file system takes
        assert main(["view", name, "--html", str(tmp_path / "x.html")]) == 2
        assert "neither a file nor a case id" in capsys.readouterr().err
    unknown = tmp_path / "record.json"
    unknown.write_text(json.dumps({"edition": "nowhere", "players": 2, "rounds": []}))
    assert main(["view", str(unknown), "--html", str(tmp_path / "x.html")]) == 2
    assert "nowhere: no such bundled edition" in capsys.readouterr().err
    assert not (tmp_path / "x.html").exists()


def test_a_record_the_reference_refuses_stops_at_the_refusal() -> None:
    spec = load_spec("classic")
    game = Game(spec, 2, seed=1)
    game.start_round()
    record = game_record(game)
    record["rounds"][0]["actions"] = [{"type": "play", "card": "Princess"}, {"type": "play", "card": "Guard"}]
    holds = "Princess" in game.hand_names(0)
    film = of_record(record, spec, "t")
    assert film["frames"][1].get("refused", False) is not holds
    if not holds:
        assert len(film["frames"]) == 2  # nothing after the refusal


def test_a_comparison_of_readings_shows_each_witness_under_both(tmp_path: Path, capsys) -> None:
    assert main(["disputes", "tr-2019", "nl-2019", "--games", "20", "--json"]) == 1
    comparison = tmp_path / "d.json"
    comparison.write_text(capsys.readouterr().out)
    out = tmp_path / "d.html"
    assert main(["view", str(comparison), "--html", str(out)]) == 0
    data = _data(out.read_text())
    witnessed = [v["clause"] for v in json.loads(comparison.read_text())["verdicts"] if v.get("witness")]
    assert [row["id"] for row in data["report"]["rows"] if row["film"] is not None] == witnessed
    parted = data["films"][0]["parted"]
    assert parted["sides"] == ["tr-2019", "nl-2019"]
    assert parted["frame"] == len(data["films"][0]["frames"]) - 1
    assert parted["expected"] != parted["actual"]
    (tmp_path / "half.json").write_text(json.dumps({"a": {}, "b": {}, "verdicts": []}))
    assert main(["view", str(tmp_path / "half.json"), "--html", str(out)]) == 2
    assert "not a disputes --json comparison: missing 'label'" in capsys.readouterr().err
