"""Differential fuzzing: it finds nothing against the reference, finds and shrinks what a broken
engine does, saves cases the corpus accepts, and reports engines that fail or cannot start."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from played import positions

from llcheck.cli import main
from llcheck.engines import EngineFailure, ReferenceEngine, Reply
from llcheck.engines.loader import serve_command
from llcheck.engines.subprocess import SubprocessEngine
from llcheck.errors import UsageError
from llcheck.fuzz import run_fuzz
from llcheck.fuzz.lockstep import Differential, Found, legal_differs
from llcheck.fuzz.play import Tape, near_miss
from llcheck.harness.cases import load_file
from llcheck.mutants import get, variants
from loveletter_ref import Action, load_spec
from loveletter_ref.engine import replay


@pytest.mark.parametrize("edition,players", [("classic", 2), ("classic", 4), ("z-man-2019", 3),
                                             ("z-man-2019", 6)])
def test_the_reference_against_itself_finds_nothing(edition, players):
    result = run_fuzz(ReferenceEngine, edition, players, 40, 3, None)
    assert result.status == "pass", result.message
    assert result.games == 40 and result.rounds >= 40 and result.tally.probes > 0


def test_the_reference_over_the_protocol_finds_nothing():
    result = run_fuzz(lambda: SubprocessEngine(serve_command(), timeout=20), "classic", 3, 10, 1, None)
    assert result.status == "pass", result.message


def test_the_same_seed_gives_the_same_difference():
    first = run_fuzz(get("baron-higher-loses").engine, "classic", 3, 100, 5, None)
    second = run_fuzz(get("baron-higher-loses").engine, "classic", 3, 100, 5, None)
    assert first.status == "fail"
    assert (first.message, first.replay) == (second.message, second.replay)


@pytest.mark.parametrize("name,edition,players,actions", [
    ("guard-may-name-guard", "classic", 3, 0),
    ("no-face-up-with-two", "z-man-2019", 2, 0),
    ("counterclockwise", "classic", 3, 1),
    ("set-aside-leaks", "classic", 4, 0),
])
def test_a_difference_is_shrunk_to_the_shortest_replay(name, edition, players, actions):
    result = run_fuzz(get(name).engine, edition, players, 100, 0, None)
    assert result.status == "fail"
    assert result.replay is not None
    assert sum(len(r["actions"]) for r in result.replay["rounds"]) == actions
    assert len(result.replay["rounds"]) == 1


def test_the_replay_is_printed_and_plays_on_the_reference():
    result = run_fuzz(get("baron-tie-eliminates").engine, "classic", 3, 200, 0, None)
    assert result.status == "fail" and result.replay is not None
    assert json.dumps(result.replay, ensure_ascii=False) in result.message
    game, events = replay(load_spec("classic"), result.replay)
    assert events and game.round == len(result.replay["rounds"])
    assert "classic.baron.tie" in result.clauses


class _PeeksAtTheDeck(ReferenceEngine):
    """Plays right, but once a card has been played in the round every view names the next card
    of the deck, under a key the formats do not define."""

    def view(self, player: int) -> dict:
        seen = super().view(player)
        game = self._game()
        deck = game.state()["deck"]
        if game.record[-1]["actions"] and deck:
            seen["next"] = deck[0]
        return seen


def test_a_view_carrying_a_key_the_formats_do_not_define_is_a_difference_where_it_appears():
    """Regression (hostile input): fuzzing left out view keys the formats do not define, so a view
    naming the next card of the deck under a key of its own passed."""
    result = run_fuzz(_PeeksAtTheDeck, "classic", 3, 30, 0, None)
    assert result.status == "fail" and result.kind == "views", result.message
    point = result.divergence
    assert point is not None and (point.round, point.step) == (1, 1)  # shrunk to the first action
    seat = int(point.what.removeprefix("view ").removesuffix(".next"))
    assert point.what == f"view {seat}.next"
    assert f"views carry undefined key next (player {seat}'s view)" in result.message
    game, _ = replay(load_spec("classic"), result.replay)
    assert (point.expected, point.actual) == (None, game.state()["deck"][0])
    assert result.clauses


def test_the_saved_case_joins_the_corpus_format(tmp_path):
    result = run_fuzz(get("wrong-next-starter").engine, "classic", 3, 200, 0, tmp_path)
    assert result.status == "fail" and result.saved is not None
    assert result.saved.parent == tmp_path / "required" / "classic"  # the corpus layout
    [case] = load_file(result.saved, "required", "classic")
    assert case.id.startswith("fuzz/classic/3p-")
    assert "classic.round.next-first" in case.clauses
    assert "games" in case.needs and len(case.rounds) >= 2
    assert str(result.saved) in result.message
    corpus = ["check", "--corpus", str(tmp_path), "-q", "--impl"]
    assert main([*corpus, "reference"]) == 0
    assert main([*corpus, "python:llcheck.mutants.engines:wrong_next_starter"]) == 1


class _Blind(ReferenceEngine):
    """A broken engine that lists no legal actions and reports no events: only its state and
    its answers to actions can give it away."""

    def __init__(self, broken: ReferenceEngine):
        super().__init__(broken.specs, broken.game_class, "blind")
        self.hello = replace(broken.hello, capabilities=frozenset({"games"}))
        self.view = broken.view  # type: ignore[method-assign]


def test_an_engine_that_accepts_an_illegal_action_is_caught_by_probing():
    result = run_fuzz(lambda: _Blind(get("guard-may-name-guard").engine()), "classic", 3, 200, 0, None)
    assert result.status == "fail" and result.kind == "accepted", result.message
    assert "classic.guard.guess" in result.clauses


def test_without_events_the_state_gives_a_broken_rule_away():
    result = run_fuzz(lambda: _Blind(get("baron-tie-eliminates").engine()), "classic", 3, 200, 0, None)
    assert result.status == "fail" and result.kind in ("state", "engine"), result.message
    assert "classic.baron.tie" in result.clauses


class _Crashes(ReferenceEngine):
    """Fails on the fifth action of a game (a failure that depends on earlier games would read
    as flaky: hypothesis plays a failing example again on a fresh engine)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def start(self, *args: Any, **kwargs: Any) -> Reply:
        self.calls = 0
        return super().start(*args, **kwargs)

    def apply(self, action: dict) -> Reply:
        self.calls += 1
        if self.calls == 5:
            raise EngineFailure("the engine process exited")
        return super().apply(action)


def test_an_engine_that_fails_mid_game_is_a_difference():
    result = run_fuzz(_Crashes, "classic", 4, 50, 0, None)
    assert result.status == "fail" and result.kind == "engine"
    assert "exited" in result.message


def test_an_engine_that_cannot_start_is_an_error():
    def cannot() -> ReferenceEngine:
        raise EngineFailure("no such program")

    result = run_fuzz(cannot, "classic", 2, 10, 0, None)
    assert result.status == "error" and "no such program" in result.message


@pytest.mark.parametrize("edition,players,n,message", [
    ("classic", 7, 10, "2-4 players"),
    ("classic", 2, 0, "at least 1"),
])
def test_bad_arguments_are_usage_errors(edition, players, n, message):
    with pytest.raises(UsageError, match=message):
        run_fuzz(ReferenceEngine, edition, players, n, 0, None)


def test_an_edition_the_engine_does_not_play_is_a_usage_error():
    classic_only = lambda: ReferenceEngine({"classic": load_spec("classic")})  # noqa: E731
    with pytest.raises(UsageError, match="does not play z-man-2019"):
        run_fuzz(classic_only, "z-man-2019", 2, 5, 0, None)


class _RefusesThenCheats(ReferenceEngine):
    """Refuses an illegal action as it should, but scores a token for its player while at it."""

    def apply(self, action: dict) -> Reply:
        reply = super().apply(action)
        if not reply.accepted and self.game is not None:
            self.game.tokens[self.game.current] += 1
        return reply


def test_a_refusal_that_changes_the_state_is_a_difference():
    result = run_fuzz(_RefusesThenCheats, "classic", 3, 100, 0, None)
    assert result.status == "fail" and result.kind == "state"
    assert "refused the illegal action" in result.message and "tokens" in result.message


class _KeepsNoTokens(ReferenceEngine):
    """Plays right but keeps no favour tokens (like an engine that plays single rounds)."""

    def __init__(self) -> None:
        super().__init__()
        self.hello = replace(self.hello, capabilities=frozenset({"legal_actions"}))

    def apply(self, action: dict) -> Reply:
        reply = super().apply(action)
        if reply.state is not None:
            reply.state["tokens"] = [0] * len(reply.state["tokens"])
        return reply


def test_a_known_deviation_can_be_looked_past():
    guard_may_name_guard = variants.mutated("classic", (("guard.guess", "guess",
                                                           lambda edition, rule: {**rule, "exclude": []}),))
    assert run_fuzz(get("guard-may-name-guard").engine, guard_may_name_guard, 3, 40, 0, None).ok
    found = run_fuzz(_KeepsNoTokens, "classic", 3, 40, 0, None)
    assert found.status == "fail" and "tokens" in found.message
    assert run_fuzz(_KeepsNoTokens, "classic", 3, 40, 0, None, ignore=("tokens",)).ok


def test_a_case_that_cannot_be_saved_is_said_and_the_difference_kept(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    result = run_fuzz(get("counterclockwise").engine, "classic", 3, 20, 0, blocked)
    assert result.status == "fail" and result.saved is None and result.replay is not None
    assert "could not be saved" in result.message


@pytest.mark.parametrize("edition,players", [("classic", 4), ("z-man-2019", 3), ("premium", 5)])
def test_a_probe_is_never_a_legal_action(edition, players):
    probes = 0
    for game in positions(edition, players, range(20)):
        legal = game.legal_actions()
        for byte in (0, 77, 255):
            probe = near_miss(game, legal, Tape(bytes([byte])))
            if probe is not None:
                probes += 1
                assert probe not in legal
    assert probes > 100


def test_an_action_the_reference_accepts_is_not_sent_as_a_probe():
    spec = load_spec("classic")
    step = Differential(ReferenceEngine(), spec, 2)
    step.start([spec.names[c] for c in spec.deck(2)], 0, None)
    legal = step.legal()
    assert step.probe(legal[0]) is False
    assert step.record.rounds[-1][1] == []
    held = step.reference.hand_names(step.reference.current)
    illegal = Action("play", next(name for name in spec.names if name not in held))
    assert step.probe(illegal) is True
    assert step.record.rounds[-1][1][-1].probe


@pytest.mark.parametrize("n,seed", [(1, 0), (7, 0), (50, 1), (200, 2)])  # (200, 2) takes two runs
def test_exactly_n_games_are_played(n, seed):
    """Regression: `--fuzz 200` played 192 games and `--fuzz 7` ten (games of hypothesis's simplest
    example, and every game of horizon 0, were left uncounted but not made up for)."""
    result = run_fuzz(ReferenceEngine, "classic", 2, n, seed, None)
    assert result.status == "pass", result.message
    assert result.games == n
    assert result.message.startswith(f"no difference in {n} game{'s' if n > 1 else ''} (")


class _RefusesAtTwoTokens(ReferenceEngine):
    """Plays a reading whose token target is lower: refuses a start where someone holds two tokens."""

    def start(self, edition, players, deck, first_player=0, tokens=None):
        if tokens is not None and max(tokens) >= 2:
            return Reply(False, reason="a game cannot start won [it-2019.tokens.target]",
                         clause="it-2019.tokens.target")
        return super().start(edition, players, deck, first_player, tokens)


def test_a_refusal_naming_a_clause_is_blamed_on_the_edition_clause_of_that_key_first():
    spec = load_spec("z-man-2019")
    step = Differential(_RefusesAtTwoTokens(), spec, 3)
    with pytest.raises(Found) as info:
        step.start([spec.names[c] for c in spec.deck(3)], 0, [0, 2, 0])
    assert info.value.clauses[0] == "z19.tokens.target"
    assert "z19.setup.deck" in info.value.clauses


_GUARDS = [{"type": "play", "card": "Guard", "target": 1, "guess": name}
           for name in ("Priest", "Baron", "King")]


@pytest.mark.parametrize("got, differs", [
    (_GUARDS, False),
    (_GUARDS[::-1], False),                                  # another order: the same set
    ([{**a, "x-note": "kept"} for a in _GUARDS], False),     # a key the formats do not define
    (_GUARDS[:2], True),                                     # one missing
    ([*_GUARDS[:2], _GUARDS[0]], True),                      # one listed twice, one missing
    ([*_GUARDS[::-1], {**_GUARDS[0], "guess": "Prince"}], True),  # one more, illegal
    ([{**_GUARDS[2], "target": True}, *_GUARDS[:2]], True),  # `true` is not the seat 1, in any order
    ([{**_GUARDS[2], "target": 1.0}, *_GUARDS[:2]], True),   # a seat is a whole number: 1.0 is not one
    ([*_GUARDS[:2], "Guard"], True),                         # an item that is no action
    ({"actions": _GUARDS}, True),
])
def test_legal_lists_compare_as_sets_of_json_actions(got, differs):
    assert legal_differs(_GUARDS, got) is differs


def test_keeps_in_another_order_are_the_same_legal_list():
    keeps = [{"type": "keep", "card": "Guard", "return": ["Priest", "Baron"]},
             {"type": "keep", "card": "Priest", "return": ["Guard", "Baron"]}]
    assert not legal_differs(keeps, keeps[::-1])
    assert legal_differs(keeps, [keeps[0], {**keeps[1], "return": ["Baron", "Guard"]}])  # another order
