"""One test (at least) per rule clause the editions share, each on an explicit deck.

Premium's own cards and end-of-round rules are tested in tests/test_premium_clauses.py; here it
joins the parametrized tests of the classic rules it inherits (its Guard names a value).

Every test names the clauses it checks with the `clause` marker; `test_every_clause_is_tested`
(tests/test_clause_coverage.py) fails if a clause of an edition has no test.
"""

from __future__ import annotations

import pytest
from conftest import EDITIONS, deal, keep, play, types

from loveletter_ref import Action, DeckError, Game, IllegalActionError, Phase, load_spec
from loveletter_ref.engine import view

clause = pytest.mark.clause
ALL = (*EDITIONS, "premium")
PREFIX = {"classic": "classic", "z-man-2019": "z19", "premium": "premium"}
each = pytest.mark.parametrize("ed", ALL)


def ids(key: str) -> list[str]:
    return [f"{PREFIX[e]}.{key}" for e in ALL]


def named(ed: str, card: str) -> str | int:
    """What a Guard names to guess `card` in `ed`: the name, or its value where guesses are by value."""
    spec = load_spec(ed)
    if spec.clauses[f"{PREFIX[ed]}.guard.guess"].rule["by"] == "value":
        return spec.card(card).value
    return card


def guard(ed: str, target: int, card: str) -> Action:
    """A Guard play on `target` guessing `card` (by name or value, as `ed` guesses)."""
    return play("Guard", target, named(ed, card))


def refused(game: Game, action, clause_id: str) -> None:
    before = game.state()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert info.value.clause == clause_id, info.value
    assert game.state() == before


# -- cards ---------------------------------------------------------------------------------------


@clause(*ids("guard"), *ids("priest"), *ids("baron"), *ids("handmaid"), *ids("prince"), *ids("king"),
        *ids("countess"), *ids("princess"), "z19.spy", "z19.chancellor",
        *(f"premium.{card}" for card in ("jester", "assassin", "cardinal", "baroness", "sycophant", "count",
                                         "constable", "dowager-queen", "bishop")))
def test_card_table_values_and_counts(classic, z19):
    assert {c.name: (c.value, c.count_for(4)) for c in classic.cards} == {
        "Guard": (1, 5), "Priest": (2, 2), "Baron": (3, 2), "Handmaid": (4, 2), "Prince": (5, 2),
        "King": (6, 1), "Countess": (7, 1), "Princess": (8, 1)}
    assert {c.name: (c.value, c.count_for(6)) for c in z19.cards} == {
        "Spy": (0, 2), "Guard": (1, 6), "Priest": (2, 2), "Baron": (3, 2), "Handmaid": (4, 2),
        "Prince": (5, 2), "Chancellor": (6, 2), "King": (7, 1), "Countess": (8, 1), "Princess": (9, 1)}
    premium = load_spec("premium")
    assert {c.name: (c.value, c.count_for(4), c.count_for(5)) for c in premium.cards} == {
        "Guard": (1, 5, 8), "Priest": (2, 2, 2), "Baron": (3, 2, 2), "Handmaid": (4, 2, 2),
        "Prince": (5, 2, 2), "King": (6, 1, 1), "Countess": (7, 1, 1), "Princess": (8, 1, 1),
        "Jester": (0, 0, 1), "Assassin": (0, 0, 1), "Cardinal": (2, 0, 2), "Baroness": (3, 0, 2),
        "Sycophant": (4, 0, 2), "Count": (5, 0, 2), "Constable": (6, 0, 1), "Dowager Queen": (7, 0, 1),
        "Bishop": (9, 0, 1)}


@each
@clause(*ids("guard.target"))
def test_guard_target_is_another_player(ed):
    game = deal(ed, 3, ["Guard", "Priest", "Baron"], ["Handmaid"])
    assert {a.target for a in game.legal_actions() if a.card == "Guard"} == {1, 2}
    refused(game, guard(ed, 0, "Priest"), f"{PREFIX[ed]}.guard.target")


@each
@clause(*ids("guard.guess"))
def test_guard_guess_eliminates_on_a_hit_and_may_not_name_guard(ed):
    game = deal(ed, 3, ["Guard", "Priest", "Guard"], ["Handmaid"])
    refused(game, guard(ed, 1, "Guard"), f"{PREFIX[ed]}.guard.guess")
    assert named(ed, "Guard") not in {a.guess for a in game.legal_actions()}
    events = game.apply(guard(ed, 1, "Baron"))
    missed = {"type": "guess", "player": 0, "target": 1, "guess": named(ed, "Baron"), "correct": False}
    assert missed in events
    assert not game.state()["eliminated"][1]
    game = deal(ed, 3, ["Guard", "Priest", "Guard"], ["Handmaid"])
    events = game.apply(guard(ed, 1, "Priest"))
    assert game.state()["eliminated"] == [False, True, False]
    assert "eliminate" in types(events)


@each
@clause(*ids("priest.target"), *ids("priest.look"))
def test_priest_looks_privately_at_another_players_hand(ed):
    game = deal(ed, 3, ["Priest", "King", "Baron"], ["Guard"])
    refused(game, play("Priest", 0), f"{PREFIX[ed]}.priest.target")
    events = game.apply(play("Priest", 1))
    assert {"type": "look", "player": 0, "target": 1, "card": "King"} in events
    assert {"type": "look", "player": 0, "target": 1} in view(game, 2)["log"]
    assert {"type": "look", "player": 0, "target": 1, "card": "King"} in view(game, 0)["log"]


@each
@clause(*ids("baron.target"), *ids("baron.compare"))
def test_baron_lower_hand_is_out(ed):
    game = deal(ed, 3, ["Baron", "Priest", "Guard"], ["King"])
    refused(game, play("Baron", 0), f"{PREFIX[ed]}.baron.target")
    events = game.apply(play("Baron", 1))
    assert {"type": "compare", "player": 0, "target": 1, "cards": ["King", "Priest"], "loser": 1} in events
    assert game.state()["eliminated"] == [False, True, False]
    game = deal(ed, 3, ["Baron", "Princess", "Guard"], ["Guard"])
    game.apply(play("Baron", 1))
    assert game.state()["eliminated"] == [True, False, False]


@each
@clause(*ids("baron.tie"))
def test_baron_tie_eliminates_nobody(ed):
    game = deal(ed, 3, ["Baron", "Priest", "Guard"], ["Priest"])
    events = game.apply(play("Baron", 1))
    compared = {"type": "compare", "player": 0, "target": 1, "cards": ["Priest", "Priest"], "loser": None}
    assert compared in events
    assert game.state()["eliminated"] == [False, False, False]


@each
@clause(*ids("handmaid.protect"))
def test_handmaid_protects_until_the_start_of_the_owners_next_turn(ed):
    game = deal(ed, 3, ["Handmaid", "Priest", "Guard"], ["Guard", "Guard", "Baron", "Baron"])
    game.apply(play("Handmaid"))
    assert game.state()["protected"] == [True, False, False]
    refused(game, guard(ed, 0, "Priest"), f"{PREFIX[ed]}.handmaid.protect")
    assert {a.target for a in game.legal_actions() if a.card == "Guard"} == {2}
    game.apply(guard(ed, 2, "Princess"))
    assert game.state()["protected"] == [True, False, False]
    events = game.apply(guard(ed, 1, "Princess"))
    assert {"type": "unprotect", "player": 0} in events
    assert game.state()["protected"] == [False, False, False]


@each
@clause(*ids("prince.target"), *ids("prince.discard"))
def test_prince_makes_any_player_discard_and_draw(ed):
    game = deal(ed, 3, ["Prince", "King", "Guard"], ["Guard", "Baron"])
    assert {a.target for a in game.legal_actions() if a.card == "Prince"} == {0, 1, 2}
    events = game.apply(play("Prince", 1))
    assert {"type": "discard", "player": 1, "card": "King"} in events
    assert {"type": "draw", "player": 1, "card": "Baron", "from": "deck"} in events
    assert "Baron" in game.state()["hands"][1]
    game = deal(ed, 3, ["Prince", "King", "Guard"], ["Guard", "Baron"])
    game.apply(play("Prince", 0))
    assert game.state()["discards"][0] == ["Prince", "Guard"]
    assert game.state()["hands"][0] == ["Baron"]


# A two-player round played down to its last card: the player on turn holds a Prince with an
# empty deck, and the Princess is the set-aside card.
LAST_TURN = {
    "classic": dict(
        hands=["Countess", "Prince"],
        draws=["Guard"] * 5 + ["Priest", "Priest", "Handmaid", "Handmaid", "Prince"],
        set_aside=["Princess"], face_up=["Baron", "Baron", "King"],
        actions=[play("Guard", 1, "Baron"), play("Guard", 0, "Baron"), play("Guard", 1, "Baron"),
                 play("Guard", 0, "Baron"), play("Guard", 1, "Baron"), play("Priest", 0),
                 play("Priest", 1), play("Handmaid"), play("Handmaid")],
        last=1),
    "z-man-2019": dict(
        hands=["Prince", "Countess"],
        draws=["Guard", "Handmaid", "Baron", "Guard", "Handmaid", "Baron", "Guard", "Guard", "Guard",
               "Guard", "Priest", "Priest", "Spy", "Spy", "Prince"],
        set_aside=["Princess"], face_up=["Chancellor", "Chancellor", "King"],
        actions=[play("Guard", 1, "Baron"), play("Handmaid"), play("Baron"), play("Guard", 0, "Baron"),
                 play("Handmaid"), play("Baron"), play("Guard", 1, "Baron"), play("Guard", 0, "Baron"),
                 play("Guard", 1, "Baron"), play("Guard", 0, "Baron"), play("Priest", 1),
                 play("Priest", 0), play("Spy"), play("Spy")],
        last=0),
}
LAST_TURN["premium"] = LAST_TURN["classic"]
"""Premium with two players is the classic game (its Guard names values: see `last_turn`)."""


def last_turn(ed: str) -> tuple[Game, int]:
    """The LAST_TURN scenario played up to its final decision; returns the game and the seat on turn."""
    scenario = dict(LAST_TURN[ed])
    actions, last = scenario.pop("actions"), scenario.pop("last")
    hands, draws = scenario.pop("hands"), scenario.pop("draws")
    game = deal(ed, 2, hands, draws, **scenario)
    for action in actions:
        game.apply(action._replace(guess=named(ed, action.guess)) if action.guess else action)
    assert game.state()["deck"] == [] and game.state()["turn"] == last
    return game, last


@each
@clause(*ids("prince.empty-deck"))
def test_prince_on_an_empty_deck_draws_the_set_aside_card(ed):
    game, seat = last_turn(ed)
    events = game.apply(play("Prince", seat))
    assert {"type": "draw", "player": seat, "card": "Princess", "from": "set_aside"} in events
    assert game.state()["set_aside"] == []


@each
@clause(*ids("targeting.no-valid-target"))
def test_no_valid_target_means_no_effect_and_the_prince_chooses_yourself(ed):
    game = deal(ed, 3, ["Handmaid", "Handmaid", "Prince"], ["Guard", "Guard", "Priest"])
    game.apply(play("Handmaid"))
    game.apply(play("Handmaid"))
    assert game.legal_actions() == [play("Priest"), play("Prince", 2)]
    refused(game, play("Priest", 0), f"{PREFIX[ed]}.targeting.no-valid-target")
    events = game.apply(play("Priest"))
    assert {"type": "no_effect", "player": 2, "card": "Priest",
            "clause": f"{PREFIX[ed]}.targeting.no-valid-target"} in events


@each
@clause(*ids("round.deck-empty"), *ids("round.showdown"))
def test_an_empty_deck_ends_the_round_with_a_showdown(ed):
    game, seat = last_turn(ed)
    events = game.apply(play("Prince", seat))
    end = next(e for e in events if e["type"] == "round_end")
    assert end["reason"] == "showdown"
    assert end["winners"] == [seat]
    assert end["hands"][seat] == "Princess"
    assert game.phase is Phase.ROUND_OVER


@each
@clause(*ids("king.target"), *ids("king.trade"))
def test_king_trades_hands_with_another_player(ed):
    game = deal(ed, 3, ["King", "Priest", "Guard"], ["Baron"])
    refused(game, play("King", 0), f"{PREFIX[ed]}.king.target")
    events = game.apply(play("King", 2))
    assert {"type": "trade", "player": 0, "target": 2, "cards": ["Baron", "Guard"]} in events
    assert game.state()["hands"][0] == ["Guard"] and game.state()["hands"][2] == ["Baron"]


@each
@clause(*ids("countess.forced"))
def test_countess_must_be_played_with_the_king_or_a_prince(ed):
    for other in ("King", "Prince"):
        game = deal(ed, 3, ["Countess", "Priest", "Guard"], [other])
        assert game.legal_actions() == [play("Countess")]
        refused(game, play(other, 1), f"{PREFIX[ed]}.countess.forced")
    game = deal(ed, 3, ["Countess", "Priest", "Guard"], ["Baron"])
    assert {a.card for a in game.legal_actions()} == {"Countess", "Baron"}


@each
@clause(*ids("princess.discard"))
def test_princess_played_or_discarded_knocks_her_holder_out(ed):
    game = deal(ed, 3, ["Princess", "Priest", "Guard"], ["Baron"])
    events = game.apply(play("Princess"))
    assert game.state()["eliminated"] == [True, False, False]
    assert {"type": "eliminate", "player": 0, "by": "Princess",
            "clause": f"{PREFIX[ed]}.princess.discard"} in events
    game = deal(ed, 3, ["Prince", "Princess", "Guard"], ["Baron"])
    events = game.apply(play("Prince", 1))
    assert game.state()["eliminated"] == [False, True, False]
    assert not any(e["type"] == "draw" and e["player"] == 1 for e in events)


# -- scenarios played to the end of a round ------------------------------------------------------

OTHER = -1
"""In scenario action lists: the other seat of a two-player game."""


def run(game: Game, actions: list[tuple]) -> list[dict]:
    """Apply scenario actions (card, target?, guess?), OTHER meaning the opponent; returns events."""
    events: list[dict] = []
    for card, *rest in actions:
        seat = game.state()["turn"]
        target = rest[0] if rest else None
        if target == OTHER:
            target = 1 - seat
        events += game.apply(play(card, target, rest[1] if len(rest) > 1 else None))
    return events


def alternate(starter: list[str], other: list[str]) -> list[str]:
    """The draw order when the starter draws `starter` and the other player `other`, in turn."""
    out = [card for pair in zip(starter, other, strict=False) for card in pair]
    return out + starter[len(other):] + other[len(starter):]


def prince_duel(ed: str, draws: list[str], actions: list[tuple], first: int = 0,
                tokens: list[int] | None = None) -> tuple[Game, list[dict]]:
    """Two players who each keep a Prince all round and play what they draw."""
    faces = ["Baron", "Baron", "King"]
    game = deal(ed, 2, ["Prince", "Prince"], draws, first=first, tokens=tokens,
                set_aside=["Princess"], face_up=faces)
    return game, run(game, actions)


# Classic: showdown Prince against Prince; discard totals 12 and 12.
CLASSIC_TIE = (alternate(["Guard", "Guard", "Guard", "Priest", "Countess"],
                         ["Guard", "Guard", "Priest", "Handmaid", "Handmaid"]),
               [("Guard", OTHER, "Baron")] * 5 + [("Priest", OTHER), ("Priest", OTHER), ("Handmaid",),
                                                  ("Countess",), ("Handmaid",)])
# Classic: showdown Prince against Prince; discard totals 14 (starter) and 10.
CLASSIC_DISCARDS_DECIDE = (alternate(["Guard", "Guard", "Guard", "Handmaid", "Countess"],
                                     ["Guard", "Guard", "Priest", "Priest", "Handmaid"]),
                           [("Guard", OTHER, "Baron")] * 5 + [("Priest", OTHER), ("Handmaid",),
                                                              ("Priest",), ("Countess",), ("Handmaid",)])
# Classic: showdown Prince against Prince; discard totals 10 (starter) and 14.
CLASSIC_SECOND_WINS = (alternate(["Guard", "Guard", "Priest", "Priest", "Handmaid"],
                                 ["Guard", "Guard", "Guard", "Handmaid", "Countess"]),
                       [("Guard", OTHER, "Baron")] * 4 + [("Priest", OTHER), ("Guard", OTHER, "Baron"),
                                                          ("Priest", OTHER), ("Handmaid",), ("Handmaid",),
                                                          ("Countess",)])
# 2019: a Chancellor is played with one card left (by the second player), then with none.
Z19_CHANCELLOR_END = (alternate(["Guard", "Guard", "Guard", "Priest", "Spy", "Countess", "Handmaid",
                                 "Chancellor"],
                                ["Guard", "Guard", "Guard", "Priest", "Spy", "Handmaid", "Chancellor"]),
                      [("Guard", OTHER, "Baron")] * 6 + [("Priest", OTHER), ("Priest", OTHER), ("Spy",),
                                                         ("Spy",), ("Countess",), ("Handmaid",),
                                                         ("Handmaid",)])


@clause("z19.chancellor.short-deck", "z19.chancellor.empty-deck")
def test_chancellor_with_one_card_left_and_with_none():
    game, _ = prince_duel("z-man-2019", *Z19_CHANCELLOR_END)
    assert game.state()["turn"] == 1 and len(game.state()["deck"]) == 1
    game.apply(play("Chancellor"))
    assert game.state()["pending"]["return"] == 1
    assert sorted(game.legal_actions()) == [keep("Chancellor", "Prince"), keep("Prince", "Chancellor")]
    game.apply(keep("Prince", "Chancellor"))
    assert game.state()["deck"] == [] and game.state()["hands"][0] == ["Prince", "Chancellor"]
    events = game.apply(play("Chancellor"))
    assert {"type": "no_effect", "player": 0, "card": "Chancellor",
            "clause": "z19.chancellor.empty-deck"} in events


def z19_tied_showdown(first: int = 0, tokens: list[int] | None = None) -> tuple[Game, list[dict]]:
    """Z19_CHANCELLOR_END played out: Prince against Prince at the showdown, both played a Spy."""
    game, _ = prince_duel("z-man-2019", *Z19_CHANCELLOR_END, first=first, tokens=tokens)
    events = game.apply(play("Chancellor"))
    events += game.apply(keep("Prince", "Chancellor"))
    events += game.apply(play("Chancellor"))
    return game, events


@clause("z19.round.tie", "z19.spy.bonus")
def test_z19_every_tied_player_wins_and_two_spies_give_no_bonus():
    game, events = z19_tied_showdown()
    end = next(e for e in events if e["type"] == "round_end")
    assert end["winners"] == [0, 1] and end["hands"] == ["Prince", "Prince"]
    assert [e for e in events if e["type"] == "token"] == [
        {"type": "token", "player": 0, "amount": 1, "reason": "round", "clause": "z19.tokens.round-win"},
        {"type": "token", "player": 1, "amount": 1, "reason": "round", "clause": "z19.tokens.round-win"}]


@clause("classic.round.tie")
def test_classic_tie_goes_to_the_higher_discard_total_else_nobody():
    game, events = prince_duel("classic", *CLASSIC_DISCARDS_DECIDE)
    assert game.round_winners == [0] and game.tokens == [1, 0]
    game, events = prince_duel("classic", *CLASSIC_TIE)
    assert game.round_winners == [] and game.tokens == [0, 0]
    assert not any(e["type"] == "token" for e in events)


@clause("classic.round.next-first")
def test_classic_next_round_starts_with_the_winner_or_again_with_the_starter():
    game, _ = prince_duel("classic", *CLASSIC_TIE, first=1)
    assert game.round_winners == []
    assert game.start_round()[0]["first"] == 1
    game, _ = prince_duel("classic", *CLASSIC_SECOND_WINS)
    assert game.round_winners == [1]
    assert game.start_round()[0]["first"] == 1


@clause("z19.round.next-first")
def test_z19_next_round_starts_with_the_winner_first_in_turn_order_from_the_last_starter():
    game, _ = z19_tied_showdown(first=1)
    assert game.round_winners == [0, 1]
    assert game.start_round()[0]["first"] == 1
    game = deal("z-man-2019", 3, ["Prince", "Spy", "Baron"], ["Priest", "King", "Guard", "Countess", "Guard"])
    run(game, [("Prince", 1), ("Guard", 2, "Baron"), ("Priest", 1), ("Guard", 0, "Countess")])
    assert game.round_winners == [1]
    assert game.start_round()[0]["first"] == 1


@clause("z19.spy.bonus", "z19.round.last-standing")
def test_spy_bonus_for_the_sole_survivor_once_however_many_spies(z19):
    game = deal(z19, 3, ["Spy", "Priest", "Baron"], ["Spy", "Guard", "Guard", "Guard", "Guard"])
    events = run(game, [("Spy",), ("Guard", 2, "Baron"), ("Spy",), ("Guard", 0, "Baron"),
                        ("Guard", 1, "Priest")])
    assert {"type": "round_end", "reason": "last_standing", "winners": [0]} in events
    assert {"type": "token", "player": 0, "amount": 1, "reason": "bonus", "clause": "z19.spy.bonus"} in events
    assert game.tokens == [2, 0, 0]


@clause("z19.spy.bonus")
def test_spy_bonus_counts_a_spy_discarded_by_a_prince_and_not_players_who_are_out(z19):
    game = deal(z19, 3, ["Prince", "Spy", "Baron"], ["Priest", "King", "Guard", "Countess", "Guard"])
    run(game, [("Prince", 1), ("Guard", 2, "Baron"), ("Priest", 1), ("Guard", 0, "Countess")])
    assert game.tokens == [0, 2, 0]
    game = deal(z19, 3, ["Spy", "Spy", "Baron"], ["Priest", "King", "Guard", "Guard"])
    run(game, [("Spy",), ("Spy",), ("Guard", 1, "King"), ("Guard", 2, "Baron")])
    assert game.round_winners == [0] and game.tokens == [2, 0, 0]


@clause("z19.chancellor.draw-return")
def test_chancellor_draws_two_keeps_one_and_returns_two_to_the_bottom(z19):
    game = deal(z19, 3, ["Guard", "Priest", "Baron"], ["Chancellor", "King", "Spy"])
    game.apply(play("Chancellor"))
    state = game.state()
    assert state["phase"] == "keep"
    assert sorted(state["hands"][0]) == ["Guard", "King", "Spy"]
    assert state["pending"] == {"kind": "keep", "player": 0, "return": 2, "to": "bottom"}
    assert keep("King", "Spy", "Guard") in game.legal_actions()
    refused(game, keep("King", "Spy"), "z19.chancellor.draw-return")
    game.apply(keep("King", "Spy", "Guard"))
    assert game.state()["deck"][-2:] == ["Spy", "Guard"]
    assert game.state()["hands"][0] == ["King"]


# -- setup and turns -----------------------------------------------------------------------------


@each
@clause(*ids("setup.deck"))
def test_a_deal_must_be_exactly_the_editions_deck(ed):
    spec = load_spec(ed)
    deck = [spec.names[c] for c in spec.deck(3)]
    assert len(deck) == {"classic": 16, "z-man-2019": 21, "premium": 16}[ed]
    with pytest.raises(DeckError, match=f"{PREFIX[ed]}.setup.deck"):
        Game(spec, 3).start_round(deck[:-1] + ["Guard"])


@each
@clause(*ids("setup.set-aside"), *ids("setup.face-up"), *ids("setup.deal"))
def test_setup_sets_aside_one_card_shows_three_with_two_players_and_deals_one_each(ed):
    spec = load_spec(ed)
    for players in range(spec.min_players, spec.max_players + 1):
        face_up = 3 if players == 2 else 0
        deck = [spec.names[c] for c in spec.deck(players)][::-1]
        game = Game(spec, players)
        game.start_round(deck)
        state = game.state()
        assert state["set_aside"] == deck[:1]
        assert state["face_up"] == deck[1:1 + face_up]
        dealt = deck[1 + face_up:1 + face_up + players]
        assert [h for h in state["hands"][1:]] == [[c] for c in dealt[1:]]
        assert state["deck"] == deck[2 + face_up + players:]


@each
@clause(*ids("setup.first-player"), *ids("turn.draw"))
def test_the_chosen_first_player_starts_by_drawing_one_card(ed):
    game = deal(ed, 3, ["Guard", "Priest", "Baron"], ["King"], first=2)
    state = game.state()
    assert state["turn"] == 2 and state["hands"][2] == ["Baron", "King"]
    assert [len(h) for h in state["hands"]] == [1, 1, 2]


@each
@clause(*ids("turn.play"))
def test_a_turn_plays_one_card_of_the_hand(ed):
    game = deal(ed, 3, ["Guard", "Priest", "Baron"], ["Handmaid"])
    refused(game, play("King", 1), f"{PREFIX[ed]}.turn.play")
    game.apply(play("Handmaid"))
    assert game.state()["hands"][0] == ["Guard"] and game.state()["discards"][0] == ["Handmaid"]


@each
@clause(*ids("turn.order"), *ids("elimination"))
def test_turns_go_clockwise_and_skip_players_who_are_out(ed):
    game = deal(ed, 4, ["Guard", "Priest", "Baron", "Handmaid"], ["Guard", "Guard", "King"])
    events = game.apply(guard(ed, 1, "Priest"))
    assert {"type": "discard", "player": 1, "card": "Priest"} in events
    assert game.state()["turn"] == 2 and game.state()["hands"][1] == []
    refused(game, guard(ed, 1, "Baron"), f"{PREFIX[ed]}.elimination")
    game.apply(guard(ed, 0, "Baron"))
    assert game.state()["turn"] == 3


@each
@clause(*ids("round.last-standing"), *ids("tokens.round-win"))
def test_the_last_player_standing_wins_the_round_and_a_token(ed):
    game = deal(ed, 2, ["Guard", "Priest"], ["Guard"], face_up=["Baron", "Baron", "King"])
    events = game.apply(guard(ed, 1, "Priest"))
    assert {"type": "round_end", "reason": "last_standing", "winners": [0]} in events
    assert game.tokens == [1, 0] and game.phase is Phase.ROUND_OVER


@each
@clause(*ids("tokens.target"))
def test_the_game_ends_when_a_player_reaches_the_token_target(ed):
    target = {"classic": 7, "z-man-2019": 6, "premium": 7}[ed]
    for before, over in ((target - 2, False), (target - 1, True)):
        game = deal(ed, 2, ["Guard", "Priest"], ["Guard"], face_up=["Baron", "Baron", "King"],
                    tokens=[before, 0])
        events = game.apply(guard(ed, 1, "Priest"))
        assert (game.phase is Phase.GAME_OVER) is over
        assert ({"type": "game_end", "winners": [0]} in events) is over


@clause("z19.game.end")
def test_z19_players_reaching_the_target_together_win_together():
    game, events = z19_tied_showdown(tokens=[5, 5])
    assert game.game_winners == [0, 1]
    assert events[-1] == {"type": "game_end", "winners": [0, 1]}


@clause("classic.game.end")
def test_classic_game_ends_with_the_player_who_reaches_the_target():
    game, events = prince_duel("classic", *CLASSIC_DISCARDS_DECIDE, tokens=[6, 6])
    assert game.game_winners == [0] and game.tokens == [7, 6]
    with pytest.raises(IllegalActionError, match="classic.game.end"):
        game.start_round()
