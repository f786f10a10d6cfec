"""The zoo of badly behaved engines (tests/engines/hostile/): each one ends exactly as
docs/robustness.md says, every case is reported, the run goes on to the next case, and no
process the engine started is left behind."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time

import pytest
from hostile import CORPUS, PROC, ZOO, no_survivors, zoo

from llcheck.cli import main
from llcheck.engines import EngineFailure, EngineGone, SubprocessEngine
from llcheck.engines.loader import serve_command
from llcheck.engines.pipes import STDERR_TAIL

pytestmark = pytest.mark.skipif(not PROC.is_dir(), reason="finding leftover processes needs /proc")

ALL = ("runner/guard-hit", "runner/refusals", "runner/bad-deck", "runner/two-rounds", "runner/views-only")
SKIPS = {"runner/two-rounds": ("not_applicable", "needs capability games"),
         "runner/views-only": ("skipped", "needs capability views")}
"""What a zoo engine claiming no optional capability cannot run."""
TWO = ["--run", "runner/guard-hit", "--run", "runner/bad-deck"]
"""Two cases, for the slower engines: enough to see the run go on with a fresh engine."""


@pytest.fixture
def token():
    with no_survivors() as value:
        yield value


def errored_all(message: str | list[str]) -> dict[str, tuple[str, str]]:
    """The three cases a zoo engine without capabilities runs, errored at their deal with `message`
    (one per case)."""
    messages = message if isinstance(message, list) else [message] * 3
    return {**{case: dealing(text) for case, text in zip(ALL, messages, strict=False)}, **SKIPS}


def dealing(message: str) -> tuple[str, str]:
    """A case errored at the deal of its first round with `message`."""
    return "errored", f"round 1, deal: {message}"


def check(capsys, tmp_path, token, impl, *options):
    """Run llcheck check on the small corpus; (exit code, {case: (status, message)}, stderr)."""
    stream = tmp_path / "results.jsonl"
    code = main(["check", "--corpus", CORPUS, "--impl", impl, "--engine-env", f"ZOO_TOKEN={token}",
                 "--results", str(stream), "-q", *options])
    _, err = capsys.readouterr()
    lines = [json.loads(line) for line in stream.read_text().splitlines()]
    results = [line for line in lines if line["type"] == "result"]
    if lines:
        assert [line["type"] for line in lines] == ["header"] + ["result"] * len(results) + ["summary"]
        assert lines[-1]["summary"]["total"] == len(results)
    return code, {r["id"]: (r["status"], r["message"]) for r in results}, err


def controls_message(request: int) -> str:
    """An error full of terminal escapes, as reported: escaped, on one line, cut at 500 characters."""
    escaped = "\\x1b[2J\\x1b[31mboom\\x07 second line "
    text = f"engine error on start (request {request}): {escaped}" + "x" * 10_000
    return f"{text[:500]}... ({len(text) - 500} more characters)"


OUTCOMES = [
    ("not JSON", zoo("bad_answer.py", "not-json"), [], 1, errored_all(
        'the answer to start (request 2) is not JSON (Expecting value: line 1 column 1 (char 0)): '
        '"Segmentation fault (core dumped)"')),
    ("truncated JSON", zoo("bad_answer.py", "truncated"), [], 1, errored_all(
        "the engine exited with code 0 in the middle of its answer to start (request 2) "
        "(36 bytes, no line break)")),
    ("not an object", zoo("bad_answer.py", "not-an-object"), [], 1, errored_all(
        'the answer to start (request 2) is unusable: a message must be a JSON object, not an array: '
        '"[1, 2, 3]"')),
    ("error not a string", zoo("bad_answer.py", "error-object"), [], 1, errored_all(
        [f'engine error on start (request {n}): (not a string) {{"code": 7}}' for n in (2, 3, 4)])),
    ("no ok", zoo("bad_answer.py", "no-ok"), [], 1, errored_all(
        'the answer to start (request 2) has no "ok": true or false')),
    ("breaks the schema", zoo("bad_answer.py", "schema"), [], 1, errored_all(
        "the answer to start (request 2): field 'events' must be an array, not a string")),
    ("breaks the schema, validated", zoo("bad_answer.py", "schema"), ["--validate-protocol"], 1, errored_all(
        [f"the answer to start (request {n}) breaks the protocol schema at events: 'none' is not of type "
         f"'array'" for n in (2, 3, 4)])),
    ("NaN", zoo("bad_answer.py", "nan"), [], 1, errored_all(
        'the answer to start (request 2) is not JSON (NaN is not a JSON value): '
        '"{"id": 2, "ok": true, "accepted": true, "events": [], "state..."')),
    ("nested 100,000 deep", zoo("bad_answer.py", "deep"), [], 1, errored_all(
        'the answer to start (request 2) is not JSON (nested too deeply): "' + "[" * 60 + '..."')),
    ("a 5,000-digit number", zoo("bad_answer.py", "huge-number"), [], 1, errored_all(
        "the answer to start (request 2) is not JSON (Exceeds the limit (4300 digits) for integer string "
        "conversion: value has 5001 digits; use sys.set_int_max_str_digits() to increase the limit): "
        '"' + ('{"id": 2, "ok": true, "n": 1' + "0" * 60)[:60] + '..."')),
    ("bad UTF-8", zoo("bad_answer.py", "bad-utf8"), [], 1, errored_all(
        "the answer to start (request 2) is not JSON ('utf-8' codec can't decode byte 0xe9 in position 36: "
        'invalid continuation byte): "{"id": 2, "ok": false, "error": "caf\ufffd"}"')),
    ("a line of 100 MB", zoo("bad_answer.py", "huge-line"), [], 1, errored_all(
        "the answer to start (request 2) is longer than 16 MiB without a line break")),
    ("answers another request", zoo("bad_answer.py", "stale"), [], 1, errored_all(
        "the answer to start (request 2) carries id 1")),
    ("terminal escapes in its error", zoo("bad_answer.py", "controls"), [], 1, errored_all(
        [controls_message(n) for n in (2, 3, 4)])),
    ("dies in the middle of a case", zoo("dies_mid_case.py"), [], 1, {
        **dict.fromkeys(ALL, ("passed", "")), "runner/refusals": (
            "errored", "round 1, step 2 (Guard on 0 naming Priest): the engine exited with code 1 before "
                       "answering apply (request 11); stderr: ZeroDivisionError: division by zero")}),
    ("hangs", zoo("hangs.py"), ["--timeout", "0.5", *TWO], 1, dict.fromkeys(
        TWO[1::2], dealing("no answer to start (request 2) within 0.5s"))),
    ("hangs, the case's limit", zoo("hangs.py"), ["--case-timeout", "0.5", *TWO], 1, dict.fromkeys(
        TWO[1::2], dealing("the case took longer than 0.5s (no answer to start (request 2) yet)"))),
    ("is slower than the case's limit", zoo("slow.py"),
     ["--engine-env", "SLOW_FROM=4", "--case-timeout", "3", "--run", "runner/guard-hit", "--run",
      "runner/bad-deck"], 1, {
         "runner/guard-hit": dealing("the case took longer than 3s (no answer to view (request 4) yet)"),
         "runner/bad-deck": ("passed", "")}),
    ("is slower than the request's limit", zoo("slow.py"),
     ["--timeout", "0.2", "--run", "runner/bad-deck"], 1,
     {"runner/bad-deck": dealing("no answer to start (request 2) within 0.2s")}),
    ("floods stderr", zoo("stderr_flood.py"), [], 0, dict.fromkeys(ALL, ("passed", ""))),
    ("refuses everything", zoo("refuses_everything.py"), [], 1, {
        "runner/guard-hit": ("failed", "round 1, deal: deal refused: the engine refused the deal: "
                                       "not implemented yet"),
        "runner/refusals": ("failed", "round 1, deal: deal refused: the engine refused the deal: "
                                      "not implemented yet"),
        "runner/bad-deck": ("passed", ""), **SKIPS}),
    ("errors everywhere", zoo("errors_everywhere.py"), [], 1, errored_all(
        [f"engine error on start (request {n}): not implemented yet" for n in (2, 3, 4)])),
    ("leaves a daemon behind", zoo("escapes.py"), [], 0, dict.fromkeys(ALL, ("passed", ""))),
    ("runs out of memory", zoo("eats_memory.py"), ["--engine-memory", "256", *TWO], 1, dict.fromkeys(
        TWO[1::2], dealing("the engine exited with code 1 before answering start (request 2); "
                           "stderr: MemoryError"))),
    ("closes its output", zoo("closes_stdout.py"), ["--run", "runner/guard-hit"], 1, {
        "runner/guard-hit": dealing("the engine closed its output before answering start (request 2)")}),
]


@pytest.mark.parametrize(("impl", "options", "code", "outcomes"), [o[1:] for o in OUTCOMES],
                         ids=[o[0] for o in OUTCOMES])
def test_each_case_ends_as_promised(capsys, tmp_path, token, impl, options, code, outcomes):
    assert check(capsys, tmp_path, token, impl, *options)[:2] == (code, outcomes)


HANDSHAKES = [
    (zoo("dies_at_start.py"), "the engine exited with code 127 before answering hello (request 1); "
                              "stderr: engine: error while loading shared libraries: libcards.so.2: cannot "
                              "open shared object file"),
    (zoo("noisy_start.py"), 'the answer to hello (request 1) is not JSON (Expecting value: line 1 column 1 '
                            '(char 0)): "LoveLetter engine v2.1 -- ready"'),
    (zoo("wrong_protocol.py"), "handshake: the engine speaks protocol '2'; llcheck speaks '1'"),
]


@pytest.mark.parametrize(("impl", "reason"), HANDSHAKES, ids=["dies at start", "noise before hello",
                                                               "another protocol"])
def test_an_engine_that_cannot_even_start_is_exit_3(capsys, tmp_path, token, impl, reason):
    code, results, err = check(capsys, tmp_path, token, impl)
    assert code == 3
    assert results == {"engine/start": ("errored", f"cannot talk to the engine {impl}: {reason}")}
    assert err == f"llcheck check: cannot talk to the engine {impl}: {reason}\n"


def test_the_command_runs_without_a_shell_where_and_as_the_user_says(capsys, tmp_path, token):
    report = ("import os, resource, sys; sys.exit(' '.join(sys.argv[1:]) + ' | ' + os.environ['GREETING'] + "
              "' in ' + os.getcwd() + ' | core ' + str(resource.getrlimit(resource.RLIMIT_CORE)[0]) + "
              "' data ' + str(resource.getrlimit(resource.RLIMIT_DATA)[0] >> 20))")
    impl = shlex.join([sys.executable, "-c", report, "$HOME", "`id`", "; rm -rf nothing", "*"])
    code, _, err = check(capsys, tmp_path, token, impl, "--engine-env", "GREETING=bonjour",
                         "--engine-cwd", str(tmp_path), "--engine-memory", "300")
    assert code == 3
    assert err.endswith(f"stderr: $HOME `id` ; rm -rf nothing * | bonjour in {tmp_path} | core 0 data 300\n")


def test_the_whole_zoo_in_one_run_reports_every_case_and_leaves_nothing(tmp_path, token):
    plan = ["bad_answer:not-json", "hangs", "dies_mid_case", "bad_answer:truncated", "noisy_start",
            "bad_answer:huge-line", "closes_stdout", "bad_answer:stale", "eats_memory", "bad_answer:schema",
            "dies_at_start", "escapes"]
    stream = tmp_path / "results.jsonl"
    command = [sys.executable, "-m", "llcheck", "check", "--impl", zoo("zoo.py"), "--edition", "classic",
               "--run", "classic.setup.*", "--run", "classic.prince.*", "--jobs", "2", "--timeout", "0.5",
               "--engine-memory", "256", "--results", str(stream), "-q",
               "--engine-env", f"ZOO_TOKEN={token}", "--engine-env", f"ZOO_PLAN={','.join(plan)}",
               "--engine-env", f"ZOO_COUNTER={tmp_path / 'starts'}"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in run.stdout + run.stderr
    lines = [json.loads(line) for line in stream.read_text().splitlines()]
    results = [line for line in lines if line["type"] == "result"]
    not_run = any(r["message"].startswith("not run: ") for r in results)  # two failed restarts in a row
    assert run.returncode == (3 if not_run else 1), run.stderr
    assert len(results) == lines[-1]["summary"]["total"] == 15
    assert {r["status"] for r in results} <= {"passed", "errored", "skipped", "not_applicable"}
    assert all(r["message"] and "\n" not in r["message"] for r in results if r["status"] == "errored")
    assert len((tmp_path / "starts").read_text()) > len(plan) // 2  # the engine was restarted again and again


# -- the engine object, without the command line -------------------------------------------------


def test_an_engine_that_stops_reading_cannot_block_the_harness(token):
    engine = SubprocessEngine([sys.executable, str(ZOO / "deaf.py")], timeout=0.5,
                              env={"ZOO_TOKEN": token})
    with pytest.raises(EngineGone, match=r"^the engine did not read apply \(request 2\) within 0.5s$"):
        engine.apply({"type": "play", "card": "Guard" * 200_000})
    engine.close()


def test_a_case_out_of_time_between_requests_keeps_the_engine():
    with SubprocessEngine(serve_command()) as engine:
        with engine.time_limit(0.001):
            time.sleep(0.01)
            with pytest.raises(EngineFailure) as info:
                engine.state()
        assert str(info.value) == "the case took longer than 0.001s (stopped before state (request 2))"
        assert not isinstance(info.value, EngineGone)
        assert engine.start("classic", 2, [], 0).accepted is False


def test_stderr_is_drained_and_only_its_tail_kept(token):
    with SubprocessEngine([sys.executable, str(ZOO / "stderr_flood.py")], env={"ZOO_TOKEN": token}) as engine:
        for _ in range(8):
            assert not engine.start("classic", 2, [], 0).accepted
        assert engine.stderr.total > 4 << 20
        assert len(engine.stderr.tail) <= STDERR_TAIL
        assert engine.stderr.last().startswith("debug: handling start ....")


def test_the_harness_exiting_kills_an_engine_nobody_closed(tmp_path, token):
    hangs = str(ZOO / "hangs.py")
    script = ("import sys; from llcheck.engines import SubprocessEngine; "
              f"SubprocessEngine([sys.executable, {hangs!r}], env={{'ZOO_TOKEN': {token!r}}}); "
              "print('started', flush=True)")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert run.stdout == "started\n", run.stderr


def test_the_replay_runs_the_engine_as_the_run_did(capsys, tmp_path, token):
    options = ["--engine-env", "SLOW_SECONDS=30", "--timeout", "0.2", "--engine-memory", "512",
               "--engine-cwd", str(tmp_path), "--run", "runner/bad-deck"]
    expected = {"runner/bad-deck": dealing("no answer to start (request 2) within 0.2s")}
    assert check(capsys, tmp_path, token, zoo("slow.py"), *options)[:2] == (1, expected)
    result = json.loads((tmp_path / "results.jsonl").read_text().splitlines()[1])
    replay = shlex.split(result["replay"])
    assert replay[:2] == ["llcheck", "check"] and "--engine-cwd" in replay and "--engine-memory" in replay
    stream = tmp_path / "replayed.jsonl"
    assert main([*replay[1:], "--results", str(stream)]) == 1
    replayed = json.loads(stream.read_text().splitlines()[1])
    assert {replayed["id"]: (replayed["status"], replayed["message"])} == expected
