"""Capabilities version 2 (issue 25): what an engine says it plays, "not applicable" for the
rest, engine-dealt rounds with their setup checked, and the one-step Chancellor, against the
small independent engine of tests/engines/one_round.py."""

from __future__ import annotations

import dataclasses
import json
import shlex
import sys
from pathlib import Path

import jsonschema
import pytest

from llcheck import campaigns
from llcheck.cli import main
from llcheck.engines import Hello, ReferenceEngine, Reply, SubprocessEngine
from llcheck.engines.guard import checked_hello
from llcheck.engines.loader import serve_command
from llcheck.engines.onestep import as_plays, combined, split
from llcheck.harness.applicable import case_reason, seat_reason, stray_fields
from llcheck.harness.cases import load_corpus
from llcheck.harness.report import report_schema_path
from llcheck.harness.runner import run_case
from llcheck.logs.dealt import run_dealt
from loveletter_ref import load_spec

ENGINES = Path(__file__).parent / "engines"
sys.path.insert(0, str(ENGINES))

from one_round import OneRound  # noqa: E402
from one_round_variants import BaronTieOut, FaceUpShort, GivenDecks  # noqa: E402


def test_an_engine_of_version_1_is_dealt_decks_and_keeps_tokens_without_saying_so():
    old = Hello("old", "1", ("classic",), frozenset({"events"}))
    assert old.can("deck") and old.can("tokens") and not old.can("one_step_chancellor")
    assert old.plays("classic", 4) and not old.plays("z-man-2019", 2)
    new = Hello("new", "1", ("classic",), frozenset({"events"}), capabilities_version=2,
                players={"classic": (2,)})
    assert not new.can("deck") and not new.can("tokens")
    assert new.plays("classic", 2) and not new.plays("classic", 3)


def test_the_reasons_an_engine_does_not_play_something():
    hello = OneRound().hello
    assert seat_reason(hello, "classic", 2) == "the engine does not play classic"
    assert seat_reason(hello, "z-man-2019", 3) == "the engine plays z-man-2019 with 2 players only"
    assert seat_reason(hello, "z-man-2019", 2, ("deck", "tokens")) == "needs capability deck, tokens"
    assert seat_reason(hello, "z-man-2019", 2, ("legal_actions",)) is None


def test_an_in_process_hello_with_unusable_player_counts_is_refused():
    engine = ReferenceEngine()
    engine.hello = Hello("x", "1", ("classic",), frozenset(), players={"classic": ["two"]})  # type: ignore[dict-item]
    with pytest.raises(Exception, match="players is not a mapping"):
        checked_hello(engine)


def test_the_new_hello_fields_cross_the_protocol_and_the_engine_deals_from_a_seed():
    command = [*serve_command(), "--impl", "python:one_round:OneRound"]
    with SubprocessEngine(command, cwd=ENGINES, validate=True) as engine:
        hello = engine.hello
        assert (hello.capabilities_version, dict(hello.players)) == (2, {"z-man-2019": (2,)})
        assert hello.capabilities == {"legal_actions", "one_step_chancellor", "combined", "pipelining"}
        reply = engine.deal("z-man-2019", 2, 7, 1)
        assert reply.accepted and reply.state is not None and reply.state["starter"] == 1
        again = engine.deal("z-man-2019", 2, 7, 1)
        assert again.state == reply.state  # the same seed deals the same round


def test_every_corpus_case_outside_the_engine_is_not_applicable_with_its_reason():
    engine = OneRound()
    cases = [c for c in load_corpus() if c.edition == "z-man-2019"][:40]
    results = [run_case(engine, case) for case in cases]
    assert {r.status for r in results} == {"not_applicable"}
    assert all(r.message == case_reason(engine.hello, c) for r, c in zip(results, cases, strict=True))


def test_check_with_properties_and_fuzzing_has_no_interface_failure(capsys, tmp_path):
    report = tmp_path / "report.json"
    code = main(["check", "--impl", "python:one_round:OneRound", "--properties", "--fuzz", "300",
                 "--fuzz-dir", str(tmp_path / "fuzz"), "--json", str(report), "-q"])
    out = capsys.readouterr().out
    assert code == 0, out
    data = json.loads(report.read_text())
    jsonschema.Draft202012Validator(json.loads(report_schema_path().read_text())).validate(data)
    assert data["engine"]["players"] == {"z-man-2019": [2]} and data["engine"]["capabilities_version"] == 2
    statuses = {r["id"]: r["status"] for r in data["results"]}
    assert statuses["dealt/z-man-2019/2p"] == "passed"
    assert "300 games dealt by the engine" in out
    outside = [r for r in data["results"] if r["status"] == "not_applicable"]
    assert data["summary"]["not_applicable"] == len(outside) > 100
    assert {r["status"] for r in data["results"]} == {"passed", "not_applicable"}
    assert statuses["fuzz/z-man-2019/3p"] == "not_applicable"
    assert "\nnot applicable: " in out and "the engine plays z-man-2019 with 2 players only" in out


def test_over_the_protocol_the_same_engine_checks_the_same(capsys, tmp_path):
    served = shlex.join([*serve_command(), "--impl", "python:one_round:OneRound"])
    code = main(["check", "--impl", served, "--engine-cwd", str(ENGINES), "--validate-protocol",
                 "--fuzz", "40", "--fuzz-dir", str(tmp_path), "-q"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "dealt/z-man-2019/2p: 40 games dealt by the engine" in out


@pytest.mark.clause("z19.setup.face-up")
def test_a_setup_bug_is_found_on_the_engines_own_deals_and_named():
    result = run_dealt(FaceUpShort, load_spec("z-man-2019"), 2, 50, 0)
    assert result.status == "failed"
    assert result.charged == ("z19.setup.face-up",)
    assert result.divergence is not None and result.divergence.what == "state.face_up"
    assert len(result.divergence.expected) == 3 and len(result.divergence.actual) == 2
    assert "your engine plays as if `z19.setup.face-up` were `{\"2\": 2}`" in result.diagnosis
    assert [change.key for change in result.reading] == ["setup.face-up"]


@pytest.mark.clause("z19.baron.tie")
def test_a_rule_bug_is_found_and_named():
    result = run_dealt(BaronTieOut, load_spec("z-man-2019"), 2, 300, 0)
    assert result.status == "failed"
    # the engine reports no events, so the state after the Baron suspects several rules; the
    # variant under which the reference plays the game as the engine did names the one bent
    assert result.charged == ("z19.baron.tie",)
    assert result.diagnosis == \
        "your engine plays as if `z19.baron.tie` were `both_out` (the replay and 12 more games agree)"
    assert [(change.key, change.encoded) for change in result.reading] == [("baron.tie", '"both_out"')]
    assert "Baron" in result.message
    assert result.replay_case is not None
    assert result.replay_case["log"][0]["game"]["engine"] == "one-round 1.0"


def test_the_one_step_chancellor_is_the_two_rule_steps():
    play = {"type": "play", "card": "Chancellor"}
    keep = {"type": "keep", "card": "Guard", "return": ["Spy", "King"]}
    both = combined(play, keep)
    assert both == {"type": "play", "card": "Chancellor", "keep": "Guard", "return": ["Spy", "King"]}
    assert split(both) == (play, keep)
    assert split(play) == (play, None)
    other = {"type": "play", "card": "King", "target": 1}
    assert as_plays([both, combined(play, {**keep, "card": "Spy"}), other]) == [play, other]


@pytest.mark.clause("z19.chancellor.draw-return")
def test_corpus_cases_reach_a_one_step_engine_as_one_action():
    engine = GivenDecks()
    cases = [c for c in load_corpus() if c.edition == "z-man-2019" and "chancellor" in c.tags
             and case_reason(engine.hello, c) is None]
    assert cases
    assert all(any(step["action"]["type"] == "keep" for r in c.rounds for step in r.get("steps", ()))
               for c in cases)
    assert [run_case(engine, case).status for case in cases] == ["passed"] * len(cases)


def test_a_one_step_engine_gets_logged_games_instead_of_fuzzing(capsys, tmp_path):
    code = main(["check", "--impl", "python:one_round_variants:GivenDecks", "--fuzz", "30",
                 "--fuzz-dir", str(tmp_path), "--run", "fuzz/*", "--run", "dealt/*"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "dealt/z-man-2019/2p: 30 games, each set up and played as the rules say" in out
    hello = dataclasses.replace(GivenDecks().hello,
                                capabilities=GivenDecks().hello.capabilities | {"tokens", "stray_fields"})
    found = campaigns.run_fuzz(GivenDecks, [load_spec("z-man-2019"), load_spec("classic")], 10, 0, tmp_path,
                               lambda result: None, hello=hello, wanted=lambda result_id: "/2p" in result_id)
    reason = "the engine takes a one-step Chancellor (checked by logged games instead)"
    assert (found[0].id, found[0].status) == ("fuzz/z-man-2019/2p", "not_applicable")
    assert found[0].message == reason
    assert (found[1].id, found[1].message) == ("fuzz/classic/2p", "the engine does not play classic")


def test_the_tutorials_second_example_is_this_adapter_in_under_80_lines():
    adapter = (ENGINES / "one_round.py").read_text(encoding="utf-8")
    tutorial = (ENGINES.parents[1] / "docs" / "adapter-tutorial.md").read_text(encoding="utf-8")
    assert len(adapter.splitlines()) < 80
    assert f"```python\n{adapter.rstrip()}\n```" in tutorial


def test_perft_deals_outside_the_engine_are_not_applicable(capsys):
    code = main(["perft", "--impl", "python:one_round_variants:GivenDecks", "--edition", "z-man-2019",
                 "--players", "3", "--seed", "1", "--depth", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert out == "llcheck perft: not applicable: the engine plays z-man-2019 with 2 players only\n"
    code = main(["perft", "--impl", "python:one_round:OneRound", "--table", "z-man-2019", "--depth", "2"])
    assert code == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "0 of 0 deals match; 2 not applicable: needs capability deck; 8 not applicable: the engine plays "
        "z-man-2019 with 2 players only")


class _NoTokens(ReferenceEngine):
    """The reference, but reporting no favour tokens: every count 0 and no token event."""

    def __init__(self, capabilities: frozenset[str] = frozenset({"deck", "events", "legal_actions"})):
        super().__init__()
        self.hello = dataclasses.replace(self.hello, capabilities=capabilities, capabilities_version=2)

    def _plain(self, reply: Reply) -> Reply:
        if reply.accepted and reply.state is not None:
            reply.events = [e for e in reply.events if e.get("type") != "token"]
            reply.state = self.state()
        return reply

    def start(self, *args, **kwargs) -> Reply:
        return self._plain(super().start(*args, **kwargs))

    def apply(self, action) -> Reply:
        return self._plain(super().apply(action))

    def state(self):
        return {**super().state(), "tokens": [0] * self._game().players}


@pytest.mark.clause("classic.tokens.round-win")
def test_an_engine_without_tokens_is_not_asked_about_them(capsys, tmp_path):
    cases = [c for c in load_corpus() if c.edition == "classic" and c.status == "required"]
    plain = _NoTokens()
    results = [run_case(plain, case) for case in cases]
    assert {r.status for r in results} <= {"passed", "not_applicable"}
    assert any(r.status == "passed" and "classic.tokens.round-win" in r.clauses for r in results)
    claiming = _NoTokens(plain.hello.capabilities | {"tokens"})  # the same answers, tokens claimed
    assert any(run_case(claiming, case).status == "failed" for case in cases)
    found = campaigns.run_dealt(_NoTokens, [load_spec("classic")], 20, 0, lambda result: None, plain.hello)
    assert [r.status for r in found] == ["passed"] * 3


class _Unreadable(OneRound):
    """A state from which no deal can be read (hands as text)."""

    def state(self):
        return {**super().state(), "hands": "hidden"}


def test_an_engine_whose_deal_cannot_be_read_is_errored_not_passed():
    result = run_dealt(_Unreadable, load_spec("z-man-2019"), 2, 5, 0)
    assert result.status == "errored"
    assert "round 1 has no deck, and no state that shows its deal" in result.message


def test_an_engine_that_cannot_refuse_stray_fields_is_not_probed_with_them(tmp_path):
    hello = Hello("structured", "1", ("classic",), frozenset({"deck", "tokens", "legal_actions"}),
                  capabilities_version=2)
    case = next(c for c in load_corpus() if c.id == "classic.turn.play/one-card-of-ones-own-hand")
    classic = load_spec("classic")
    assert stray_fields(classic, {"type": "play", "card": "Handmaid", "target": 1}) == ["target"]
    assert stray_fields(classic, {"type": "play", "card": "Guard", "target": 1, "guess": "King"}) == []
    assert case_reason(hello, case) == "needs capability stray_fields"
    assert case_reason(dataclasses.replace(hello, capabilities_version=1), case) is None
    found = campaigns.run_fuzz(OneRound, [load_spec("classic")], 10, 0, tmp_path, lambda result: None,
                               hello=hello, wanted=lambda result_id: result_id.endswith("/2p"))
    assert [(r.status, r.message) for r in found] == [("not_applicable", "needs capability stray_fields")]
    assert campaigns.wants_logged_games(hello)
