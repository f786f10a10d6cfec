"""`llcheck validate` messages: one located line per problem, in words a spec writer uses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from llcheck.cli import main
from loveletter_ref.paths import rulebook_dirs, spec_dir
from loveletter_ref.spec import load_spec

CLASSIC = (spec_dir() / "editions" / "classic.yaml").read_text(encoding="utf-8")
KANAI = (Path(__file__).parent / "data" / "specs" / "kanai-factory.yaml").read_text(encoding="utf-8")
"""An edition whose quotes are all paraphrases: its checks never depend on the rulebooks."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], list[str]]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def spec_file(tmp_path: Path, text: str, name: str = "spec.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    return [i + 1 for i, line in enumerate(text.splitlines()) if needle in line][occurrence - 1]


# -- rulebooks ---------------------------------------------------------------------------------

def test_a_rulebooks_folder_that_does_not_exist_is_one_error(tmp_path, capsys, monkeypatch):
    missing = tmp_path / "nowhere"
    monkeypatch.setenv("LLCHECK_RULEBOOKS", str(missing))
    code, out, err = run(capsys, "validate", "z-man-2019")  # three rulebook files, one error
    assert code == 2 and out == []
    assert err == [f"{spec_dir() / 'editions' / 'z-man-2019.yaml'}:15:5: rulebooks folder {missing} does not "
                   "exist (LLCHECK_RULEBOOKS must name the folders that hold the rulebook files)"]


def test_a_missing_rulebook_file_is_one_error_at_its_declaration(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LLCHECK_RULEBOOKS", str(tmp_path))
    code, _, err = run(capsys, "validate", "z-man-2019")
    path = spec_dir() / "editions" / "z-man-2019.yaml"
    assert code == 2
    assert err == [f"{path}:{line}:5: rulebook file {file!r} is not in {tmp_path} (add the folder that "
                   "holds it to LLCHECK_RULEBOOKS, or mark the quotes as paraphrases)"
                   for line, file in ((15, "sl-en_zman-2019_summary.txt"),
                                      (18, "tr_zman-2019_quick-teach.txt"),
                                      (21, "nl_zman-2019_with-classic-variant.txt"))]


def test_the_summary_counts_the_quotes_checked_and_the_paraphrases(tmp_path, capsys):
    code, out, _ = run(capsys, "validate", spec_file(tmp_path, KANAI))
    assert code == 0 and out[0].endswith("2-4 players; 0 quotes checked, 41 paraphrases")
    if not rulebook_dirs():
        pytest.skip("the shared rulebooks are not available here")
    code, out, _ = run(capsys, "validate", "classic")
    assert code == 0 and out[0].endswith("2-4 players; 38 quotes checked, 6 paraphrases")


# -- card names --------------------------------------------------------------------------------

NAMES = {"Soldier": "R2-D2", "Clown": "Jabba's Guard", "Knight": "Two-Face"}


def renamed(text: str) -> str:
    for old, new in NAMES.items():
        text = text.replace(old, new)
    return text


def test_card_names_may_hold_digits_hyphens_and_apostrophes(tmp_path, capsys):
    path = spec_file(tmp_path, renamed(KANAI))
    code, out, err = run(capsys, "validate", path)
    assert code == 0 and err == [], err
    edition = load_spec(path)
    assert set(NAMES.values()) <= set(edition.names)
    deck = ",".join(edition.names[card] for card in edition.deck(2))
    code, out, err = run(capsys, "perft", "--edition", path, "--players", "2", "--deck", deck, "--depth", "2")
    assert code == 0 and err == [], err


@pytest.mark.parametrize("name", ["guard", "Two--Face", "R2-", "Poison  Ivy", "-Guard"])
def test_a_bad_card_name_is_explained(tmp_path, capsys, name):
    text = KANAI.replace("  - name: Soldier", f"  - name: \"{name}\"")
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    assert code == 2
    assert err == [f"{path}:{line_of(text, '- name:')}:5: cards[0].name: card name {name!r} must be words "
                   "that start with a capital letter (letters, digits, - and ' allowed)"]


# -- extends -----------------------------------------------------------------------------------

def test_an_extension_inherits_the_header_fields_it_leaves_out(tmp_path, capsys):
    text = ("kind: edition\nid: long-game\nprefix: long\ntitle: Classic to ten tokens\nextends: classic\n"
            "rules:\n  - id: tokens.target\n    tokens_to_win: {\"2-4\": 10}\n"
            "    source: {doc: aeg-2012, paraphrase: true, quote: \"Ten tokens.\"}\n")
    path = spec_file(tmp_path, text)
    code, _, err = run(capsys, "validate", path)
    assert code == 0 and err == [], err
    edition = load_spec(path)
    assert (edition.kind, edition.min_players, edition.max_players) == ("edition", 2, 4)
    assert edition.player_table("tokens_to_win", 3) == 10


# -- wording -----------------------------------------------------------------------------------

def test_a_tab_character_is_named(tmp_path, capsys):
    text = KANAI.replace("  - name: Clown", "\t- name: Clown")
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    assert code == 2
    assert err == [f"{path}:{line_of(text, '- name: Clown')}:1: tab character; YAML indents with spaces"]


def test_a_negative_count_is_explained(tmp_path, capsys):
    text = KANAI.replace("    count: 5\n", "    count: -2\n")
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    assert code == 2
    assert err == [f"{path}:{line_of(text, 'count: -2')}:5: cards[0].count: the count must be a non-negative "
                   "integer (at most 100) or a player-count table such as {\"2-4\": 5}, not -2"]


def test_a_rule_stated_twice_names_the_first_clause_and_its_line(tmp_path, capsys):
    text = CLASSIC.replace("  - id: turn.draw\n", "  - id: turn.draw-again\n    round_tokens: 1\n"
                           "    source: {doc: aeg-2012, paraphrase: true, quote: \"One token.\"}\n"
                           "  - id: turn.draw\n")
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    assert code == 2
    first = line_of(text, "- id: turn.draw-again")
    assert err == [f"{path}:{line_of(text, '- id: tokens.round-win')}:5: round_tokens is stated twice "
                   f"(also by clause 'turn.draw-again', line {first})"]


def test_a_duplicate_clause_id_names_the_other_line(tmp_path, capsys):
    text = CLASSIC.replace("  - id: turn.draw\n", "  - id: turn.play\n")
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    assert code == 2
    first, second = line_of(text, "- id: turn.play"), line_of(text, "- id: turn.play", 2)
    assert err == [f"{path}:{second}:5: duplicate clause id 'turn.play' (also line {first})"]


def test_a_missing_modifier_takes_its_article(tmp_path, capsys):
    start = CLASSIC.index("      - id: baron.tie\n")
    text = CLASSIC[:start] + CLASSIC[CLASSIC.index("  - name: Handmaid"):]
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    assert code == 2
    assert err == [f"{path}:{line_of(text, '- id: baron.compare')}:9: Baron: compare needs an on_tie rule "
                   "(state it)"]


# -- paths -------------------------------------------------------------------------------------

def test_every_command_names_a_bad_file_as_the_user_gave_it(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec_file(tmp_path, KANAI.replace("    count: 5\n", "    count: -2\n"), "bad.yaml")
    errors = [run(capsys, *argv)[2] for argv in (
        ("validate", "bad.yaml"), ("show", "--edition", "bad.yaml"),
        ("simulate", "--edition", "bad.yaml", "--players", "2", "--games", "1", "--seed", "1"))]
    assert errors[0] == errors[1] == errors[2] and errors[0][0].startswith("bad.yaml:")


def test_rulebooks_may_be_looked_up_in_several_folders(tmp_path, capsys, monkeypatch):
    """A reading of your own rulebook checks its quotes in your folder, and the edition it describes
    checks its own in the shared folder, listed after it."""
    if not rulebook_dirs():
        pytest.skip("the shared rulebooks are not available here")
    shared = rulebook_dirs()[0]
    mine = tmp_path / "mine"
    mine.mkdir()
    monkeypatch.setenv("LLCHECK_RULEBOOKS", os.pathsep.join([str(mine), str(shared)]))
    code, out, err = run(capsys, "validate", "z-man-2019")
    assert code == 0 and err == [] and "quotes checked" in out[0]
    monkeypatch.setenv("LLCHECK_RULEBOOKS", str(mine))
    code, _, err = run(capsys, "validate", "z-man-2019")
    assert code == 2 and f"rulebook file 'sl-en_zman-2019_summary.txt' is not in {mine} (" in err[0]
