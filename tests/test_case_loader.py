"""Loading case files: bad files are reported as located lines naming the file and the case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llcheck.harness.cases import CaseError, corpus_problems, load_corpus, load_file
from loveletter_ref import load_spec

CLASSIC_DECK = [load_spec("classic").names[c] for c in load_spec("classic").deck(3)]


def a_case(**fields) -> dict:
    """A valid three-player classic case; `fields` replace or add fields."""
    case = {"id": "classic.test/one", "description": "a test", "clauses": ["classic.guard.guess"],
            "tags": ["guard"], "edition": "classic", "players": 3,
            "rounds": [{"deck": CLASSIC_DECK, "steps": [
                {"action": {"type": "play", "card": "Guard", "target": 1, "guess": "Priest"},
                 "expect": {"state": {"turn": 1}}}]}]}
    case.update(fields)
    return case


def write(root: Path, cases: list[dict] | str, name: str = "required/classic/test.json") -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    text = cases if isinstance(cases, str) else json.dumps({"description": "tests", "cases": cases}, indent=1)
    path.write_text(text, encoding="utf-8")
    return path


def problems(root: Path) -> list[str]:
    with pytest.raises(CaseError) as info:
        load_corpus(root)
    return [str(p) for p in info.value.problems]


def test_a_valid_file_loads_with_its_folder_as_status_and_the_line_of_each_case(tmp_path):
    path = write(tmp_path, [a_case(), a_case(id="classic.test/two")])
    one, two = load_corpus(tmp_path)
    assert (one.id, one.status, one.edition, one.first_player, one.tokens, one.path) == \
        ("classic.test/one", "required", "classic", 0, None, path)
    assert path.read_text().splitlines()[two.line - 1].strip().startswith('"id": "classic.test/two"')
    assert one.to_json()["rounds"] == a_case()["rounds"]


def test_malformed_json_is_located(tmp_path):
    path = write(tmp_path, '{"description": "x",\n  "cases": [,]}')
    assert problems(tmp_path) == [f"{path}:2:13: malformed JSON: Expecting value"]


def test_duplicate_keys_are_refused(tmp_path):
    write(tmp_path, '{"description": "x", "description": "y", "cases": []}')
    assert "duplicate key 'description'" in problems(tmp_path)[0]


def test_schema_errors_name_the_file_line_case_and_field(tmp_path):
    bad = a_case(id="classic.test/bad", players="three")
    bad["rounds"][0]["steps"][0]["action"]["target"] = "one"
    path = write(tmp_path, [a_case(), bad])
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "classic.test/bad" in text)
    assert problems(tmp_path) == [
        f"{path}:{line}:1: case classic.test/bad: players: 'three' is not of type 'integer'",
        f"{path}:{line}:1: case classic.test/bad: rounds[0].steps[0].action.target: "
        "'one' is not of type 'integer'"]


def test_unknown_fields_and_expectations_on_a_refused_step_are_named(tmp_path):
    case = a_case(colour="red")
    case["rounds"][0]["steps"][0]["refused"] = True
    write(tmp_path, [case])
    found = problems(tmp_path)
    assert any(p.endswith("case classic.test/one: unknown field 'colour'") for p in found)
    assert any(p.endswith("rounds[0].steps[0]: field 'expect' is not allowed with 'refused'") for p in found)


def test_duplicate_ids_across_files_are_refused(tmp_path):
    first = write(tmp_path, [a_case()], "required/classic/a.json")
    second = write(tmp_path, [a_case()], "required/classic/b.json")
    assert problems(tmp_path) == [f"{second}:5:1: case classic.test/one: duplicate id (also at {first}:5)"]


def test_files_outside_the_status_edition_layout_are_refused(tmp_path):
    write(tmp_path, [a_case()], "classic/test.json")
    write(tmp_path, [a_case(id="classic.test/x")], "someday/classic/test.json")
    assert all("case files belong in <status>/<edition>/NAME.json" in p for p in problems(tmp_path))


def test_a_folder_of_your_own_keeps_its_golden_traces_in_golden_edition(tmp_path):
    write(tmp_path, [a_case()])
    trace = tmp_path / "golden" / "classic" / "3-players.json"
    trace.parent.mkdir(parents=True)
    trace.write_text(json.dumps({"generated": "by hand, for this test", "description": "tests",
                                 "cases": [a_case(id="classic.golden/three")]}))
    case, golden = load_corpus(tmp_path)
    assert (case.status, case.generated) == ("required", None)
    assert (golden.id, golden.status, golden.edition, golden.generated) == \
        ("classic.golden/three", "golden", "classic", "by hand, for this test")
    write(tmp_path, [a_case(id="classic.golden/four")], "golden/four.json")
    assert problems(tmp_path) == [f"{tmp_path / 'golden' / 'four.json'}:1:1: golden traces belong in "
                                  f"<edition>/NAME.json under {tmp_path / 'golden'}"]


@pytest.mark.parametrize(("fields", "message"), [
    ({"edition": "z-man-2019"}, "edition 'z-man-2019' does not match its folder 'classic'"),
    ({"assumes": "fa-guide"}, "only disputed cases assume a reading ('assumes')"),
    ({"first_player": 3}, "first_player 3 is not a seat of 3 players"),
    ({"tokens": [1, 2]}, "tokens lists 2 counts for 3 players"),
])
def test_structural_mistakes_are_named(tmp_path, fields, message):
    write(tmp_path, [a_case(**fields)])
    assert any(p.endswith(f"case classic.test/one: {message}") for p in problems(tmp_path))


def test_a_case_of_several_rounds_must_need_games(tmp_path):
    case = a_case()
    case["rounds"] = case["rounds"] * 2
    write(tmp_path, [case])
    assert any("needs the 'games' capability" in p for p in problems(tmp_path))


def test_a_case_checking_only_optional_capabilities_must_say_what_it_needs(tmp_path):
    case = a_case()
    case["rounds"][0]["steps"][0]["expect"] = {"events": []}
    write(tmp_path, [case])
    assert any("list the ones it needs in 'needs'" in p for p in problems(tmp_path))
    case["needs"] = ["events"]
    write(tmp_path, [case])
    assert load_corpus(tmp_path)[0].needs == ("events",)


def test_a_disputed_case_must_name_its_reading(tmp_path):
    write(tmp_path, [a_case()], "disputed/classic/test.json")
    message = "a disputed case must name the reading it assumes ('assumes')"
    assert any(p.endswith(message) for p in problems(tmp_path))


def test_targets_of_accepted_actions_must_be_seats_but_refused_ones_need_not(tmp_path):
    case = a_case()
    wrong_seat = {"type": "play", "card": "Guard", "target": 7, "guess": "Priest"}
    case["rounds"][0]["steps"].insert(0, {"action": wrong_seat, "refused": True})
    write(tmp_path, [case])
    assert load_corpus(tmp_path)
    case["rounds"][0]["steps"][1]["action"]["target"] = 5
    write(tmp_path, [case])
    message = "rounds[0].steps[1].action: seat 5 does not exist with 3 players"
    assert any(message in p for p in problems(tmp_path))


def test_checks_against_the_editions(tmp_path):
    cases = [a_case(clauses=["classic.guard.nonsense"]),
             a_case(id="classic.test/deck",
                    rounds=[{"deck": CLASSIC_DECK[:-1] + ["Spy"], "start": {"state": {}}}]),
             a_case(id="classic.test/card", rounds=[{"deck": CLASSIC_DECK, "steps": [
                 {"action": {"type": "play", "card": "Chancellor"}, "expect": {"state": {}}}]}]),
             a_case(id="classic.test/players", players=5)]
    loaded = load_file(write(tmp_path, cases), "required", "classic")
    found = [str(p) for p in corpus_problems(loaded)]
    assert any(p.endswith("clause 'classic.guard.nonsense' is not a clause of classic") for p in found)
    assert any("rounds[0].deck is not the classic deck for 3 players (-1 Princess, +1 Spy)" in p
               for p in found)
    assert any(p.endswith("rounds[0].steps[0].action: 'Chancellor' is not a classic card") for p in found)
    assert any(p.endswith("classic is for 2-4 players, not 5") for p in found)


def test_a_refused_deal_is_exempt_from_the_deck_check(tmp_path):
    case = a_case(rounds=[{"deck": CLASSIC_DECK[:-1], "refused": True}])
    assert corpus_problems(load_file(write(tmp_path, [case]))) == []


def test_a_disputed_case_may_name_clauses_of_its_reading_and_uses_its_deck(tmp_path):
    case = a_case(assumes="fa-guide", clauses=["fa-guide.setup.face-up", "classic.setup.face-up"])
    name = "disputed/classic/t.json"
    assert corpus_problems(load_file(write(tmp_path, [case], name), "disputed")) == []
    case["assumes"] = "tr-2019"
    found = [str(p) for p in corpus_problems(load_file(write(tmp_path, [case], name), "disputed"))]
    assert any("reading 'tr-2019' describes z-man-2019, not classic" in p for p in found)


def test_a_guess_must_name_a_card_of_the_edition_in_actions_and_in_expected_events(tmp_path):
    guard = {"type": "play", "card": "Guard", "target": 1, "guess": "Gaurd"}
    event = {"type": "guess", "player": 0, "target": 1, "guess": "Chancellor", "correct": False}
    refused = {"type": "play", "card": "Guard", "target": 1, "guess": "Nobody"}
    steps = [{"action": refused, "refused": True},
             {"action": guard, "expect": {"state": {}, "events": [event]}}]
    case = a_case(id="classic.test/guess", rounds=[{"deck": CLASSIC_DECK, "steps": steps}])
    found = [str(p) for p in corpus_problems(load_file(write(tmp_path, [case])))]
    assert [p.split("case classic.test/guess: ")[1] for p in found] == [
        "rounds[0].steps[1].action: guess 'Gaurd' is not a classic card",
        "rounds[0].steps[1].expect.events: guess 'Chancellor' is not a classic card"]


def test_a_case_the_schema_refuses_does_not_hide_the_problems_of_the_other_cases_in_its_file(tmp_path):
    cases = [a_case(id="classic.test/bad", players="three"), a_case(), a_case(),
             a_case(id="classic.test/clause", clauses=["classic.guard.nonsense"])]
    write(tmp_path, cases)
    with pytest.raises(CaseError) as info:
        load_corpus(tmp_path, checked=True)
    found = [str(p).split(": ", 1)[1] for p in info.value.problems]
    assert found == ["case classic.test/bad: players: 'three' is not of type 'integer'",
                     "case classic.test/one: duplicate id (also at " + found[1].split("(also at ")[1],
                     "case classic.test/clause: clause 'classic.guard.nonsense' is not a clause of classic"]


@pytest.mark.parametrize(("text", "kind"), [("[" + "1, " * 5000 + "1]", "an array"), ("null", "null"),
                                            ('"cases"', "a string"), ("7", "a number")])
def test_a_case_file_that_is_not_an_object_is_one_short_line(tmp_path, text, kind):
    path = write(tmp_path, text)
    assert problems(tmp_path) == [
        f"{path}:1:1: a case file must be a JSON object with 'description' and 'cases', not {kind}"]


def test_a_long_value_the_schema_refuses_is_named_by_its_kind_not_quoted_whole(tmp_path):
    path = write(tmp_path, json.dumps({"description": "tests", "cases": {"id": "x" * 500}}))
    assert problems(tmp_path) == [f"{path}:1:1: cases: an object of 1 fields is not of type 'array'"]


def test_a_case_that_starts_with_a_player_at_the_token_target_is_bad_input(tmp_path):
    case = a_case(tokens=[0, 5, 0])  # classic, three players: five tokens win
    found = [str(p) for p in corpus_problems(load_file(write(tmp_path, [case])))]
    assert [p.split("case classic.test/one: ")[1] for p in found] == [
        "tokens: player 1 starts with 5 tokens, and 5 win a classic game of 3 players: "
        "a game cannot start won"]
    assert corpus_problems(load_file(write(tmp_path, [a_case(tokens=[0, 4, 0])]))) == []
