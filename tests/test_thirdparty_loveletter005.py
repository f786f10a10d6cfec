"""The adapter for loveletter 0.0.5 (PyPI): it imports offline, plays the package's own game
logic through its bot's input handling, and its documented deviations keep failing."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from llcheck.cli import main
from llcheck.harness.cases import load_corpus
from loveletter_ref import load_spec
from loveletter_ref.engine import build_deck

pytestmark = pytest.mark.skipif(importlib.util.find_spec("loveletter") is None,
                                reason="loveletter 0.0.5 is not installed (pip install -e '.[test]')")

ROOT = Path(__file__).resolve().parents[1]
IMPL = "python:llcheck.thirdparty.loveletter005:Loveletter005"
KNOWN = ROOT / "conformance" / "known-failures" / "loveletter-0.0.5.txt"
TIES = "classic.round.tie"


@pytest.fixture
def engine():
    from llcheck.thirdparty.loveletter005 import Loveletter005
    return Loveletter005()


def classic_deal(players: int, hands: list[str], draws: list[str] = ()) -> list[str]:
    return build_deck(load_spec("classic"), players, hands, draws)


def test_the_known_failures_still_fail_and_nothing_else_does(capsys, tmp_path):
    code = main(["check", "--impl", IMPL, "--known-failures", str(KNOWN), "-q", "--fuzz", "10",
                 "--seed", "0", "--fuzz-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out[-3000:]


def test_it_imports_without_a_network_and_leaves_builtins_alone():
    script = (
        "import builtins, socket, sys\n"
        "def refuse(*a, **k): raise AssertionError('network used')\n"
        "socket.socket.connect = refuse; socket.create_connection = refuse\n"
        "from llcheck.thirdparty.loveletter005 import Loveletter005\n"
        "e = Loveletter005()\n"
        "assert e.start('classic', 3, [c for c in ['Guard']*5 + ['Priest','Baron']*2 + "
        "['Handmaid','Prince']*2 + ['King','Countess','Princess']]).accepted\n"
        "assert e.apply(e.legal_actions()[0]).accepted\n"
        "assert not hasattr(builtins, '_'), 'gettext left _ in builtins'\n"
        "assert 'telebot' not in sys.modules, 'the telebot stand-in leaked'\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_a_whole_round_agrees_with_the_reference(engine):
    from loveletter_ref import Action, Game
    deck = ["Guard", "Guard", "Priest", "Handmaid", "Priest", "Guard", "Handmaid", "Prince", "Baron",
            "Guard", "King", "Countess", "Prince", "Guard", "Princess", "Baron"]
    actions = [{"type": "play", "card": "Priest", "target": 1},
               {"type": "play", "card": "Guard", "target": 2, "guess": "Baron"},
               {"type": "play", "card": "Handmaid"},
               {"type": "play", "card": "Prince", "target": 0},
               {"type": "play", "card": "Guard", "target": 0, "guess": "King"},
               {"type": "play", "card": "King", "target": 1},
               {"type": "play", "card": "Countess"},
               {"type": "play", "card": "Prince", "target": 2},
               {"type": "play", "card": "Guard", "target": 0, "guess": "Baron"},
               {"type": "play", "card": "Handmaid"}]
    reference = Game(load_spec("classic"), 3)
    reference.start_round(deck)
    assert engine.start("classic", 3, deck).accepted
    for action in actions:
        reference.apply(Action.from_json(action))
        reply = engine.apply(action)
        assert reply.accepted, reply.reason
        want = {k: v for k, v in reference.state().items() if k != "tokens"}
        assert {k: v for k, v in reply.state.items() if k != "tokens"} == want
    assert reply.state["round_winners"] == [2]


def test_a_refused_action_leaves_the_game_as_it_was(engine):
    deck = classic_deal(3, ["Countess", "Guard", "Guard"], ["King"])
    assert engine.start("classic", 3, deck).accepted
    before = engine.state()
    refused = engine.apply({"type": "play", "card": "King", "target": 1})
    assert not refused.accepted and "countess" in refused.reason.lower()
    assert engine.state() == before
    assert {"type": "play", "card": "Countess"} in engine.legal_actions()
    assert not engine.apply({"type": "play", "card": "Guard", "target": 1}).accepted
    assert engine.state() == before


def test_d1_two_players_set_no_cards_aside_face_up(engine):
    deck = classic_deal(2, ["Priest", "Baron"])
    state = engine.start("classic", 2, deck).state
    assert state["face_up"] == [] and state["hands"][0] != ["Baron", "Priest"]


def test_d2_the_guard_may_name_a_guard(engine):
    assert engine.start("classic", 3, classic_deal(3, ["Guard", "Priest", "Baron"], ["Handmaid"])).accepted
    assert {"type": "play", "card": "Guard", "target": 1, "guess": "Guard"} in engine.legal_actions()
    assert engine.apply({"type": "play", "card": "Guard", "target": 2, "guess": "Guard"}).accepted


def test_d3_five_players_are_dealt_in(engine):
    spec = load_spec("classic")
    assert engine.start("classic", 5, [spec.names[c] for c in spec.deck(4)]).accepted


def test_d4_no_tokens_are_kept(engine):
    [case] = [c for c in load_corpus() if c.id == f"{TIES}/three-players-the-higher-discard-total-wins"]
    deck = case.rounds[0]["deck"]
    assert not engine.start("classic", 3, deck, tokens=[1, 0, 0]).accepted
    assert engine.start("classic", 3, deck).accepted
    for step in case.rounds[0]["steps"]:
        state = engine.apply(step["action"]).state
    assert state["phase"] == "round_over" and state["round_winners"]
    assert state["tokens"] == [0, 0, 0]
    assert not engine.next_round(deck).accepted


def test_d5_a_tie_goes_to_the_next_player_in_turn(engine):
    [case] = [c for c in load_corpus() if c.id == f"{TIES}/four-players-the-higher-discard-total-wins"]
    assert engine.start("classic", 4, case.rounds[0]["deck"]).accepted
    for step in case.rounds[0]["steps"]:
        state = engine.apply(step["action"]).state
    assert state["hands"] == [[], [], ["Guard"], ["Guard"]]
    assert state["round_winners"] == [2] != case.result["round_winners"]


def test_the_engine_refuses_decks_it_never_builds(engine):
    spec = load_spec("classic")
    deck = [spec.names[c] for c in spec.deck(3)]
    assert not engine.start("classic", 3, deck[:-1]).accepted
    assert not engine.start("z-man-2019", 3, deck).accepted
    assert not engine.start("classic", 1, deck).accepted


def test_premium_is_not_played_and_not_run(capsys):
    """loveletter 0.0.5 plays classic only: Premium cases are left out, and asking for them is bad usage."""
    assert main(["check", "--impl", IMPL, "--edition", "premium"]) == 2
    assert capsys.readouterr().err == "llcheck check: the engine does not play premium (it plays: classic)\n"
    assert main(["check", "--impl", IMPL, "--known-failures", str(KNOWN), "-q", "--run", "premium.*",
                 "--run", "classic.king.*"]) == 0
    assert "editions: classic;" in capsys.readouterr().out
