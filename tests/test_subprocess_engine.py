"""Engines over the protocol: a broken engine gives errored cases with one-line reasons, is
stopped with its whole process group, and the run goes on with a fresh one."""

from __future__ import annotations

import _thread
import os
import shlex
import sys
import threading
import time
from pathlib import Path

import pytest

from llcheck.cli import main
from llcheck.engines import EngineFailure, EngineGone, SubprocessEngine
from llcheck.engines.loader import serve_command
from llcheck.harness.cases import load_corpus
from llcheck.harness.runner import run_case, run_cases

TESTS = Path(__file__).parent
CASES = {case.id: case for case in load_corpus(TESTS / "cases")}


def broken(mode: str, **options) -> SubprocessEngine:
    return SubprocessEngine([sys.executable, str(TESTS / "engines" / "broken_engine.py"), mode], **options)


def test_the_reference_server_introduces_itself():
    with SubprocessEngine(serve_command()) as engine:
        hello = engine.hello
    assert (hello.name, hello.protocol) == ("loveletter-reference", "1")
    assert {"classic", "z-man-2019"} <= set(hello.editions)
    assert hello.capabilities == {"legal_actions", "views", "events", "games", "combined", "pipelining"}


def test_a_capability_llcheck_does_not_know_is_ignored_and_named(capsys):
    with broken("new-capability") as engine:
        assert engine.hello.ignored == ("undo",)
        assert engine.hello.capabilities == {"legal_actions", "views", "events", "games"}
    engine_command = f"{sys.executable} {TESTS / 'engines' / 'broken_engine.py'} new-capability"
    assert main(["check", "--impl", engine_command, "--corpus", str(TESTS / "cases"),
                 "--run", "runner/guard-hit", "--validate-protocol"]) == 0
    assert "capabilities: events, games, legal_actions, views; ignored, unknown to this llcheck: undo" in \
        capsys.readouterr().out


@pytest.mark.parametrize(("mode", "message"), [
    ("silent", "no answer to hello (request 1) within 0.5s"),
    ("old-protocol", "handshake: the engine speaks protocol '0'; llcheck speaks '1'"),
    ("banner", 'the answer to hello (request 1) is not JSON (Expecting value: line 1 column 1 (char 0)): '
               '"my engine 1.0 starting up"'),
])
def test_an_engine_that_cannot_be_talked_to(mode, message):
    with pytest.raises(EngineGone) as info:
        broken(mode, start_timeout=0.5 if mode == "silent" else None)
    assert str(info.value) == message


def test_a_command_that_does_not_exist():
    with pytest.raises(EngineGone,
                       match=r"^cannot start 'no-such-engine-here': no such program on the PATH$"):
        SubprocessEngine("no-such-engine-here --fast")


def test_llcheck_serve_off_the_path_is_told_how_to_start_it(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")  # llcheck installed in a virtual environment not activated
    with pytest.raises(EngineGone) as info:
        SubprocessEngine("llcheck serve")
    this = shlex.join([sys.executable, "-m", "llcheck"])
    assert str(info.value) == ("cannot start 'llcheck': no such program on the PATH (activate its virtual "
                               f"environment, or start it as {this})")


REFUSED_FIRST = "round 1, step 1 (Guard on 1 naming Guard)"
"""The first step of runner/refusals, as an errored case names it."""


@pytest.mark.parametrize(("mode", "case", "where", "message"), [
    ("crash-on-start", "runner/guard-hit", "round 1, deal",
     "the engine exited with code 3 before answering start (request 2); "
     "stderr: Traceback: something went very wrong"),
    ("crash-like-node", "runner/guard-hit", "round 1, deal",  # regression: quoted "Node.js v20.20.2"
     "the engine exited with code 1 before answering start (request 2); "
     "stderr: TypeError: Cannot read properties of null (reading 'hand')"),
    ("hang-on-apply", "runner/refusals", REFUSED_FIRST, "no answer to apply (request 3) within 1s"),
    ("garbage-on-apply", "runner/refusals", REFUSED_FIRST,
     'the answer to apply (request 3) is not JSON (Expecting value: line 1 column 1 (char 0)): '
     '"<html>oops</html>"'),
    ("wrong-id", "runner/refusals", REFUSED_FIRST, "the answer to state (request 4) carries id 5"),
])
def test_a_broken_engine_gives_an_errored_case_and_is_stopped(mode, case, where, message):
    engine = broken(mode, timeout=1.0)
    result = run_case(engine, CASES[case])
    assert (result.status, result.message) == ("errored", f"{where}: {message}")
    assert result.engine_broken
    assert engine.process.poll() is not None
    with pytest.raises(EngineGone, match="^" + message.split(" (")[0]):
        engine.state()
    engine.close()


def test_an_error_answer_is_an_errored_case_but_the_engine_lives_on():
    with broken("error-on-view") as engine:
        result = run_case(engine, CASES["runner/views-only"])
        assert (result.status, result.message) == \
            ("errored", "round 1, deal: engine error on view (request 3): views are not implemented yet")
        assert not result.engine_broken
        assert run_case(engine, CASES["runner/refusals"]).status == "passed"


def test_schema_validation_names_the_field(tmp_path):
    with broken("bad-events") as engine:
        assert run_case(engine, CASES["runner/refusals"]).status == "passed"
    with broken("bad-events", validate=True) as engine:
        result = run_case(engine, CASES["runner/refusals"])
    assert result.message == ("round 1, deal: the answer to start (request 2) breaks the protocol schema at "
                              "events[1].player: '0' is not of type 'integer'")


def test_the_run_goes_on_with_a_fresh_engine(tmp_path, monkeypatch):
    monkeypatch.setenv("LLCHECK_TEST_MARKER", str(tmp_path / "crashed"))
    started = []

    def make():
        started.append(broken("crash-once", timeout=5))
        return started[-1]

    outcome = run_cases(list(CASES.values()), make)
    assert [r.status for r in outcome.results] == ["errored", "passed", "passed", "passed", "passed"]
    assert len(started) == 2
    assert all(engine.process.poll() is not None for engine in started)


def test_a_hung_engine_is_killed_with_its_children(tmp_path, monkeypatch):
    pid_file = tmp_path / "child.pid"
    monkeypatch.setenv("LLCHECK_TEST_MARKER", str(pid_file))
    engine = broken("spawn-and-hang", timeout=1.0)
    result = run_case(engine, CASES["runner/refusals"])
    assert result.message == f"{REFUSED_FIRST}: no answer to apply (request 3) within 1s"
    child = int(pid_file.read_text())
    assert _gone(child)
    engine.close()


def _gone(pid: int) -> bool:
    """True once the process has disappeared (waiting up to two seconds)."""
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


def test_close_stops_the_engine():
    engine = SubprocessEngine(serve_command())
    engine.close()
    assert engine.process.returncode == 0
    with pytest.raises(EngineFailure):
        engine.legal_actions()


@pytest.mark.usefixtures("sigint_delivered")
def test_ctrl_c_stops_a_run_and_kills_hung_engines(tmp_path, monkeypatch):
    monkeypatch.setenv("LLCHECK_TEST_MARKER", str(tmp_path / "child.pid"))
    started = []

    def make():
        started.append(broken("spawn-and-hang", timeout=60))
        return started[-1]

    def press_ctrl_c_once_the_engine_hangs() -> None:
        deadline = time.monotonic() + 60
        while not (tmp_path / "child.pid").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        _thread.interrupt_main()

    threading.Thread(target=press_ctrl_c_once_the_engine_hangs, daemon=True).start()
    outcome = run_cases([CASES["runner/refusals"], CASES["runner/two-rounds"]], make)
    assert outcome.interrupted and outcome.results == []
    assert _gone(started[0].process.pid) and _gone(int((tmp_path / "child.pid").read_text()))
