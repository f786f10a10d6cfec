"""docs/disputes.md opens with what a judge acts on: a ruling table per edition, the question
index in plain words, and every note of every reading printed as not a rule, with its quote; the
evidence is on a page per reading and per pair (docs/disputes/), every link leading somewhere."""

from __future__ import annotations

import re
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


LINK = re.compile(r"\]\(([^)\s]+)\)")
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')


def pages() -> list[Path]:
    """The summary page and every detail page of the report."""
    return [REPORT, *sorted((REPORT.parent / REPORT.stem).glob("*.md"))]


def test_the_summary_is_short_and_the_details_are_on_pages_of_their_own():
    """The summary holds what a judge acts on; each pair's evidence is a page of its own."""
    summary = REPORT.read_text(encoding="utf-8")
    assert len(summary.encode("utf-8")) < 120_000
    assert "## Disputes, pair by pair" not in summary
    details = {path.name for path in pages()[1:]}
    for name in readings():
        assert f"{name}.md" in details
        assert f"{name}-vs-{load_spec(name).describes}.md" in details


def test_every_link_of_the_report_leads_to_a_page_and_an_anchor_there():
    anchors = {path.resolve(): set(ANCHOR.findall(path.read_text(encoding="utf-8"))) for path in pages()}
    broken = []
    for path in pages():
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            file, _, fragment = target.partition("#")
            goal = (path.parent / file).resolve() if file else path.resolve()
            if goal not in anchors and not goal.exists():
                broken.append(f"{path.name}: {target} (no such file)")
            elif fragment and fragment not in anchors.get(goal, set()):
                broken.append(f"{path.name}: {target} (no such anchor)")
    assert not broken, "\n".join(broken[:20])
