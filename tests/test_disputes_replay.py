"""llcheck replay: what disputes, probe, check and the JSON reports print, told step by step."""

from __future__ import annotations

import io
import json
import re

import pytest

from llcheck.cli import main

PAIR = ["disputes", "tr-2019", "nl-2019", "--games", "5"]
"""A pair with witnesses, settled in well under a second."""


def run_cli(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_a_witness_printed_as_text_is_told_under_both_sides_parting_where_it_says(capsys, tmp_path):
    _, printed, _ = run_cli(capsys, *PAIR)
    (tmp_path / "out.txt").write_text(printed, encoding="utf-8")
    code, out, _ = run_cli(capsys, "replay", str(tmp_path / "out.txt"), "--list")
    listed = out.splitlines()
    assert code == 0 and len(listed) == printed.count("witness:")
    assert all("under tr-2019 and nl-2019" in line for line in listed)
    code, out, _ = run_cli(capsys, "replay", str(tmp_path / "out.txt"), "--pick", "1")
    lines = out.splitlines()
    assert code == 1
    parted = lines.index("Here tr-2019 and nl-2019 part:")
    step = lines[parted + 1].split(".")[0]
    assert lines[parted + 1].startswith(f"{step}. Under tr-2019: ")
    assert lines[parted + 2].startswith(f"{step}. Under nl-2019: ")
    assert lines[-1].startswith("So ")


def test_the_json_of_disputes_holds_the_same_games_as_its_text(capsys, tmp_path):
    _, printed, _ = run_cli(capsys, *PAIR, "--json")
    data = json.loads(printed)
    (tmp_path / "out.json").write_text(printed, encoding="utf-8")
    code, out, _ = run_cli(capsys, "replay", str(tmp_path / "out.json"), "--list")
    witnesses = [v for v in data["verdicts"] if "witness" in v]
    assert code == 0 and len(out.splitlines()) == len(witnesses)
    assert out.splitlines()[0].startswith(f"1. {tmp_path / 'out.json'}/verdicts/")


def test_one_side_of_a_witness_is_told_under_its_spec_alone_or_under_another(capsys, tmp_path, monkeypatch):
    _, printed, _ = run_cli(capsys, *PAIR, "--json")
    witness = next(v["witness"] for v in json.loads(printed)["verdicts"] if "witness" in v)
    replay = witness["replays"]["tr-2019"]
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(replay)))
    code, out, _ = run_cli(capsys, "replay", "-")
    assert code == 0 and out.startswith("stdin under tr-2019:\n")
    assert "Under " not in out and "\n1. Round 1 (deck from the top: " in out
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(replay)))
    code, out, _ = run_cli(capsys, "replay", "-", "--spec", "tr-2019", "--spec", "nl-2019")
    assert code == 1 and "Here tr-2019 and nl-2019 part:" in out


def test_a_probe_witness_replays_as_probe_printed_it(capsys, tmp_path):
    _, printed, _ = run_cli(capsys, "probe", "--edition", "classic", "--players", "2",
                            "--query", "clause-applies:baron.tie")
    (tmp_path / "probe.txt").write_text(printed, encoding="utf-8")
    code, out, _ = run_cli(capsys, "replay", str(tmp_path / "probe.txt"))
    assert code == 0 and "under classic:" in out.splitlines()[0]
    assert "Ana plays the Baron on Ben" in out or "Ben plays the Baron on Ana" in out


def test_a_case_of_the_corpus_is_told_under_the_spec_it_assumes(capsys):
    corpus = "conformance/cases/disputed/classic/readings.json"
    code, _, err = run_cli(capsys, "replay", corpus)
    assert code == 2 and "choose one with --pick N" in err
    code, out, _ = run_cli(capsys, "replay", corpus, "--pick", "1", "--spec", "classic", "--spec",
                           "bga-classic-premium")
    assert code == 1 and "Here classic and bga-classic-premium part:" in out


@pytest.mark.parametrize("content, message", [
    ("{not json", "bad.json:1: not JSON: "),
    ('{"rounds": []}', "no game to replay"),
    ('{"edition": "nonesuch", "players": 2, "rounds": [{"deck": [], "actions": []}]}', "nonesuch"),
    ('{"edition": "classic", "players": "two", "rounds": [{"deck": [], "actions": []}]}',
     "players and first_player must be whole numbers"),
    ('{"edition": "classic", "players": 2, "rounds": [{"deck": ["Guard"], "actions": [{"type": 7}]}]}',
     "/rounds/0/actions/0: not an action"),
])
def test_bad_input_is_one_located_line_and_exit_2(capsys, tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = run_cli(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_a_pick_beyond_the_games_is_bad_usage(capsys, tmp_path):
    path = tmp_path / "one.json"
    path.write_text('{"edition": "classic", "players": 2, "rounds": [{"deck": [], "actions": []}]}',
                    encoding="utf-8")
    code, _, err = run_cli(capsys, "replay", str(path), "--pick", "2")
    assert code == 2 and "--pick 2: " in err and "holds 1 game" in err


def test_a_failed_case_of_a_check_report_is_told_from_the_case_it_names(capsys, tmp_path):
    report = tmp_path / "check.json"
    case = "classic.baron.compare/the-lower-hand-is-out"
    code, _, _ = run_cli(capsys, "check", "--impl", "python:adapters:DropDiscards", "--edition", "classic",
                         "--run", case, "--json", str(report), "-q")
    assert code == 1
    code, out, _ = run_cli(capsys, "replay", str(report))
    assert code == 0 and out.splitlines()[0] == f"{report}/results/0 ({case}) under classic:"
    assert "Ana plays the Baron on Ben, Ana's King against Ben's Priest, Ben is out" in out


def _page_data(page):
    found = re.search(r'<script type="application/json" id="llcheck-data">(.*?)</script>', page.read_text(),
                      re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_html_shows_a_witness_up_to_where_the_sides_part_with_both_answers(capsys, tmp_path):
    _, printed, _ = run_cli(capsys, *PAIR, "--json")
    (tmp_path / "out.json").write_text(printed, encoding="utf-8")
    page = tmp_path / "witness.html"
    code, out, _ = run_cli(capsys, "replay", str(tmp_path / "out.json"), "--pick", "1", "--html", str(page))
    assert code == 1 and out.endswith(f"llcheck replay: wrote {page}\n")
    [film] = _page_data(page)["films"]
    assert film["parted"]["sides"] == ["tr-2019", "nl-2019"]
    assert film["parted"]["frame"] == len(film["frames"]) - 1
    assert film["parted"]["expected"] != film["parted"]["actual"]


def test_html_of_a_game_under_one_spec_is_one_film_of_every_step(capsys, tmp_path):
    page = tmp_path / "case.html"
    code, _, _ = run_cli(capsys, "replay", "conformance/cases/required/classic/countess.json", "--pick", "1",
                         "--html", str(page))
    assert code == 0
    [film] = _page_data(page)["films"]
    assert "parted" not in film and film["edition"] == "classic" and len(film["frames"]) > 1
