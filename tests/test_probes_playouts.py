"""Premium within the budget (issue 28): a tie chain a solver decides at once.

No test here runs a Premium catalogue with 5-8 players (tools/bench_probes.py does): the 5-8
player tests ask z3 about the round's end alone, within a count of resource units.
"""

from __future__ import annotations

import pytest
import z3

from loveletter_ref import load_spec
from loveletter_ref.probes.api import query
from loveletter_ref.probes.layout import Layout
from loveletter_ref.probes.terms import either
from loveletter_ref.probes.unroll import RoundEncoding


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
