"""The vocabulary the readings needed, and the engine asking for a clause only when a game needs
its answer: a silence stops a game exactly where a table would have to decide."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import deal, keep, play

from loveletter_ref import Game, RuleGapError, load_spec
from loveletter_ref.engine import build_deck
from loveletter_ref.paths import spec_dir
from loveletter_ref.spec import check_spec

Z19 = (spec_dir() / "editions" / "z-man-2019.yaml").read_text(encoding="utf-8")


def z19_reading(tmp_path: Path, old: str, new: str) -> Path:
    """The 2019 edition as a reading with one clause changed (editions may not leave gaps)."""
    assert old in Z19
    text = Z19.replace("kind: edition\n", "kind: reading\ndescribes: z-man-2019\nrulebook: sl-en\n")
    path = tmp_path / "variant.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def scripted(game: Game, cards: list[tuple]) -> list[dict]:
    """Two players play in turn; each tuple is (card, target?, guess?), target 'other' or 'self'."""
    events: list[dict] = []
    for card, *rest in cards:
        seat = game.state()["turn"]
        target = {"other": 1 - seat, "self": seat}.get(rest[0]) if rest else None
        events += game.apply(play(card, target, rest[1] if len(rest) > 1 else None))
    return events


def alternate(first: list[str], second: list[str]) -> list[str]:
    out = [card for pair in zip(first, second, strict=False) for card in pair]
    return out + first[len(second):] + second[len(first):]


def z19_tie(spec: str | Path, tokens: list[int] | None = None) -> tuple[Game, list[dict]]:
    """Both keep a Prince all round, play what they draw, and tie at the showdown."""
    draws = alternate(["Guard", "Guard", "Guard", "Priest", "Spy", "Countess", "Handmaid", "Chancellor"],
                      ["Guard", "Guard", "Guard", "Priest", "Spy", "Handmaid", "Chancellor"])
    game = deal(load_spec(spec), 2, ["Prince", "Prince"], draws, tokens=tokens, set_aside=["Princess"],
                face_up=["Baron", "Baron", "King"])
    events = scripted(game, [("Guard", "other", "Baron")] * 6 + [("Priest", "other"), ("Priest", "other"),
                                                                  ("Spy",), ("Spy",), ("Countess",),
                                                                  ("Handmaid",), ("Handmaid",)])
    events += game.apply(play("Chancellor"))
    events += game.apply(keep("Prince", "Chancellor"))
    events += game.apply(play("Chancellor"))
    return game, events


def test_a_next_round_rule_that_leaves_ties_open_stops_only_after_a_tie(tmp_path):
    path = z19_reading(tmp_path, "next_first: {who: round_winner, several: first_from_previous_starter, "
                                 "none: previous_starter}", "next_first: {who: round_winner}")
    game, _ = z19_tie(path)
    assert game.round_winners == [0, 1]
    with pytest.raises(RuleGapError) as gap:
        game.start_round()
    assert gap.value.clause == "z19.round.next-first"
    game = deal(load_spec(path), 2, ["Guard", "Priest"], ["Baron"])
    game.apply(play("Guard", 1, "Priest"))
    assert game.round_winners == [0] and game.start_round()[0]["first"] == 0


def test_the_game_end_rule_is_needed_only_when_several_reach_the_target(tmp_path):
    path = z19_reading(tmp_path, "    game_end: {several: all_win}\n", "    silent: several winners\n")
    game, _ = z19_tie(path, tokens=[4, 5])
    assert game.game_winners == [1]
    with pytest.raises(RuleGapError) as gap:
        z19_tie(path, tokens=[5, 5])
    assert gap.value.clause == "z19.game.end"


def test_turn_order_is_not_needed_with_two_players():
    game = deal("sl-en-2019", 2, ["Guard", "Priest"], ["Baron", "Handmaid"])
    game.apply(play("Guard", 1, "Baron"))
    assert game.state()["turn"] == 1
    game = deal("sl-en-2019", 3, ["Guard", "Priest", "Baron"], ["Handmaid"])
    with pytest.raises(RuleGapError) as gap:
        game.apply(play("Guard", 1, "Baron"))
    assert gap.value.clause == "sl-en-2019.turn.order"


def test_an_empty_deck_rule_is_needed_only_when_the_deck_is_empty():
    game = deal("tr-2019", 2, ["Prince", "Priest"], ["Guard"])
    game.apply(play("Prince", 1))
    assert game.state()["hands"][1] != ["Priest"]


def test_set_aside_by_player_count_and_a_deck_the_rules_do_not_fill():
    two = Game(load_spec("fa-guide"), 2)
    two.start_round()
    assert len(two.state()["set_aside"]) == 2 and len(two.state()["face_up"]) == 1
    two = Game(load_spec("fa-guide", {"setup.set-aside": 1}), 2)
    two.start_round()
    assert len(two.state()["set_aside"]) == 1
    with pytest.raises(RuleGapError) as gap:
        Game(load_spec("fa-guide"), 5).start_round()
    assert gap.value.clause == "fa-guide.setup.deck"
    five = Game(load_spec("fa-guide", {"setup.deck": 1}), 5)
    assert five.start_round()[0]["type"] == "round_start"


@pytest.mark.parametrize(("version", "winners"), [(0, []), (1, [1])])
def test_tie_broken_by_the_highest_played_card(version, winners):
    spec = load_spec("fa-guide", {"round.tie": version})
    draws = alternate(["Guard", "Guard", "Guard", "Priest", "King", "Handmaid"],
                      ["Guard", "Guard", "Priest", "Countess", "Handmaid"])
    deck = build_deck(spec, 2, ["Prince", "Prince"], draws, set_aside=["Princess", "Baron"],
                      face_up=["Baron"])
    game = Game(spec, 2)
    game.start_round(deck)
    scripted(game, [("Guard", "other", "Baron")] * 5 + [("Priest", "other"), ("Priest", "other"),
                                                          ("Countess",), ("King", "other"), ("Handmaid",),
                                                          ("Handmaid",)])
    assert [sum(spec.card(c).value for c in pile) for pile in game.state()["discards"]] == [15, 15]
    assert game.round_winners == winners


def test_an_edition_must_say_who_starts_after_a_tie_and_cover_every_count(tmp_path):
    text = Z19.replace("next_first: {who: round_winner, several: first_from_previous_starter, "
                       "none: previous_starter}", "next_first: {who: round_winner}")
    text = text.replace("    set_aside: 1\n", '    set_aside: {"2-5": 1}\n')
    path = tmp_path / "edition.yaml"
    path.write_text(text, encoding="utf-8")
    messages = [p.message for p in check_spec(path)]
    assert "next_first: say who starts after a round won by several players ('several')" in messages
    assert "next_first: say who starts after a round won by nobody ('none')" in messages
    assert "set_aside has no value for 6 players" in messages
