"""Clause pairs and player-count clauses (llcheck.harness.pairs): which pairs the editions declare,
which ones a case reaches on the reference engine, and the coverage of a corpus of our own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llcheck.harness.cases import corpus_dir, editions, load_corpus
from llcheck.harness.pairs import (
    OWN_NEXT_TURN,
    ROUND_END,
    Pair,
    declared_pairs,
    holder_state,
    pair_coverage,
    player_count_clauses,
    reached,
)
from loveletter_ref.paths import spec_dir
from loveletter_ref.spec import load_spec

IN_ALONE, IN_SHARING = holder_state(True, True), holder_state(True, False)
OUT_ALONE, OUT_SHARING = holder_state(False, True), holder_state(False, False)


def partners(edition: str, clause: str) -> list[str]:
    return [pair.partner for pair in declared_pairs(load_spec(edition)) if pair.clause == clause]


def bundled(case_id: str):
    return next(case for case in load_corpus() if case.id == case_id)


def test_classic_declares_the_countess_beside_every_other_card_and_the_handmaid_across_two_boundaries():
    assert declared_pairs(load_spec("classic")) == [
        Pair("classic.handmaid.protect", OWN_NEXT_TURN), Pair("classic.handmaid.protect", ROUND_END),
        *(Pair("classic.countess.forced", f"classic.{card}")
          for card in ("guard", "priest", "baron", "handmaid", "prince", "king", "princess"))]


def test_a_bonus_shares_its_card_only_when_the_edition_has_two_copies():
    assert partners("z-man-2019", "z19.spy.bonus") == [IN_ALONE, IN_SHARING, OUT_ALONE, OUT_SHARING]
    assert partners("premium", "premium.count.bonus") == [IN_ALONE, IN_SHARING, OUT_ALONE, OUT_SHARING]
    assert partners("premium", "premium.constable.token") == [IN_ALONE, OUT_ALONE]
    assert partners("premium", "premium.jester.predict") == [IN_ALONE, OUT_ALONE]


def test_a_forcing_rule_meets_every_card_dealt_with_its_own_and_itself_only_in_two_copies():
    premium = load_spec("premium")
    every = [card.clause.id for card in premium.cards]
    assert partners("premium", "premium.countess.forced") == [c for c in every if c != "premium.countess"]
    assert partners("premium", "premium.sycophant.force") == every  # a second Sycophant may follow the first
    assert len(declared_pairs(premium)) == 2 + 16 + 2 + 17 + 4 + 2


def test_the_pairs_come_from_the_rules_of_the_spec_not_from_card_names(tmp_path: Path):
    text = (spec_dir() / "editions" / "classic.yaml").read_text(encoding="utf-8")
    text = text.replace("id: classic\nprefix: classic", "id: twin-countess\nprefix: twin")
    text = text.replace("    value: 1\n    count: 5\n", "    value: 1\n    count: 4\n")
    text = text.replace("    value: 7\n    count: 1\n", "    value: 7\n    count: 2\n")
    bonus = ("      - id: priest.bonus\n"
             "        bonus_token: {amount: 1, condition: sole_survivor_with_card_discarded}\n"
             "        source: {doc: aeg-2012, paraphrase: true, quote: \"A bonus for a test.\"}\n\n")
    text = text.replace("  - name: Baron", bonus + "  - name: Baron", 1)
    text = text.replace('tokens_to_win: {"2": 7, "3": 5, "4": 4}', 'tokens_to_win: {"2-4": 5}')
    path = tmp_path / "twin.yaml"
    path.write_text(text, encoding="utf-8")
    twin = load_spec(path)
    pairs = declared_pairs(twin)
    assert Pair("twin.countess.forced", "twin.countess") in pairs  # two Countesses: one beside the other
    assert [p.partner for p in pairs if p.clause == "twin.priest.bonus"] == \
        [IN_ALONE, IN_SHARING, OUT_ALONE, OUT_SHARING]
    assert player_count_clauses(twin) == ["twin.setup.face-up"]  # 5 tokens at every count: no table


def test_player_count_clauses_are_the_tables_that_differ_by_player_count():
    assert player_count_clauses(load_spec("classic")) == ["classic.setup.face-up", "classic.tokens.target"]
    premium = player_count_clauses(load_spec("premium"))
    assert premium[:2] == ["premium.guard", "premium.jester"]
    assert {"premium.setup.deck", "premium.setup.face-up", "premium.tokens.target"} <= set(premium)
    assert "premium.priest" not in premium  # two Priests with any number of players
    assert len(premium) == 1 + 9 + 3


def test_a_case_reaches_what_the_reference_engine_plays():
    classic, z19 = load_spec("classic"), load_spec("z-man-2019")
    across = reached(bundled("classic.handmaid.protect/ends-with-the-round"), classic)
    assert {Pair("classic.handmaid.protect", OWN_NEXT_TURN),
            Pair("classic.handmaid.protect", ROUND_END)} <= across
    within = reached(bundled("classic.handmaid.protect/until-the-start-of-the-owners-next-turn"), classic)
    assert Pair("classic.handmaid.protect", ROUND_END) not in within
    king = reached(bundled("classic.countess.forced/with-king"), classic)  # its refused steps are skipped
    assert Pair("classic.countess.forced", "classic.king") in king
    assert Pair("classic.countess.forced", "classic.guard") not in king
    spies = reached(bundled("z19.spy.bonus/a-spy-player-who-is-out-does-not-count"), z19)
    assert {p.partner for p in spies if p.clause == "z19.spy.bonus"} == {IN_ALONE, OUT_SHARING}


def test_the_next_card_after_a_mark_is_the_partner_of_the_forcing_rule():
    premium = load_spec("premium")
    found = reached(bundled("premium.sycophant.force/a-bishop-must-choose-the-marked-player"), premium)
    assert {p for p in found if p.clause == "premium.sycophant.force"} == \
        {Pair("premium.sycophant.force", "premium.bishop")}


def test_a_count_counts_only_at_a_showdown():
    premium = load_spec("premium")
    shown = reached(bundled("premium.count.bonus/a-count-of-a-player-who-is-out-adds-nothing"), premium)
    assert Pair("premium.count.bonus", OUT_ALONE) in shown
    last_standing = reached(bundled("premium.constable.token/a-constable-of-a-player-still-in-pays-nothing"),
                            premium)
    assert Pair("premium.constable.token", IN_ALONE) in last_standing
    assert not any(p.clause == "premium.count.bonus" for p in last_standing)


def _own_corpus(root: Path, cases: list[dict]) -> Path:
    folder = root / "required" / "classic"
    folder.mkdir(parents=True)
    (folder / "mine.json").write_text(json.dumps({"description": "a corpus of our own", "cases": cases}))
    return root


def _countess_beside_a_guard() -> dict:
    source = json.loads((corpus_dir() / "required" / "classic" / "countess.json").read_text())
    return next(c for c in source["cases"] if c["id"] == "classic.countess.forced/beside-a-guard")


def test_pair_coverage_of_a_corpus_of_our_own(tmp_path: Path):
    named = _countess_beside_a_guard()
    unnamed = {**named, "id": "classic.guard.guess/a-miss-beside-the-countess",
               "clauses": ["classic.guard.guess"]}
    deck = ["Guard", "Countess", "Priest", "Baron", "Guard", "Guard", "Guard", "Guard", "Priest", "Baron",
            "Handmaid", "Handmaid", "Prince", "Prince", "King", "Princess"]
    three = {**named, "id": "classic.setup.face-up/none-with-three", "clauses": ["classic.setup.face-up"],
             "players": 3, "rounds": [{"deck": deck, "start": {"state": {"face_up": []}}}]}
    cases = load_corpus(_own_corpus(tmp_path, [named, unnamed, three]), checked=True)
    coverage = pair_coverage(cases, known={"classic": load_spec("classic")})
    assert coverage.pairs[Pair("classic.countess.forced", "classic.guard")] == [named["id"]]
    assert len(coverage.pairs) == 9
    assert coverage.uncovered == [pair for pair in coverage.pairs
                                  if pair != Pair("classic.countess.forced", "classic.guard")]
    assert coverage.player_counts["classic.setup.face-up"] == {"2": [], "3+": [three["id"]]}
    assert coverage.count_gaps == [("classic.setup.face-up", "2"), ("classic.tokens.target", "2"),
                                   ("classic.tokens.target", "3+")]
    assert coverage.to_json()["player_count_gaps"][0] == "classic.setup.face-up at 2 players"
    only = coverage.only({"classic.countess.forced"})
    assert {pair.clause for pair in only.pairs} == {"classic.countess.forced"} and only.player_counts == {}


@pytest.mark.parametrize("status", ["disputed", "golden"])
def test_only_required_cases_cover(status: str):
    cases = [case for case in load_corpus() if case.status == status]
    coverage = pair_coverage(cases)
    assert coverage.uncovered == list(coverage.pairs)


def test_every_declared_pair_and_player_count_of_the_bundled_corpus_is_covered():
    coverage = pair_coverage(load_corpus())
    assert len(coverage.pairs) == sum(len(declared_pairs(edition)) for edition in editions().values())
    assert coverage.uncovered == []
    assert coverage.count_gaps == []
