"""A seventh rulebook nobody tuned the disputes to: the fictional Gazette of Letters
(tests/data/rulebooks/en_gazette-of-letters.txt), read as a reading of classic
(tests/data/readings/gazette.yaml), with differences planted on purpose. Every planted
difference must be found with the right verdict, and nothing else."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

import pytest

from loveletter_ref.disputes import Budget, compare, comparison_json, open_side
from loveletter_ref.disputes.verify import problems
from loveletter_ref.paths import rulebook_dirs

DATA = Path(__file__).resolve().parent / "data"
READING = DATA / "readings" / "gazette.yaml"
BUDGET, RLIMIT = Budget(games=30), 30_000_000

OBSERVABLE = {
    "guard.target": "classic refuses what gazette allows (guard.target)",    # line 9: any suitor
    "priest.target": "classic refuses what gazette allows (priest.target)",  # line 10: any suitor
    "baron.tie": "",                                                          # line 11: both out
    "countess.forced": "classic refuses what gazette allows (countess.forced)",  # line 15: King only
    "turn.order": "",                                                         # line 8: to the right
    "tokens.target": "",                                                      # line 24: 5, 4, 3
}
"""Planted differences a game shows, with what the witness's table sees where that is fixed."""

SILENT_AND_OBSERVABLE = {"prince.empty-deck"}
"""A planted silence a game reaches: the reading cannot go on where classic plays on."""

VACUOUS = {"game.end", "round.next-first"}
"""Planted differences no game can show: with line 20's tie rule no round has several winners,
so neither the silent game.end (line 24) nor the next-round rule that leaves such rounds out
(lines 22-23) is ever consulted; both proved under the gazette itself."""


@pytest.fixture(autouse=True)
def gazette_rulebook(monkeypatch: pytest.MonkeyPatch) -> None:
    """The gazette's quotes are checked against its own text, beside the bundled rulebooks."""
    folders = [*rulebook_dirs(), DATA / "rulebooks"]
    monkeypatch.setenv("LLCHECK_RULEBOOKS", os.pathsep.join(map(str, folders)))


@functools.cache
def settled(**versions: int) -> dict[str, dict[str, Any]]:
    """The gazette (with these versions of its contradictions) settled against classic, once."""
    reading = open_side(str(READING), versions)
    found = comparison_json(compare(reading, open_side("classic"), BUDGET, RLIMIT, alone=False))
    return {v["clause"]: v for v in found["verdicts"]}


def test_every_planted_difference_is_found_with_its_verdict_and_nothing_else():
    found = settled()
    assert set(found) == set(OBSERVABLE) | SILENT_AND_OBSERVABLE | VACUOUS
    for key, seen in OBSERVABLE.items():
        assert found[key]["status"] == "observable" and problems(found[key]) == [], key
        assert seen in found[key]["witness"]["story"], key
    for key in SILENT_AND_OBSERVABLE:
        assert found[key]["a"]["status"] == "silent" and found[key]["status"] == "observable"
        assert f"gazette cannot go on, its rules silent at {key}, where classic plays on" in \
            found[key]["witness"]["story"]
    for key in VACUOUS:
        verdict = found[key]
        assert verdict["status"] == "vacuous" and problems(verdict) == [], key
        assert {p["spec"] for p in verdict["proof"]} == {"gazette"}
        assert "depends on the partner" not in verdict["reason"]


def test_the_self_contradiction_is_settled_version_by_version_and_interacts_with_the_silences():
    """round.tie: version 1 (line 20) is classic's rule; version 2 (line 21, every tied suitor
    wins) shows. With it, rounds with several winners arise: the gazette's games now reach the
    silent game.end and the next-round rule's missing case, so their vacuity rests on classic
    alone, and the verdict says it depends on the partner."""
    first = settled()
    assert "round.tie" not in first
    second = settled(**{"round.tie": 1})
    tie = second["round.tie"]
    assert tie["status"] == "observable" and problems(tie) == []
    assert "the round is won by " in tie["witness"]["story"]
    for key in VACUOUS:
        verdict = second[key]
        assert verdict["status"] == "vacuous" and {p["spec"] for p in verdict["proof"]} == {"classic"}
        assert "games of gazette (round.tie version 2) do, so this verdict depends on the partner" in \
            verdict["reason"]
