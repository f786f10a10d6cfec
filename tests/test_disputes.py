"""`llcheck disputes`: clauses lined up by key, verdicts with witnesses that replay to the
difference they claim, proofs for vacuous verdicts, and a report that is up to date."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from llcheck.catalogue import DEFAULT_BUDGET, DEFAULT_Z3, Catalogue, entries
from llcheck.cli import main
from loveletter_ref import load_spec
from loveletter_ref.disputes import open_side
from loveletter_ref.disputes.differences import line_up
from loveletter_ref.disputes.verify import ending, problems

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
    try:
        code = main(["disputes", *args])
    except SystemExit as exc:  # argparse's own errors
        code = exc.code if isinstance(exc.code, int) else 2
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
    from loveletter_ref.disputes import Budget, compare, comparison_json
    data = comparison_json(compare(a, b, Budget(games=30), 15_000_000, keys=["guard.target"], alone=False))
    verdict = data["verdicts"][0]
    assert verdict["status"] == "observable" and problems(verdict) == []
    replays = verdict["witness"]["replays"]
    assert ending(load_spec("z-man-2019"), replays["z-man-2019"]) == ("refused", "guard.target", True)
    assert ending(load_spec("sl-en-2019"), replays["sl-en-2019"])[0] == "ok"


@pytest.mark.parametrize("args", [[], ["classic", "z-man-2019", "fa-guide"], ["--check"],
                                  ["--all", "classic"], ["fa-guide", "--version-of", "round.tie=9"],
                                  ["fa-guide", "--rlimit", "0"], ["fa-guide", "--version-of", "nonsense=1"],
                                  ["fa-guide", "classic", "--version-of", "baron.tie=1"]])
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


def test_no_difference_of_the_bundled_readings_is_left_undecided():
    """Every clause on which two specs of the report differ is observable (a witness both sides
    replay, between the two or settled on its own) or vacuous (a proof), and so is every open
    point and contradiction of a reading."""
    left = [f"{name}: {verdict['clause']} ({verdict.get('reason', '')[:200]})"
            for name, entry in stored()["entries"].items() for verdict in entry["result"]["verdicts"]
            if verdict["status"] == "undecided"]
    assert not left, "undecided verdicts:\n" + "\n".join(left)


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


def variant_reading(tmp_path: Path, old: str, new: str) -> Path:
    """The bundled reading nl-2019-classic-variant with one line changed."""
    text = (ROOT / "spec" / "readings" / "nl-2019-classic-variant.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "nl-variant.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def audit_verdicts(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, dict[str, Any]]:
    code, out, err = run_cli(capsys, str(path), "--json", "--games", "20")
    assert code == 1, err
    return {v["clause"]: v for v in json.loads(out)["verdicts"]}


def test_a_gap_no_clause_declares_is_reported_once_a_game_reaches_it(capsys, tmp_path):
    """round.all-eliminated: a Baron tie that knocks both players out can leave nobody in the
    round; the reading states no rule for it, and the audit says so with a one-round witness."""
    path = variant_reading(tmp_path, "        on_tie: nothing\n", "        on_tie: both_out\n")
    verdict = audit_verdicts(capsys, path)["round.all-eliminated"]
    assert verdict["status"] == "observable"
    replay = verdict["witness"]["replays"]["nl-2019-classic-variant"]
    assert ending(load_spec(str(path)), replay) == ("gap", "round.all-eliminated", True)
    assert len(replay["rounds"]) == 1, "the witness begins at the round of the gap"


def test_a_reading_may_declare_the_all_eliminated_silence(capsys, tmp_path):
    """round.all-eliminated: the id the engine's gap names is one a reading may mark silent."""
    path = variant_reading(tmp_path, "        on_tie: nothing\n", "        on_tie: both_out\n")
    text = path.read_text(encoding="utf-8").replace(
        "  - id: round.tie\n",
        "  - id: round.all-eliminated\n    silent: \"Nobody says who wins when both are out.\"\n"
        "  - id: round.tie\n")
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    capsys.readouterr()
    verdict = audit_verdicts(capsys, path)["round.all-eliminated"]
    assert verdict["status"] == "observable"
    assert "Nobody says who wins" in json.dumps(verdict)


def test_a_next_round_rule_whose_open_cases_never_arise_is_proved_vacuous(capsys, tmp_path):
    """round.next-first leaves out rounds won by several players or by nobody; with a tie rule
    that neither shares the win nor gives it to nobody, z3 proves no game reaches them (the tie
    rule's own gap comes first, and its story names the tied hands)."""
    path = variant_reading(tmp_path, "    tie: [all_win]\n", "    tie: [discard_total]\n")
    found = audit_verdicts(capsys, path)
    verdict = found["round.next-first"]
    assert verdict["status"] == "vacuous" and problems(verdict) == []
    assert {p["status"] for p in verdict["proof"]} == {"unreachable"}
    assert all("several or none" in p["query"] for p in verdict["proof"])
    story = found["round.tie"]["witness"]["story"]
    assert "still tied after the tie rule (" in story and "discards worth" in story
    assert "player 1" not in story.split("still tied")[1]


def test_next_round_rules_that_differ_only_where_no_game_goes_are_vacuous(tmp_path):
    """round.next-first: classic says who starts after a shared or winnerless round; a reading
    whose rounds never end so needs no answer there, and the comparison proves it."""
    from loveletter_ref.disputes import Budget, compare, comparison_json
    path = variant_reading(tmp_path, "    tie: [all_win]\n", "    tie: [discard_total]\n")
    data = comparison_json(compare(open_side(str(path)), open_side("classic"), Budget(games=20), 30_000_000,
                                   keys=["round.next-first"], alone=False))
    verdict = data["verdicts"][0]
    assert verdict["status"] == "vacuous" and problems(verdict) == []
    assert "the only cases in which the two rules differ" in verdict["reason"]


def test_a_comparison_says_which_version_of_a_contradiction_it_plays(capsys):
    from loveletter_ref.disputes import Budget, compare, comparison_json, comparison_text
    a, b = open_side("fa-guide"), open_side("classic")
    contradicted = sorted(c.key for c in a.edition.clauses.values() if c.versions)
    text = comparison_text(comparison_json(compare(a, b, Budget(games=5), 15_000_000, keys=[], alone=False)))
    for key in contradicted:
        assert f"fa-guide contradicts itself on {key}: played here in version 1 of 2" in text


def test_a_vacuous_verdict_the_proving_side_may_owe_to_its_own_gaps_is_settled_on_its_own():
    """round.next-first: bga-classic-premium never reaches a second round with 3-4 players (its
    turn order is silent), so z3 proves the clause unconsulted there; whether the two rules
    would part on their own is settled on the other side, with only this clause swapped in."""
    from loveletter_ref.disputes import Budget, compare, comparison_json
    a, b = open_side("bga-classic-premium"), open_side("classic")
    data = comparison_json(compare(a, b, Budget(games=30), 30_000_000, keys=["round.next-first"]))
    verdict = data["verdicts"][0]
    assert verdict["status"] == "vacuous" and verdict["proof"][0]["spec"] == "bga-classic-premium"
    alone = verdict["alone"]
    assert alone["a"]["spec"] == "classic" and "bga-classic-premium" in alone["b"]["spec"]
    assert problems(alone) == []


def test_a_clause_vacuous_between_two_but_observable_on_its_own_is_headed_so():
    """targeting.no-valid-target: the proof that bga-classic-premium never consults it covers
    3-4 players, whose games stop on its silent turn order first; on its own the clause shows in
    a 2-player game. The headline and the summary say both, so that a judge does not read
    "vacuous" as "can never matter"."""
    from loveletter_ref.disputes import Budget, compare, comparison_json, comparison_text
    a, b = open_side("bga-classic-premium"), open_side("classic")
    data = comparison_json(compare(a, b, Budget(games=30), 30_000_000,
                                   keys=["targeting.no-valid-target", "setup.first-player"]))
    assert [v["status"] for v in data["verdicts"]] == ["vacuous", "vacuous"]
    assert data["summary"]["observable_alone"] == 1
    text = comparison_text(data)
    assert "2 clauses differ: 0 observable, 2 vacuous, 0 undecided (1 of the others observable on its " \
           "own: targeting.no-valid-target)" in text
    assert "\ntargeting.no-valid-target: VACUOUS between these two, OBSERVABLE on its own\n" in text
    assert "\nsetup.first-player: VACUOUS\n" in text


def test_a_card_value_is_settled_on_its_own_with_the_values_that_move_with_it():
    """countess: the Dutch classic variant numbers the King 7, the Countess 8 and the Princess 9.
    Classic's Countess (7) in the variant would share the King's value, which `llcheck validate`
    rejects in any spec: the cards whose values clash are taken together (the Countess and the
    King), and every spec a verdict rests on passes validation."""
    from loveletter_ref.spec import data_problems
    a, b = open_side("nl-2019-classic-variant"), open_side("classic")
    assert a.value_group(b, "countess") == ("countess", "king")
    assert b.value_group(a, "countess") == ("countess", "princess")
    assert b.value_group(a, "princess") == ("princess",)
    assert isinstance(a.derived(b, "countess"), str), "the Countess alone would clash with the King"
    hybrid = a.derived(b, "countess", "king")
    assert not isinstance(hybrid, str)
    assert data_problems(hybrid.data, hybrid.positions, str(hybrid.path)) == []
    assert [c.value for c in hybrid.edition.cards if c.name in ("King", "Countess", "Princess")] == [6, 7, 9]


def test_a_card_value_only_compared_is_proved_vacuous_by_the_rules():
    """The variant's values order the cards as classic's do, and its tie rule shares the win
    (no discard totals): no game of the variant reads them but to compare them. Classic adds
    discard totals at a tie, so the verdict says it depends on the partner; the Princess never
    counts there (discarding it knocks its player out), so on classic its value is vacuous too."""
    from loveletter_ref.disputes import values
    variant, classic = open_side("nl-2019-classic-variant").edition, open_side("classic").edition
    shifted = {"King": (7, 6), "Countess": (8, 7), "Princess": (9, 8)}
    assert values.moved(variant, classic, [2, 3, 4]) == shifted
    found = values.proof(variant, "nl-2019-classic-variant", classic, [2, 3, 4])
    assert found is not None and "no rule of nl-2019-classic-variant adds values up" in found[0]
    assert all(values.check(record) is None for record in found[1])
    assert values.proof(classic, "classic", variant, [2, 3, 4]) is None
    princess = open_side("classic").derived(open_side("nl-2019-classic-variant"), "princess")
    assert not isinstance(princess, str)
    why = values.proof(classic, "classic", princess.edition, [2, 3, 4])
    assert why is not None and "Princess never counts" in why[0]
    swapped = {"King": [6, 8], "Countess": [7, 7]}
    assert values.check({"values": swapped}) is not None, "an order that changes proves nothing"


def test_an_edited_copy_of_a_bundled_reading_is_told_apart_from_it(capsys, tmp_path):
    """A translator's copy of tr-2019 keeps its id: each side is labelled by where it comes from,
    and each keeps its own replay."""
    path = tmp_path / "tr-edit.yaml"
    path.write_text((ROOT / "spec" / "readings" / "nl-2019.yaml").read_text(encoding="utf-8")
                    .replace("\nid: nl-2019\n", "\nid: tr-2019\n"), encoding="utf-8")
    code, out, err = run_cli(capsys, str(path), "tr-2019", "--json", "--games", "20", "--no-alone")
    assert code == 1, err
    data = json.loads(out)
    labels = [f"tr-2019 ({path})", "tr-2019 (bundled)"]
    assert [data["a"]["label"], data["b"]["label"]] == labels
    witnessed = [v["witness"] for v in data["verdicts"] if "witness" in v]
    assert witnessed and all(list(w["replays"]) == labels for w in witnessed)


def test_a_guess_by_value_where_each_dealt_value_is_one_card_is_a_guess_by_card():
    """guard.guess: Premium names values, classic cards. Premium's value 6 is the King or the
    Constable, but no deck for 2-4 players holds the Constable: with the player counts both
    allow, the two rules make the same decisions (a value-6 guess was once told as "naming the
    Constable or King", which classic refuses)."""
    from loveletter_ref.disputes.differences import line_up
    from loveletter_ref.disputes.duel import denotes
    premium, classic = open_side("premium").edition, open_side("classic").edition
    diffs, alike = line_up(premium, classic)
    assert [d.key for d in alike] == ["guard.guess"]
    assert "guard.guess" not in [d.key for d in diffs]
    assert denotes(premium, 4, 6) == ("King",) and denotes(premium, 5, 6) == ("Constable", "King")


def test_cards_neither_side_deals_do_not_mask_the_rest():
    """setup.deck: Premium with 2-4 players deals the classic 16 cards, its own cards counted 0
    times; so those cards are vacuous, and games of 2-4 players can show round.tie."""
    from loveletter_ref.disputes import Budget, compare, comparison_json
    a, b = open_side("premium"), open_side("classic")
    data = comparison_json(compare(a, b, Budget(games=60), 15_000_000, keys=["jester", "round.tie"],
                                   alone=False))
    jester, tie = data["verdicts"]
    assert jester["status"] == "vacuous"
    assert jester["reason"] == ("no deck for 2-4 players holds the Jester "
                                "(premium counts it 0 times; classic has no such card)")
    assert tie["status"] == "observable" and problems(tie) == []
    assert tie["witness"]["players"] <= 4
    assert data["masked"] is None
