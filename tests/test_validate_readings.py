"""`llcheck validate` on readings: each lines up with the edition it describes, clause by clause."""

from __future__ import annotations

from pathlib import Path

import pytest

from llcheck.cli import main
from loveletter_ref.paths import spec_dir
from loveletter_ref.spec import load_spec

VARIANT = (spec_dir() / "readings" / "nl-2019-classic-variant.yaml").read_text(encoding="utf-8")
"""A reading of classic that states every clause, silent nowhere."""

KING_TRADE = ('      - id: king.trade\n        trade: target\n'
              '        source: {doc: nl, line: 27, quote: "Speel de Koning en ruil je handkaart", '
              'gloss: "Play the King and trade your hand card"}\n')


def validate(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str) -> tuple[int, list[str]]:
    path = tmp_path / "reading.yaml"
    path.write_text(text, encoding="utf-8")
    code = main(["validate", str(path)])
    return code, [line.removeprefix(f"{path}:") for line in capsys.readouterr().err.splitlines()]


def line_of(text: str, needle: str) -> int:
    return next(i + 1 for i, line in enumerate(text.splitlines()) if needle in line)


def rules_line(text: str) -> int:
    """The line of the general `rules:` list."""
    return text.splitlines().index("rules:") + 1


def test_the_variant_is_complete_and_adds_nothing(capsys, tmp_path):
    assert KING_TRADE in VARIANT
    assert validate(capsys, tmp_path, VARIANT) == (0, [])


def test_a_clause_the_edition_does_not_have_must_be_marked_novel(capsys, tmp_path):
    added = ("  - id: round.sudden-death\n    all_eliminated: no_winner\n"
             "    source: {doc: nl, paraphrase: true, quote: \"Nobody wins.\"}\n")
    text = VARIANT + added
    code, err = validate(capsys, tmp_path, text)
    assert code == 2
    assert err == [f"{line_of(text, 'round.sudden-death')}:5: clause 'round.sudden-death' is not in classic; "
                   "mark it `novel: true` if the rulebook adds it"]
    marked = text.replace("    all_eliminated: no_winner\n",
                          "    all_eliminated: no_winner\n    novel: true\n")
    assert validate(capsys, tmp_path, marked) == (0, [])


def test_a_card_clause_the_reading_leaves_out_is_named_where_it_belongs(capsys, tmp_path):
    text = VARIANT.replace(KING_TRADE, "")
    code, err = validate(capsys, tmp_path, text)
    king_rules = line_of(text, "      - id: king.target") - 1
    assert code == 2
    assert err == [f"{king_rules}:5: King has no clause 'king.trade' (classic's trade rule); "
                   "state it or mark it silent"]
    silent = text.replace("  - name: Countess", '      - id: king.trade\n        silent: "Not said."\n\n'
                                                "  - name: Countess")
    assert validate(capsys, tmp_path, silent) == (0, [])


def test_a_general_clause_under_another_id_is_both_new_and_missing(capsys, tmp_path):
    text = VARIANT.replace("  - id: round.tie\n", "  - id: round.tie-break\n")
    code, err = validate(capsys, tmp_path, text)
    assert code == 2
    assert err == [f"{rules_line(text)}:1: no clause 'round.tie' (classic's tie rule); "
                   "state it or mark it silent",
                   f"{line_of(text, '- id: round.tie-break')}:5: clause 'round.tie-break' is not in classic; "
                   "mark it `novel: true` if the rulebook adds it"]


def test_a_missing_general_rule_names_the_edition_clause(capsys, tmp_path):
    start = VARIANT.index("  - id: game.end\n")
    text = VARIANT[:start] + VARIANT[VARIANT.index("  - id: round.next-first\n"):]
    code, err = validate(capsys, tmp_path, text)
    assert code == 2
    assert err == [f"{rules_line(text)}:1: no game_end rule "
                   "(state classic's clause 'game.end' or mark it silent)"]


def versions(count: int, contradiction: str | None) -> str:
    version = ('          - trade: target\n            source: {doc: nl, line: 27, '
               'quote: "Speel de Koning en ruil je handkaart", gloss: "Play the King"}\n')
    said = f"        contradiction: {contradiction}\n" if contradiction is not None else ""
    return VARIANT.replace(KING_TRADE, f"      - id: king.trade\n{said}        versions:\n" + version * count)


def test_versions_must_say_what_contradicts_what(capsys, tmp_path):
    text = versions(2, None)
    code, err = validate(capsys, tmp_path, text)
    assert code == 2
    assert err == [f"{line_of(text, 'versions:')}:9: clause 'king.trade' has versions but no contradiction: "
                   "say what in the rulebook contradicts what"]
    assert validate(capsys, tmp_path, versions(2, "Line 27 says it twice."))[0] == 0


def test_a_contradiction_needs_two_versions(capsys, tmp_path):
    text = versions(1, "Line 27 says it once.")
    code, err = validate(capsys, tmp_path, text)
    assert code == 2
    assert err == [f"{line_of(text, 'versions:')}:9: cards[5].rules[1].versions: "
                   "a contradiction needs at least two versions"]


def test_an_unknown_described_edition_is_the_only_problem_reported(capsys, tmp_path):
    text = VARIANT.replace("describes: classic", "describes: clasic")
    code, err = validate(capsys, tmp_path, text)
    assert code == 2
    assert err == [f"{line_of(text, 'describes:')}:1: the described edition 'clasic' is unknown "
                   "(known editions: classic, premium, z-man-2019)"]


JESTER = ('  - name: Jester\n    value: 0\n    count: 1\n    id: jester\n'
          '    source: {doc: nl, paraphrase: true, quote: "A Jester, who does nothing."}\n')


def test_a_card_the_edition_does_not_have_must_be_marked_novel(capsys, tmp_path):
    """A reading may add a card (one more card makes a deck of seventeen), but must say that its
    rulebook adds it; the card's own rules are then novel too."""
    text = VARIANT.replace("cards:\n", "cards:\n" + JESTER, 1)
    text = text.replace("    deck_size: 16\n", "    deck_size: 17\n")
    code, err = validate(capsys, tmp_path, text)
    assert code == 2
    assert err == [f"{line_of(text, 'id: jester')}:5: card 'Jester' ('jester') is not in classic; "
                   "mark it `novel: true` if the rulebook adds it"]
    marked = text.replace("    id: jester\n", "    id: jester\n    novel: true\n    rules:\n"
                          "      - id: jester.limit\n        out_if_hand_total: 13\n"
                          "        source: {doc: nl, paraphrase: true, quote: \"Too rich a hand loses.\"}\n")
    assert validate(capsys, tmp_path, marked) == (0, [])
    loaded = tmp_path / "marked.yaml"  # a new name: specs are cached by path
    loaded.write_text(marked, encoding="utf-8")
    assert load_spec(str(loaded)).clause_by_key("jester.limit").novel


def test_an_edition_cannot_mark_a_card_novel(capsys, tmp_path):
    text = (spec_dir() / "editions" / "classic.yaml").read_text(encoding="utf-8")
    text = text.replace("    id: guard\n", "    id: guard\n    novel: true\n", 1)
    code, err = validate(capsys, tmp_path, text)
    assert code == 2 and err == [f"{line_of(text, 'novel: true')}:5: 'novel' is for readings; an edition "
                                 "states every card"]
