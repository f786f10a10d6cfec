"""Premium within the budget (issue 28): a tie chain a solver decides at once, lemmas beyond the
invariant, the round's end asked alone, the whole round unrolled only for a bounded search,
witnesses found by seeded playouts of the reference engine, and answers that do not depend on
the order of the questions.

No test here runs a Premium catalogue with 5-8 players (tools/bench_probes.py does): the 5-8
player tests play rounds with the engine, or ask z3 about the round's end alone, within counts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import z3

from llcheck.cli import main
from loveletter_ref import load_spec
from loveletter_ref.probes import prover as prover_module
from loveletter_ref.probes.api import CATALOGUE, Prover, check, clause_applies, query
from loveletter_ref.probes.layout import Layout
from loveletter_ref.probes.playback import play
from loveletter_ref.probes.playouts import PLAYOUTS, POLICIES, find
from loveletter_ref.probes.search import random_rounds
from loveletter_ref.probes.terms import either
from loveletter_ref.probes.unroll import RoundEncoding

RLIMIT = 200_000_000
ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data" / "probes"


@pytest.mark.parametrize("players", [7, 8])
def test_no_round_ends_without_a_winner_is_decided_at_once_from_any_state(players):
    """The tie chain's highest discard is folded seat by seat: that a tied player is on top is then
    plain to the solver. (Compared pairwise it took 23 and 63 million units with 7 and 8 players,
    and the one-turn proof of `no-winner` ran out of its budget.)"""
    rnd = RoundEncoding(Layout.of(load_spec("premium"), players), free=True, turns=0)
    solver = z3.SolverFor("QF_FD")
    solver.set("rlimit", 5_000_000)
    solver.add(*rnd.facts, either(*(h.when for h in query("no-winner").happenings(rnd))))
    assert solver.check() == z3.unsat


def test_the_set_aside_lemma_proves_the_undefined_draw_in_one_turn(monkeypatch):
    """From an arbitrary state the set-aside card may already be gone with cards still in the pile;
    the lemma that it stays aside while the round runs rules that out, and the undefined draw is
    proved in one turn instead of by a bounded search over the whole round."""
    spec = load_spec("premium")
    prover = Prover(spec, 2)
    assert prover.lemmas == ["someone is still in", "the set-aside cards stay aside while the round runs"]
    verdict = prover.ask(query("undefined-draw"), RLIMIT)
    assert verdict.status == "unreachable" and verdict.method == "one turn from any state"
    monkeypatch.setattr(prover_module, "lemma_parts", lambda rnd, state: [])
    plain = Prover(spec, 2)
    assert plain.lemmas == []
    verdict = plain.ask(query("undefined-draw"), RLIMIT)
    assert verdict.status == "unreachable" and verdict.method == "bounded search"


def test_a_lemma_a_deck_breaks_is_dropped_and_the_others_kept(tmp_path):
    """With a tie that knocks both players out, everybody can be out: `someone is still in` is not
    inductive there, and the answers still agree with exhaustive search (test_probes_crosscheck)."""
    text = (DATA / "tiny-classic.yaml").read_text().replace("on_tie: nothing", "on_tie: both_out")
    path = tmp_path / "both-out.yaml"
    path.write_text(text)
    spec = load_spec(path)
    prover = Prover(spec, 2)
    assert prover.invariant and prover.lemmas == ["the set-aside cards stay aside while the round runs"]
    assert prover.ask(query("all-eliminated"), RLIMIT).status == "reachable"


def test_the_lemmas_hold_in_seeded_rounds_of_premium_with_eight_players():
    """The lemmas are facts of real rounds, checked on the engine's own states apart from their
    proof: while a round runs its set-aside card is aside, and someone is always in."""
    spec = load_spec("premium")
    aside = Layout.of(spec, 8).set_aside
    states = []

    def visit(playback) -> None:
        state = playback.last.after
        states.append(state)
        assert not all(state["eliminated"])
        if state["phase"] in ("play", "keep", "respond"):
            assert len(state["set_aside"]) == aside

    random_rounds(spec, 8, 60, seed=28, visit=visit)
    assert len(states) > 60 * 8
    assert any(len(s["set_aside"]) < aside for s in states)  # it is drawn, when the round ends


def test_the_whole_round_is_unrolled_only_when_a_bounded_search_needs_it():
    spec = load_spec("classic")
    prover = Prover(spec, 2)
    for name in ("card-in-two-places", "all-eliminated", "no-legal-action", "undefined-draw"):
        assert prover.ask(query(name), RLIMIT).status == "unreachable"
    assert prover._round is None and prover.round_seconds == 0.0
    assert prover.ask(clause_applies("baron.tie"), RLIMIT).status == "reachable"
    assert prover._round is not None and len(prover.rnd.turns) == prover.layout.depth


def replayed_as_claimed(spec, condition, witness) -> None:
    """The engine replays the witness from scratch and shows the situation during its last call."""
    replayed = play(spec, witness)
    assert replayed.refused is None, replayed.refused
    assert condition.confirm(replayed) is None


@pytest.mark.parametrize("name", ["three-way-tie", "set-aside-drawn", "two-reach-target", "forced-targeting"])
def test_a_premium_five_player_witness_is_found_by_play_and_replayed_by_the_engine(name):
    spec = load_spec("premium")
    condition = query(name)
    found = find(spec, 5, condition, 1000)
    assert found is not None and found.policy in POLICIES
    replayed_as_claimed(spec, condition, found.witness)
    assert found.witness["players"] == 5 and len(found.witness["rounds"][0]["deck"]) == 32
    if condition.uses_tokens:
        target = spec.player_table("tokens_to_win", 5)
        assert all(0 <= t < target for t in found.witness["tokens"])


def test_the_same_seed_and_count_give_the_same_witness_and_the_count_is_a_count():
    spec = load_spec("premium")
    condition = query("set-aside-drawn")
    found = find(spec, 5, condition, 1000)
    assert found is not None and found.round > 0
    again = find(spec, 5, condition, found.round + 1)
    assert again is not None and json.dumps(again.witness) == json.dumps(found.witness)
    assert find(spec, 5, condition, found.round) is None  # the rounds before it do not reach it
    resumed = find(spec, 5, condition, 1000, start=found.round)  # a search in two parts finds the same
    assert resumed is not None and resumed.witness == found.witness
    other = find(spec, 5, condition, 1000, seed=1)
    assert other is not None and other.witness != found.witness


def test_a_witness_is_the_same_bytes_in_another_process_with_another_hash_seed():
    code = ("import json; from loveletter_ref import load_spec; from loveletter_ref.probes.api import query; "
            "from loveletter_ref.probes.playouts import find; "
            "f = find(load_spec('premium'), 6, query('set-aside-drawn'), 500); "
            "print(f.round, json.dumps(f.witness, sort_keys=True))")
    outputs = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              cwd=ROOT, check=True, timeout=300)
        outputs.add(done.stdout)
    here = find(load_spec("premium"), 6, query("set-aside-drawn"), 500)
    assert here is not None
    assert outputs == {f"{here.round} {json.dumps(here.witness, sort_keys=True)}\n"}


def test_a_condition_the_engine_cannot_see_is_never_looked_for_by_play():
    """Whether a clause is consulted is not in the engine's states or events: a playout cannot
    tell, so `clause_applies` goes to z3 alone (its witness comes from the bounded search)."""
    spec = load_spec("classic")
    verdict = Prover(spec, 2).ask(clause_applies("baron.tie"), RLIMIT, playouts=500)
    assert verdict.status == "reachable" and verdict.method == "bounded search" and verdict.problem is None


def test_the_prover_says_a_witness_came_from_play():
    spec = load_spec("premium")
    by_play = Prover(spec, 4).ask(query("two-reach-target"), RLIMIT, playouts=PLAYOUTS)
    assert by_play.status == "reachable" and by_play.method == "playout" and by_play.problem is None
    assert "seeded rounds of the reference engine" in by_play.reason and by_play.story
    replayed_as_claimed(spec, query("two-reach-target"), by_play.witness)


def comparable(verdict) -> dict:
    """An answer without the seconds it took."""
    data = verdict.to_json()
    data.pop("seconds")
    return data


@pytest.mark.parametrize("edition, players", [("classic", 2), ("premium", 4)])
def test_answers_and_witnesses_do_not_depend_on_the_order_of_the_questions(edition, players):
    spec = load_spec(edition)
    forward, backward = Prover(spec, players), Prover(spec, players)
    first = {q.name: comparable(forward.ask(q, RLIMIT, playouts=PLAYOUTS)) for q in CATALOGUE}
    second = {q.name: comparable(backward.ask(q, RLIMIT, playouts=PLAYOUTS)) for q in reversed(CATALOGUE)}
    assert first == second
    assert all(answer["status"] != "unknown" for answer in first.values())
    assert "playout" in {answer["method"] for answer in first.values()}


def test_the_probe_command_prints_how_each_witness_was_found(capsys):
    code = main(["probe", "--edition", "classic", "--players", "2", "--query", "set-aside-drawn", "--json"])
    [report] = json.loads(capsys.readouterr().out)
    assert code == 0 and report["lemmas"] and "unroll_seconds" in report  # (its prover may be cached)
    [row] = report["results"]
    assert row["status"] == "reachable" and row["method"] == "playout" and row["surprise"] is None
    code = main(["probe", "--edition", "classic", "--players", "2", "--query", "set-aside-drawn",
                 "--playouts", "0", "--json"])
    [report] = json.loads(capsys.readouterr().out)
    [row] = report["results"]
    assert code == 0 and row["method"] == "bounded search"
    assert main(["probe", "--edition", "classic", "--players", "2", "--query", "set-aside-drawn",
                 "--seed", "3"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if "set-aside-drawn" in line)
    assert "REACHABLE" in line and "(playout)" in line


def test_check_takes_playouts_and_keeps_z3_alone_by_default():
    spec = load_spec("classic")
    assert check(spec, 2, query("set-aside-drawn"), RLIMIT).method == "bounded search"
    assert check(spec, 2, query("set-aside-drawn"), RLIMIT, playouts=100).method == "playout"
