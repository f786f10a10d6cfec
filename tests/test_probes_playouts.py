"""Premium within the budget (issue 28): a tie chain a solver decides at once, lemmas beyond the
invariant, the round's end asked alone, the whole round unrolled only for a bounded search.

No test here runs a Premium catalogue with 5-8 players (tools/bench_probes.py does): the 5-8
player tests play rounds with the engine, or ask z3 about the round's end alone, within counts.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import z3

from loveletter_ref import load_spec
from loveletter_ref.probes import prover as prover_module
from loveletter_ref.probes.api import Prover, clause_applies, query
from loveletter_ref.probes.layout import Layout
from loveletter_ref.probes.search import random_rounds
from loveletter_ref.probes.terms import either
from loveletter_ref.probes.unroll import RoundEncoding

RLIMIT = 200_000_000
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
