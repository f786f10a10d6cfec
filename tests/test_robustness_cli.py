"""Hostile first use of the command line: adapters that call sys.exit() or raise what is not an
error, bad hellos and answers, reports that would overwrite inputs, invalid corpora, absurd
numbers, unclear messages (docs/robustness.md). Each test failed before its fix."""

from __future__ import annotations

import inspect
import json
import os
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import hostile_adapters
import pytest
from conftest import run_llcheck
from hostile import streamed_results
from test_check_command import CORPUS, check, schema_validator

from llcheck import campaigns
from llcheck.commands import perft as perft_command
from llcheck.engines import ReferenceEngine, loader
from llcheck.engines import subprocess as subprocess_engine
from llcheck.harness import runner
from llcheck.harness.cases import corpus_dir, load_corpus
from llcheck.interrupts import StopSignals, real_interrupt
from llcheck.workers import WorkerDied, as_done, in_workers
from loveletter_ref.spec import load_spec

TESTS = Path(__file__).parent
BUNDLED = corpus_dir() / "required" / "classic" / "baron.json"


run = run_llcheck


def one_line(err: str) -> None:
    assert err.count("\n") == 1 and "Traceback" not in err, err


# -- 1. an adapter raising SystemExit, KeyboardInterrupt or GeneratorExit -------------------------


@pytest.mark.parametrize(("adapter", "raised"), [("Exits", "SystemExit(5)"),
                                                 ("Interrupts", "KeyboardInterrupt"),
                                                 ("GeneratorExits", "GeneratorExit")])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_adapter_that_exits_errors_each_case_and_the_run_goes_on(capsys, tmp_path, adapter, raised, jobs):
    stream = tmp_path / "r.jsonl"
    code, out, err = check(capsys, "--impl", f"python:hostile_adapters:{adapter}", "--jobs", jobs, "-q",
                           "--results", str(stream))
    assert code == 1, out + err
    assert out.splitlines()[-1].startswith("2 passed, 0 failed, 3 errored, 0 skipped in ")  # 2 apply nothing
    assert f"  round 1, step 1 (Guard on 1 naming Priest): the engine raised {raised}\n" in out
    results = [json.loads(line) for line in stream.read_text().splitlines()[1:-1]]
    assert sorted(r["status"] for r in results) == ["errored"] * 3 + ["passed"] * 2


def test_an_adapter_that_exits_on_some_cases_only_loses_those(capsys):
    code, out, _ = run(capsys, "check", "--impl", "python:hostile_adapters:ExitsOnPrince", "--edition",
                       "classic", "--run", "classic.prince*", "-q")
    assert code == 1
    summary = out.splitlines()[-1].split()
    assert int(summary[0]) > 0 and int(summary[4]) > 0, out  # some passed, some errored
    assert "the engine raised SystemExit(0)" in out


def test_an_adapter_that_exits_as_it_is_built_cannot_be_talked_to(capsys):
    code, out, err = check(capsys, "--impl", "python:hostile_adapters:ExitsWhenBuilt")
    assert (code, out) == (3, "")
    assert err == ("llcheck check: cannot talk to the engine python:hostile_adapters:ExitsWhenBuilt: "
                   "python:hostile_adapters:ExitsWhenBuilt could not be created: SystemExit(3)\n")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_fuzzing_and_properties_report_an_adapter_that_exits(capsys, tmp_path, jobs):
    code, out, _ = check(capsys, "--impl", "python:hostile_adapters:Exits", "--edition", "classic",
                         "--skip", "runner/*", "--fuzz", "2", "--properties", "--jobs", jobs, "-q",
                         "--fuzz-dir", str(tmp_path), "--json", str(tmp_path / "r.json"))
    assert code == 1, out
    results = json.loads((tmp_path / "r.json").read_text())["results"]
    fuzz = [r for r in results if r["kind"] == "fuzz"]
    assert [r["id"] for r in fuzz] == ["fuzz/classic/2p", "fuzz/classic/3p", "fuzz/classic/4p"]
    assert all(r["status"] == "failed" and "the engine raised SystemExit(5)" in r["message"] for r in fuzz)
    properties = [r for r in results if r["kind"] == "property"]
    assert properties and all(r["status"] != "passed" for r in properties)


def test_a_worker_thread_never_loses_a_case(monkeypatch):
    """Whatever ends the run of one case (here the harness itself raising SystemExit), the case
    gets a result and the others run: a worker thread that died used to take its queue along."""
    cases = load_corpus(Path(CORPUS))
    plain = runner.run_case

    def failing(engine, case, case_timeout=None):
        if case.id == cases[1].id:
            raise SystemExit(9)
        return plain(engine, case, case_timeout)

    monkeypatch.setattr(runner, "run_case", failing)
    for jobs in (1, 2):
        outcome = runner.run_cases(cases, ReferenceEngine, jobs=jobs)
        assert [r.id for r in outcome.results] == [c.id for c in cases]
        assert [r.status for r in outcome.results] == ["passed", "errored", "passed", "passed", "passed"]
        assert outcome.results[1].message == "the run of this case failed: SystemExit(9)"


def test_a_keyboard_interrupt_is_real_only_in_the_main_thread_and_after_a_signal():
    seen: list[bool] = []
    thread = threading.Thread(target=lambda: seen.append(real_interrupt()))
    thread.start()
    thread.join()
    assert seen == [False]
    assert real_interrupt()  # nothing watches the signals: it may be Ctrl-C
    with StopSignals() as signals:
        assert not real_interrupt()
        with signals.held():
            os.kill(os.getpid(), signal.SIGINT)
        assert real_interrupt()


@pytest.mark.parametrize(("adapter", "message", "where"), [
    ("Exits", "the engine raised SystemExit(5)", "Guard on 1 naming Priest"),
    ("Interrupts", "the engine raised KeyboardInterrupt", "Guard on 1 naming Priest"),
    ("Recurse", "the engine raised RecursionError: maximum recursion depth exceeded (at {where}, in start)",
     "none"),
    ("WrongTypes", "the engine's legal_actions is an int, not a list (a JSON array)", "none"),
])
def test_perft_reports_a_broken_adapter_in_one_line_with_the_deal_and_path(capsys, adapter, message, where):
    code, out, err = run(capsys, "perft", "--edition", "classic", "--players", "2", "--seed", "1",
                         "--depth", "3", "--impl", f"python:hostile_adapters:{adapter}")
    assert (code, out) == (3, "")
    line = inspect.getsourcelines(hostile_adapters.Recurse.start)[1] + 2  # its `return self.start(...)`
    path = Path(hostile_adapters.__file__)
    shown = path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path
    message = message.format(where=f"{shown}:{line}")
    assert err == f"llcheck perft: engine failure: {message} (deal seed-1; actions played: {where})\n"


@pytest.mark.parametrize(("adapter", "reason"), [("Exits", "the engine raised SystemExit(5)"),
                                                 ("Interrupts", "the engine raised KeyboardInterrupt")])
def test_record_writes_down_an_adapter_that_exits_and_says_so(capsys, tmp_path, adapter, reason):
    out_file = tmp_path / "b.jsonl"
    code, out, err = run(capsys, "record", "--impl", f"python:hostile_adapters:{adapter}", "--edition",
                         "classic", "--corpus", CORPUS, "--games", "0", "--out", str(out_file))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1] == ("llcheck record: warning: the engine failed 3 steps, in 3 cases and games "
                        "(recorded as failures):")
    assert lines[2] == f"  3 x {reason}"
    assert out_file.exists()


# -- 2, 3. hellos and answers of the wrong kind ---------------------------------------------------


@pytest.mark.parametrize(("adapter", "why"), [
    ("BadHello", "its hello is a str, not an llcheck.engines.Hello"),
    ("NoHello", "it has no hello attribute (an llcheck.engines.Hello)"),
])
def test_check_refuses_an_adapter_without_a_usable_hello(capsys, adapter, why):
    code, out, err = check(capsys, "--impl", f"python:hostile_adapters:{adapter}")
    assert (code, out) == (3, "")
    assert err == f"llcheck check: cannot talk to the engine python:hostile_adapters:{adapter}: {why}\n"


# -- 4. parallel campaigns hand over each result when it is done ---------------------------------


def _released(marker: str) -> str:
    """Waits until the file `marker` exists ('': returns at once), at most 600 polls (30 s): a
    handover that never comes then shows as the wrong order, whatever the machine's speed."""
    for _ in range(600):
        if not marker or os.path.exists(marker):
            break
        time.sleep(0.05)
    return marker


def _last_when_small(seat: tuple) -> list[str]:
    """Two players (started last) end only once the others' results were handed over."""
    _released(os.environ["BOTH_SEEN"] if seat[1] == 2 else "")
    return [f"{seat[0].id}/{seat[1]}p"]


def test_parallel_campaign_results_come_as_they_finish_and_are_returned_in_order(tmp_path, monkeypatch):
    marker = tmp_path / "both-seen"
    monkeypatch.setenv("BOTH_SEEN", str(marker))
    seen: list[str] = []

    def hand_over(result: str) -> None:
        seen.append(result)
        if {"classic/3p", "classic/4p"} <= set(seen):
            marker.touch()

    returned = campaigns._campaign(_last_when_small, [load_spec("classic")], 2, hand_over,
                                   lambda seat: True, lambda seat, exitcode: [])
    assert seen[-1] == "classic/2p" and sorted(seen[:2]) == ["classic/3p", "classic/4p"]
    assert returned == ["classic/2p", "classic/3p", "classic/4p"]


def test_as_done_hands_over_each_answer_as_soon_as_it_exists(tmp_path):
    marker = str(tmp_path / "go")
    answers = as_done(_released, [marker, "", ""], 2)
    assert next(answers) == (1, "")  # while the first item still waits
    Path(marker).touch()
    assert sorted(answers) == [(0, marker), (2, "")]


DEAF_WORKERS = """
import multiprocessing, signal, sys, time
from llcheck.workers import as_done

def deaf(seconds):
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})  # as when SIGTERM is lost to a race
    time.sleep(seconds)
    return seconds

def cleanup():
    pass

answers = as_done(deaf, [float(s) for s in sys.argv[2:]], 2, cleanup=cleanup)
print(next(answers)[1], flush=True)
if sys.argv[1] == "all":
    print(*(answer for _, answer in answers))
else:
    answers.close()
print(len(multiprocessing.active_children()), "workers left")
"""


@pytest.mark.parametrize(("taken", "printed"), [
    (["all", "0.05", "0.3", "0.1"], "0.05\n0.1 0.3\n0 workers left\n"),  # finished: told, not signalled
    (["first", "0.05", "60", "60"], "0.05\n0 workers left\n"),  # dropped: killed after the grace
])
def test_parallel_work_ends_even_when_a_worker_never_acts_on_sigterm(taken, printed):
    """A SIGTERM landing as an idle worker starts waiting for work is lost: the run must not
    wait for that worker forever (the timeout below stands for forever)."""
    done = subprocess.run([sys.executable, "-c", DEAF_WORKERS, *taken], capture_output=True, text=True,
                          timeout=45)
    assert (done.returncode, done.stdout) == (0, printed), done.stderr


def _dies_on_three(n: int) -> int:
    if n == 3:
        os._exit(9)
    if n == 4:
        raise ValueError("four is refused")
    return n * 10


def test_a_worker_that_dies_is_replaced_and_its_item_answered_as_died_says():
    answers = dict(as_done(_dies_on_three, [1, 3, 2, 5], 2, died=lambda n, code: -code))
    assert answers == {0: 10, 1: -9, 2: 20, 3: 50}


def test_a_worker_that_dies_ends_the_work_with_worker_died_when_no_answer_is_given():
    with pytest.raises(WorkerDied, match=r"^a worker process of --jobs died while working \(exit code 9\)$"):
        list(in_workers(_dies_on_three, [1, 3, 2], 2))


def test_an_exception_raised_in_a_worker_is_raised_here():
    with pytest.raises(ValueError, match="four is refused"):
        list(in_workers(_dies_on_three, [1, 4, 2], 2))


def test_a_campaign_whose_adapter_ends_its_process_errors_that_seat_and_goes_on(capsys, tmp_path):
    stream = tmp_path / "r.jsonl"
    code, out, err = check(capsys, "--impl", "python:hostile_adapters:EndsItsProcessWithThreePlayers",
                           "--edition", "classic", "--run", "fuzz/*", "--fuzz", "2", "--jobs", "2",
                           "--fuzz-dir", str(tmp_path), "--results", str(stream), "-q")
    assert code == 1, out + err
    assert "ERRORED fuzz/classic/3p" in out
    assert "the worker process running it died (exit code 9)" in out
    statuses = {r["id"]: r["status"] for r in map(json.loads, stream.read_text().splitlines()[1:-1])}
    assert statuses == {"fuzz/classic/2p": "passed", "fuzz/classic/3p": "errored",
                        "fuzz/classic/4p": "passed"}


def test_a_stopped_parallel_fuzzing_run_keeps_the_seats_it_finished(tmp_path):
    """The two-player seat hangs (and starts last); the other two are done and must be on disk."""
    stream = tmp_path / "r.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "llcheck", "check", "--impl", "python:hostile_adapters:HangsWithTwoPlayers",
         "--edition", "classic", "--run", "fuzz/*", "--fuzz", "2", "--jobs", "2", "--fuzz-dir", str(tmp_path),
         "--results", str(stream), "-q"],
        cwd=TESTS, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    done = streamed_results(process, stream, 2)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert sorted(done) == ["fuzz/classic/3p", "fuzz/classic/4p"]
    assert json.loads(stream.read_text().splitlines()[-1])["interrupted"] is True


# -- 5. a report that would overwrite another report or an input ---------------------------------


@pytest.mark.parametrize(("first", "second", "message"), [
    ("--baseline", "--json", "--json {path} would overwrite the input --baseline {path}"),
    ("--known-failures", "--junit", "--junit {path} would overwrite the input --known-failures {path}"),
    ("--results", "--json", "--json {path} would be the same file as --results {path}"),
    ("--json", "--junit", "--junit {path} would be the same file as --json {path}"),
])
def test_a_report_may_not_overwrite_another_or_an_input(capsys, tmp_path, first, second, message):
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    code, out, err = check(capsys, "--impl", "reference", first, str(victim), second, str(victim))
    assert (code, out) == (2, "")
    assert err.startswith(f"llcheck check: {message.format(path=victim)}: give each report a file of its own")
    one_line(err)
    assert victim.read_text() == "precious\n"


def test_the_same_file_by_another_name_is_caught(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    code, _, err = check(capsys, "--impl", "reference", "--json", "r.json", "--junit", "sub/../r.json")
    assert code == 2 and "would be the same file as --json r.json" in err


@pytest.mark.parametrize("option", ["--json", "--junit", "--results"])
def test_a_dash_is_refused_as_a_report_file(capsys, tmp_path, monkeypatch, option):
    monkeypatch.chdir(tmp_path)
    code, out, err = check(capsys, "--impl", "reference", option, "-")
    assert (code, out) == (2, "")
    assert err == f"llcheck check: {option} takes a file name, not '-' (stdout holds the text report)\n"
    assert not (tmp_path / "-").exists()


# -- 6. an invalid corpus is bad input, not the engine's failure ---------------------------------


def test_an_invalid_corpus_is_refused_with_every_problem_located(capsys, tmp_path):
    folder = tmp_path / "required" / "classic"
    folder.mkdir(parents=True)
    data = json.loads(BUNDLED.read_text())
    data["cases"] = data["cases"][:2]
    data["cases"][0]["players"] = 9
    deck = data["cases"][1]["rounds"][0]["deck"]
    deck[deck.index("Princess")] = "Queen"
    (folder / "bad.json").write_text(json.dumps(data, indent=1))
    (folder / "broken.json").write_text('{"description": "x", "cases": [}')
    code, out, err = check(capsys, "--impl", "reference", "--corpus", str(tmp_path))
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert len(lines) == 3, err
    assert lines[0].startswith(f"{folder / 'bad.json'}:5:1: ")
    assert "classic is for 2-4 players, not 9" in lines[0]
    assert lines[1].startswith(f"{folder / 'bad.json'}:") and "(-1 Princess, +1 Queen)" in lines[1]
    assert lines[2].startswith(f"{folder / 'broken.json'}:1:") and "malformed JSON" in lines[2]


def test_an_empty_corpus_folder_says_so(capsys, tmp_path):
    code, out, err = check(capsys, "--impl", "reference", "--corpus", str(tmp_path))
    assert (code, out) == (2, "")
    assert err == f"llcheck check: --corpus {tmp_path} holds no case files (STATUS/EDITION/NAME.json, " \
                  "docs/cases.md)\n"


# -- 7, 8. numbers and names the system cannot take ----------------------------------------------


@pytest.mark.parametrize("args", [["check", "--timeout", "1e10"], ["check", "--case-timeout", "1e308"],
                                  ["check", "--timeout", "0"],
                                  ["perft", "--edition", "classic", "--players", "2", "--seed", "1",
                                   "--depth", "1", "--impl", "reference", "--timeout", "1e10"]])
def test_a_huge_timeout_is_refused_in_one_line(capsys, args):
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "")
    option = args[-2]
    assert err.startswith(f"llcheck {args[0]}: argument {option}: must be a number of seconds above 0 and at "
                          "most 1,000,000")
    one_line(err)


def test_an_edition_name_too_long_for_a_file_name_is_just_unknown(capsys):
    code, out, err = check(capsys, "--impl", "reference", "--edition", "a" * 300)
    assert (code, out) == (2, "")
    assert err.startswith("llcheck check: the engine does not play aaaa") and "more characters" in err
    one_line(err)


# -- 9. clearer messages --------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (["--assume", "bogus"], "--assume bogus: no such rulebook reading (readings: bga-classic-premium, "),
    (["--profile", "bogus", "--properties"], "--profile bogus: no such hypothesis profile (profiles: ci, "),
    (["--profile", "bogus"], "--profile bogus: no such hypothesis profile (profiles: ci, "),
    (["--edition", str(TESTS / "data" / "specs" / "kanai-factory.yaml")],
     "the corpus has no case for kanai-factory, an edition of your own: check it with --properties and "
     "--fuzz"),
])
def test_a_mistake_gets_a_message_that_names_it_before_anything_runs(capsys, args, message):
    code, out, err = check(capsys, "--impl", "reference", *args)
    assert (code, out) == (2, "")
    assert err.startswith(f"llcheck check: {message}")
    one_line(err)


@pytest.mark.parametrize(("option", "value"), [("--tag", "nosuch"), ("--clause", "nosuch"),
                                               ("--edition", "nosuch")])
def test_cases_names_a_filter_no_case_has(capsys, option, value):
    code, out, err = run(capsys, "cases", "--list", option, value)
    assert (code, out) == (2, "")
    assert err.startswith(f"llcheck cases: {option} {value}: no case of the corpus has it")


def test_cases_show_needs_an_id_and_prints_pure_json_with_json(capsys):
    code, out, err = run(capsys, "cases", "--show", "")
    assert (code, out) == (2, "")
    assert err == "llcheck cases: --show takes a case id (llcheck cases --list lists them)\n"
    code, out, _ = run(capsys, "cases", "--show", "z19.baron.tie/nobody-is-out", "--json")
    assert code == 0 and json.loads(out)["id"] == "z19.baron.tie/nobody-is-out"


def test_record_does_not_create_a_missing_folder(capsys, tmp_path):
    target = tmp_path / "no" / "such" / "b.jsonl"
    code, out, err = run(capsys, "record", "--impl", "reference", "--edition", "classic", "--corpus", CORPUS,
                         "--out", str(target))
    assert (code, out) == (2, "")
    assert err == f"llcheck record: --out {target}: no such folder {target.parent} (create it first)\n"
    assert not (tmp_path / "no").exists()


def test_control_characters_in_an_engine_command_are_escaped(capsys):
    code, out, err = check(capsys, "--impl", "nope\x1b[2Jx")
    assert (code, out) == (3, "")
    assert "\x1b" not in err and "nope\\x1b[2Jx" in err


# -- 10. perft rows as they come, bounds ----------------------------------------------------------


def test_perft_prints_each_depth_as_soon_as_it_is_counted(capsys, monkeypatch):
    counted = perft_command.perft

    def stopped_at_three(tree, depth):
        if depth == 3:
            raise KeyboardInterrupt
        return counted(tree, depth)

    monkeypatch.setattr(perft_command, "perft", stopped_at_three)
    code, out, err = run(capsys, "perft", "--edition", "classic", "--players", "4", "--seed", "1",
                         "--depth", "5")
    assert code == 130 and err == ("llcheck perft: interrupted; not run: the count of the deal (depth 5); "
                                   "what was printed is complete\n")
    assert out.splitlines()[1:] == ["depth      nodes  terminal nodes by winner",
                                    "    1          4  -",
                                    "    2         77  -"]


def test_simulate_caps_the_number_of_games(capsys):
    code, out, err = run(capsys, "simulate", "--edition", "classic", "--players", "2", "--games",
                         "99999999999999999999")
    assert (code, out) == (2, "")
    assert err == ("llcheck simulate: argument --games: must be a whole number of games from 1 to "
                   "1,000,000,000, not '99999999999999999999' (see llcheck simulate --help)\n")


# -- 11. a baseline whose header does not match its lines -----------------------------------------


def test_a_baseline_whose_header_names_another_edition_is_refused(capsys, tmp_path):
    baseline = tmp_path / "b.jsonl"
    assert run(capsys, "record", "--impl", "reference", "--edition", "classic", "--corpus", CORPUS,
               "--games", "0", "--out", str(baseline))[0] == 0
    lines = baseline.read_text().splitlines()
    lines[0] = lines[0].replace('"edition":"classic"', '"edition":"premium"')
    baseline.write_text("\n".join(lines) + "\n")
    code, out, err = check(capsys, "--impl", "reference", "--baseline", str(baseline))
    assert (code, out) == (2, "")
    assert err.startswith(f"llcheck check: {baseline}:2: case 'runner/") and \
        "plays 'classic', but the header says the baseline is of 'premium'" in err


# -- 12. an engine that cannot start: the reports say why; a usage error leaves them alone ---------


@pytest.mark.parametrize(("impl", "why"), [
    ("nosuchprogram", "cannot start 'nosuchprogram': no such program on the PATH"),
    (f"{sys.executable} {TESTS / 'engines' / 'hostile' / 'noisy_start.py'}",
     "the answer to hello (request 1) is not JSON"),
    ("python:adapters:cannot_start", "the license server is down"),
])
def test_an_engine_that_cannot_start_is_reported_in_every_report(capsys, tmp_path, impl, why):
    """Regression: --junit, --json and --results were left empty (an old report emptied)."""
    junit, report, stream = tmp_path / "r.xml", tmp_path / "r.json", tmp_path / "r.jsonl"
    junit.write_text("the report of the last run\n")
    code, out, err = check(capsys, "--impl", impl, "--junit", str(junit), "--json", str(report),
                           "--results", str(stream))
    assert (code, out) == (3, "")
    assert err.startswith(f"llcheck check: cannot talk to the engine {impl}: ") and why in err
    one_line(err)
    message = err.removeprefix("llcheck check: ").rstrip("\n")
    cases = ET.parse(junit).getroot().findall(".//testcase")
    assert [(c.get("name"), c.find("error").get("message")) for c in cases] == [("engine/start", message)]
    properties = {p.get("name"): p.get("value") for p in ET.parse(junit).getroot().iter("property")}
    assert properties == {"impl": impl}  # no engine name, version or capabilities: it never said hello
    data = json.loads(report.read_text())
    schema_validator().validate(data)
    assert (data["exit_code"], data["summary"]["errored"], data["results"][0]["message"]) == (3, 1, message)
    lines = [json.loads(line) for line in stream.read_text().splitlines()]
    for line in lines:
        schema_validator("stream_line").validate(line)
    assert [line["type"] for line in lines] == ["header", "result", "summary"]
    assert lines[-1]["exit_code"] == 3


def test_a_usage_error_once_the_engine_runs_leaves_the_reports_as_they_were(capsys, tmp_path):
    old, new = tmp_path / "old.json", tmp_path / "new.xml"
    old.write_text("the report of the last run\n")
    code, _, err = check(capsys, "--impl", "python:adapters:ClassicOnly", "--edition", "z-man-2019",
                         "--json", str(old), "--junit", str(new))
    assert code == 2 and "the engine does not play z-man-2019" in err
    assert old.read_text() == "the report of the last run\n" and not new.exists()


def test_an_engine_slow_to_say_hello_is_told_which_option_gives_it_time(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(subprocess_engine, "START_TIMEOUT", 0.3)
    monkeypatch.setattr(loader, "START_TIMEOUT", 0.3)
    sleeper = f"{sys.executable} -c 'import time; time.sleep(60)'"
    hint = ("no answer to hello (request 1) within 0.3s (to allow a slower start, raise --timeout: the hello "
            "waits the longer of --timeout and 0.3s)\n")
    code, _, err = check(capsys, "--impl", sleeper, "--timeout", "0.1")
    assert code == 3 and err.endswith(hint)
    code, _, err = run(capsys, "record", "--impl", sleeper, "--timeout", "0.1", "--edition", "classic",
                       "--out", str(tmp_path / "b.jsonl"))
    assert code == 3 and err.endswith(hint)


@pytest.mark.parametrize("option", ["--baseline", "--known-failures", "--json", "--results", "--corpus"])
def test_an_empty_path_is_named(capsys, option):
    code, out, err = check(capsys, "--impl", "reference", option, "")
    assert (code, out, err) == (2, "", f"llcheck check: {option} '': the path is empty\n")


def test_perft_table_records_a_deal_the_engine_fails_on_and_goes_on_with_the_next(capsys):
    code, out, err = run(capsys, "perft", "--table", "classic", "--depth", "2", "--impl",
                         "python:hostile_adapters:Exits")
    lines = out.splitlines()
    assert (code, err) == (3, "")
    assert lines[-1] == "0 of 6 deals match; 6 could not be counted (engine failure)"
    assert all(": engine failure: the engine raised SystemExit(5) (deal " in line for line in lines[:-1])
    code, out, _ = run(capsys, "perft", "--table", "classic", "--depth", "2", "--json", "--impl",
                       "python:hostile_adapters:Exits")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 3 and len(records) == 6
    assert all(r["ok"] is False and r["error"].startswith("engine failure: ") for r in records)


@pytest.mark.parametrize("argv, code", [
    (["cases", "--list", "--json"], 0),  # 160 KB: more than a pipe holds
    (["validate", "classic"], 0),  # one line: the pipe holds it all
    (["validate", str(TESTS / "data" / "hostile" / "huge-integer.yaml")], 2),
])
def test_output_closed_early_exits_with_the_commands_own_code_and_no_traceback(argv, code):
    with subprocess.Popen([sys.executable, "-m", "llcheck", *argv], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as reader:
        assert reader.stdout is not None and reader.stderr is not None
        reader.stdout.close()  # as `| head -1` does, here before anything is written: the worst case
        err = reader.stderr.read()
        assert reader.wait(timeout=60) == code
    assert b"Traceback" not in err and b"Broken pipe" not in err


def test_an_adapter_module_that_fails_as_it_is_imported_is_an_engine_that_cannot_start(capsys, tmp_path):
    report = tmp_path / "j.xml"
    code, out, err = run(capsys, "check", "--impl", "python:failing_import:Engine", "--junit", str(report))
    assert (code, out) == (3, "")
    assert err == ("llcheck check: cannot talk to the engine python:failing_import:Engine: cannot import "
                   "'failing_import' for python:failing_import:Engine: ModuleNotFoundError: No module named "
                   "'a_dependency_nobody_installed'\n")
    assert "engine/start" in report.read_text()
    code, _, err = run(capsys, "serve", "--impl", "python:failing_import:Engine")
    assert code == 3 and err.startswith("llcheck serve: cannot start the engine python:failing_import:Engine")
    code, _, err = run(capsys, "check", "--impl", "python:no_module_of_that_name:Engine")
    assert code == 2 and "No module named 'no_module_of_that_name'" in err
