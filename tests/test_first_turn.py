"""The first-turn exception (`first_turn_draw`), end to end: the Persian reading, the engine,
the z3 model and the hand-size oracle.

The Persian guide (line 21): in a 2-player game the first player draws only one card on the
first turn. The rule replaces `turn_draw` on the round's first turn at the player counts it
lists, so silencing one rule or the other shows which the engine and the probes consult when.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from llcheck.properties.rules import rules_for
from loveletter_ref import Game, load_spec
from loveletter_ref.errors import RuleGapError, SpecError
from loveletter_ref.probes.api import check, clause_applies
from loveletter_ref.spec.facts import facts_for

READING = Path(load_spec("fa-guide").path or "")
STATED = '    first_turn_draw: {"2": 1}\n'
TINY = Path(__file__).parent / "data" / "probes" / "tiny-classic.yaml"


def variant(tmp_path: Path, old: str, new: str):
    """The Persian reading with `old` replaced by `new` (which must be there)."""
    text = READING.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "fa-variant.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return load_spec(path)


def silence_turn_draw(tmp_path: Path):
    return variant(tmp_path, "    turn_draw: 1\n", '    silent: "(test) the turn rule is silenced"\n')


def test_the_persian_reading_states_the_exception_for_two_players_only():
    spec = load_spec("fa-guide")
    clause = spec.general["first_turn_draw"]
    assert clause.id == "fa-guide.turn.first-turn" and clause.rule == {"2": 1} and clause.novel
    assert clause.sources[0].line == 21 and "نوبت اول" in clause.sources[0].quote
    assert facts_for(spec, 2).first_turn == (clause, 1)
    assert facts_for(spec, 3).first_turn is None


def test_the_hand_size_oracle_reads_the_exception(tmp_path):
    text = TINY.read_text(encoding="utf-8").replace(
        "  - {id: turn.play,", '  - {id: turn.first-turn, first_turn_draw: {"2": 1}, source: '
        '{doc: test, paraphrase: true, quote: "The first player draws one."}}\n  - {id: turn.play,')
    path = tmp_path / "tiny.yaml"
    path.write_text(text, encoding="utf-8")
    assert rules_for(load_spec(path), 2).first_turn_draw == 1
    assert rules_for(load_spec(TINY), 2).first_turn_draw is None


def test_the_engine_draws_the_first_turn_by_the_exception_and_later_turns_by_the_turn_rule(tmp_path):
    spec = silence_turn_draw(tmp_path)
    game = Game(spec, 2)
    events = game.start_round()
    assert [e["type"] for e in events][-2:] == ["turn", "draw"] and len(game.hands[0]) == 2
    with pytest.raises(RuleGapError) as gap:  # the second turn draws by the silenced turn rule
        game.apply(game.legal_actions()[0])
    assert gap.value.clause == "fa-guide.turn.draw"
    with pytest.raises(RuleGapError) as gap:  # with three players there is no exception
        Game(spec, 3).start_round()
    assert gap.value.clause == "fa-guide.turn.draw"


def test_a_silent_exception_stops_the_first_turn_on_a_gap_naming_it(tmp_path):
    spec = variant(tmp_path, STATED, '    silent: "(test) how many cards, the guide does not say"\n')
    with pytest.raises(RuleGapError) as gap:
        Game(spec, 2).start_round()
    assert gap.value.clause == "fa-guide.turn.first-turn"


def test_the_schema_bounds_the_exception_to_one_card(tmp_path):
    with pytest.raises(SpecError) as error:
        variant(tmp_path, STATED, '    first_turn_draw: {"2": 2}\n')
    assert "first_turn_draw" in str(error.value)


def test_the_probes_consult_the_exception_where_the_engine_does(tmp_path):
    spec = load_spec("fa-guide")
    reached = check(spec, 2, clause_applies("turn.first-turn"))
    assert reached.status == "reachable" and reached.witness is not None, reached
    assert check(spec, 3, clause_applies("turn.first-turn")).status == "unreachable"
    silenced = silence_turn_draw(tmp_path)  # two players: the first turn does not need the turn rule
    first = check(silenced, 2, clause_applies("turn.draw"))
    assert first.status == "reachable" and first.witness is not None
    assert first.witness["rounds"][0]["actions"], "the turn rule applies from the second turn on"
