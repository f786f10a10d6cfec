"""The rulebook readings: every one validates, cites its own rulebook for every clause it states,
borrows nothing from the edition it describes, and lines up with that edition clause by clause."""

from __future__ import annotations

import pytest

from loveletter_ref.paths import rulebook_dirs
from loveletter_ref.spec import Clause, Edition, check_spec, known_specs, load_spec

READINGS = sorted(name for name, path in known_specs().items() if path.parent.name == "readings")


def reading(name: str) -> Edition:
    return load_spec(name)


def bodies(clause: Clause) -> tuple[Clause, ...]:
    """The clause itself, or each of its versions."""
    return clause.versions or (clause,)


def test_there_is_a_reading_for_every_shared_rulebook():
    books = rulebook_dirs()
    if not books:
        pytest.skip("the shared rulebooks are not available here")
    read = {s.get("file") for name in READINGS for s in reading(name).sources.values()}
    assert {p.name for folder in books for p in folder.glob("*.txt")} <= read
    assert {"sl-en-2019", "tr-2019", "bga-classic-premium", "nl-2019", "fa-guide"} <= set(READINGS)


@pytest.mark.parametrize("name", READINGS)
def test_reading_validates_with_quotes_checked(name):
    assert check_spec(name) == []
    spec = reading(name)
    assert spec.kind == "reading" and spec.describes in ("classic", "z-man-2019")


@pytest.mark.parametrize("name", READINGS)
def test_every_stated_clause_quotes_its_own_rulebook_with_a_gloss(name):
    spec = reading(name)
    rulebook = spec.sources[next(iter(spec.sources))]
    assert len(spec.sources) == 1, "a reading cites its own rulebook only"
    for clause in spec.clauses.values():
        for body in bodies(clause):
            if body.silent:
                assert body.silence, f"{body.id}: a silence must say what is left open"
                continue
            assert body.sources, f"{body.id} cites no source"
            for source in body.sources:
                assert source.file == rulebook["file"], f"{body.id} cites {source.doc}"
                assert not source.paraphrase, f"{body.id}: a reading quotes, it does not paraphrase"
                assert source.line and source.gloss, f"{body.id}: quote without line or gloss"


@pytest.mark.parametrize("name", READINGS)
def test_reading_lines_up_with_the_edition_it_describes(name):
    spec = reading(name)
    edition = load_spec(spec.describes or "")
    mine = {c.key for c in spec.clauses.values()}
    theirs = {c.key for c in edition.clauses.values()}
    assert theirs <= mine, f"clauses of {edition.id} the reading does not address: {sorted(theirs - mine)}"
    extra = {c.key: c for c in spec.clauses.values() if c.key not in theirs}
    for key, clause in extra.items():
        fallback = clause.kind == "no_target" and edition.general["no_valid_target"].rule == clause.rule
        assert clause.novel or fallback, f"{key} is in no edition and is not marked novel"


def test_silences_and_contradictions_are_recorded_where_the_rulebooks_leave_them():
    silent = {name: sorted(c.key for c in reading(name).clauses.values() if c.silent) for name in READINGS}
    assert "turn.order" in silent["sl-en-2019"] and "turn.order" in silent["bga-classic-premium"]
    assert "prince.empty-deck" in silent["tr-2019"] and "baron.tie" in silent["fa-guide"]
    assert silent["nl-2019"] == ["chancellor.short-deck"]
    contradicted = sorted(c.key for c in reading("fa-guide").clauses.values() if c.versions)
    assert contradicted == ["round.tie", "setup.deck", "setup.set-aside"]
    novel = sorted(c.key for c in reading("fa-guide").clauses.values()
                   if c.novel or any(v.novel for v in c.versions))
    assert novel == ["handmaid.protect", "round.all-eliminated", "round.tie", "setup.face-up",
                     "setup.set-aside", "turn.first-turn"]


def test_the_classic_variant_keeps_the_2019_values():
    variant, classic = reading("nl-2019-classic-variant"), load_spec("classic")
    counts = [[(c.name, c.count_for(4)) for c in spec.cards] for spec in (variant, classic)]
    assert counts[0] == counts[1]
    assert {c.name: c.value for c in variant.cards}["Princess"] == 9
