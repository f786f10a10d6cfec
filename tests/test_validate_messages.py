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


def at(text: str, needle: str, after: str = "") -> str:
    """LINE:COL of the first occurrence of `needle` (after the first of `after`)."""
    offset = text.index(needle, text.index(after))
    line, col = text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)
    return f"{line}:{col}"


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
    assert code == 0 and out[0].endswith("2-4 players; 46 quotes checked, 6 paraphrases")


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


# -- a value that may be an object or a list, a number or a table ----------------------------

PRINCESS_SOURCE = "          doc: bga\n          line: 21\n          quote: \"Иф yоу дисцард"


@pytest.mark.parametrize("old, new, needle, message", [
    ("line: 21", 'line: "21"', 'line: "21"', "source.line: '21' is not of type 'integer'"),
    ("line: 21", "line: 0", "line: 0", "source.line: 0 is less than the minimum of 1"),
    ("line: 21", "line: 21\n          page: 3", "page: 3", "source: unknown field or rule 'page'"),
    ("          doc: bga\n", "", "source:", "source: 'doc' is a required property"),
], ids=["line-a-string", "line-zero", "unknown-field", "no-doc"])
def test_a_fault_inside_one_source_is_named_at_its_own_field(tmp_path, capsys, old, new, needle, message):
    assert PRINCESS_SOURCE in CLASSIC
    text = CLASSIC.replace(PRINCESS_SOURCE, PRINCESS_SOURCE.replace(old, new))
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    assert code == 2
    assert err == [f"{path}:{at(text, needle, '- id: princess.discard')}: cards[7].rules[0].{message}"]


def test_a_quote_that_is_no_string_is_named_at_the_quote(tmp_path, capsys):
    text = KANAI.replace('quote: "16 cards."', "quote: 123")
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    assert code == 2
    assert err == [f"{path}:{at(text, 'quote: 123')}: rules[0].source.quote: 123 is not of type 'string'"]


def test_a_fault_inside_a_list_of_sources_is_named_at_its_item(tmp_path, capsys):
    cited = '{doc: kanai, paraphrase: true, quote: "16 cards."}'
    text = KANAI.replace(f"source: {cited}", f'source: [{cited}, {{doc: kanai, line: "3", quote: "x"}}]')
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    where = at(text, 'line: "3"')
    assert code == 2
    assert err == [f"{path}:{where}: rules[0].source[1].line: '3' is not of type 'integer'"]


@pytest.mark.parametrize("old, new, message", [
    ("deck_size: 16", 'deck_size: {"2-4": "16"}', "rules[0].deck_size.2-4: '16' is not of type 'integer'"),
    ("set_aside: 1", 'set_aside: {"2-4": -1}', "rules[1].set_aside.2-4: -1 is less than the minimum of 0"),
], ids=["deck-size", "set-aside"])
def test_a_fault_inside_a_player_table_is_named_at_its_entry(tmp_path, capsys, old, new, message):
    text = KANAI.replace(old, new)
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    where = at(text, '"2-4"')
    assert code == 2
    assert err == [f"{path}:{where}: {message}"]


# -- deck counts, once for all the player counts they hold for --------------------------------

ZMAN = (spec_dir() / "editions" / "z-man-2019.yaml").read_text(encoding="utf-8")


def test_counts_that_do_not_add_up_are_one_line_for_every_player_count(tmp_path, capsys):
    text = ZMAN.replace("    count: 6\n", "    count: 5\n")
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    assert code == 2
    assert err == [f"{path}:{at(text, 'deck_size: 21')}: card counts add up to 20 for 2-6 players, not "
                   "the deck_size 21 (Spy 2, Guard 5, Priest 2, Baron 2, Handmaid 2, Prince 2, Chancellor 2, "
                   "King 1, Countess 1, Princess 1)"]


def test_a_deck_size_table_that_leaves_player_counts_out_is_one_line(tmp_path, capsys):
    text = ZMAN.replace("deck_size: 21", 'deck_size: {"2-3": 21}')
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    assert code == 2
    assert err == [f"{path}:{line_of(text, 'deck_size:')}:5: deck_size gives no size for 4-6 players"]


def test_a_deck_too_small_for_several_player_counts_is_one_line(tmp_path, capsys):
    text = KANAI.replace("set_aside: 1,", "set_aside: 10,").replace('{"2": 3}', '{"2-4": 3}')
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    assert code == 2
    assert err == [f"{path}:{at(text, 'deck_size: 16')}: 3-4 players need at least 17/18 cards (set aside, "
                   "face up, one each and one to draw) but the deck has 16"]


def test_player_counts_a_token_table_leaves_out_are_named_as_ranges(tmp_path, capsys):
    text = ZMAN.replace('tokens_to_win: {"2": 6, "3": 5, "4": 4, "5": 3, "6": 3}', 'tokens_to_win: {"3": 5}')
    code, _, err = run(capsys, "validate", path := spec_file(tmp_path, text))
    assert code == 2
    assert err == [f"{path}:{at(text, 'tokens_to_win:')}: tokens_to_win has no target for 2, 4-6 players"]


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
