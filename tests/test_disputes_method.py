"""How `llcheck disputes` settles what used to stay undecided: a table plays on past a silence no
card played needs, z3 is asked about the exact case in which two rules part, a clause every deal
masks is settled on its own through a valid spec, and a refused deal witnesses every clause of the
deck's make-up. Each test settles one clause or asks z3 about one player count."""

from __future__ import annotations

import random

from loveletter_ref.disputes import Budget, compare, comparison_json, open_side
from loveletter_ref.disputes.differences import line_up, shared_steps, shield_blocks
from loveletter_ref.disputes.duel import Table
from loveletter_ref.disputes.search import GamePlan, PairSearch
from loveletter_ref.disputes.settle import canonical
from loveletter_ref.disputes.vacuity import Goal, probe
from loveletter_ref.disputes.verify import problems

RLIMIT = 30_000_000

DECK = ["Princess", "Countess", "King", "Guard", "Handmaid", "Priest", "Baron", "Priest", "Guard", "Guard",
        "Guard", "Guard", "Baron", "Handmaid", "Prince", "Prince"]
"""Two players under fa-guide: two cards set aside, the King face up; Ana gets the Guard and
draws a Priest, Ben gets the Handmaid and draws a Baron, then Ana draws the other Priest."""


def test_a_table_plays_on_with_the_cards_its_rules_can_list():
    """fa-guide is silent on a card that must choose another player when every other player is
    protected. Ana holds the Guard and a Priest while Ben is protected: the Priest (on herself)
    can be played; only a play of the Guard needs the silent rule, and stops there."""
    table = Table(open_side("fa-guide").edition, 2)
    assert table.deal(DECK).status == "ok"
    assert table.act(("play", "Priest", 0, None, (), (), None, None)).status == "ok"
    look = table.act(("play", "Handmaid", None, None, (), (), None, None))
    assert look.status == "ok"
    assert sorted(look.legal) == [("play", "Priest", 0, None, (), (), None, None)]
    [(guard, clause)] = look.open
    assert guard[:2] == ("play", "Guard") and clause == "targeting.no-valid-target"
    stopped = table.act(guard)
    assert (stopped.status, stopped.clause) == ("gap", "targeting.no-valid-target")


def test_a_tie_rule_that_parts_after_a_shared_step_is_asked_where_it_parts():
    """fa-guide contradicts itself on a tie still tied after the discard totals: nobody wins
    (line 21) or the highest card played does (line 13). z3 is asked of the guide with the chain
    cut after the shared step, where the engine stops exactly when the two versions part; the
    game it finds, played on under both versions, is the witness."""
    reading = open_side("fa-guide")
    first, second = reading.with_version("round.tie", 0), reading.with_version("round.tie", 1)
    [d] = [x for x in line_up(first.edition, second.edition)[0] if x.key == "round.tie"]
    assert shared_steps(d.a, d.b) == ["discard_total"]
    narrowed = first.narrowed("round.tie", ["discard_total"])
    assert narrowed is not None
    found = probe(first.edition, first.label, "round.tie", [2], RLIMIT, narrowed, (),
                  Goal("gap", narrowed, "tie still undecided after discard_total"))
    assert [p["status"] for p in found.proofs] == ["reachable"] and found.reached
    sides = (first, second)
    search = PairSearch(first.edition, second.edition, [d], Budget(),
                        lambda s, k: sides[s].blend(sides[1 - s], k), lambda s, k: None, "test")
    for index, (players, steps, tokens) in enumerate(found.reached):
        game = GamePlan(players, 0, tokens, random.Random(index), [first.edition])
        search.continue_from("round.tie", game, steps, index)
    assert "round.tie" in search.found


def test_a_shield_that_ends_at_its_holders_turn_never_stops_them_choosing():
    """fa-guide's Handmaid also stops its holder from choosing others, but its protection ends
    when the holder's own turn begins: z3 proves, under the guide itself, that no player is still
    protected when their turn comes to play, the only time that extra block could bind."""
    reading, edition = open_side("fa-guide"), open_side("classic")
    [d] = [x for x in line_up(reading.edition, edition.edition)[0] if x.key == "handmaid.protect"]
    assert shield_blocks(d.a, d.b)
    found = probe(reading.edition, reading.label, "handmaid.protect", [2], RLIMIT, None, (),
                  Goal("shield", reading.edition, "protected by handmaid.protect when their own turn comes"))
    assert found.unreachable and found.refuted is None


def test_a_clause_every_deal_masks_is_settled_on_its_own():
    """fa-guide lays one card face up and classic three (with two players, none with more): every
    deal of the two differs, so the Priest's choice is settled between fa-guide and fa-guide with
    classic's rule, and that verdict is the clause's."""
    reading, edition = open_side("fa-guide"), open_side("classic")
    budget = Budget(games=10, reach=4)
    data = comparison_json(compare(reading, edition, budget, RLIMIT, keys=["priest.target"]))
    [verdict] = data["verdicts"]
    assert verdict["status"] == "observable" and verdict["on_its_own"]
    assert "every player count both allow the deal already differs" in verdict["reason"]
    assert "witness" not in verdict
    assert verdict["alone"]["b"]["spec"] == "fa-guide with classic's priest.target"
    assert problems(verdict) == []


def test_a_refused_deal_witnesses_every_clause_of_the_decks_make_up():
    """The Dutch classic variant has five Guards and no Spy or Chancellor; the 2019 page six
    Guards, two Spies and two Chancellors in 21 cards: a deal of one is refused by the other,
    which is the witness of each of those clauses."""
    keys = ["guard", "spy", "chancellor", "setup.deck"]
    variant, page = open_side("nl-2019-classic-variant"), open_side("nl-2019")
    data = comparison_json(compare(variant, page, Budget(games=3), RLIMIT, keys=keys, alone=False))
    found = {v["clause"]: v for v in data["verdicts"]}
    assert set(found) == set(keys)
    for key in keys:
        assert found[key]["status"] == "observable" and problems(found[key]) == [], key
    assert len({str(v["witness"]["rounds"]) for v in found.values()}) == 1


def test_an_exception_that_draws_what_every_turn_draws_is_worded_differently_to_the_same_effect():
    diffs, alike = line_up(open_side("fa-guide").edition, open_side("classic").edition)
    assert "turn.first-turn" in [d.key for d in alike]
    assert "turn.first-turn" not in [d.key for d in diffs]


def test_a_table_rule_taken_into_a_spec_of_more_players_keeps_its_own_values_for_them():
    """Classic has no token target for 5-6 players; fa-guide with classic's targets keeps its own
    there, and so is a valid spec that differs from fa-guide only where classic is compared."""
    hybrid = open_side("fa-guide").derived(open_side("classic"), "tokens.target")
    assert not isinstance(hybrid, str)
    assert [hybrid.edition.player_table("tokens_to_win", n) for n in range(2, 7)] == [7, 5, 4, 3, 3]


def test_a_clause_is_taken_from_the_first_bundled_spec_that_states_it_alike():
    """The 2019 page states the Priest's choice as classic does: settled on its own, the clause
    comes from classic, so that every comparison asking the same question gets the same answer."""
    reading = open_side("fa-guide")
    assert canonical(reading, open_side("z-man-2019"), ("priest.target",)).id == "classic"
    assert canonical(reading, open_side("sl-en-2019"), ("guard.target",)).id == "sl-en-2019"
