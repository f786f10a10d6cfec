"""The z3 probes: catalogue answers, witnesses the reference engine replays, the API, the command.

CI runs the quick configurations (two and three players); `llcheck probe` and
tools/bench_probes.py answer the whole catalogue for every edition and player count.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from llcheck.cli import main
from loveletter_ref import load_spec
from loveletter_ref.errors import RuleGapError
from loveletter_ref.probes.api import QUERIES, any_of, check, clause_applies, prover, query
from loveletter_ref.probes.layout import Layout
from loveletter_ref.probes.playback import play, silenced
from loveletter_ref.probes.unroll import encodable
from loveletter_ref.spec import Step

RLIMIT = 400_000_000


def answers(edition: str, players: int, names: list[str]) -> dict[str, object]:
    spec = load_spec(edition)
    return {name: prover(spec, players).ask(QUERIES[name], RLIMIT) for name in names}


def assert_witness_replays(spec, verdict) -> None:
    """The witness is legal for the reference engine, which shows the claimed situation."""
    assert verdict.status == "reachable" and verdict.witness is not None, verdict
    assert verdict.problem is None, verdict.problem
    replayed = play(spec, verdict.witness)
    assert replayed.moments, verdict.witness


def test_classic_two_players_whole_catalogue_as_expected():
    spec = load_spec("classic")
    found = answers("classic", 2, list(QUERIES))
    for name, verdict in found.items():
        expected = QUERIES[name].expected(spec, 2) if verdict.applicable else None
        assert verdict.status != "unknown", (name, verdict.reason)
        if expected:
            assert verdict.status == expected, (name, verdict)
        if verdict.status == "reachable":
            assert_witness_replays(spec, verdict)
    assert found["two-reach-target"].status == "unreachable"
    assert found["round-outlasts-pile"].method == "ranking"
    assert found["card-in-two-places"].method == "induction"


def test_classic_round_without_winner_is_a_tie_the_discards_do_not_break():
    spec = load_spec("classic")
    verdict = answers("classic", 2, ["no-winner"])["no-winner"]
    assert_witness_replays(spec, verdict)
    end = next(e for e in play(spec, verdict.witness).last_events() if e["type"] == "round_end")
    assert end["reason"] == "showdown" and end["winners"] == []
    assert "nobody wins" in verdict.story


@pytest.mark.parametrize("edition, name", [("z-man-2019", "draw-return-short"),
                                           ("z-man-2019", "two-reach-target"), ("classic", "three-way-tie")])
def test_three_player_corner_cases_are_reached_by_real_games(edition, name):
    spec = load_spec(edition)
    verdict = answers(edition, 3, [name])[name]
    assert_witness_replays(spec, verdict)
    assert verdict.story.startswith("deal: set aside ")


def test_z19_two_reach_target_witness_starts_near_the_target():
    spec = load_spec("z-man-2019")
    verdict = answers("z-man-2019", 3, ["two-reach-target"])["two-reach-target"]
    target = spec.player_table("tokens_to_win", 3)
    assert all(0 <= t < target for t in verdict.witness["tokens"])
    game_end = [e for e in play(spec, verdict.witness).last_events() if e["type"] == "game_end"]
    assert len(game_end[0]["winners"]) >= 2


def test_witness_stops_at_the_action_where_the_situation_arises():
    spec = load_spec("z-man-2019")
    verdict = answers("z-man-2019", 3, ["draw-return-short"])["draw-return-short"]
    last = verdict.witness["rounds"][0]["actions"][-1]
    assert last["type"] == "play" and spec.card(last["card"]).steps[0].kind == "draw_return"


@pytest.mark.parametrize("key", ["baron.tie", "prince.empty-deck"])
def test_clause_applies_witness_makes_the_engine_need_that_clause(key):
    spec = load_spec("z-man-2019")
    verdict = check(spec, 3, clause_applies(key), RLIMIT)
    assert verdict.status == "reachable" and verdict.problem is None, verdict
    quiet = silenced(spec, key)
    replayed = play(quiet, verdict.witness)
    assert isinstance(replayed.gap, RuleGapError) and replayed.gap.clause == f"z19.{key}"
    assert replayed.gap_on_last_call()


def test_a_silent_clause_in_a_reading_is_reached_and_the_engine_stops_there():
    reading = silenced(load_spec("classic"), "baron.tie")
    verdict = check(reading, 2, clause_applies("baron.tie"), RLIMIT)
    assert verdict.status == "reachable" and verdict.problem is None
    assert "the rules give no answer" in verdict.story
    gap = check(reading, 2, query("silent-clause"), RLIMIT)
    assert gap.status == "reachable" and gap.problem is None
    assert play(reading, gap.witness).gap.clause == "classic.baron.tie"


@pytest.mark.parametrize("key, name, players", [("round.tie", "three-way-tie", 3),
                                                ("tokens.round-win", "no-winner", 2)])
def test_a_showdown_is_reached_though_a_rule_of_the_round_end_is_silent(key, name, players):
    """Regression: three hands tie, or a round ends with nobody winning, before the silent tie or
    token rule stops the round; the witness stops on that gap (both were proved unreachable)."""
    reading = silenced(load_spec("classic"), key)
    verdict = check(reading, players, query(name), RLIMIT)
    assert verdict.status == "reachable" and verdict.problem is None, verdict
    assert play(reading, verdict.witness).gap.clause == f"classic.{key}"


@pytest.mark.parametrize("players", [2, 5])
def test_premium_has_no_card_paying_a_bonus_token_twice(players):
    """Regression: the Count (5-8 players) has two copies and a showdown bonus, not a bonus token."""
    reason = QUERIES["bonus-card-all-copies"].applicable(Layout.of(load_spec("premium"), players))
    assert reason == "no card in this deck has a bonus token (bonus_token) and two or more copies"


def test_a_silent_setup_rule_stops_every_round_before_the_first_action():
    reading = silenced(load_spec("classic"), "setup.face-up")
    verdict = check(reading, 2, clause_applies("setup.face-up"), RLIMIT)
    assert verdict.status == "reachable" and verdict.witness["rounds"][0]["actions"] == []
    other = check(reading, 2, query("three-way-tie"), RLIMIT)
    assert other.status == "unreachable" and "silent" in other.reason


def test_setup_rules_apply_at_every_deal_and_inputs_and_unknown_keys_never():
    verdict = check(load_spec("classic"), 2, clause_applies("setup.deal"), RLIMIT)
    assert verdict.status == "reachable" and verdict.witness["rounds"][0]["actions"] == []
    verdict = check(load_spec("classic"), 2, clause_applies("setup.first-player"), RLIMIT)
    assert verdict.status == "unreachable"
    verdict = check(load_spec("classic"), 2, clause_applies("no.such-clause"), RLIMIT)
    assert verdict.status == "unreachable" and verdict.method == "no rule leads there"


def test_any_of_reaches_the_first_situation_that_can_happen():
    spec = load_spec("classic")
    verdict = check(spec, 2, any_of(query("all-eliminated"), query("set-aside-drawn")), RLIMIT)
    assert verdict.status == "reachable" and verdict.problem is None


def strange_priest(kind: str = "predict"):
    """Classic, with the Priest's look step turned into a rule kind the probes do not model."""
    spec = load_spec("classic")
    card = spec.card("Priest")
    look = card.steps[1]
    odd = dataclasses.replace(look.clause, kind=kind)
    steps = (card.steps[0], Step(kind, odd, look.modifiers))
    cards = tuple(dataclasses.replace(c, steps=steps) if c is card else c for c in spec.cards)
    return dataclasses.replace(spec, cards=cards)


def test_a_rule_the_probes_do_not_model_makes_proofs_unknown_naming_the_clause():
    strange = strange_priest()
    encodable(strange, 2)  # not an error: the answers say what they cannot decide
    proof = check(strange, 2, query("card-in-two-places"), RLIMIT)
    assert proof.status == "unknown" and "classic.priest.look" in proof.reason
    found = check(strange, 2, query("set-aside-drawn"), RLIMIT)
    assert found.status == "reachable" and found.problem is None


def test_verdict_json_is_plain_data():
    verdict = answers("classic", 2, ["set-aside-drawn"])["set-aside-drawn"]
    data = json.loads(json.dumps(verdict.to_json()))
    assert data["status"] == "reachable" and data["witness"]["rounds"][0]["deck"]
    assert set(data) >= {"condition", "status", "method", "seconds", "story", "witness"}


# -- the command ---------------------------------------------------------------------------------


def test_probe_command_prints_each_answer_with_its_witness(capsys):
    code = main(["probe", "--edition", "classic", "--players", "2", "--query", "set-aside-drawn",
                 "--query", "two-reach-target"])
    out = capsys.readouterr().out
    assert code == 0
    assert "classic, 2 players" in out
    assert "set-aside-drawn" in out and "REACHABLE" in out and "replay: {" in out
    assert "two-reach-target" in out and "unreachable" in out


def test_probe_command_json(capsys):
    code = main(["probe", "--edition", "classic", "--players", "2", "--query", "no-winner", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    [report] = data
    assert report["edition"] == "classic" and report["players"] == 2 and report["invariant"] is True
    [row] = report["results"]
    assert row["condition"] == "no-winner" and row["status"] == "reachable" and row["surprise"] is None


def test_probe_command_answers_each_spec_player_count_and_query_once(capsys):
    code = main(["probe", "--edition", "classic", "--edition", str(load_spec("classic").path),
                 "--players", "2", "--players", "2", "--query", "card-in-two-places",
                 "--query", "all-eliminated", "--query", "card-in-two-places", "--json"])
    [report] = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [row["condition"] for row in report["results"]] == ["card-in-two-places", "all-eliminated"]


def test_probe_command_asks_a_reading_only_the_queries_named_a_clause_among_them(capsys):
    code = main(["probe", "--edition", "fa-guide", "--players", "2", "--query", "card-in-two-places",
                 "--query", "clause-applies:baron.tie", "--json"])
    [report] = json.loads(capsys.readouterr().out)
    assert code == 0
    first, named = report["results"]
    assert (first["condition"], named["condition"]) == ("card-in-two-places", "clause-applies:baron.tie")
    assert named["status"] == "reachable" and named["surprise"] is None


def test_an_unknown_answer_names_the_resource_limit(capsys):
    """(Without playouts: by default a round of play finds this witness before z3 is asked.)"""
    code = main(["probe", "--edition", "classic", "--players", "2", "--query", "no-winner",
                 "--rlimit", "1000", "--playouts", "0"])
    out = capsys.readouterr().out
    assert code == 0
    assert "unknown" in out and "not decided within the z3 resource limit of 1000 units" in out


@pytest.mark.parametrize("argv, message", [
    (["--query", "no-such-query"], "no probe query 'no-such-query'"),
    (["--query", "clause-applies:no.such"], "no clause 'no.such' in classic"),
    (["--players", "9"], "classic is for 2-4 players, not 9"),
    (["--rlimit", "0"], "argument --rlimit: must be a whole number of z3 resource units from 1"),
    (["--rlimit", "2.5"], "argument --rlimit: must be a whole number of z3 resource units from 1"),
])
def test_probe_command_refuses_bad_arguments_in_one_line(capsys, argv, message):
    try:
        code = main(["probe", "--edition", "classic", *argv])
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and message in err


def test_a_witness_the_engine_refuses_is_reported_not_raised():
    spec = load_spec("classic")
    deck = [spec.names[c] for c in spec.deck(2)]
    replayed = play(spec, {"edition": "classic", "players": 2,
                           "rounds": [{"deck": deck, "actions": [{"type": "play", "card": "Princess"}]}]})
    assert replayed.refused is not None and "refuses call 2 of the witness" in replayed.refused


def test_probe_command_says_per_query_what_it_does_not_model(capsys, tmp_path):
    text = (Path(__file__).parent / "data" / "probes" / "tiny-2019.yaml").read_text()
    path = tmp_path / "top.yaml"
    path.write_text(text.replace("keep: 1, to: bottom}", "keep: 1, to: top}"))
    code = main(["probe", "--edition", str(path), "--query", "card-in-two-places"])
    out = capsys.readouterr().out
    assert code == 0
    assert "not modelled" in out and "tiny.chancellor.draw-return" in out
    proof = next(line for line in out.splitlines() if line.strip().startswith("card-in-two-places"))
    assert "unknown" in proof and "tiny.chancellor.draw-return" in proof


def test_a_clause_silent_in_part_is_named_as_not_probed(capsys):
    """nl-2019-classic-variant.round.next-first names the round's winner only: who starts after a
    round won by several players, or by nobody, is open, and decides a round the probes do not play."""
    code = main(["probe", "--edition", "nl-2019-classic-variant", "--players", "2", "--query",
                 "protected-player-chosen", "--json"])
    [report] = json.loads(capsys.readouterr().out)
    assert code == 0 and report["partly_silent"] == ["round.next-first (several, none)"]
    assert main(["probe", "--edition", "classic", "--players", "2", "--query",
                 "protected-player-chosen"]) == 0
    assert "silent in part" not in capsys.readouterr().out
