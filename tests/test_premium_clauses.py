"""Premium's new cards and its 5-8 player rules, each on an explicit deck.

Rules decided at the end of a round (the Count, the Bishop at the showdown, the tie rule, the
token target) are played to the showdown by the quiet policy of tests/quiet_rounds.py: a scenario
names what each seat keeps and the few draws that matter, and the policy plays everything else.
"""

from __future__ import annotations

import pytest
from conftest import deal, play, types
from quiet_rounds import quiet_round

from loveletter_ref import Action, DeckError, Game, IllegalActionError, Phase, load_spec
from loveletter_ref.engine import view

clause = pytest.mark.clause
PREMIUM = "premium"


def respond(redraw: bool) -> Action:
    """The Bishop's target answers its offer to redraw."""
    return Action("respond", "Bishop", redraw=redraw)


def refused(game: Game, action: Action, clause_id: str) -> None:
    """The action is refused, naming `clause_id`, and the game is unchanged."""
    before = game.state()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert info.value.clause == clause_id, info.value
    assert game.state() == before


@clause("premium.setup.deck")
def test_premium_uses_all_32_cards_from_five_players():
    spec = load_spec(PREMIUM)
    assert len(spec.deck(4)) == 16 and len(spec.deck(5)) == 32
    assert spec.card("Guard").count_for(8) == 8
    classic16 = [spec.names[c] for c in spec.deck(4)]
    with pytest.raises(DeckError, match="premium.setup.deck"):
        Game(spec, 5).start_round(classic16)
    for players in range(5, 9):
        game = Game(spec, players)
        game.start_round([spec.names[c] for c in spec.deck(players)])
        state = game.state()
        assert len(state["deck"]) == 32 - 1 - players - 1 and state["face_up"] == []


@clause("premium.jester.target", "premium.jester.predict", "premium.constable.token",
        "premium.baroness.target", "premium.baroness.look")
def test_jester_scores_when_the_chosen_player_wins_and_constable_pays_on_elimination():
    game = deal(PREMIUM, 5, ["Jester", "Guard", "King", "Dowager Queen", "Bishop"],
                ["Princess", "Guard", "Count", "Count", "Constable", "Guard", "Priest", "Priest",
                 "Guard", "Baroness", "Guard"], set_aside=["Assassin"])
    refused(game, play("Jester", 0), "premium.jester.target")
    game.apply(play("Jester", 1))
    assert game.state()["marks"] == [{"kind": "prediction", "player": 0, "target": 1, "card": "Jester"}]
    assert all(view(game, seat)["marks"] == game.state()["marks"] for seat in range(5))  # public
    game.apply(play("Guard", 0, 8))
    game.apply(play("Count"))
    game.apply(play("Count"))
    game.apply(play("Constable"))
    game.apply(play("Guard", 2, 6))
    game.apply(play("Priest", 1))
    game.apply(play("Priest", 1))
    game.apply(play("Guard", 3, 7))
    assert [a.targets for a in game.legal_actions() if a.card == "Baroness"] == [(1,)]
    events = game.apply(play("Baroness")._replace(targets=(1,)))
    assert {"type": "look", "player": 4, "target": 1, "card": "Guard"} in events
    events = game.apply(play("Guard", 4, 9))
    tokens = [(e["player"], e["reason"], e["clause"]) for e in events if e["type"] == "token"]
    assert tokens == [(4, "bonus", "premium.constable.token"), (1, "round", "premium.tokens.round-win"),
                      (0, "bonus", "premium.jester.predict")]
    assert game.tokens == [1, 1, 0, 0, 1]


@clause("premium.assassin.counter")
def test_a_guard_that_chooses_the_assassin_knocks_out_its_player():
    game = deal(PREMIUM, 5, ["Guard", "Assassin", "Priest", "Priest", "Baron"], ["Countess", "King"])
    events = game.apply(play("Guard", 1, 3))
    assert types(events)[:5] == ["play", "counter", "eliminate", "discard", "discard"]
    assert {"type": "counter", "player": 1, "target": 0, "card": "Assassin"} in events
    assert {"type": "draw", "player": 1, "card": "King", "from": "deck"} in events
    assert not any(e["type"] == "guess" for e in events)
    state = game.state()
    assert state["eliminated"] == [True, False, False, False, False]
    assert state["discards"][1] == ["Assassin"]


@clause("premium.cardinal.target", "premium.cardinal.trade", "premium.cardinal.look")
def test_cardinal_exchanges_two_hands_and_looks_at_one():
    game = deal(PREMIUM, 5, ["Cardinal", "King", "Priest", "Guard", "Baron"], ["Handmaid"])
    refused(game, play("Cardinal")._replace(targets=(1,), look=1), "premium.cardinal.target")
    refused(game, play("Cardinal")._replace(targets=(1, 2), look=3), "premium.cardinal.look")
    events = game.apply(play("Cardinal")._replace(targets=(1, 2), look=2))
    assert {"type": "trade", "player": 0, "targets": [1, 2], "cards": ["King", "Priest"]} in events
    assert {"type": "look", "player": 0, "target": 2, "card": "King"} in events
    assert "Priest" in game.state()["hands"][1] and game.state()["hands"][2] == ["King"]


@clause("premium.sycophant.target", "premium.sycophant.force")
def test_sycophant_binds_the_next_card_played_to_choose_the_marked_player():
    game = deal(PREMIUM, 5, ["Sycophant", "Guard", "Priest", "Priest", "Baron"], ["Countess", "Handmaid"])
    game.apply(play("Sycophant", 3))
    assert {a.target for a in game.legal_actions() if a.card == "Guard"} == {3}
    refused(game, play("Guard", 2, 2), "premium.sycophant.force")
    game.apply(play("Guard", 3, 2))
    assert game.state()["eliminated"][3] and game.state()["marks"] == []


@clause("premium.dowager-queen.target", "premium.dowager-queen.compare", "premium.dowager-queen.tie")
def test_dowager_queen_knocks_out_the_higher_hand():
    game = deal(PREMIUM, 5, ["Dowager Queen", "King", "Guard", "Guard", "Guard"], ["Priest"])
    refused(game, play("Dowager Queen", 0), "premium.dowager-queen.target")
    game.apply(play("Dowager Queen", 1))
    assert game.state()["eliminated"][1] and not game.state()["eliminated"][0]
    game = deal(PREMIUM, 5, ["Dowager Queen", "Priest", "Guard", "Guard", "Guard"], ["Cardinal"])
    events = game.apply(play("Dowager Queen", 1))
    assert {"type": "compare", "player": 0, "target": 1, "cards": ["Cardinal", "Priest"],
            "loser": None} in events


@clause("premium.bishop.target", "premium.bishop.guess", "premium.bishop.redraw", "premium.game.end")
def test_bishop_scores_a_token_and_offers_the_target_a_redraw():
    game = deal(PREMIUM, 5, ["Bishop", "King", "Guard", "Guard", "Guard"], ["Priest", "Baron"])
    events = game.apply(play("Bishop", 1, 6))
    assert {"type": "token", "player": 0, "amount": 1, "reason": "bonus",
            "clause": "premium.bishop.guess"} in events
    assert game.phase is Phase.RESPOND and game.state()["pending"] == {
        "kind": "respond", "player": 1, "card": "Bishop"}
    assert game.legal_actions() == [respond(False), respond(True)]
    events = game.apply(respond(True))
    assert {"type": "discard", "player": 1, "card": "King"} in events
    assert {"type": "draw", "player": 1, "card": "Baron", "from": "deck"} in events
    game = deal(PREMIUM, 5, ["Bishop", "King", "Guard", "Guard", "Guard"], ["Priest"], tokens=[3, 0, 0, 0, 0])
    events = game.apply(play("Bishop", 1, 6))
    assert game.phase is Phase.GAME_OVER and events[-1] == {"type": "game_end", "winners": [0]}
    assert game.round_winners is None


# -- the new cards: the rest of each rule and the readings the game-help page leaves open ----------


@clause("premium.guard.guess")
def test_a_guard_names_a_value_and_hits_every_card_of_that_value():
    game = deal(PREMIUM, 5, ["Guard", "Cardinal", "Priest", "Baron", "Handmaid"], ["Guard"])
    assert sorted({a.guess for a in game.legal_actions()}) == [0, 2, 3, 4, 5, 6, 7, 8, 9]
    refused(game, play("Guard", 1, 1), "premium.guard.guess")
    refused(game, play("Guard", 1, "Cardinal"), "premium.guard.guess")
    events = game.apply(play("Guard", 1, 2))
    assert {"type": "guess", "player": 0, "target": 1, "guess": 2, "correct": True} in events
    assert game.state()["eliminated"] == [s == 1 for s in range(5)]
    four = deal(PREMIUM, 4, ["Guard", "Priest", "Baron", "Handmaid"], ["Guard"])
    assert sorted({a.guess for a in four.legal_actions()}) == [2, 3, 4, 5, 6, 7, 8]


@clause("premium.jester.predict")
def test_the_jester_pays_even_when_its_player_is_out_of_the_round():
    game = deal(PREMIUM, 5, ["Jester", "Guard", "Priest", "Baron", "Handmaid"],
                ["King", "Guard", "Guard", "Guard", "Guard"])
    game.apply(play("Jester", 1))
    game.apply(play("Guard", 0, 6))
    game.apply(play("Guard", 3, 3))
    game.apply(play("Guard", 2, 2))
    assert game.state()["eliminated"] == [True, False, True, True, False]
    events = game.apply(play("Guard", 4, 4))
    assert {"type": "round_end", "reason": "last_standing", "winners": [1]} in events
    assert {"type": "token", "player": 0, "amount": 1, "reason": "bonus",
            "clause": "premium.jester.predict"} in events
    assert game.tokens == [1, 1, 0, 0, 0]


@clause("premium.constable.token", "premium.game.end")
def test_the_constable_pays_only_from_the_discard_pile_and_its_token_can_end_the_game():
    game = deal(PREMIUM, 5, ["Guard", "Constable", "Priest", "Baron", "Handmaid"], ["Guard"])
    events = game.apply(play("Guard", 1, 6))
    assert game.state()["eliminated"][1] and game.state()["discards"][1] == ["Constable"]
    assert not any(e["type"] == "token" for e in events)
    game = deal(PREMIUM, 5, ["Guard", "Constable", "Guard", "Baron", "Handmaid"],
                ["Handmaid", "Priest", "Guard"], tokens=[0, 3, 0, 0, 0])
    game.apply(play("Handmaid"))
    game.apply(play("Constable"))
    events = game.apply(play("Guard", 1, 2))
    assert events[-2:] == [{"type": "token", "player": 1, "amount": 1, "reason": "bonus",
                            "clause": "premium.constable.token"},
                           {"type": "game_end", "winners": [1]}]
    assert game.phase is Phase.GAME_OVER and game.round_winners is None


@clause("premium.sycophant.target", "premium.sycophant.force")
def test_the_sycophant_may_mark_its_player_and_the_mark_lapses_with_the_next_card():
    hands = ["Sycophant", "Guard", "Handmaid", "Priest", "Baron"]
    game = deal(PREMIUM, 5, hands, ["Countess", "Guard", "Guard"])
    game.apply(play("Sycophant", 0))
    assert {a.target for a in game.legal_actions() if a.card == "Guard"} == {0}
    game = deal(PREMIUM, 5, hands, ["Countess", "Guard", "Guard"])
    game.apply(play("Sycophant", 1))
    assert {a.target for a in game.legal_actions() if a.card == "Guard"} == {0, 2, 3, 4}
    game.apply(play("Guard", 4, 2))
    assert game.state()["marks"] == []
    game = deal(PREMIUM, 5, hands, ["Countess", "Handmaid", "Guard"])
    game.apply(play("Sycophant", 3))
    assert game.state()["marks"] == [{"kind": "forced_target", "target": 3, "card": "Sycophant"}]
    assert all(view(game, seat)["marks"] == game.state()["marks"] for seat in range(5))  # public
    game.apply(play("Handmaid"))
    assert game.state()["marks"] == []
    assert {a.target for a in game.legal_actions() if a.card == "Guard"} == {0, 3, 4}


@clause("premium.sycophant.force", "premium.cardinal.target")
def test_a_card_choosing_two_players_must_include_the_marked_one():
    game = deal(PREMIUM, 5, ["Sycophant", "Cardinal", "Guard", "Priest", "Baron"], ["Countess", "King"])
    game.apply(play("Sycophant", 3))
    groups = {a.targets for a in game.legal_actions() if a.card == "Cardinal"}
    assert groups == {(0, 3), (1, 3), (2, 3), (3, 4)}
    refused(game, play("Cardinal")._replace(targets=(1, 2), look=2), "premium.sycophant.force")


@clause("premium.baroness.target", "premium.baroness.look")
def test_the_baroness_looks_at_one_or_two_other_hands():
    game = deal(PREMIUM, 5, ["Baroness", "King", "Priest", "Guard", "Baron"], ["Handmaid"])
    refused(game, play("Baroness")._replace(targets=(0, 1)), "premium.baroness.target")
    refused(game, play("Baroness")._replace(targets=(1, 2, 3)), "premium.baroness.target")
    refused(game, play("Baroness", 1), "premium.baroness.target")
    events = game.apply(play("Baroness")._replace(targets=(1, 2)))
    assert [e for e in events if e["type"] == "look"] == [
        {"type": "look", "player": 0, "target": 1, "card": "King"},
        {"type": "look", "player": 0, "target": 2, "card": "Priest"}]


@clause("premium.cardinal.target", "premium.cardinal.trade")
def test_the_cardinal_may_trade_its_own_hand():
    game = deal(PREMIUM, 5, ["Cardinal", "King", "Priest", "Guard", "Baron"], ["Handmaid"])
    events = game.apply(play("Cardinal")._replace(targets=(0, 2), look=2))
    assert {"type": "trade", "player": 0, "targets": [0, 2], "cards": ["Handmaid", "Priest"]} in events
    assert game.state()["hands"][0] == ["Priest"] and game.state()["hands"][2] == ["Handmaid"]


@clause("premium.assassin.counter")
def test_the_assassin_answers_only_a_guard():
    game = deal(PREMIUM, 5, ["Priest", "Assassin", "Guard", "Guard", "Guard"], ["Bishop"])
    events = game.apply(play("Priest", 1))
    assert "counter" not in types(events)
    assert {"type": "look", "player": 0, "target": 1, "card": "Assassin"} in events
    game = deal(PREMIUM, 5, ["Priest", "Assassin", "Guard", "Guard", "Guard"], ["Bishop"])
    events = game.apply(play("Bishop", 1, 0))
    assert "counter" not in types(events) and game.tokens[0] == 1


@clause("premium.bishop.guess", "premium.bishop.redraw", "premium.princess.discard")
def test_the_bishop_offers_a_redraw_only_after_a_correct_guess():
    game = deal(PREMIUM, 5, ["Bishop", "King", "Guard", "Guard", "Guard"], ["Priest", "Baron"])
    refused(game, play("Bishop", 1, 1), "premium.bishop.guess")
    events = game.apply(play("Bishop", 1, 7))
    assert not any(e["type"] == "token" for e in events) and game.phase is Phase.PLAY
    game = deal(PREMIUM, 5, ["Bishop", "King", "Guard", "Guard", "Guard"], ["Priest", "Baron"])
    game.apply(play("Bishop", 1, 6))
    refused(game, play("Guard", 2, 2), "premium.bishop.redraw")
    events = game.apply(respond(False))
    assert events[0] == {"type": "respond", "player": 1, "card": "Bishop", "redraw": False}
    assert game.state()["hands"][1] == ["Baron", "King"] and game.state()["turn"] == 1
    game = deal(PREMIUM, 5, ["Bishop", "Princess", "Guard", "Guard", "Guard"], ["Priest", "Baron"])
    game.apply(play("Bishop", 1, 8))
    events = game.apply(respond(True))
    assert {"type": "eliminate", "player": 1, "by": "Princess",
            "clause": "premium.princess.discard"} in events
    assert game.state()["turn"] == 2


@pytest.mark.parametrize("players", range(5, 9))
@clause("premium.tokens.target", "premium.game.end")
def test_with_five_to_eight_players_four_tokens_win_even_in_mid_round(players):
    hands = ["Bishop", "King"] + ["Guard"] * (players - 2)
    for before, over in ((2, False), (3, True)):
        game = deal(PREMIUM, players, hands, ["Priest"], tokens=[before] + [0] * (players - 1))
        events = game.apply(play("Bishop", 1, 6))
        assert (game.phase is Phase.GAME_OVER) is over
        assert ({"type": "game_end", "winners": [0]} in events) is over


# -- rounds played to the showdown (tests/quiet_rounds.py) -----------------------------------------

QUIET8 = {2: ["Dowager Queen", "Baron", "Cardinal"], 3: ["Baron", "Cardinal", "Guard"],
          4: ["Handmaid"], 5: ["Handmaid"]}
"""Eight players: the cards that compare or trade go to the two Prince keepers (seats 2 and 3),
who tie or swap Prince for Prince; Handmaids go to seats nobody needs to choose."""
KEEPS8 = ["Countess", "Princess", "Prince", "Prince", "Jester", "King", "Guard", "Priest"]


def showdown(events: list[dict]) -> dict:
    """The round_end event of a round that ended in a showdown."""
    end = next(e for e in events if e["type"] == "round_end")
    assert end["reason"] == "showdown", end
    return end


@clause("premium.count.bonus")
def test_each_count_discarded_adds_one_to_the_hand_at_the_showdown():
    game, events = quiet_round(PREMIUM, 8, KEEPS8, {**QUIET8, 0: ["Count", "Count"]}, set_aside=["Bishop"])
    assert game.state()["discards"][0][:2] == ["Count", "Count"]
    assert showdown(events)["winners"] == [0] and showdown(events)["hands"][:2] == ["Countess", "Princess"]
    game, events = quiet_round(PREMIUM, 8, KEEPS8, {**QUIET8, 7: ["Count", "Count"]}, set_aside=["Bishop"])
    assert showdown(events)["winners"] == [1]


@clause("premium.count.bonus")
def test_the_count_bonus_does_not_count_when_hands_are_compared_mid_round():
    game = deal(PREMIUM, 5, ["Priest", "Cardinal", "Guard", "Guard", "Guard"],
                ["Count", "Constable", "Handmaid", "Handmaid", "Countess", "Baron"])
    for card in ("Count", "Constable", "Handmaid", "Handmaid", "Countess"):
        game.apply(play(card))
    events = game.apply(play("Baron", 1))
    assert {"type": "compare", "player": 0, "target": 1, "cards": ["Priest", "Cardinal"],
            "loser": None} in events


@clause("premium.bishop.showdown")
def test_the_bishop_loses_to_the_princess_at_the_showdown_and_beats_the_rest():
    keeps = ["Bishop", "Princess", *KEEPS8[2:]]
    game, events = quiet_round(PREMIUM, 8, keeps, QUIET8, set_aside=["Countess"])
    assert showdown(events)["winners"] == [1]
    keeps = ["Bishop", "Countess", *KEEPS8[2:]]
    game, events = quiet_round(PREMIUM, 8, keeps, QUIET8, set_aside=["Princess"])
    assert showdown(events)["winners"] == [0]


BISHOP5 = ["Princess", "Bishop", "Countess", "Prince", "Prince"]
"""Five players at a showdown of the Princess, the Bishop and the Countess; the Prince keepers
take the cards that compare or trade (and the Count the Countess does not)."""
QUIET5 = {0: ["Guard"] * 5 + ["Assassin"], 3: ["King", "Baron", "Dowager Queen", "Cardinal", "Guard"],
          4: ["Baron", "Cardinal", "Guard", "Guard", "Count"]}


def discard_total(game: Game, seat: int) -> int:
    """The values in a seat's discard pile, added up."""
    values = game.tables.values
    return sum(values[game.tables.index[card]] for card in game.state()["discards"][seat])


@clause("premium.bishop.showdown", "premium.count.bonus")
def test_a_hand_wins_the_showdown_when_no_other_hand_beats_it():
    """premium.bishop.showdown, a choice: the Bishop (9) beats the Countess with one Count (8) and
    loses to the Princess (8), who ties the Countess; only the Princess is unbeaten, so she wins
    and the discard totals (5 against 22) are never consulted (setting the Bishop aside first
    would give the round to the Countess). With both Counts the Countess (9) ties the Bishop and
    beats the Princess: she is the one hand unbeaten (a Princess counting +4 against a Bishop in
    another hand would win instead)."""
    draws = {**QUIET5, 2: ["Count", "Constable", "Handmaid", "Sycophant", "Baroness"]}
    game, events = quiet_round(PREMIUM, 5, BISHOP5, draws, set_aside=["Jester"])
    assert [game.showdown_value(seat) for seat in range(3)] == [8, 9, 8]
    assert [discard_total(game, seat) for seat in (0, 2)] == [5, 22]
    assert showdown(events)["winners"] == [0]
    draws = {**QUIET5, 2: ["Count", "Count", "Constable", "Handmaid", "Baroness"],
             4: [*QUIET5[4][:-1], "Priest"]}
    game, events = quiet_round(PREMIUM, 5, BISHOP5, draws, set_aside=["Jester"])
    assert [game.showdown_value(seat) for seat in range(3)] == [8, 9, 9]
    assert showdown(events)["winners"] == [2]


@clause("premium.bishop.empty-deck", "premium.bishop.redraw")
def test_a_bishop_redraw_on_the_last_turn_takes_the_set_aside_card():
    game, _ = quiet_round(PREMIUM, 8, KEEPS8, {**QUIET8, 6: ["Guard", "Guard", "Bishop"]},
                          set_aside=["Constable"], last_turn=True)
    assert game.state()["deck"] == [] and game.current == 6
    game.apply(play("Bishop", 0, 7))
    assert game.state()["pending"] == {"kind": "respond", "player": 0, "card": "Bishop"}
    events = game.apply(respond(True))
    assert {"type": "draw", "player": 0, "card": "Constable", "from": "set_aside"} in events
    assert showdown(events)["hands"][0] == "Constable" and game.tokens[6] == 1


@clause("premium.assassin.counter")
def test_the_assassin_on_the_last_turn_draws_the_set_aside_card():
    keeps = [*KEEPS8[:7], "Assassin"]
    game, _ = quiet_round(PREMIUM, 8, keeps, {**QUIET8, 6: ["Guard"] * 3}, set_aside=["Constable"],
                          last_turn=True)
    assert game.current == 6 and game.state()["hands"][6] == ["Guard", "Guard"]
    events = game.apply(play("Guard", 7, 2))
    assert {"type": "draw", "player": 7, "card": "Constable", "from": "set_aside"} in events
    assert game.state()["eliminated"][6] and showdown(events)["hands"][7] == "Constable"


# Five players, seats 0 and 3 keep a Prince, the Princess is set aside and seat 2 starts: the
# Prince keepers take the cards that compare or trade, and discard 15 each.
KEEPS5 = ["Prince", "Jester", "Guard", "Prince", "Priest"]
TIE5 = {2: ["Cardinal", "Cardinal"], 0: ["King", "Baron", "Guard", "Handmaid", "Guard"],
        3: ["Dowager Queen", "Baron", "Handmaid", "Assassin", "Guard"]}


@clause("premium.round.tie", "premium.round.next-first")
def test_a_tie_goes_to_the_higher_discard_total_and_then_every_tied_player_wins():
    higher = {**TIE5, 3: TIE5[3][:-1] + ["Priest"]}
    game, events = quiet_round(PREMIUM, 5, KEEPS5, higher, set_aside=["Princess"], first=2)
    assert showdown(events) == {"type": "round_end", "reason": "showdown", "winners": [3],
                                "hands": KEEPS5}
    game, events = quiet_round(PREMIUM, 5, KEEPS5, TIE5, set_aside=["Princess"], first=2)
    assert showdown(events)["winners"] == [0, 3] and game.tokens == [1, 0, 0, 1, 0]
    assert game.start_round()[0]["first"] == 3


@clause("premium.game.end", "premium.tokens.target")
def test_players_reaching_four_tokens_together_win_together():
    game, events = quiet_round(PREMIUM, 5, KEEPS5, TIE5, set_aside=["Princess"], first=2,
                               tokens=[3, 0, 0, 3, 0])
    assert events[-1] == {"type": "game_end", "winners": [0, 3]} and game.game_winners == [0, 3]


@clause("premium.jester.predict", "premium.round.tie")
def test_the_jester_pays_when_its_chosen_player_shares_the_round_win():
    keeps = ["Prince", "Guard", "Guard", "Prince", "Priest"]
    draws = {**TIE5, 2: ["Cardinal", "Cardinal", "Guard", "Guard", "Guard", "Jester"]}
    game, _ = quiet_round(PREMIUM, 5, keeps, draws, set_aside=["Princess"], first=2, last_turn=True)
    assert game.current == 2 and game.state()["hands"][2] == ["Jester", "Guard"]
    events = game.apply(play("Jester", 3))
    assert showdown(events)["winners"] == [0, 3]
    assert {"type": "token", "player": 2, "amount": 1, "reason": "bonus",
            "clause": "premium.jester.predict"} in events
    assert game.tokens == [1, 0, 1, 1, 0]
