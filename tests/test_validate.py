"""`llcheck validate`: valid specs pass; each kind of bad spec gives exact, located messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from llcheck.cli import main
from loveletter_ref.paths import spec_dir

CLASSIC = (spec_dir() / "editions" / "classic.yaml").read_text(encoding="utf-8")


def validate(capsys: pytest.CaptureFixture[str], *files: str) -> tuple[int, list[str], list[str]]:
    code = main(["validate", *files])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def bad_spec(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    """1-based line number of the n-th line containing `needle`."""
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if needle in line]
    return hits[occurrence - 1]


def test_bundled_editions_validate(capsys):
    code, out, err = validate(capsys, "classic", "z-man-2019")
    assert code == 0 and err == []
    assert "classic.yaml: ok: edition classic, 8 cards (16), 41 clauses, 2-4 players; 46 quotes" in out[0]
    assert "edition z-man-2019, 10 cards (21)" in out[1]


def test_a_bundled_id_wins_over_a_folder_of_that_name_in_the_working_directory(tmp_path, capsys, monkeypatch):
    (tmp_path / "classic").mkdir()  # an engine's own folder, say
    (tmp_path / "z-man-2019").write_text("not a spec", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = validate(capsys, "classic", "z-man-2019")
    assert code == 0 and err == [], err
    assert "edition classic" in out[0] and "edition z-man-2019" in out[1]
    code, _, err = validate(capsys, "./z-man-2019")  # a path, written as one
    assert code == 2 and err and "z-man-2019" in err[0]


def test_malformed_yaml(tmp_path, capsys):
    path = bad_spec(tmp_path, "kind: edition\ncards: [Guard, \n  - x\n")
    code, out, err = validate(capsys, path)
    assert code == 2 and out == []
    assert len(err) == 1 and err[0].startswith(f"{path}:3:3: malformed YAML:")


def test_unknown_effect(tmp_path, capsys):
    text = CLASSIC.replace("look: target", "peek: target")
    path = bad_spec(tmp_path, text)
    code, _, err = validate(capsys, path)
    line = line_of(text, "peek: target")
    assert code == 2
    assert err == [f"{path}:{line}:9: cards[1].rules[1]: unknown field or rule 'peek'"]


def test_counts_that_do_not_add_up(tmp_path, capsys):
    text = CLASSIC.replace("    count: 5\n", "    count: 4\n")
    path = bad_spec(tmp_path, text)
    code, _, err = validate(capsys, path)
    line = line_of(text, "deck_size: 16")
    detail = ("Guard 4, Priest 2, Baron 2, Handmaid 2, Prince 2, King 1, Countess 1, Princess 1")
    assert code == 2
    assert err == [f"{path}:{line}:5: card counts add up to 15 for 2-4 players, not the deck_size 16 "
                   f"({detail})"]


def test_missing_token_target(tmp_path, capsys):
    text = CLASSIC.replace('tokens_to_win: {"2": 7, "3": 5, "4": 4}', 'tokens_to_win: {"2": 7, "3": 5}')
    path = bad_spec(tmp_path, text)
    code, _, err = validate(capsys, path)
    line = line_of(text, "tokens_to_win:")
    assert code == 2
    assert err == [f"{path}:{line}:5: tokens_to_win has no target for 4 players"]


def test_a_token_target_of_zero_is_refused(tmp_path, capsys):
    """classic.tokens.target: a game is won by collecting tokens, so the target is at least one."""
    text = CLASSIC.replace('"3": 5, "4": 4}', '"3": 0, "4": 4}')
    path = bad_spec(tmp_path, text)
    code, _, err = validate(capsys, path)
    assert code == 2
    assert err == [f"{path}:{line_of(text, 'tokens_to_win:')}:29: rules[15].tokens_to_win.3: a game is won "
                   "with at least one token, not 0"]


def test_duplicate_card(tmp_path, capsys):
    text = CLASSIC.replace("  - name: Priest\n", "  - name: Guard\n")
    path = bad_spec(tmp_path, text)
    code, _, err = validate(capsys, path)
    line = line_of(text, "- name: Guard", 2)
    assert code == 2
    assert f"{path}:{line}:5: duplicate card 'Guard' (also line {line_of(text, '- name: Guard')})" in err


def test_rule_naming_a_card_that_does_not_exist(tmp_path, capsys):
    text = CLASSIC.replace("forced_with: [King, Prince]", "forced_with: [King, Jester]")
    path = bad_spec(tmp_path, text)
    code, _, err = validate(capsys, path)
    line = line_of(text, "forced_with:")
    assert code == 2
    assert err == [f"{path}:{line}:29: no card named 'Jester' in this spec"]


def test_wrong_quote_is_reported_when_the_rulebooks_are_available(tmp_path, capsys):
    from loveletter_ref.paths import rulebook_dirs
    if not rulebook_dirs():
        pytest.skip("the shared rulebooks are not available here")
    text = CLASSIC.replace('quote: "Ин цасе оф а тие, нотхинг хаппенс."', 'quote: "In case of a tie."')
    path = bad_spec(tmp_path, text)
    code, _, err = validate(capsys, path)
    line = line_of(text, '"In case of a tie."')
    assert code == 2
    assert err == [f"{path}:{line}:38: quote not found in "
                   f"en-cyrillic_bga-gamehelp_classic-and-premium.txt:26: 'In case of a tie.'"]


def test_several_problems_one_line_each(tmp_path, capsys):
    text = CLASSIC.replace("look: target", "peek: target").replace("on_tie: nothing", "on_tie: maybe")
    path = bad_spec(tmp_path, text)
    code, _, err = validate(capsys, path)
    assert code == 2 and len(err) == 2
    assert all(line.startswith(f"{path}:") for line in err)


def test_missing_file(capsys):
    code, _, err = validate(capsys, "no/such/spec.yaml")
    assert code == 2
    assert err[0].startswith("no/such/spec.yaml:1:1: cannot read file")
