"""`llcheck cases`: validate, coverage, list and show, with the documented exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from llcheck.cli import main
from llcheck.harness.cases import corpus_dir


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["cases", *args])
    out, err = capsys.readouterr()
    return code, out, err


def small_corpus(tmp_path: Path) -> Path:
    """A copy of the bundled case folder (without the golden traces, which are quicker to leave out)."""
    root = tmp_path / "cases"
    shutil.copytree(corpus_dir(), root)
    return root


def test_validate_passes_on_the_bundled_corpus(capsys):
    code, out, err = run(capsys, "--validate")
    assert code == 0, err
    assert "0 clauses, 0 clause pairs and 0 player counts uncovered; 0 failing against the reference" in out


def test_validate_reports_bad_files_as_located_lines_with_exit_2(capsys, tmp_path):
    root = small_corpus(tmp_path)
    target = root / "required" / "classic" / "baron.json"
    target.write_text(target.read_text().replace('"players": 3', '"players": "3"', 1))
    code, _, err = run(capsys, "--validate", "--root", str(root))
    assert code == 2
    first = err.splitlines()[0]
    assert first.startswith(f"{target}:") and "case classic.baron.compare/" in first
    assert "players: '3'" in first
    assert "Traceback" not in err


def test_validate_fails_when_a_case_fails_against_the_reference(capsys, tmp_path):
    root = small_corpus(tmp_path)
    target = root / "required" / "classic" / "baron.json"
    data = json.loads(target.read_text())
    tie = next(c for c in data["cases"] if c["id"] == "classic.baron.tie/nobody-is-out")
    tie["rounds"][0]["steps"][0]["expect"]["state"]["eliminated"] = [False, True, False]
    target.write_text(json.dumps(data))
    code, _, err = run(capsys, "--validate", "--root", str(root))
    assert code == 1
    assert "case classic.baron.tie/nobody-is-out: failed against the reference engine: round 1, step 1" in err
    replay = err.split("; replay: ")[1].splitlines()[0]
    assert replay == (f"llcheck check --impl reference --corpus {root} --status required "
                      "--run classic.baron.tie/nobody-is-out")
    assert main(replay.split()[1:]) == 1  # the replay fails the same way
    assert "1 failed" in capsys.readouterr().out


def test_coverage_lists_uncovered_clauses_with_exit_1(capsys, tmp_path):
    code, out, _ = run(capsys, "--coverage", "--edition", "classic")
    assert code == 0 and "41 of 41 clauses covered by required cases" in out.splitlines()
    root = small_corpus(tmp_path)
    (root / "required" / "classic" / "countess.json").unlink()
    code, out, _ = run(capsys, "--coverage", "--edition", "classic", "--root", str(root))
    assert code == 1
    lines = out.splitlines()
    assert "uncovered: classic.countess.forced" in next(line for line in lines if "clauses covered" in line)
    assert any(line.startswith("classic.countess.forced  ") and "UNCOVERED" in line for line in lines)


def test_coverage_reports_clause_pairs_and_player_counts_beside_clauses(capsys):
    code, out, _ = run(capsys, "--coverage", "--edition", "classic")
    lines = out.splitlines()
    assert code == 0
    pairs = lines[lines.index("") + 1:lines.index("9 of 9 clause pairs covered by required cases")]
    assert len(pairs) == 9
    assert pairs[1].split() == ["classic.handmaid.protect", "+", "round", "end", "1",
                                "classic.handmaid.protect/ends-with-the-round"]
    assert pairs[2].split()[:4] == ["classic.countess.forced", "+", "classic.guard", "1"]
    assert lines[-4:] == ["player-count clause      2 players   3+ players",
                          "classic.setup.face-up            1            2",
                          "classic.tokens.target            3            4",
                          "2 of 2 player-count clauses named by required cases at 2 players and at 3 or more"]


def test_an_uncovered_pair_or_player_count_fails_coverage_with_exit_1(capsys, tmp_path):
    root = small_corpus(tmp_path)
    countess = root / "required" / "classic" / "countess.json"
    data = json.loads(countess.read_text())
    data["cases"] = [c for c in data["cases"] if c["id"] != "classic.countess.forced/beside-a-guard"]
    countess.write_text(json.dumps(data))
    face_up = root / "required" / "classic" / "setup.json"
    data = json.loads(face_up.read_text())
    data["cases"] = [c for c in data["cases"] if c["id"] != "classic.setup.face-up/two-players"]
    face_up.write_text(json.dumps(data))
    code, out, _ = run(capsys, "--coverage", "--edition", "classic", "--root", str(root))
    lines = out.splitlines()
    assert code == 1
    assert "41 of 41 clauses covered by required cases" in lines  # the clauses are still named
    assert any(line.split()[:4] == ["classic.countess.forced", "+", "classic.guard", "0"] and
               line.endswith("UNCOVERED") for line in lines)
    assert ("8 of 9 clause pairs covered by required cases; uncovered: classic.countess.forced + "
            "classic.guard") in lines
    assert "classic.setup.face-up         none            2" in lines
    assert lines[-1] == ("1 of 2 player-count clauses named by required cases at 2 players and at 3 or more; "
                         "missing: classic.setup.face-up at 2 players")
    code, out, _ = run(capsys, "--coverage", "--json", "--root", str(root))
    data = json.loads(out)
    assert code == 1 and data["uncovered"] == []
    assert data["uncovered_pairs"] == ["classic.countess.forced + classic.guard"]
    assert data["player_count_gaps"] == ["classic.setup.face-up at 2 players"]
    assert {"clause": "classic.countess.forced", "with": "classic.guard", "cases": []} in data["pairs"]


def test_validate_fails_on_an_uncovered_pair_of_the_bundled_corpus(capsys, tmp_path, monkeypatch):
    root = small_corpus(tmp_path)
    handmaid = root / "required" / "z-man-2019" / "handmaid.json"
    data = json.loads(handmaid.read_text())
    data["cases"] = [c for c in data["cases"] if c["id"] != "z19.handmaid.protect/ends-with-the-round"]
    handmaid.write_text(json.dumps(data))
    monkeypatch.setattr("llcheck.harness.cases.corpus_dir", lambda: root)  # as if it were the bundled one
    code, out, err = run(capsys, "--validate")
    assert code == 1
    assert err.splitlines() == ["z19.handmaid.protect + round end: no required case naming "
                                "z19.handmaid.protect plays it with round end"]
    assert "0 clauses, 1 clause pairs and 0 player counts uncovered; 0 failing against the reference" in out
    code, out, err = run(capsys, "--validate", "--root", str(root))  # your own folder covers what it covers
    assert (code, err) == (0, "")


def test_coverage_as_json(capsys):
    code, out, _ = run(capsys, "--coverage", "--json")
    data = json.loads(out)
    assert code == 0 and data["uncovered"] == [] and data["uncovered_pairs"] == []
    assert data["player_count_gaps"] == []
    assert "z19.spy.bonus/a-spy-discarded-by-a-prince-counts" in data["coverage"]["z19.spy.bonus"]
    spy = {entry["with"]: entry["cases"] for entry in data["pairs"] if entry["clause"] == "z19.spy.bonus"}
    assert spy["holder out and alone"] == ["z19.spy.bonus/a-lone-spy-player-knocked-out-earns-nothing"]
    assert data["player_counts"]["premium.tokens.target"]["2"] == [
        "premium.tokens.target/2-players-7-tokens", "premium.tokens.target/2-players-6-tokens-is-not-enough"]


def test_list_filters_by_tag_clause_edition_and_status(capsys):
    code, out, _ = run(capsys, "--list", "--tag", "spy", "--clause", "z19.prince.discard")
    assert code == 0
    assert out.splitlines()[0].startswith("z19.spy.bonus/a-spy-discarded-by-a-prince-counts")
    assert out.splitlines()[-1] == "1 cases: 1 required"
    code, out, _ = run(capsys, "--status", "disputed", "--edition", "classic", "--json")
    listed = json.loads(out)
    assert listed and all(c["status"] == "disputed" and c["edition"] == "classic" for c in listed)


def test_show_prints_the_case_with_its_clause_quotes(capsys):
    code, out, _ = run(capsys, "--show", "z19.baron.tie/nobody-is-out")
    assert code == 0
    assert out.startswith("# ") and "z-man-2019/baron.json:" in out.splitlines()[0]
    assert "«ob izenačenju nihče.»" in out
    assert json.loads(out.split("\n", 2)[2])["id"] == "z19.baron.tie/nobody-is-out"


def test_show_an_unknown_case_is_one_line_and_exit_2(capsys):
    code, _, err = run(capsys, "--show", "z19.baron.tie/nobody")
    assert code == 2
    assert err.strip() == ("llcheck cases: no case 'z19.baron.tie/nobody' "
                           "(did you mean z19.baron.tie/nobody-is-out?)")


def test_an_option_the_action_would_ignore_is_a_usage_error(capsys):
    code, out, err = run(capsys, "--validate", "--edition", "classic")
    assert (code, out) == (2, "")
    assert err == ("llcheck cases: --validate does not take --edition (it takes --root); "
                   "--list filters the cases\n")
    code, _, err = run(capsys, "--coverage", "--status", "required")
    assert code == 2 and "--coverage does not take --status (it takes --root, --edition, --json)" in err


def test_a_root_without_case_files_is_a_usage_error_as_check_corpus_says(capsys, tmp_path):
    for action in ([], ["--validate"], ["--coverage"]):
        code, out, err = run(capsys, *action, "--root", str(tmp_path))
        assert (code, out) == (2, "")
        assert err == (f"llcheck cases: --root {tmp_path} holds no case files (STATUS/EDITION/NAME.json, "
                       "docs/cases.md)\n")
    (tmp_path / "file.json").write_text("{}")
    code, _, err = run(capsys, "--root", str(tmp_path / "file.json"))
    assert (code, err) == (2, f"{tmp_path / 'file.json'}:1:1: not a folder\n")


def test_validate_a_folder_of_your_own_does_not_require_it_to_cover_every_clause(capsys, tmp_path):
    root = tmp_path / "mine"
    (root / "required" / "classic").mkdir(parents=True)
    shutil.copy(corpus_dir() / "required" / "classic" / "countess.json", root / "required" / "classic")
    code, out, err = run(capsys, "--validate", "--root", str(root))
    assert (code, err) == (0, "")
    assert "coverage not required of a folder of your own (--coverage --root shows it); 0 failing" in out


def test_format_rewrites_what_is_not_canonical_and_leaves_a_file_that_is_not_json(capsys, tmp_path):
    root = tmp_path / "cases"
    (root / "required" / "classic").mkdir(parents=True)
    kept = root / "required" / "classic" / "baron.json"
    shutil.copy(corpus_dir() / "required" / "classic" / "baron.json", kept)
    untidy = root / "required" / "classic" / "countess.json"
    original = (corpus_dir() / "required" / "classic" / "countess.json").read_text()
    untidy.write_text(json.dumps(json.loads(original), indent=4))
    broken = root / "required" / "classic" / "broken.json"
    broken.write_text('{"description": "x",\n "cases": [}\n')
    before = kept.read_bytes(), broken.read_bytes()
    code, out, err = run(capsys, "--format", "--root", str(root))
    assert code == 2
    assert out.splitlines() == [f"{untidy}: reformatted",
                                "3 files, 1 reformatted, 1 not JSON (left as they are)"]
    assert err.startswith(f"{broken}:2:") and "malformed JSON" in err
    assert (kept.read_bytes(), broken.read_bytes()) == before
    assert untidy.read_text() == original
    code, _, err = run(capsys, "--format", "--edition", "classic")
    assert code == 2 and "--format does not take --edition (it takes --root)" in err
