"""The invariants as properties: the reference engine keeps them all, and each one has teeth.

Every property runs for every bundled edition and player count against the reference engine (in
the `ci` hypothesis profile). Each property then meets a deliberately broken engine
(tests/property_breakers.py) that bends the rule it guards, and must catch it.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import property_breakers as broken
import pytest

from llcheck.engines import ReferenceEngine
from llcheck.errors import UsageError
from llcheck.properties import PROPERTIES, property_names, run_properties
from loveletter_ref import load_spec

COUNTS = [(edition, n) for edition in ("classic", "z-man-2019")
          for n in range(load_spec(edition).min_players, load_spec(edition).max_players + 1)]
COUNTS += [("premium", n) for n in (2, 5, 8)]
"""Every player count of classic and z-man-2019; Premium's fewest, its first count beyond
z-man-2019's and its most (the others cost a minute more in CI: `llcheck check --impl reference
--edition premium --properties` runs them all)."""


@pytest.mark.parametrize(("edition", "players"), COUNTS, ids=[f"{e}-{n}p" for e, n in COUNTS])
def test_reference_engine_keeps_every_property(edition, players):
    results = run_properties(ReferenceEngine, edition, players, "ci", 0)
    assert [r.name for r in results] == property_names()
    bad = [f"{r.name}: {r.message}" for r in results if r.status != "passed"]
    assert not bad, "\n".join(bad)
    assert all(r.id == f"property/{r.name}/{edition}/{players}p" for r in results)


TEETH = [
    ("deck-conservation", broken.LosesEliminatedHand, "classic", 3),
    ("hand-size", broken.PrinceDrawsTwo, "z-man-2019", 3),
    ("protection", broken.ProtectionOutlastsOwnTurn, "classic", 2),
    ("protection", broken.ChoosesProtectedPlayers, "z-man-2019", 4),
    ("forced-play", broken.CountessNotForced, "classic", 4),
    ("out-if-discarded", broken.PrincessSurvivesDiscard, "z-man-2019", 2),
    ("round-end", broken.LastStandingPlaysOn, "classic", 3),
    ("tokens", broken.ExtraTokenForLastStanding, "z-man-2019", 5),
    ("game-end", broken.TargetPlusOne, "classic", 2),
    ("game-end", broken.DealsAfterGameOver, "z-man-2019", 6),
    ("hidden-information", broken.WrongGuessShowsCard, "z-man-2019", 3),
    ("hidden-information", broken.SetAsideShown, "classic", 4),
    ("replay", broken.PrinceDrawsFromEitherEnd, "classic", 2),
    ("legality", broken.ListsGuardNamingGuard, "z-man-2019", 2),
    ("hand-size", broken.RedrawWithoutDrawing, "premium", 7),
    ("tokens", broken.EliminationPaysNothing, "premium", 5),
    ("tokens", broken.PredictionsPayTheLoser, "premium", 7),
    ("game-end", broken.MidRoundTargetWaits, "premium", 7),
    ("round-end", broken.ShowdownBonusIgnored, "premium", 5),
    ("hidden-information", broken.LooksAtBothTargets, "premium", 7),
    ("hidden-information", broken.TieShowsBothCards, "classic", 4),
    ("forced-play", broken.MarkIgnored, "premium", 7),
    ("deck-conservation", broken.DealsNoFaceUp, "z-man-2019", 2),
]


TEETH_BUDGET = 500
"""Examples each property may take to catch its broken engine."""


@pytest.mark.parametrize(("prop", "game_class", "edition", "players"), TEETH,
                         ids=[f"{p}-{g.__name__}" for p, g, _, _ in TEETH])
def test_each_property_catches_an_engine_that_bends_its_rule(prop, game_class, edition, players):
    """Within a generous budget: the search stops at the first failure, and some bends are rare (a
    Bishop's right guess, then an accepted redraw); which games a seed explores shifts with the
    constants hypothesis reads from the modules imported (docs/fuzzing.md)."""
    [result] = run_properties(lambda: broken.engine(game_class), edition, players, "ci", 0,
                              properties=[prop], shrink=False, max_examples=TEETH_BUDGET)
    assert result.status == "failed", result.message
    assert result.replay is not None and result.replay["tags"] == ["property", prop]


def test_every_property_has_teeth():
    assert {prop for prop, *_ in TEETH} == set(property_names())


@pytest.mark.parametrize("seed", range(4))
def test_a_tie_shown_to_everybody_is_caught_whatever_the_seed(seed):
    """Regression (issue 24): with one or two observers resampled at one random point per round,
    a comparison tie shown to every player was missed in 3 seeds of 4. Every player is now
    checked right after every step that shows a card to someone else."""
    [result] = run_properties(lambda: broken.engine(broken.TieShowsBothCards), "classic", 4, "ci", seed,
                              properties=["hidden-information"], shrink=False)
    assert result.status == "failed", result.message
    assert "Baron" in result.message and "has not seen: log[" in result.message
    assert ".shown[" in result.message


def test_an_adapter_whose_views_show_every_hand_leaks_hidden_information():
    [result] = run_properties(broken.ShowsEveryHand, "classic", 2, "ci", 0,
                              properties=["hidden-information"], shrink=False)
    assert result.status == "failed"
    assert "has not seen: hands" in result.message


class TellsSetAside(ReferenceEngine):
    """An adapter whose views carry the set-aside cards under a key the formats do not define."""

    def view(self, player):
        return {**super().view(player), "secret": self.state()["set_aside"]}


_CLOCK = itertools.count()


class Stamped(ReferenceEngine):
    """An adapter without `legal_actions` that stamps its states, events and views with a key of its
    own read from a clock shared by every instance (so it differs on every answer)."""

    def __init__(self):
        super().__init__()
        self.hello = self.hello.__class__(self.hello.name, self.hello.version, self.hello.editions,
                                          self.hello.capabilities - {"legal_actions"})

    def _stamped(self, reply):
        if reply.accepted:
            reply.events = [{**e, "clock": next(_CLOCK)} for e in reply.events]
            reply.state = {**reply.state, "clock": next(_CLOCK)}
        return reply

    def start(self, *args):
        return self._stamped(super().start(*args))

    def next_round(self, deck):
        return self._stamped(super().next_round(deck))

    def apply(self, action):
        return self._stamped(super().apply(action))

    def state(self):
        return {**super().state(), "clock": next(_CLOCK)}

    def view(self, player):
        return {**super().view(player), "clock": next(_CLOCK)}


def test_a_card_leaked_through_a_key_of_the_engines_own_is_caught():
    [result] = run_properties(TellsSetAside, "classic", 3, "ci", 0, properties=["hidden-information"],
                              shrink=False)
    assert result.status == "failed"
    assert "has not seen: secret[0]: " in result.message
    assert "a key the formats do not define: views are compared whole" in result.message


def test_keys_of_the_engines_own_are_left_out_of_every_property_but_hidden_information():
    """Regression: docs/formats.md said every comparison leaves them out, but `replay` and
    `legality` compared states and events whole and failed an engine that stamps its answers."""
    results = {r.name: r for r in run_properties(Stamped, "classic", 2, "ci", 0, shrink=False,
                                                 properties=["replay", "legality", "hidden-information"])}
    assert results["replay"].status == results["legality"].status == "passed", \
        [r.message for r in results.values()]
    hidden = results["hidden-information"]
    assert hidden.status == "failed"
    assert "has not seen: clock: " in hidden.message
    assert "(a key the formats do not define: views are compared whole, since a card can leak through any " \
           "key)" in hidden.message


def test_every_result_names_the_clauses_its_property_rests_on_as_its_case_does():
    """Regression: reports had no clause for a property, failed or passed; the clause was only in the
    failure's case."""
    [passed] = run_properties(ReferenceEngine, "z-man-2019", 2, "ci", 0, properties=["tokens"],
                              max_examples=2)
    assert passed.status == "passed" and passed.clauses == ("z19.spy.bonus", "z19.tokens.round-win")
    [failed] = run_properties(lambda: broken.engine(broken.CountessNotForced), "classic", 3, "ci", 0,
                              properties=["forced-play"], shrink=False)
    assert failed.status == "failed" and failed.replay is not None
    assert failed.clauses == tuple(failed.replay["clauses"]) == ("classic.countess.forced",)


def test_a_failure_shrinks_to_a_short_replay_that_is_printed_and_becomes_a_case():
    [result] = run_properties(lambda: broken.engine(broken.LosesEliminatedHand), "z-man-2019", 4, "ci", 0,
                              properties=["deck-conservation"])
    assert result.status == "failed"
    shrunk = json.loads(result.message.split("; replay: ")[1].rsplit(" (seed", 1)[0])
    assert len(shrunk["rounds"]) == 1 and len(shrunk["rounds"][0]["actions"]) == 1, shrunk
    case = result.replay
    assert case is not None and [r["deck"] for r in case["rounds"]] == [shrunk["rounds"][0]["deck"]]
    assert case["clauses"] == ["z19.setup.deck", "z19.setup.set-aside", "z19.setup.face-up", "z19.setup.deal"]


def test_shrinking_stops_after_its_budget_of_examples_and_reports_the_smallest_failure(monkeypatch, tmp_path):
    """A failure that takes rounds to show can take minutes to shrink: after SHRINK_EXAMPLES
    examples the run stops and reports the latest (smallest) failure found, replay and case."""
    from llcheck.harness.runner import run_case
    from llcheck.properties import context
    from llcheck.properties.cases import validate

    def shrink(budget: int):
        monkeypatch.setattr(context, "SHRINK_EXAMPLES", budget)
        [result] = run_properties(lambda: broken.engine(broken.LosesEliminatedHand), "z-man-2019", 4, "ci", 0,
                                  properties=["deck-conservation"], save_dir=tmp_path / str(budget))
        return result

    unshrunk, cut, whole = shrink(0), shrink(20), shrink(10_000)
    sizes = []
    for result in (unshrunk, cut, whole):
        assert result.status == "failed" and result.saved is not None, result.message
        [case] = validate(result.saved)
        assert run_case(broken.engine(broken.LosesEliminatedHand), case).status == "failed"
        assert run_case(ReferenceEngine(), case).status == "passed"
        sizes.append(len(json.dumps(result.replay)))
    assert sizes[0] >= sizes[1] >= sizes[2] and sizes[0] > sizes[2]  # a larger budget shrinks further
    assert shrink(20).message == cut.message  # counted, not timed: the same report every time


def test_a_hidden_information_failure_names_the_observer_and_asks_for_views():
    [result] = run_properties(lambda: broken.engine(broken.SetAsideShown), "z-man-2019", 3, "ci", 0,
                              properties=["hidden-information"], shrink=False)
    case = result.replay
    assert case is not None and case["needs"] == ["views"]
    [observer] = case["rounds"][0]["start"]["views"]
    assert f"player {observer}'s view differs" in result.message


def test_the_saved_case_fails_on_the_broken_engine_and_passes_on_the_reference(tmp_path):
    from llcheck.harness.runner import run_case
    from llcheck.properties.cases import validate

    [result] = run_properties(lambda: broken.engine(broken.CountessNotForced), "classic", 3, "ci", 0,
                              properties=["forced-play"], save_dir=tmp_path, shrink=False)
    assert result.status == "failed" and result.saved is not None
    [case] = validate(result.saved)
    assert case.clauses == ("classic.countess.forced",)
    assert case.rounds[-1]["steps"][-1].get("refused") is True
    assert run_case(broken.engine(broken.CountessNotForced), case).status == "failed"
    assert run_case(ReferenceEngine(), case).status == "passed"


def test_a_crashing_engine_errors_every_property_with_one_line_and_the_game_so_far():
    results = run_properties(lambda: broken.engine(broken.CrashesOnKing), "classic", 2, "ci", 0)
    assert {r.status for r in results} == {"errored"}
    message = results[0].message
    assert "RuntimeError: segmentation fault (simulated)" in message and "\n" not in message
    replay = json.loads(message.split("; replay: ")[1].rsplit(" (seed", 1)[0])
    assert replay["rounds"][-1]["actions"][-1]["card"] == "King"  # it ends with the action that crashed


def test_capabilities_an_engine_lacks_skip_the_properties_that_need_them():
    class Plain(ReferenceEngine):
        def __init__(self):
            super().__init__()
            self.hello = self.hello.__class__(self.hello.name, self.hello.version, self.hello.editions,
                                              frozenset())

    results = {r.name: r for r in run_properties(Plain, "z-man-2019", 4, "ci", 0, max_examples=4)}
    needing = {"hidden-information": "views", "game-end": "games", "tokens": "games"}
    for name, capability in needing.items():
        assert results[name].status == "skipped" and capability in results[name].message
    assert {r.status for n, r in results.items() if n not in needing} == {"passed"}


def test_without_legal_actions_the_machine_tries_spec_actions_and_catches_forced_cards():
    class Unlisted(ReferenceEngine):
        def __init__(self):
            super().__init__(game_class=broken.CountessNotForced)
            self.hello = self.hello.__class__(self.hello.name, self.hello.version, self.hello.editions,
                                              self.hello.capabilities - {"legal_actions"})

    [result] = run_properties(Unlisted, "classic", 4, "ci", 0, properties=["forced-play"], shrink=False)
    assert result.status == "failed", result.message


def test_without_legal_actions_the_machine_answers_offers_and_chooses_groups_of_players():
    accepted: Counter[str] = Counter()

    class Unlisted(ReferenceEngine):
        def __init__(self):
            super().__init__()
            self.hello = self.hello.__class__(self.hello.name, self.hello.version, self.hello.editions,
                                              self.hello.capabilities - {"legal_actions"})

        def apply(self, action):
            reply = super().apply(action)
            if reply.accepted:
                accepted.update([action["type"]] + (["targets"] if "targets" in action else []))
            return reply

    results = run_properties(Unlisted, "premium", 6, "ci", 0, properties=["hand-size", "tokens", "legality"])
    assert {r.status for r in results} == {"passed"}, [r.message for r in results]
    assert accepted["respond"] and accepted["targets"], accepted


def test_bad_arguments_are_usage_errors():
    with pytest.raises(UsageError, match="no property 'nope'"):
        run_properties(ReferenceEngine, "classic", 2, properties=["nope"])
    with pytest.raises(UsageError, match="not 7"):
        run_properties(ReferenceEngine, "classic", 7)
    with pytest.raises(UsageError, match="no hypothesis profile 'slow'"):
        run_properties(ReferenceEngine, "classic", 2, "slow")


@pytest.mark.parametrize("players", [2, 4])
def test_the_thorough_profile_runs_whole_games(players):
    """Its 200-step games are large even at their smallest: no health check may stop the run."""
    results = run_properties(ReferenceEngine, "classic", players, "thorough", 0, max_examples=3,
                             properties=["legality", "tokens"])
    assert {r.status for r in results} == {"passed"}, [r.message for r in results]


def test_properties_are_documented():
    text = (Path(__file__).resolve().parents[1] / "docs" / "properties.md").read_text(encoding="utf-8")
    for prop in PROPERTIES:
        assert f"`{prop.name}`" in text, prop.name


def test_the_pytest_entry_checks_an_implementation_and_saves_its_failures(tmp_path):
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
               "--pyargs", "llcheck.properties", "--llcheck-impl=python:property_breakers:ShowsEveryHand",
               "-k", "hidden-information-classic-2p or replay-classic-2p"]
    done = subprocess.run(command, cwd=Path(__file__).resolve().parent, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "LLCHECK_SAVE_CASES": str(tmp_path)})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed, 1 passed" in done.stdout, done.stdout
    assert "player 0's view differs" in done.stdout or "player 1's view differs" in done.stdout
    assert (tmp_path / "required" / "classic" / "property-hidden-information-2p.json").is_file()


def test_cards_not_laid_face_up_are_named_at_the_deal_with_the_counts_and_piles_of_both():
    """Regression: deck-conservation passed (the multiset is whole), and round-end said the draw pile
    had the rules' 10 cards where the engine's had 13."""
    results = {r.name: r for r in run_properties(lambda: broken.engine(broken.DealsNoFaceUp), "classic", 2,
                                                 "ci", 0, properties=["deck-conservation", "round-end"])}
    conservation, ending = results["deck-conservation"], results["round-end"]
    assert conservation.status == ending.status == "failed"
    assert conservation.message.startswith("round 1, the deal: the deal set 1 card(s) aside and laid 0 face "
                                           "up; with 2 players the rules set 1 aside and lay 3 face up; "),\
        conservation.message
    assert re.search(r": turn \d+ began in a round whose draw pile had 13 cards after the deal \(the rules "
                     r"leave 10, so at most 10 turns\); ", ending.message), ending.message


def test_a_set_aside_count_by_player_count_is_read_from_the_spec(tmp_path):
    """Regression: the properties read `set_aside` as a plain number, and failed on a player table."""
    classic = Path(__file__).resolve().parents[1] / "spec" / "editions" / "classic.yaml"
    text, one = classic.read_text(encoding="utf-8"), "\n    set_aside: 1\n"
    assert text.count(one) == 1
    path = tmp_path / "classic-two-aside.yaml"
    path.write_text(text.replace(one, '\n    set_aside: {"2": 2, "3-4": 1}\n'), encoding="utf-8")
    spec = load_spec(path)
    results = run_properties(lambda: ReferenceEngine({spec.id: spec}), spec, [2, 3], "ci", 0, max_examples=4,
                             properties=["deck-conservation", "round-end"])
    assert {r.status for r in results} == {"passed"}, [r.message for r in results]
    [two] = run_properties(lambda: ReferenceEngine({"classic": load_spec("classic")}), spec, 2, "ci", 0,
                           properties=["deck-conservation"], shrink=False)
    assert "the deal set 1 card(s) aside and laid 3 face up; with 2 players the rules set 2 aside and " \
           "lay 3 face up; " in two.message


def test_a_wrong_showdown_names_hands_and_discards_as_json():
    [result] = run_properties(lambda: broken.engine(broken.ShowdownBonusIgnored), "premium", 5, "ci", 0,
                              properties=["round-end"], shrink=False, max_examples=TEETH_BUDGET)
    assert result.status == "failed", result.message
    found = re.search(r"\(hands by seat (\{.*?\}), discards (\[\[.*?\]\])\)", result.message)
    assert found, result.message
    hands, discards = json.loads(found[1]), json.loads(found[2])
    assert all(seat.isdigit() and isinstance(hand, list) for seat, hand in hands.items())
    assert len(discards) == 5
