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
    assert "0 clauses uncovered; 0 failing against the reference" in out


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
    assert code == 0 and out.splitlines()[-1] == "41 of 41 clauses covered by required cases"
    root = small_corpus(tmp_path)
    (root / "required" / "classic" / "countess.json").unlink()
    code, out, _ = run(capsys, "--coverage", "--edition", "classic", "--root", str(root))
    assert code == 1
    assert "classic.countess.forced" in out.splitlines()[-1]
    lines = out.splitlines()
    assert any(line.startswith("classic.countess.forced") and "UNCOVERED" in line for line in lines)


def test_coverage_as_json(capsys):
    code, out, _ = run(capsys, "--coverage", "--json")
    data = json.loads(out)
    assert code == 0 and data["uncovered"] == []
    assert "z19.spy.bonus/a-spy-discarded-by-a-prince-counts" in data["coverage"]["z19.spy.bonus"]


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
