"""Counterfactual blame and fuzzing that goes on: a difference is explained by the variant of the
spec the engine plays, the search continues past it, and every distinct deviation is reported."""

from __future__ import annotations

import pytest

from llcheck.cli import main
from llcheck.errors import UsageError
from llcheck.fuzz import run_fuzz
from llcheck.mutants import get
from loveletter_ref.spec import check_spec, load_spec
from loveletter_ref.variants import CATALOGUE, alternatives, catalogue, same_rule, variant


def _rules(edition_id: str, clause: str) -> dict[str, str]:
    return {a.text: a.source for a in alternatives(load_spec(edition_id), clause)}


def test_a_clause_s_alternatives_are_other_specs_rules_then_the_catalogue():
    priest = _rules("classic", "classic.priest.target")
    assert priest == {'{"who": "any"}': "fa-guide"}  # the Persian guide lets the Priest choose oneself
    assert _rules("classic", "classic.baron.compare") == {'{"loser": "higher"}': CATALOGUE}
    tie = _rules("classic", "classic.round.tie")
    assert tie['["all_win"]'] == "z-man-2019" and '["discard_total", "nobody"]' not in tie
    assert '["King", "Prince", "Princess"]' in _rules("classic", "classic.countess.forced")


def test_every_alternative_compiles_under_the_edition_s_own_id():
    edition = load_spec("z-man-2019")
    for clause in edition.clauses:
        for alternative in alternatives(edition, clause):
            changed = variant(edition, (alternative,))
            assert changed is not None and changed.id == edition.id
            assert changed.clauses[clause].rule != edition.clauses[clause].rule


def test_the_catalogue_moves_counts_and_keeps_to_the_schema():
    assert catalogue("round_tokens", 1) == [2]  # 0 is below the schema's minimum
    assert catalogue("on_tie", "nothing") == ["both_out"]
    assert {"2": 4} in catalogue("face_up", {"2": 3}) and {"2": 0} in catalogue("face_up", {"2": 3})
    assert catalogue("no_such_kind", 1) == []


def test_tables_that_say_the_same_are_one_rule():
    classic = load_spec("classic")
    assert same_rule(classic, {"2": 0}, {"2-4": 0})
    assert not same_rule(classic, {"2": 0}, {"2-4": 1})


@pytest.mark.parametrize("name,said", [
    ("baron-higher-loses", '`classic.baron.compare` were `{"loser": "higher"}`'),
    ("priest-may-choose-self", '`classic.priest.target` were `{"who": "any"}` (as fa-guide states it)'),
    ("wrong-tie-rule", '`classic.round.tie` were `["all_win"]` (as z-man-2019 states it)'),
])
def test_the_variant_an_engine_plays_is_named_first(name, said):
    result = run_fuzz(get(name).engine, "classic", 3, 100, 0, None)
    assert result.status == "fail"
    assert f"diagnosis: your engine plays as if {said}" in result.message
    assert result.clauses[0] == said.split("`")[1]
    assert result.deviations[0].diagnosis.exact and result.reading == result.deviations[0].diagnosis.changes


def test_two_rules_bent_are_both_named():
    result = run_fuzz(get("baron-both-out-counterclockwise").engine, "classic", 3, 100, 0, None)
    classic = load_spec("classic")
    named = {c for dev in result.deviations for c in (dev.clause, *dev.diagnosis.clauses(classic))}
    assert {"classic.turn.order", "classic.baron.tie"} <= named
    assert {a.key for a in result.reading} == {"turn.order", "baron.tie"}


def test_an_engine_no_variant_explains_keeps_its_ranked_suspects():
    result = run_fuzz(get("handmaid-too-short").engine, "classic", 3, 60, 0, None)
    assert "diagnosis: no variant of one or two clauses tried reproduces the engine" in result.message
    assert result.clauses[0] == "classic.handmaid.protect"
    assert not result.reading


def test_fuzzing_goes_on_and_groups_what_it_sees_by_clause():
    result = run_fuzz(get("king-ignores-handmaid").engine, "classic", 3, 200, 0, None)
    clauses = [dev.clause for dev in result.deviations]
    assert len(clauses) == len(set(clauses)) >= 2
    assert "distinct deviations, by clause:" in result.message
    assert all(dev.replay is not None and dev.seen >= 1 for dev in result.deviations)
    assert result.games == 200  # continuing plays the games asked for, no more
    first = run_fuzz(get("king-ignores-handmaid").engine, "classic", 3, 200, 0, None, deviations=1)
    assert len(first.deviations) == 1 and first.replay == result.replay


def test_an_ignored_clause_is_looked_past_for_events_and_legal_lists():
    result = run_fuzz(get("baron-tie-eliminates").engine, "classic", 3, 100, 0, None,
                      ignore_clauses=("classic.baron.tie",))
    assert result.ok and "stopped at an ignored clause" in result.message
    assert result.tally.skipped["classic.baron.tie"] >= 1
    listed = run_fuzz(get("guard-may-name-guard").engine, "classic", 3, 60, 0, None,
                      ignore_clauses=("classic.guard.guess",))
    assert listed.ok, listed.message
    with pytest.raises(UsageError, match="no clause classic.nope"):
        run_fuzz(get("counterclockwise").engine, "classic", 3, 10, 0, None, ignore_clauses=("classic.nope",))


def test_fuzz_ignore_on_the_command_line(capsys, tmp_path):
    impl = "python:llcheck.mutants.engines:guard-may-name-guard"
    base = ["check", "--impl", impl, "--fuzz", "30", "--edition", "classic", "--run", "fuzz/classic/3p",
            "--fuzz-dir", str(tmp_path)]
    assert main([*base, "--fuzz-ignore", "classic.guard.guess"]) == 0
    assert main([*base, "--fuzz-ignore", "classic.no-such"]) == 2
    err = capsys.readouterr().err
    assert "--fuzz-ignore classic.no-such: no such clause in classic" in err and "Traceback" not in err


def test_check_ends_with_the_engine_s_reading_and_writes_it(capsys, tmp_path):
    written = tmp_path / "mine.yaml"
    code = main(["check", "--impl", "python:llcheck.mutants.engines:priest-may-choose-self", "--fuzz", "30",
                 "--edition", "classic", "--run", "fuzz/classic/3p", "--fuzz-dir", str(tmp_path),
                 "--write-reading", str(written)])
    out = capsys.readouterr().out
    assert code == 1
    assert "your engine's reading" in out and '  classic.priest.target: {"who": "any"} (as fa-guide' in out
    assert check_spec(written) == []
    reading = load_spec(written)
    assert reading.kind == "reading" and reading.describes == "classic"
    assert reading.clause_by_key("priest.target").rule == {"who": "any"}
    assert reading.clause_by_key("baron.tie").rule == load_spec("classic").clause_by_key("baron.tie").rule
