"""A variant changes one clause of a valid spec, so the counterfactual search checks only that
clause against the schema (`variants._compiled(quick=True)`); that must accept exactly the
variants the whole spec's validation accepts, the spec each builds included."""

from __future__ import annotations

import pytest

from loveletter_ref import load_spec
from loveletter_ref.errors import SpecError
from loveletter_ref.variants import Alternative, _compiled, _edition_path, _stated, catalogue, stated


def candidates(edition_id: str) -> list[Alternative]:
    """Every rule the bundled specs and the catalogue offer for each rule clause of the edition,
    valid or not (`alternatives` keeps only the valid ones: here both kinds are wanted)."""
    edition = load_spec(edition_id)
    out = []
    for clause in edition.clauses.values():
        rule = None if clause.silent or clause.kind == "card" else stated(edition, clause.key, clause.kind)
        if rule is None:
            continue
        offered = [*_stated(clause.key, clause.kind, edition), *(
            ("catalogue", other) for other in catalogue(clause.kind, rule, edition.names))]
        out += [Alternative.of(clause.key, clause.kind, other, source) for source, other in offered]
    return out


def built(path, alternative, quick):
    """The variant's spec, or None where it is not a valid one."""
    try:
        return _compiled(path, (alternative,), quick=quick)
    except SpecError:
        return None


@pytest.mark.parametrize("edition_id", ["classic", "z-man-2019"])
def test_checking_the_changed_clause_accepts_what_checking_the_whole_spec_accepts(edition_id):
    path = _edition_path(load_spec(edition_id))
    tried = candidates(edition_id)
    assert len(tried) > 100
    rejected = 0
    for alternative in tried:
        quick, full = built(path, alternative, True), built(path, alternative, False)
        assert (quick is None) == (full is None), (alternative.key, alternative.rule)
        if full is None:
            rejected += 1
        else:
            assert quick is not None and quick.clauses.keys() == full.clauses.keys()
    assert rejected  # some offered rules do not make a valid spec: both checks turn them down
