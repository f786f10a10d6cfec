"""docs/disputes.md opens with what a judge acts on: a ruling table per edition, the question
index in plain words, and every note of every reading printed as not a rule, with its quote."""

from __future__ import annotations

from pathlib import Path

from llcheck.catalogue import readings
from loveletter_ref import load_spec
from loveletter_ref.disputes.questions import QUESTIONS, question
from loveletter_ref.spec import load_document

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "docs" / "disputes.md"


def flat(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def test_the_report_opens_with_the_ruling_tables_and_the_question_index():
    text = REPORT.read_text(encoding="utf-8")
    heads = [line for line in text.splitlines() if line.startswith("## ")]
    assert heads[:3] == ["## Rulings at a glance", "## Question index",
                         "## Notes of the readings (not rules)"]
    summary = text.split("## The readings")[0]
    for edition in sorted({load_spec(name).describes for name in readings()}):
        names = [n for n in readings() if load_spec(n).describes == edition]
        assert f"| clause | {' | '.join([edition, *names])} |" in summary
        for clause in load_spec(edition).clauses.values():
            assert f"| `{clause.key}`: {question(clause.kind, clause)} |" in summary
    assert "- Who wins a tie at the showdown? [`round.tie`](#rulings-classic)" in summary
    assert "- Whom may the Guard choose? Can it choose oneself, or a protected player? " in summary


def test_every_note_of_every_reading_is_printed_as_not_a_rule_with_its_quote():
    text = REPORT.read_text(encoding="utf-8")
    for name in readings():
        spec = load_spec(name)
        whole = load_document(name)[1].get("note")
        if whole:
            assert f"- not a rule, on the whole rulebook: {flat(whole)}" in text
        for clause in spec.clauses.values():
            if clause.note:
                quote = f" Quote: «{flat(clause.sources[0].quote)}»" if clause.sources else ""
                assert f"- not a rule, on `{clause.key}`: {flat(clause.note)}{quote}" in text


def test_every_rule_kind_of_the_editions_has_a_question_of_its_own():
    kinds = {c.kind for e in ("classic", "premium", "z-man-2019") for c in load_spec(e).clauses.values()}
    assert kinds <= set(QUESTIONS)
