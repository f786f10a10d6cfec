"""The runner: cases pass against the reference engine, and each way an engine can depart from a
case is found at its first point, with where, what, expected and actual."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import adapters
import pytest

from llcheck.engines import EngineFailure, ReferenceEngine
from llcheck.engines.loader import serve_command
from llcheck.engines.subprocess import SubprocessEngine
from llcheck.harness.cases import Case, load_corpus
from llcheck.harness.charge import charged
from llcheck.harness.compare import events_detail
from llcheck.harness.runner import run_case, run_cases
from llcheck.harness.select import Selection
from loveletter_ref.lockstep import Divergence

FIXTURES = Path(__file__).parent / "cases"


@pytest.fixture(scope="module")
def fixture_cases() -> dict[str, Case]:
    return {case.id: case for case in load_corpus(FIXTURES)}


@pytest.fixture(scope="module")
def corpus() -> list[Case]:
    """The bundled corpus as `llcheck check` selects it by default."""
    return Selection().choose(load_corpus())


def test_fixture_cases_pass_against_the_reference_in_process(fixture_cases):
    engine = ReferenceEngine()
    assert {case_id: run_case(engine, case).status for case_id, case in fixture_cases.items()} == \
        dict.fromkeys(fixture_cases, "passed")


def test_the_corpus_passes_against_the_reference_in_process(corpus):
    outcome = run_cases(corpus, ReferenceEngine)
    failures = [f"{r.id}: {r.message}" for r in outcome.results if r.status != "passed"]
    assert not failures
    assert len(outcome.results) == len(corpus) > 0


def test_the_corpus_passes_against_the_reference_over_the_protocol(corpus):
    outcome = run_cases(corpus, lambda: SubprocessEngine(serve_command()), jobs=2)
    failures = [f"{r.id}: {r.message}" for r in outcome.results if r.status != "passed"]
    assert not failures
    assert [r.id for r in outcome.results] == [case.id for case in corpus]


def test_every_message_of_the_reference_server_follows_the_protocol_schema(corpus, fixture_cases):
    with SubprocessEngine(serve_command(), validate=True) as engine:
        results = [run_case(engine, case) for case in [*fixture_cases.values(), *corpus]]
    assert [f"{r.id}: {r.message}" for r in results if r.status != "passed"] == []


def divergence(engine, case):
    result = run_case(engine, case)
    assert result.status == "failed", result
    return result.divergence


def test_a_missing_event_is_found_at_its_index(fixture_cases):
    d = divergence(adapters.DropDiscards(), fixture_cases["runner/guard-hit"])
    assert (d.round, d.step, d.what) == (1, 1, "events")
    assert d.action == {"type": "play", "card": "Guard", "target": 1, "guess": "Priest"}
    assert d.detail == ('event 4: expected {"type": "discard", "player": 1, "card": "Priest"}, '
                        'got {"type": "round_end", "reason": "last_standing", "winners": [0]}')
    assert d.where() == "round 1, step 1 (Guard on 1 naming Priest)"


def test_every_extra_or_missing_event_is_named():
    """Regression: "expected 4 events, got 6; extra: ..." named only the first of two."""
    first, bonus = {"type": "play", "player": 0, "card": "Spy"}, {"type": "token", "player": 1, "amount": 1}
    assert events_detail([first], [first, bonus, {**bonus, "player": 2}]) == (
        'expected 1 events, got 3; extra: {"type": "token", "player": 1, "amount": 1}, '
        '{"type": "token", "player": 2, "amount": 1}')
    detail = events_detail([first] * 20, [first]) or ""
    assert detail.startswith("expected 20 events, got 1; missing: {") and detail.endswith("...")
    assert len(detail) < 300


def test_clause_fields_are_ignored_in_events(fixture_cases):
    engine = adapters.StripsAndInventsClauses()
    assert run_case(engine, fixture_cases["runner/guard-hit"]).status == "passed"


def test_an_action_that_must_be_refused_but_is_accepted(fixture_cases):
    d = divergence(adapters.AcceptsAnything(), fixture_cases["runner/refusals"])
    assert (d.round, d.step, d.what, d.expected, d.actual) == (1, 1, "action accepted", "refused", "accepted")


def test_an_action_refused_by_mistake_shows_the_reason_and_clause(fixture_cases):
    d = divergence(adapters.RefusesEverything(), fixture_cases["runner/guard-hit"])
    assert d.what == "action refused"
    assert d.actual == {"refused": "not today", "clause": "classic.made-up"}
    assert d.detail == "the engine refused it: not today [classic.made-up]"


def test_a_refusal_must_leave_the_state_unchanged(fixture_cases):
    d = divergence(adapters.TokensMoveOnRefusal(), fixture_cases["runner/refusals"])
    assert (d.step, d.what) == (1, "state.tokens (changed by a refused action)")
    assert (d.expected, d.actual) == ([0, 0], [1, 0])


class NumberedStates(ReferenceEngine):
    """Adds a key of its own to every state it reports: a sequence number, one more each time."""

    numbered = 0

    def _number(self, state: dict) -> dict:
        self.numbered += 1
        return {**state, "seq": self.numbered}

    def start(self, *args, **kwargs):
        reply = super().start(*args, **kwargs)
        return replace(reply, state=self._number(reply.state)) if reply.accepted else reply

    def apply(self, action: dict):
        reply = super().apply(action)
        return replace(reply, state=self._number(reply.state)) if reply.accepted else reply

    def state(self) -> dict:
        return self._number(super().state())


def test_a_key_of_the_engines_own_may_change_after_a_refusal(fixture_cases):
    """Regression: `state.seq (changed by a refused action) expected 250, got 252` failed a case."""
    engine = NumberedStates()
    assert run_case(engine, fixture_cases["runner/refusals"]).status == "passed"
    assert engine.numbered > 2  # the refusals asked for numbered states
    d = divergence(adapters.TokensMoveOnRefusal(), fixture_cases["runner/refusals"])
    assert d.what == "state.tokens (changed by a refused action)"  # the keys it defines still count


def test_a_deck_that_must_be_refused_but_is_dealt(fixture_cases):
    d = divergence(adapters.DealsAnything(), fixture_cases["runner/bad-deck"])
    assert (d.round, d.step, d.what) == (1, 0, "deal accepted")
    assert d.where() == "round 1, deal"


def test_legal_actions_are_compared_as_sets(fixture_cases):
    d = divergence(adapters.HidesBaron(), fixture_cases["runner/guard-hit"])
    assert (d.step, d.what) == (0, "legal_actions")
    assert d.detail == '1 missing (first: {"type": "play", "card": "Baron", "target": 1})'


def test_views_are_compared_key_by_key(fixture_cases):
    d = divergence(adapters.LeakyViews(), fixture_cases["runner/guard-hit"])
    assert (d.step, d.what, d.expected) == (0, "view 1.hand", ["Priest"])
    assert d.actual == ["Guard", "Baron", "Priest"]


def test_booleans_are_not_numbers(fixture_cases):
    d = divergence(adapters.NumbersForFlags(), fixture_cases["runner/guard-hit"])
    assert (d.what, d.expected, d.actual) == ("state.eliminated", [False, True], [0, 1])
    assert d.detail == "at [0]: expected false, got 0"


def test_capabilities_an_engine_lacks_make_cases_skipped_not_applicable_or_not_compared(fixture_cases):
    engine = adapters.ClassicOnly()
    statuses = {case_id: run_case(engine, case) for case_id, case in fixture_cases.items()}
    assert statuses["runner/views-only"].status == "skipped"  # it plays the case, but cannot be asked
    assert statuses["runner/views-only"].message == "needs capability views"
    assert statuses["runner/two-rounds"].status == "not_applicable"  # it does not play whole games
    assert statuses["runner/two-rounds"].message == "needs capability games"
    assert statuses["runner/guard-hit"].status == "passed"


def test_a_case_of_an_edition_the_engine_does_not_play_is_not_applicable(fixture_cases):
    engine = ReferenceEngine(specs={})
    result = run_case(engine, fixture_cases["runner/guard-hit"])
    assert (result.status, result.message) == ("not_applicable", "the engine does not play classic")


def test_an_adapter_exception_is_an_errored_case_and_the_adapter_is_replaced(fixture_cases):
    adapters.Crashes.calls = 0
    made = []

    def make():
        made.append(adapters.Crashes())
        return made[-1]

    cases = [fixture_cases[name] for name in ("runner/refusals", "runner/guard-hit", "runner/two-rounds")]
    outcome = run_cases(cases, make)
    assert [r.status for r in outcome.results] == ["errored", "passed", "errored"]
    message = outcome.results[0].message  # located at the adapter's line that raised, to debug it
    found = re.fullmatch(r"round 1, step 2 \(Guard on 0 naming Priest\): the engine raised KeyError: 'hand' "
                         r"\(at (.*adapters\.py):(\d+), in apply\)", message)
    assert found, message
    assert 'raise KeyError("hand")' in Path(found[1]).read_text().splitlines()[int(found[2]) - 1]
    assert len(made) == 2  # the engine that raised is replaced before the next case


def test_an_errored_case_says_where_it_broke_as_a_failed_case_does(fixture_cases):
    """Regression: an errored case named neither round nor step nor action, and its JSON no location."""
    adapters.Crashes.calls = 0
    result = run_case(adapters.Crashes(), fixture_cases["runner/refusals"])
    action = {"type": "play", "card": "Guard", "target": 0, "guess": "Priest"}
    assert result.status == "errored" and result.location is not None
    assert result.message.startswith(f"{result.location.where()}: the engine raised KeyError: 'hand' (at ")
    assert result.location.where() == "round 1, step 2 (Guard on 0 naming Priest)"
    assert result.to_json()["location"] == {"round": 1, "step": 2, "action": action}
    assert run_case(ReferenceEngine(), fixture_cases["runner/refusals"]).to_json()["location"] is None


def test_an_engine_failing_at_the_deal_is_located_at_the_deal(fixture_cases):
    class Hangs(ReferenceEngine):
        def start(self, *args, **kwargs):
            raise EngineFailure("no answer to start (request 2) within 2s")

    result = run_case(Hangs(), fixture_cases["runner/guard-hit"])
    assert result.status == "errored"
    assert result.message == "round 1, deal: no answer to start (request 2) within 2s"
    assert result.to_json()["location"] == {"round": 1, "step": 0, "action": None}


def test_results_keep_the_case_order_whatever_the_jobs(corpus):
    seen = []
    outcome = run_cases(corpus[:40], ReferenceEngine, jobs=3, on_result=seen.append)
    assert [r.id for r in outcome.results] == [c.id for c in corpus[:40]]
    assert sorted(r.id for r in seen) == sorted(c.id for c in corpus[:40])


def test_a_result_names_its_case():
    case = load_corpus(FIXTURES)[0]
    result = run_case(ReferenceEngine(), case)
    assert (result.id, result.group, result.edition) == ("runner/guard-hit", "required", "classic")
    assert result.clauses == ("classic.guard.guess", "classic.round.last-standing")
    assert result.file is not None and result.file.endswith("cases/required/classic/runner.json:5")


def test_selection_by_glob_edition_and_folder(corpus):
    chosen = Selection(run=["classic.baron.*"], skip=["*tie*"]).choose(corpus)
    assert chosen and all(c.id.startswith("classic.baron.") and "tie" not in c.id for c in chosen)
    assert {c.edition for c in Selection(editions=["z-man-2019"]).choose(corpus)} == {"z-man-2019"}
    assert not [c for c in corpus if c.status == "disputed"]


def test_disputed_cases_run_only_when_asked_for_their_reading(fixture_cases):
    base = fixture_cases["runner/guard-hit"]
    nl = replace(base, id="d/nl", status="disputed", assumes="nl-2019")
    tr = replace(base, id="d/tr", status="disputed", assumes="tr-2019")
    cases = [base, nl, tr]
    assert [c.id for c in Selection().choose(cases)] == ["runner/guard-hit"]
    assert [c.id for c in Selection(groups=["disputed"]).choose(cases)] == ["d/nl", "d/tr"]
    assert [c.id for c in Selection(groups=["disputed"], assume="tr-2019").choose(cases)] == ["d/tr"]


@pytest.mark.parametrize("what,expected,actual,action,suspects", [
    ("state.tokens", [1, 0, 0], [1, 1, 0], None, {"z19.tokens.round-win", "z19.spy.bonus"}),
    ("legal_actions", [{"type": "play", "card": "Countess"}], [], None,
     {"z19.countess.forced"}),
    ("action refused", "accepted", {"refused": "no"}, {"type": "play", "card": "Handmaid"},
     {"z19.handmaid.protect", "z19.turn.play"}),
    ("deal refused", "accepted", {"refused": "no"}, None, {"z19.setup.set-aside", "z19.setup.face-up"}),
])
def test_a_broad_case_is_charged_with_its_suspects(what, expected, actual, action, suspects):
    clauses = ("z19.setup.deck", "z19.setup.set-aside", "z19.setup.face-up", "z19.setup.deal",
               "z19.turn.play", "z19.tokens.round-win", "z19.spy.bonus", "z19.countess",
               "z19.countess.forced", "z19.handmaid", "z19.handmaid.protect")
    point = Divergence(1, 3, what, expected, actual, "", action)
    found = charged("golden", "z-man-2019", clauses, point)
    assert found is not None and suspects <= set(found) and len(found) < len(clauses)
    assert charged("required", "z-man-2019", clauses[:8], point) is None
    assert charged("golden", "z-man-2019", ("z19.king",), point) == ("z19.king",)


def test_legal_actions_listed_twice_are_a_divergence(fixture_cases):
    d = divergence(adapters.RepeatsAnAction(), fixture_cases["runner/guard-hit"])
    assert (d.step, d.what) == (0, "legal_actions")
    assert d.detail.startswith("1 listed more than once (first: {")
