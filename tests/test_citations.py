"""Verbatim citations support their clauses: in every bundled spec a gloss says no number its quote
does not; in every edition a card's quotes state the card's value and its counts (a reading may
derive a count, as the classic variant of the Dutch page does, and say how in a note)."""

from __future__ import annotations

import re

import pytest

from loveletter_ref.spec import Source, known_specs, load_spec

SPECS = sorted(known_specs())
EDITIONS = sorted(name for name, path in known_specs().items() if path.parent.name == "editions")


def numbers(text: str) -> set[int]:
    """The whole numbers written in a text, in any script's digits."""
    return {int(digits) for digits in re.findall(r"\d+", text)}


def verbatim(sources: tuple[Source, ...]) -> list[Source]:
    """The sources quoted word for word (paraphrases left out)."""
    return [source for source in sources if not source.paraphrase]


@pytest.mark.parametrize("name", SPECS)
def test_a_gloss_names_no_number_its_quote_does_not(name):
    spec = load_spec(name)
    wrong = [f"{clause.id}: «{source.quote}» ({source.gloss})"
             for clause in spec.clauses.values() for body in clause.versions or (clause,)
             for source in verbatim(body.sources)
             if source.gloss and not numbers(source.gloss) <= numbers(source.quote)]
    assert wrong == []


@pytest.mark.parametrize("name", EDITIONS)
def test_a_card_quotes_its_value_and_its_counts(name):
    spec = load_spec(name)
    wrong = []
    for card in spec.cards:
        quotes = verbatim(card.clause.sources)
        stated = {card.value} | {count for _, _, count in card.counts if count}
        if quotes and not stated <= numbers(" ".join(source.quote for source in quotes)):
            wrong.append(f"{card.clause.id}: {sorted(stated)} in {[source.quote for source in quotes]}")
    assert wrong == []
