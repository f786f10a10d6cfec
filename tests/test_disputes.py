"""`llcheck disputes`: clauses lined up by key, verdicts with witnesses that replay to the
difference they claim, proofs for vacuous verdicts, and a report that is up to date."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from llcheck.cli import main
from llcheck.disputes import open_side
from llcheck.disputes.catalogue import DEFAULT_BUDGET, DEFAULT_Z3, Catalogue, entries
from llcheck.disputes.differences import line_up
from llcheck.disputes.verify import ending, problems
from loveletter_ref import load_spec

ROOT = Path(__file__).resolve().parents[1]
REPORT, DATA = ROOT / "docs" / "disputes.md", ROOT / "docs" / "disputes.json"


def stored() -> dict[str, Any]:
    return json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else {"entries": {}}


def verdicts(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every stored verdict (and every verdict on a clause on its own), with its entry."""
    out = []
    for name, entry in data["entries"].items():
        for verdict in entry["result"]["verdicts"]:
            out.append((name, verdict))
            if "alone" in verdict:
                out.append((name, verdict["alone"]))
    return out


STORED = verdicts(stored())


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["disputes", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_clauses_line_up_by_key():
    diffs, alike = line_up(load_spec("nl-2019"), load_spec("z-man-2019"))
    assert [d.key for d in diffs] == ["chancellor.short-deck", "round.next-first"]
    diffs, alike = line_up(load_spec("bga-classic-premium"), load_spec("classic"))
    assert [d.key for d in alike] == ["guard.guess"]
    assert "guard.no-target" not in {d.key for d in diffs}
    assert "targeting.no-valid-target" in {d.key for d in diffs}


def test_two_specs_settled_with_witnesses_that_replay(capsys):
    code, out, _ = run_cli(capsys, "nl-2019", "z-man-2019", "--json", "--games", "60")
    data = json.loads(out)
    assert code == 1
    assert [(v["clause"], v["status"]) for v in data["verdicts"]] == [
        ("chancellor.short-deck", "observable"), ("round.next-first", "observable")]
    for verdict in data["verdicts"]:
        assert problems(verdict) == []
        replays = verdict["witness"]["replays"]
        assert ending(load_spec("nl-2019"), replays["nl-2019"])[0] == "gap"
        assert ending(load_spec("z-man-2019"), replays["z-man-2019"])[0] == "ok"
        assert "Ana" in verdict["witness"]["story"]


def test_one_reading_alone_lists_its_open_points(capsys):
    code, out, _ = run_cli(capsys, "nl-2019", "--games", "20")
    assert code == 1
    assert "silence chancellor.short-deck: OBSERVABLE" in out
    assert "silence round.next-first: OBSERVABLE" in out


def test_a_legality_difference_ends_with_the_refusal(capsys):
    a, b = open_side("sl-en-2019"), open_side("z-man-2019")
    from llcheck.disputes import Budget, compare, comparison_json
    data = comparison_json(compare(a, b, Budget(games=30), 5.0, keys=["guard.target"], alone=False))
    verdict = data["verdicts"][0]
    assert verdict["status"] == "observable" and problems(verdict) == []
    replays = verdict["witness"]["replays"]
    assert ending(load_spec("z-man-2019"), replays["z-man-2019"]) == ("refused", "guard.target", True)
    assert ending(load_spec("sl-en-2019"), replays["sl-en-2019"])[0] == "ok"


@pytest.mark.parametrize("args", [[], ["classic", "z-man-2019", "fa-guide"], ["--check"],
                                  ["--all", "classic"], ["fa-guide", "--version-of", "round.tie=9"],
                                  ["fa-guide", "--timeout", "0"]])
def test_bad_usage_is_one_line_and_exit_2(capsys, args):
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1


def test_an_unknown_spec_is_bad_input(capsys):
    code, _, err = run_cli(capsys, "no-such-reading")
    assert code == 2 and "no such spec" in err


def test_the_report_is_up_to_date():
    """docs/disputes.md and docs/disputes.json match the specs (run `llcheck disputes --all`)."""
    catalogue = Catalogue(REPORT, DATA, DEFAULT_BUDGET, DEFAULT_Z3)
    assert catalogue.check() == []


def test_the_report_covers_every_reading_against_both_editions_and_each_other():
    names = {e.id for e in entries()}
    for reading in ("sl-en-2019", "tr-2019", "bga-classic-premium", "nl-2019", "nl-2019-classic-variant",
                    "fa-guide"):
        assert f"audit {reading}" in names
        for edition in ("classic", "z-man-2019"):
            assert f"compare {reading} vs {edition}" in names
    assert "compare fa-guide vs nl-2019" in names or "compare nl-2019 vs fa-guide" in names


@pytest.mark.parametrize(("entry", "verdict"), STORED,
                         ids=[f"{name}: {v['clause']}" for name, v in STORED])
def test_every_stored_verdict_holds(entry, verdict):
    """Observable: both replays end differently and the clause alone accounts for it; silence:
    the game stops on a gap naming it; vacuous: a complete z3 proof is on record."""
    assert problems(verdict) == []
