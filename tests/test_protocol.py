"""The protocol as `llcheck serve` speaks it: every message both ways follows the published
schema, errors are answered (never crash the server), and the first request must be hello."""

from __future__ import annotations

import io
import json
import random
import re
import shlex
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from conftest import deal, play

from llcheck.cli import main
from llcheck.engines import ReferenceEngine, SubprocessEngine
from llcheck.engines.server import Server
from llcheck.harness.cases import load_corpus
from llcheck.harness.runner import run_case
from llcheck.protocol import schema_path, schema_problem
from llcheck.protocol.schema import response_definition
from loveletter_ref.spec import known_specs, load_spec

TESTS = Path(__file__).parent
CASES = load_corpus(TESTS / "cases")
HELLO = b'{"id": 1, "op": "hello", "protocol": "1"}'


def test_the_schema_is_valid_2020_12():
    jsonschema.Draft202012Validator.check_schema(json.loads(schema_path().read_text(encoding="utf-8")))


def test_every_message_both_ways_follows_the_schema(tmp_path):
    """Record a whole run through tee on both pipes, then validate every line."""
    requests, answers = tmp_path / "requests.jsonl", tmp_path / "answers.jsonl"
    serve = shlex.join([sys.executable, "-m", "llcheck", "serve"])
    command = ["sh", "-c", f"tee {shlex.quote(str(requests))} | {serve} | tee {shlex.quote(str(answers))}"]
    with SubprocessEngine(command) as engine:
        assert [run_case(engine, case).status for case in CASES] == ["passed"] * len(CASES)
    sent = [json.loads(line) for line in requests.read_text().splitlines()]
    got = [json.loads(line) for line in answers.read_text().splitlines()]
    assert len(sent) == len(got) > 20
    assert {m["op"] for m in sent} == {"hello", "start", "next_round", "legal_actions", "apply", "state",
                                       "view", "stop"}
    for request, answer in zip(sent, got, strict=True):
        assert schema_problem(request, "request") is None, request
        assert answer["id"] == request["id"]
        assert schema_problem(answer, response_definition(request["op"], answer)) is None, answer


@pytest.mark.parametrize(("line", "answer"), [
    (b"not json", {"id": None, "ok": False, "error": "not JSON (Expecting value: line 1 column 1 (char 0))"}),
    (b"[1, 2]", {"id": None, "ok": False, "error": "a message must be a JSON object, not an array"}),
    (b'{"op": "state"}', {"id": None, "ok": False,
                          "error": "every request needs an 'id': a non-negative integer"}),
    (b'{"id": 4, "op": "peek"}', {"id": 4, "ok": False, "error": "unknown op 'peek' (known: hello, start, "
                                  "next_round, legal_actions, apply, state, view, stop)"}),
    (b'{"id": 5, "op": "state"}', {"id": 5, "ok": False, "error": "the first request must be hello"}),
    (b'{"id": 6, "op": "hello", "protocol": "2"}',
     {"id": 6, "ok": False, "error": "this engine speaks protocol '1', not '2'"}),
    (b"\xff\xfe", {"id": None, "ok": False, "error": "not JSON ('utf-8' codec can't decode byte 0xff in "
                                                   "position 0: invalid start byte)"}),
])
def test_bad_requests_get_error_answers(line, answer):
    server = Server(ReferenceEngine())
    assert server.respond(line) == answer
    assert schema_problem(answer, "response_error") is None


def test_errors_after_the_handshake():
    server = Server(ReferenceEngine())
    assert server.respond(HELLO)["ok"] is True
    assert server.respond(b'{"id": 2, "op": "state"}') == \
        {"id": 2, "ok": False, "error": "no game has been started"}
    assert server.respond(b'{"id": 3, "op": "start", "edition": "classic", "players": "two"}') == \
        {"id": 3, "ok": False, "error": "field 'players' must be a number of players, not a string"}
    refused = server.respond(b'{"id": 4, "op": "start", "edition": "classic", "players": 2, '
                             b'"deck": ["Guard"], "first_player": 0, "tokens": [0, 0]}')
    assert refused["accepted"] is False
    assert refused["reason"].startswith("deck is not a classic deck for 2 players")
    assert schema_problem(refused, "response_start") is None


def test_a_refused_start_leaves_the_game_in_progress_as_it_was():
    engine = ReferenceEngine()
    deck = [c.name for c in load_spec("classic").cards for _ in range(c.count_for(2))]
    assert engine.start("classic", 2, deck, 0, [0, 0]).accepted
    before = engine.state()
    for players, first, tokens in ((2, 5, [0, 0]), (9, 0, None), (2, 0, [0])):
        assert not engine.start("classic", players, deck, first, tokens).accepted
        assert engine.state() == before


def test_serve_answers_on_stdout_only():
    lines = b"\n".join([HELLO, b'{"id": 2, "op": "bogus"}', b'{"id": 3, "op": "stop"}',
                        b'{"id": 4, "op": "state"}'])
    run = subprocess.run([sys.executable, "-m", "llcheck", "serve"], input=lines + b"\n", capture_output=True,
                         timeout=60)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 0 and run.stderr == b""
    assert [a["id"] for a in answers] == [1, 2, 3]
    assert answers[0]["name"] == "loveletter-reference"


def test_serve_keeps_memory_bounded_and_its_stdout_for_the_protocol(capsys, monkeypatch):
    """A request line over the limit is answered with an error and serving goes on; what an
    in-process adapter prints goes to stderr, not into the answers."""
    from llcheck.engines import server as server_module
    monkeypatch.setattr(server_module, "MAX_LINE", 1000)

    class Chatty(ReferenceEngine):
        def state(self):
            print("debugging the state")
            return super().state()

    lines = [b"x" * 5000, HELLO, b'{"id": 2, "op": "state"}', b'{"id": 3, "op": "stop"}']
    out = io.BytesIO()
    server_module.serve(Chatty(), io.BytesIO(b"\n".join(lines) + b"\n"), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0] == {"id": None, "ok": False, "error": "request longer than 1,000 bytes"}
    assert [a["id"] for a in answers[1:]] == [1, 2, 3]
    captured = capsys.readouterr()
    assert "debugging the state" in captured.err and captured.out == ""
    assert b"debugging" not in out.getvalue()


def test_serve_a_spec_file(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Bytes(HELLO + b"\n"))
    out = _Bytes(b"")
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["serve", "--spec", "classic"]) == 0
    hello = json.loads(out.buffer.getvalue())
    assert (hello["editions"], hello["name"]) == (["classic"], "loveletter-reference (classic)")


@pytest.mark.parametrize(("args", "message"), [
    (["--impl", "node engine.js"], "--impl must be reference or python:MODULE:CLASS, not 'node engine.js'"),
    (["--spec", "classic", "--impl", "python:adapters:DropDiscards"],
     "--spec serves the reference engine; it cannot be combined with --impl"),
    (["--spec", "classic", "--spec", "classic"], "--spec classic: classic is already served as classic"),
])
def test_serve_bad_usage(capsys, args, message):
    assert main(["serve", *args]) == 2
    assert capsys.readouterr().err == f"llcheck serve: {message}\n"


class _Bytes:
    """A text stream stand-in with a binary `buffer`, for sys.stdin and sys.stdout."""

    def __init__(self, data: bytes):
        self.buffer = io.BytesIO(data)


def bundled_editions() -> list[str]:
    return [name for name, path in known_specs().items() if path.parent.name == "editions"]


@pytest.mark.parametrize("edition", bundled_editions())
def test_random_games_of_every_edition_follow_the_schema(edition):
    """Every answer the reference server gives in seeded random games, every player count."""
    spec = load_spec(edition)
    rng = random.Random(7)
    for players in range(spec.min_players, spec.max_players + 1):
        server = Server(ReferenceEngine())
        ask = _Asker(server)
        ask("hello", protocol="1")
        deck = [spec.names[c] for c in spec.deck(players)]
        rng.shuffle(deck)
        ask("start", edition=edition, players=players, deck=deck, first_player=0, tokens=[0] * players)
        for _ in range(60):
            actions = ask("legal_actions")["actions"]
            if not actions:
                ask("next_round", deck=rng.sample(deck, len(deck)))
                continue
            ask("apply", action=rng.choice(actions))
            ask("view", player=rng.randrange(players))


class _Asker:
    """Sends requests to a server in process and checks every answer against the schema."""

    def __init__(self, server: Server):
        self.server = server
        self.number = 0

    def __call__(self, op: str, **fields: object) -> dict:
        self.number += 1
        request = {"id": self.number, "op": op, **fields}
        assert schema_problem(request, "request") is None
        answer = self.server.respond(json.dumps(request).encode())
        problem = schema_problem(answer, response_definition(op, answer))
        assert problem is None, f"{op}: {problem}"
        assert answer["ok"] is True, answer
        return answer


PREMIUM_FORMS = {
    "action play targets", "action play look", "action respond", "event trade targets", "event counter",
    "event predict", "event force_target", "event respond", "event token bonus", "event guess by value",
    "pending respond", "mark prediction", "mark forced_target",
}
"""What Premium adds to the messages (docs/formats.md), each of which seeded games must produce."""


def premium_forms(answer: dict) -> set[str]:
    """The Premium message forms one answer holds."""
    forms = set()
    for event in answer.get("events", []):
        forms.add(f"event {event['type']}")
        forms |= {f"event {event['type']} {key}" for key in ("targets", "look") if key in event}
        if event["type"] == "token":
            forms.add(f"event token {event['reason']}")
        if event["type"] == "guess" and isinstance(event["guess"], int):
            forms.add("event guess by value")
    state = answer.get("state") or {}
    forms |= {f"mark {mark['kind']}" for mark in state.get("marks", [])}
    if state.get("pending"):
        forms.add(f"pending {state['pending']['kind']}")
    for action in answer.get("actions", []):
        forms.add(f"action {action['type']}")
        forms |= {f"action {action['type']} {key}" for key in ("targets", "look") if key in action}
    return forms


def test_seeded_premium_games_with_five_to_eight_players_use_every_new_form_within_the_schema():
    """Whole games through the server: every answer validates, and every Premium form turns up."""
    spec = load_spec("premium")
    seen: set[str] = set()
    for seed in range(16):
        rng = random.Random(seed)
        players = 5 + seed % 4
        ask = _Asker(Server(ReferenceEngine()))
        ask("hello", protocol="1")
        deck = [spec.names[c] for c in spec.deck(players)]
        ask("start", edition="premium", players=players, deck=rng.sample(deck, len(deck)), first_player=0,
            tokens=[0] * players)
        while ask("state")["state"]["phase"] != "game_over":
            answer = ask("legal_actions")
            seen |= premium_forms(answer)
            if not answer["actions"]:
                ask("next_round", deck=rng.sample(deck, len(deck)))
                continue
            seen |= premium_forms(ask("apply", action=rng.choice(answer["actions"])))
            ask("view", player=rng.randrange(players))
    assert PREMIUM_FORMS - seen == set()


GOOD_PLAY = {"type": "play", "card": "Cardinal", "targets": [1, 3], "look": 3}


@pytest.mark.parametrize(("message", "definition", "problem"), [
    ({"id": 1, "op": "apply", "action": {**GOOD_PLAY, "targets": []}}, "request",
     "action.targets: [] should be non-empty"),
    ({"id": 1, "op": "apply", "action": {**GOOD_PLAY, "targets": [1, 2, 3]}}, "request",
     "action.targets: [1, 2, 3] is too long"),
    ({"id": 1, "op": "apply", "action": {**GOOD_PLAY, "targets": [2, 2]}}, "request",
     "action.targets: [2, 2] has non-unique elements"),
    ({"id": 1, "op": "apply", "action": {"type": "respond", "card": "Bishop"}}, "request",
     "action: 'redraw' is a required property"),
    ({"id": 1, "op": "apply", "action": {"type": "respond", "card": "Bishop", "redraw": "yes"}}, "request",
     "action.redraw: 'yes' is not of type 'boolean'"),
    ({"id": 1, "ok": True, "accepted": True, "state": {}, "events": [
        {"type": "trade", "player": 0, "targets": [2], "cards": ["Guard", "King"]}]}, "response_apply",
     "events[0].targets: [2] is too short"),
    ({"id": 1, "ok": True, "accepted": True, "state": {}, "events": [
        {"type": "counter", "player": 1, "target": 0}]}, "response_apply",
     "events[0]: 'card' is a required property"),
    ({"id": 1, "ok": True, "accepted": True, "state": {}, "events": [
        {"type": "token", "player": 1, "amount": 1, "reason": "jester"}]}, "response_apply",
     "events[0].reason: 'jester' is not one of ['round', 'bonus']"),
])
def test_the_schema_names_what_is_wrong_with_a_premium_message(message, definition, problem):
    found = schema_problem(message, definition)
    assert found is not None and problem in found, found


def test_premium_state_keys_are_checked(premium_state):
    assert schema_problem({"id": 1, "ok": True, "state": premium_state}, "response_state") is None
    bad_mark = {**premium_state, "marks": [{"kind": "prediction", "target": 2, "card": "Jester"}]}
    assert "'player' is a required property" in schema_problem({"id": 1, "ok": True, "state": bad_mark},
                                                               "response_state")
    bad_pending = {**premium_state, "pending": {"kind": "respond", "player": 1}}
    assert schema_problem({"id": 1, "ok": True, "state": bad_pending}, "response_state") is not None


@pytest.fixture
def premium_state() -> dict:
    """A five-player Premium state with a prediction mark (a Jester played on seat 1)."""
    game = deal("premium", 5, ["Jester", "King", "Guard", "Guard", "Guard"], ["Bishop", "Priest"])
    game.apply(play("Jester", 1))
    return game.state()


def test_check_drives_serve_through_premium_cases_with_every_answer_validated(capsys):
    """`llcheck check --validate-protocol` against `llcheck serve` (the default engine), on the
    Premium cases with the new message forms: multi-player choices, the Bishop's offer, marks."""
    groups = ("cardinal", "baroness", "bishop", "sycophant", "jester", "assassin")
    runs = [f"premium.{group}.*" for group in groups]
    code = main(["check", "--edition", "premium", "--validate-protocol", "-q",
                 *(arg for run in runs for arg in ("--run", run))])
    out = capsys.readouterr().out
    assert code == 0, out[-2000:]
    assert "via python -m llcheck serve" in out
    passed = re.search(r"(\d+) passed, 0 failed, 0 errored, 0 skipped", out)
    assert passed and int(passed.group(1)) >= 20, out[-500:]


@pytest.mark.parametrize("field, value", [("state", None), ("events", [])])
def test_a_field_a_refused_reply_may_not_carry_is_named(field, value):
    reply = {"id": 2, "ok": True, "accepted": False, "reason": "no", field: value}
    assert schema_problem(reply, "response_apply") == f"{field}: field not allowed here"


def test_a_point_the_rules_do_not_decide_is_an_error_answer_without_a_traceback(capsys):
    """sl-en-2019 does not say who plays after the first player with three players."""
    spec = load_spec("sl-en-2019")
    game = deal(spec, 3, ["Guard", "Priest", "Baron"], ["Handmaid"])
    server = Server(ReferenceEngine({"sl-en-2019": spec}))
    server.respond(HELLO)
    start = {"id": 2, "op": "start", "edition": "sl-en-2019", "players": 3,
             "deck": game.record[0]["deck"], "first_player": 0, "tokens": [0, 0, 0]}
    assert server.respond(json.dumps(start).encode())["accepted"] is True
    guard = {"id": 3, "op": "apply", "action": play("Guard", 1, "Baron").to_json()}
    answer = server.respond(json.dumps(guard).encode())
    assert (answer["id"], answer["ok"]) == (3, False)
    assert answer["error"].startswith("the rules are silent here: ")
    assert answer["error"].endswith("[sl-en-2019.turn.order]")
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("edition", ["/etc/passwd", "", "spec/editions/classic.yaml", "nonesuch"])
def test_an_edition_hello_does_not_list_is_refused_without_reading_any_file(capsys, edition):
    server = Server(ReferenceEngine())
    server.respond(HELLO)
    start = {"id": 2, "op": "start", "edition": edition, "players": 2, "deck": [], "first_player": 0,
             "tokens": [0, 0]}
    answer = server.respond(json.dumps(start).encode())
    assert (answer["ok"], answer["error"].split(" (it plays")[0]) == \
        (False, f"loveletter-reference does not play {edition!r}")
    assert "classic" in answer["error"] and "root:" not in answer["error"]
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("kind", [["play"], {"play": 1}, 7, None])
def test_an_action_type_that_is_not_a_string_is_a_malformed_action(capsys, kind):
    engine = ReferenceEngine()
    deck = [c.name for c in load_spec("classic").cards for _ in range(c.count_for(2))]
    assert engine.start("classic", 2, deck, 0, [0, 0]).accepted
    reply = engine.apply({"type": kind, "card": "Guard"})
    assert not reply.accepted
    assert reply.reason == f"malformed action: action type must be one of play, keep, respond, not {kind!r}"
    assert capsys.readouterr().err == ""


def test_stop_ends_a_session_even_before_hello():
    server = Server(ReferenceEngine())
    assert server.respond(b'{"id": 1, "op": "stop"}') == {"id": 1, "ok": True}
    assert server.stopped


def test_a_refused_deck_names_the_rule_in_the_clause_field():
    server = Server(ReferenceEngine())
    server.respond(HELLO)
    start = {"id": 2, "op": "start", "edition": "classic", "players": 2, "deck": ["Guard"] * 16,
             "first_player": 0, "tokens": [0, 0]}
    refused = server.respond(json.dumps(start).encode())
    assert (refused["accepted"], refused["clause"]) == (False, "classic.setup.deck")
    assert schema_problem(refused, "response_start") is None
    won = {**start, "deck": [c.name for c in load_spec("classic").cards for _ in range(c.count_for(2))],
           "tokens": [7, 0]}
    assert server.respond(json.dumps(won).encode())["clause"] == "classic.tokens.target"


def test_a_reading_served_as_its_edition_names_that_edition_in_states_and_views():
    """`llcheck serve --spec nl-2019` plays the reading when asked for z-man-2019: what it reports
    must not differ from the edition's answers by the name alone."""
    engine = ReferenceEngine({"z-man-2019": load_spec("nl-2019")})
    spec = load_spec("z-man-2019")
    reply = engine.start("z-man-2019", 2, [spec.names[c] for c in spec.deck(2)], 0, [0, 0])
    assert reply.accepted and reply.state["edition"] == "z-man-2019"
    assert engine.state()["edition"] == engine.view(1)["edition"] == "z-man-2019"
    after = engine.apply(engine.legal_actions()[0])
    assert after.state["edition"] == "z-man-2019"
