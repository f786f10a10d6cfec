"""Rules of the spec vocabulary that no bundled card uses, played by the reference engine.

A reading of a rulebook we have not seen may use any of them, so each is played here on the
six-card test deck of tests/data/probes/tiny-classic.yaml, changed by one rule. (The probes'
cross-check plays the same changes exhaustively: tests/test_probes_crosscheck.py.)
"""

from __future__ import annotations

from pathlib import Path

from conftest import deal, play, types

from loveletter_ref import Phase, load_spec
from loveletter_ref.paths import spec_dir

TINY = Path(__file__).parent / "data" / "probes" / "tiny-classic.yaml"

REDRAW_GUARD = (
    "        guess: {by: card, exclude: [Guard], on_hit: eliminate}\n",
    "        guess: {by: card, exclude: [Guard], on_hit: gain_token}\n"
    "        source: {doc: test, paraphrase: true, quote: \"A right guess scores a token.\"}\n"
    "      - id: guard.redraw\n"
    "        offer_redraw: {when: hit}\n"
    "        source: {doc: test, paraphrase: true, quote: \"The target may then discard and draw.\"}\n"
    "      - id: guard.empty-deck\n"
    "        empty_deck: RULE\n",
)
"""The Guard as Premium's Bishop: a right guess scores a token and offers the target a redraw
(RULE: the `empty_deck` rule of that offer)."""


def tiny(tmp_path: Path, old: str, new: str):
    """The six-card test edition with `old` replaced by `new` (which must be there)."""
    text = TINY.read_text()
    assert old in text
    path = tmp_path / "tiny.yaml"
    path.write_text(text.replace(old, new))
    return load_spec(path)


def test_a_discard_and_draw_with_no_effect_on_an_empty_deck_leaves_the_hand(tmp_path):
    spec = tiny(tmp_path, "empty_deck: set_aside", "empty_deck: no_effect")
    game = deal(spec, 2, ["Prince", "Guard"], ["Handmaid", "Guard", "Baron"], set_aside=["Princess"])
    game.apply(play("Handmaid"))
    game.apply(play("Guard"))  # seat 0 is protected: no effect
    assert game.state()["deck"] == []
    events = game.apply(play("Prince", 1))
    assert {"type": "no_effect", "player": 0, "card": "Prince", "clause": "tiny.prince.empty-deck"} in events
    assert not [e for e in events if e["type"] in ("discard", "draw")]
    assert next(e for e in events if e["type"] == "round_end")["hands"] == ["Baron", "Guard"]
    assert game.state()["set_aside"] == ["Princess"]


def redraw_on_the_last_turn(tmp_path: Path, rule: str):
    """The Bishop-like Guard hits on the last turn (deck empty); its events and the game."""
    spec = tiny(tmp_path, REDRAW_GUARD[0], REDRAW_GUARD[1].replace("RULE", rule))
    game = deal(spec, 2, ["Guard", "Baron"], ["Handmaid", "Princess", "Guard"], set_aside=["Prince"])
    game.apply(play("Handmaid"))
    game.apply(play("Baron"))  # seat 0 is protected: no effect
    assert game.state()["deck"] == []
    return game.apply(play("Guard", 1, "Princess")), game


def test_an_offer_to_redraw_with_no_effect_on_an_empty_deck_is_not_made(tmp_path):
    events, game = redraw_on_the_last_turn(tmp_path, "no_effect")
    assert [e["type"] for e in events] == ["play", "guess", "token", "no_effect", "round_end", "token"]
    assert events[3] == {"type": "no_effect", "player": 0, "card": "Guard", "clause": "tiny.guard.empty-deck"}
    assert game.phase is Phase.ROUND_OVER and events[4]["hands"] == ["Guard", "Princess"]
    assert game.tokens == [1, 1] and game.state()["set_aside"] == ["Prince"]


def test_an_offer_to_redraw_with_set_aside_on_an_empty_deck_is_made(tmp_path):
    events, game = redraw_on_the_last_turn(tmp_path, "set_aside")
    assert game.state()["pending"] == {"kind": "respond", "player": 1, "card": "Guard"}
    assert not [e for e in events if e["type"] == "no_effect"]


def test_a_protection_until_the_round_ends_outlasts_its_players_next_turn(tmp_path):
    """`protect: {until: round_end}` (a translation whose Handmaid shields to the end of the round):
    no `unprotect` at the player's next turn, and the others still may not choose them."""
    text = (spec_dir() / "editions" / "classic.yaml").read_text(encoding="utf-8")
    old = "protect: {until: own_next_turn, blocks: [chosen_by_others]}"
    assert old in text
    path = tmp_path / "long-handmaid.yaml"
    path.write_text(text.replace(old, "protect: {until: round_end, blocks: [chosen_by_others]}"))
    game = deal(load_spec(path), 2, ["Handmaid", "Priest"], ["Guard", "Guard", "Baron", "Guard"])
    game.apply(play("Handmaid"))
    game.apply(play("Priest"))  # seat 0 is protected: no one to choose
    game.apply(play("Guard", 1, "Priest"))  # seat 0's next turn: a miss
    assert "unprotect" not in types(game.log) and game.state()["protected"] == [True, False]
    assert {a.target for a in game.legal_actions() if a.card == "Guard"} == {None}  # still no one
