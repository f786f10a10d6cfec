"""Table conventions: a rulebook silent on what every table does alike (turn direction, who
starts) gets the strict verdict and the verdict with the edition's rule there, so that the
silence no longer masks the reading's other clauses."""

from __future__ import annotations

from llcheck.catalogue import entries
from loveletter_ref.disputes import Budget, compare, comparison_json, open_side
from loveletter_ref.disputes.settle import by_convention
from loveletter_ref.disputes.verify import problems


def test_a_silence_every_table_fills_alike_masks_no_clause_by_convention():
    """bga-classic-premium is silent on turn direction: its 3- and 4-player games stop after the
    first play, so strictly its next-round rule can never show; by convention it does."""
    reading, edition = open_side("bga-classic-premium"), open_side("classic")
    found = by_convention(reading, edition)
    assert found is not None
    filled, keys = found
    assert keys == ["setup.first-player", "turn.order"]
    assert filled.label == "bga-classic-premium with classic's setup.first-player and turn.order"
    strict = comparison_json(compare(reading, edition, Budget(games=20), 15_000_000,
                                     keys=["round.next-first"], alone=False))["verdicts"][0]
    assert strict["status"] == "vacuous" and "depends on the partner" in strict["reason"]
    conventional = comparison_json(compare(filled, edition, Budget(games=20), 15_000_000,
                                           keys=["round.next-first"], alone=False))["verdicts"][0]
    assert conventional["status"] == "observable" and problems(conventional) == []
    replay = conventional["witness"]["replays"][filled.label]
    assert replay["swap"] == {"clause": ["setup.first-player", "turn.order"], "from": {"edition": "classic"}}


def test_a_reading_stating_every_convention_gets_no_conventional_verdict():
    assert by_convention(open_side("tr-2019"), open_side("z-man-2019")) is None
    conventional = {e.id for e in entries() if e.kind == "convention"}
    assert conventional == {"convention bga-classic-premium vs classic", "convention fa-guide vs classic",
                            "convention sl-en-2019 vs z-man-2019"}
