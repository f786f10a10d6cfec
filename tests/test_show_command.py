"""`llcheck show`: the card table and rules of an edition or reading, by clause id."""

from __future__ import annotations

import json

from llcheck.cli import main
from loveletter_ref.spec import load_spec


def show(capsys, *args: str) -> list[str]:
    assert main(["show", *args]) == 0
    return capsys.readouterr().out.splitlines()


def card_row(lines: list[str], name: str) -> list[str]:
    """The words of the table row that introduces card `name`."""
    return next(line.split() for line in lines if line.split()[1:2] == [name])


def test_every_card_and_every_clause_is_listed(capsys):
    lines = show(capsys, "--edition", "z-man-2019")
    text = "\n".join(lines)
    assert lines[0].endswith("[edition z-man-2019, 2-6 players]")
    for clause_id in load_spec("z-man-2019").clauses:
        assert clause_id in text
    assert card_row(lines, "Guard")[:4] == ["1", "Guard", "6", "z19.guard"]


def test_counts_that_depend_on_the_player_count_are_shown_per_range(capsys):
    lines = show(capsys, "--edition", "premium")
    assert card_row(lines, "Guard")[:6] == ["1", "Guard", "5", "(2-4),", "8", "(5-8)"]
    assert card_row(lines, "Jester")[2:6] == ["0", "(2-4),", "1", "(5-8)"]


def test_quotes_follow_each_clause_in_the_rulebooks_own_words(capsys):
    lines = show(capsys, "--edition", "classic", "--quotes")
    at = next(i for i, line in enumerate(lines)
              if "classic.countess.forced" in line and "forced_with" in line)
    assert "en-cyrillic_bga-gamehelp_classic-and-premium.txt:22 «" in lines[at + 1]


def test_json_gives_counts_as_data_and_readings_show_too(capsys):
    data = json.loads("\n".join(show(capsys, "--edition", "premium", "--json")))
    guard = next(card for card in data["cards"] if card["name"] == "Guard")
    assert guard["count"] == {"2-4": 5, "5-8": 8} and guard["clause"] == "premium.guard"
    lines = show(capsys, "--edition", "tr-2019")
    assert "[reading tr-2019, 2-6 players]" in lines[0]


def test_a_reading_shows_its_novel_rules_and_the_cases_its_next_round_rule_leaves_open(capsys):
    """round.next-first: the Dutch classic variant names the round's winner only; fa-guide's
    Handmaid is a rule no edition has."""
    lines = show(capsys, "--edition", "nl-2019-classic-variant")
    row = next(line for line in lines if "round.next-first" in line)
    assert "[silent on: several, none]  [note: Tied players all win the round (line 44)" in row
    lines = show(capsys, "--edition", "fa-guide")
    assert "[novel: no edition has it]" in next(line for line in lines if "handmaid.protect" in line)
    data = json.loads("\n".join(show(capsys, "--edition", "fa-guide", "--json")))
    protect = next(r for c in data["cards"] for r in c["rules"] if r["id"].endswith("handmaid.protect"))
    assert protect["novel"] is True


def test_quotes_give_every_source_of_a_clause_and_mark_paraphrases(capsys):
    """premium.tokens.target rests on three lines of the game-help page (2-4 players) and on AEG's
    rulebook (5-8 players), which we paraphrase; premium.assassin.counter on the page and the
    rulebook."""
    lines = show(capsys, "--edition", "premium", "--quotes")
    at = next(i for i, line in enumerate(lines) if line.split()[:1] == ["premium.tokens.target"])
    assert [line.split()[0] for line in lines[at + 1:at + 5]] == [
        f"en-cyrillic_bga-gamehelp_classic-and-premium.txt:{n}" for n in (7, 8, 9)] + ["aeg-premium"]
    assert lines[at + 4].endswith("(paraphrase)") and "(paraphrase)" not in lines[at + 3]
    at = next(i for i, line in enumerate(lines) if "premium.assassin.counter" in line)
    assert lines[at + 2].split()[0] == "aeg-premium" and lines[at + 2].endswith("(paraphrase)")
