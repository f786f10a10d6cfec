"""`llcheck check`: verdicts, reports CI systems read, known failures, replays, exit codes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import types
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import pytest

from llcheck.cli import main
from llcheck.harness.cases import load_corpus
from llcheck.harness.report import report_schema_path
from llcheck.progress import Progress

TESTS = Path(__file__).parent
CORPUS = str(TESTS / "cases")
BROKEN = f"{sys.executable} {TESTS / 'engines' / 'broken_engine.py'}"


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", "--corpus", CORPUS, *args])
    out, err = capsys.readouterr()
    return code, out, err


def schema_validator(definition: str | None = None) -> jsonschema.Draft202012Validator:
    schema = json.loads(report_schema_path().read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    if definition is not None:
        schema = {"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"}
    return jsonschema.Draft202012Validator(schema)


def test_the_reference_over_the_protocol_passes(capsys):
    code, out, err = check(capsys)
    assert code == 0, out + err
    lines = out.splitlines()
    assert lines[0] == "llcheck check: loveletter-reference 0.1.0 (protocol 1) via python -m llcheck serve"
    assert lines[-1].startswith("5 passed, 0 failed, 0 errored, 0 skipped in ")
    row = next(line for line in lines if line.startswith("classic.guard.guess "))
    assert row.split()[1:3] == ["2", "2"] and row.endswith("conforms")


def test_a_failure_names_clause_quote_divergence_and_replay(capsys):
    code, out, _ = check(capsys, "--impl", "python:adapters:DropDiscards", "-q")
    assert code == 1
    assert out.splitlines()[-1].startswith("4 passed, 1 failed, 0 errored, 0 skipped in ")
    block = out.split("\n\n")[1].splitlines()
    assert block[0] == "FAILED runner/guard-hit  [required, classic]"
    assert block[2].startswith("  clause classic.guard.guess: ") and "«" in block[2]
    assert block[4].endswith("runner.json:5")
    assert block[5] == "  round 1, step 1 (Guard on 1 naming Priest): events"
    assert block[6] == ('    event 4: expected {"type": "discard", "player": 1, "card": "Priest"}, '
                        'got {"type": "round_end", "reason": "last_standing", "winners": [0]}')
    # the two values read the same for longer than a line: both are shown from the event that differs
    assert block[7].startswith('    expected: ...{"type": "discard", "player": 1, "card": "Priest"}, ')
    assert block[8].startswith('    actual:   ...{"type": "round_end", "reason": "last_standing", ')
    assert block[9] == f"  replay: llcheck check --impl python:adapters:DropDiscards --corpus {CORPUS} " \
                       "--run runner/guard-hit"


def test_the_replay_command_runs_just_that_case(capsys):
    code, out, _ = check(capsys, "--impl", "python:adapters:DropDiscards", "--run", "runner/guard-hit", "-q")
    assert code == 1
    assert out.splitlines()[-1].startswith("0 passed, 1 failed, 0 errored, 0 skipped")


def test_reports_validate_and_junit_has_the_structure_ci_reads(capsys, tmp_path):
    report, junit, stream = tmp_path / "r.json", tmp_path / "r.xml", tmp_path / "r.jsonl"
    code, out, _ = check(capsys, "--impl", "python:adapters:ClassicOnly", "--json", str(report),
                         "--junit", str(junit), "--results", str(stream), "--skip", "runner/two-*")
    assert code == 0
    assert "\nskipped: needs capability views (1)\n" in out
    data = json.loads(report.read_text())
    schema_validator().validate(data)
    assert data["summary"] == {"total": 4, "passed": 3, "failed": 0, "errored": 0, "skipped": 1,
                               "known_failure": 0, "unexpected_pass": 0}
    assert data["engine"]["name"] == "classic-only"
    lines = [json.loads(line) for line in stream.read_text().splitlines()]
    line_schema = schema_validator("stream_line")
    for line in lines:
        line_schema.validate(line)
    assert [line["type"] for line in lines] == ["header"] + ["result"] * 4 + ["summary"]

    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites"
    assert [root.get(key) for key in ("tests", "failures", "errors", "skipped")] == ["4", "0", "0", "1"]
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["required/classic"]
    cases = suites[0].findall("testcase")
    assert [c.get("name") for c in cases] == ["runner/guard-hit", "runner/refusals", "runner/bad-deck",
                                              "runner/views-only"]
    assert [c.get("classname") for c in cases] == ["classic.guard.guess", "classic.guard.guess",
                                                   "classic.setup.deck", "classic.setup.deal"]
    assert cases[3].find("skipped").get("message") == "needs capability views"
    assert all(float(c.get("time")) >= 0 for c in cases)


def test_junit_failures_and_errors(capsys, tmp_path):
    junit = tmp_path / "r.xml"
    code, _, _ = check(capsys, "--impl", f"{BROKEN} error-on-view", "--junit", str(junit))
    assert code == 1
    root = ET.parse(junit).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("5", "0", "2")
    errors = [c for c in root.iter("testcase") if c.find("error") is not None]
    assert [c.get("name") for c in errors] == ["runner/guard-hit", "runner/views-only"]
    error = errors[0].find("error")
    assert error.get("message") == ("round 1, deal: engine error on view (request 4): views are not "
                                    "implemented yet")
    assert "replay: llcheck check --impl" in error.text


def test_an_errored_case_names_round_step_and_action_as_a_failed_case_does(capsys, tmp_path):
    """Regression: a hang was reported as `no answer to apply (request 5) within 1s`, nowhere in the case."""
    report, junit, stream = tmp_path / "r.json", tmp_path / "r.xml", tmp_path / "r.jsonl"
    code, out, _ = check(capsys, "--impl", f"{BROKEN} hang-on-apply", "--timeout", "1", "--run",
                         "runner/guard-hit", "-q", "--json", str(report), "--junit", str(junit),
                         "--results", str(stream))
    assert code == 1
    message = "round 1, step 1 (Guard on 1 naming Priest): no answer to apply (request 5) within 1s"
    assert f"\n  {message}\n" in out
    data = json.loads(report.read_text())
    schema_validator().validate(data)
    [result] = data["results"]
    assert (result["status"], result["message"], result["divergence"]) == ("errored", message, None)
    action = {"type": "play", "card": "Guard", "target": 1, "guess": "Priest"}
    assert result["location"] == {"round": 1, "step": 1, "action": action}
    line_schema = schema_validator("stream_line")
    for line in stream.read_text().splitlines():
        line_schema.validate(json.loads(line))
    assert ET.parse(junit).getroot().find(".//error").get("message") == message


def test_known_failures_must_keep_failing(capsys, tmp_path):
    known = tmp_path / "known.txt"
    known.write_text("# deviations of DropDiscards\nrunner/guard-hit   drops discard events\n")
    code, out, _ = check(capsys, "--impl", "python:adapters:DropDiscards", "--known-failures", str(known),
                         "-q")
    assert code == 0
    assert "known failures (still failing, as listed):\n  runner/guard-hit: drops discard events" in out
    assert out.splitlines()[-1].startswith("4 passed, 0 failed, 0 errored, 0 skipped, 1 known failure in ")

    known.write_text("runner/guard-hit   drops discard events\nrunner/refusals  no longer true\n")
    report = tmp_path / "r.json"
    code, out, _ = check(capsys, "--impl", "python:adapters:DropDiscards", "--known-failures", str(known),
                         "-q", "--json", str(report))
    assert code == 1
    data = json.loads(report.read_text())
    schema_validator().validate(data)
    statuses = {r["id"]: (r["status"], r["known_failure"]) for r in data["results"]}
    assert statuses["runner/guard-hit"] == ("known_failure", "drops discard events")
    assert statuses["runner/refusals"] == ("unexpected_pass", "no longer true")
    assert data["results"][0]["divergence"]["what"] == "events"
    assert "UNEXPECTED PASS runner/refusals" in out
    assert f"passed, but {known}:2 lists it as a known failure (no longer true); remove it from the list" \
        in out


@pytest.mark.parametrize(("text", "message"), [
    ("runner/guard-hit\n", "{path}:1: give the reason after the case id 'runner/guard-hit'"),
    ("runner/guard-hit a\n\nrunner/guard-hit b\n", "{path}:3: runner/guard-hit is already listed on line 1"),
    ("# c\nrunner/nothing-like-it reason\n", "{path}:2: no case has the id 'runner/nothing-like-it'"),
])
def test_a_bad_known_failures_list_is_bad_input(capsys, tmp_path, text, message):
    known = tmp_path / "known.txt"
    known.write_text(text)
    code, out, err = check(capsys, "--impl", "reference", "--known-failures", str(known))
    assert (code, out) == (2, "")
    assert err == f"llcheck check: {message.format(path=known)}\n"


@pytest.mark.parametrize(("args", "message"), [
    (["--impl", ""], "the engine command is empty"),
    (["--impl", "engine 'oops"], "cannot read the engine command \"engine 'oops\": No closing quotation"),
    (["--edition", "no-such-edition"],
     "the engine does not play no-such-edition (it plays: classic, premium, "),
    (["--run", "nothing*"], "no case is selected (check --edition, --status, --assume, --run and --skip)"),
    (["--fuzz", "5", "--skip", "*"],
     "no case is selected (check --edition, --status, --assume, --run and --skip); --run and --skip select "
     "fuzzing and property results too, by id: --run 'fuzz/*' runs fuzzing alone"),
    (["--json", "/no/such/dir/r.json"], "--json /no/such/dir/r.json: No such file or directory"),
    (["--impl", "python:adapters:NotAnEngine"], "python:adapters:NotAnEngine made a NotAnEngine, not an "
                                                "llcheck.engines.Engine"),
    (["--impl", "python:no_such_module:X"], "cannot import 'no_such_module' for python:no_such_module:X: "
                                            "ModuleNotFoundError: No module named 'no_such_module' (modules "
                                            "are looked for in the working folder and on PYTHONPATH)"),
])
def test_bad_usage_is_one_line_and_exit_2(capsys, args, message):
    code, out, err = check(capsys, *(["--impl", "reference"] if "--impl" not in args else []), *args)
    assert (code, out) == (2, "")
    assert err.startswith(f"llcheck check: {message}") and err.count("\n") == 1


def test_a_bad_corpus_is_bad_input(capsys, tmp_path):
    folder = tmp_path / "required" / "classic"
    folder.mkdir(parents=True)
    (folder / "x.json").write_text('{"description": "x", "cases": [}')
    code = main(["check", "--impl", "reference", "--corpus", str(tmp_path)])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.startswith(f"{folder / 'x.json'}:1:")


def test_an_engine_that_cannot_be_started_is_exit_3(capsys):
    code, out, err = check(capsys, "--impl", "no-such-engine-here")
    assert (code, out) == (3, "")
    assert err == "llcheck check: cannot talk to the engine no-such-engine-here: cannot start " \
                  "'no-such-engine-here': no such program on the PATH\n"
    code, _, err = check(capsys, "--impl", "python:adapters:cannot_start")
    assert code == 3
    assert err.endswith(": the license server is down\n")


def test_an_interrupted_run_keeps_its_results(capsys, tmp_path, monkeypatch):
    def interrupt(self, done, last=""):
        if done == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(Progress, "update", interrupt)
    report, stream = tmp_path / "r.json", tmp_path / "r.jsonl"
    code, out, _ = check(capsys, "--impl", "reference", "--json", str(report), "--results", str(stream), "-q")
    assert code == 130
    data = json.loads(report.read_text())
    assert data["interrupted"] is True and data["exit_code"] == 130
    kept = len(data["results"])  # the two seen, and those the worker finished meanwhile
    assert kept >= 2
    lines = [json.loads(line) for line in stream.read_text().splitlines()]
    assert [line["type"] for line in lines] == ["header"] + ["result"] * kept + ["summary"]
    assert lines[-1]["interrupted"] is True
    total = len(load_corpus(Path(CORPUS)))  # the reference plays every edition: every case is selected
    # how many the worker finished meanwhile depends on the machine: all of them, at most
    left = f"not run: {total - kept} of {total} cases and campaign results" if kept < total else \
        "not run: nothing"
    assert f"(interrupted: {kept} results kept; {left})" in out


@dataclass
class _Found:
    name: str
    status: str
    message: str
    replay: dict | None


def test_properties_and_fuzzing_are_reported_like_cases(capsys, monkeypatch, tmp_path):
    calls = []

    def run_properties(make_engine, edition, players, profile, seed):
        calls.append((edition.id, tuple(players), profile, seed))  # the compiled spec
        assert make_engine().hello.name == "loveletter-reference"
        bad = _Found("views-hide", "failed", "seat 1 saw a card", {"id": "x"}) if players == [3] else None
        return [_Found("replay", "passed", "", None)] + ([bad] if bad else [])

    def run_fuzz(make_engine, edition, players, n, seed, out_dir):
        return types.SimpleNamespace(status="passed", message=f"{n} games", replay=None, saved=None)

    properties = types.SimpleNamespace(run_properties=run_properties,
                                       property_names=lambda: ["replay", "views-hide"])
    monkeypatch.setitem(sys.modules, "llcheck.properties", properties)
    monkeypatch.setitem(sys.modules, "llcheck.fuzz", types.SimpleNamespace(run_fuzz=run_fuzz))
    report = tmp_path / "r.json"
    code, out, _ = check(capsys, "--impl", "reference", "--properties", "--fuzz", "5", "--seed", "9",
                         "--json", str(report), "-q")
    assert code == 1
    assert calls == [("classic", (2,), "ci", 9), ("classic", (3,), "ci", 9), ("classic", (4,), "ci", 9)]
    results = json.loads(report.read_text())["results"]
    ids = [r["id"] for r in results]
    assert ids[5:] == ["property/replay/classic/2p", "property/replay/classic/3p",
                       "property/views-hide/classic/3p", "property/replay/classic/4p",
                       "fuzz/classic/2p", "fuzz/classic/3p", "fuzz/classic/4p"]
    assert "FAILED property/views-hide/classic/3p  [property, classic]" in out
    assert "  replay: llcheck check --impl reference --corpus " in out
    assert "--properties --profile ci --seed 9 --edition classic --run property/views-hide/classic/3p" in out
    schema_validator().validate(json.loads(report.read_text()))


def test_jobs_share_fuzzing_among_processes_and_find_the_same(capsys, tmp_path):
    mutant = "python:llcheck.mutants.engines:baron_tie_eliminates"
    fuzz = ["--fuzz", "20", "--edition", "classic", "--run", "fuzz/*", "--fuzz-dir", str(tmp_path / "found")]
    found: dict[str, list] = {}
    for jobs in ("1", "2"):
        report = tmp_path / f"r{jobs}.json"
        check(capsys, "--impl", mutant, *fuzz, "--jobs", jobs, "--json", str(report), "-q")
        found[jobs] = [(r["id"], r["status"], r["clauses"], r["message"], r["replay_case"])
                       for r in json.loads(report.read_text())["results"]]
    assert [r[0] for r in found["1"]] == ["fuzz/classic/2p", "fuzz/classic/3p", "fuzz/classic/4p"]
    assert "failed" in [r[1] for r in found["1"]]
    assert found["2"] == found["1"]


def test_properties_not_available_is_bad_usage(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "llcheck.fuzz", None)
    code, out, err = check(capsys, "--impl", "reference", "--fuzz", "3")
    assert (code, out) == (2, "")
    assert err.startswith("llcheck check: --fuzz is not available: llcheck.fuzz.run_fuzz cannot be loaded")


def test_run_and_skip_choose_the_fuzzing_and_property_runs_before_they_run(capsys, tmp_path):
    """Regression: campaigns that --run left out used to run anyway, save what they found, and be
    dropped from the report (exit 0 on a broken engine)."""
    mutant = "python:llcheck.mutants.engines:baron_tie_eliminates"
    found = tmp_path / "found"
    base = ["--impl", mutant, "--edition", "classic", "--fuzz", "20", "--fuzz-dir", str(found), "-q"]
    code, _, err = check(capsys, *base, "--run", "nothing*")
    assert code == 2 and "no case is selected" in err and not found.exists()
    report = tmp_path / "r.json"
    code, out, _ = check(capsys, *base, "--run", "fuzz/classic/3p", "--json", str(report))
    assert code == 1 and "FAILED fuzz/classic/3p" in out
    assert [r["id"] for r in json.loads(report.read_text())["results"]] == ["fuzz/classic/3p"]
    assert [p.name.split("-")[2] for p in (found / "required" / "classic").iterdir()] == ["3p"]
    code, _, _ = check(capsys, *base, "--properties", "--run", "property/replay/*", "--skip", "*/4p",
                       "--json", str(report))
    assert [r["id"] for r in json.loads(report.read_text())["results"]] == [
        "property/replay/classic/2p", "property/replay/classic/3p"]


def test_a_failed_whole_game_is_charged_to_the_clauses_suspected_at_its_divergence(capsys, tmp_path,
                                                                                   monkeypatch):
    """Regression: a golden trace names every clause its game touches, and one failure marked them
    all as failing; now only the suspects of its first divergence are charged, the rest not judged."""
    monkeypatch.chdir(TESTS.parent)  # case paths are shown from the folder the command runs in
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    code = main(["check", "--impl", "python:llcheck.mutants.engines:wrong_next_starter", "--edition",
                 "classic", "--status", "golden", "--run", "classic.golden/?-players-seed-*",  # whole games
                 "--json", str(report), "--junit", str(junit)])
    out = capsys.readouterr().out
    assert code == 1
    block = out[out.index("FAILED classic.golden/2-players"):].split("\n\n")[0].splitlines()
    charged = ["classic.round.next-first"]  # who starts round 2 is the next-starter rule's alone
    assert block[2] == ("  clauses: 41; charged with this failure: the 1 suspected at its first divergence; "
                        "the other 40 are not judged by this case")
    assert [line.split(":")[0] for line in block[3:4]] == [f"  clause {c}" for c in charged]
    assert block[4].startswith("  case: conformance/golden/classic/2-players.json")
    assert block[5] == "  round 2, deal: events"
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("classic.")}
    assert rows["classic.round.next-first"].split()[1:] == ["3", "0", "3", "0", "0", "0", "0", "fails"]
    assert rows["classic.baron.tie"].split()[1:] == ["0", "0", "0", "0", "0", "0", "3", "not", "judged"]
    data = json.loads(report.read_text())
    schema_validator().validate(data)
    assert {r["id"].split("-seed")[0]: r["charged"] for r in data["golden"]["results"]} == {
        f"classic.golden/{n}-players": charged for n in (2, 3, 4)}
    verdicts = {c["id"]: (c["verdict"], c["failed"], c["not_judged"]) for c in data["clauses"]}
    assert verdicts["classic.round.next-first"] == ("fails", 3, 0)
    assert verdicts["classic.setup.first-player"] == ("not judged", 0, 3)
    assert verdicts["classic.guard.guess"] == ("not judged", 0, 3)
    cases = ET.parse(junit).getroot().iter("testcase")
    assert {case.get("classname") for case in cases} == {"classic.round.next-first"}


def test_golden_traces_have_their_own_place_in_every_report(capsys, tmp_path):
    """The golden traces, whole games recorded from the reference, are listed and counted apart
    from the specified cases: a section and a count of their own in the text, a `golden` field in
    the JSON report, `golden` lines in the results stream, suites of their own in JUnit."""
    report, stream, junit = tmp_path / "r.json", tmp_path / "r.jsonl", tmp_path / "r.xml"
    code = main(["check", "--impl", "python:llcheck.mutants.engines:wrong_next_starter", "--edition",
                 "classic", "--run", "classic.golden/2-players-seed-*", "--run", "classic.baron.*",
                 "--json", str(report), "--results", str(stream), "--junit", str(junit), "-q"])
    out = capsys.readouterr().out
    assert code == 1
    before, section = out.split("\ngolden traces: ")
    assert section.startswith("0 of 1 passed (classic with 2 players)\n\nFAILED classic.golden/2-")
    assert "FAILED" not in before
    assert re.fullmatch(r"4 passed, 0 failed, 0 errored, 0 skipped; golden traces: 0 passed, 1 failed, "
                        r"0 errored, 0 skipped in [0-9.]+s", out.splitlines()[-1])
    data = json.loads(report.read_text())
    schema_validator().validate(data)
    assert (data["version"], data["summary"]["total"], data["summary"]["passed"]) == (2, 4, 4)
    assert all(r["group"] == "required" for r in data["results"])
    assert data["golden"]["summary"]["failed"] == 1
    assert [r["id"].split("-seed")[0] for r in data["golden"]["results"]] == ["classic.golden/2-players"]
    lines = [json.loads(line) for line in stream.read_text().splitlines()]
    for line in lines:
        schema_validator("stream_line").validate(line)
    assert [line["type"] for line in lines] == ["header"] + ["result"] * 4 + ["golden", "summary"]
    assert (lines[-1]["summary"]["total"], lines[-1]["golden"]["total"]) == (4, 1)
    suites = [suite.get("name") for suite in ET.parse(junit).getroot().iter("testsuite")]
    assert suites == ["required/classic", "golden/classic"]


def test_keys_the_formats_do_not_define_are_ignored_by_cases_and_fuzzing_alike(capsys, tmp_path):
    """Regression: an extra state key failed fuzzing (blamed on a rule clause) but passed the
    corpus, and an extra event key failed the corpus; docs/formats.md now says they are ignored."""
    code, out, _ = check(capsys, "--impl", "python:adapters:ExtraKeysOutsideViews", "--fuzz", "10",
                         "--edition", "classic", "--fuzz-dir", str(tmp_path), "-q")
    assert code == 0, out
    assert out.splitlines()[-1].startswith("8 passed, 0 failed, 0 errored")
    assert not list(tmp_path.iterdir())


def test_fuzzing_fails_a_view_key_the_formats_do_not_define_which_the_corpus_leaves_out(capsys, tmp_path):
    """A card may hide in a view's own key, so fuzzing fails one where the corpus, comparing the
    keys a case gives, passes."""
    code, out, _ = check(capsys, "--impl", "python:adapters:ExtraKeys", "--fuzz", "10", "--edition",
                         "classic", "--fuzz-dir", str(tmp_path), "-q")
    assert code == 1, out
    assert out.splitlines()[-1].startswith("5 passed, 3 failed, 0 errored")
    failed = [line.split()[1] for line in out.splitlines() if line.startswith("FAILED ")]
    assert failed == ["fuzz/classic/2p", "fuzz/classic/3p", "fuzz/classic/4p"]
    assert out.count("views carry undefined key debug (player 0's view)") == 3


def test_a_fuzzing_failure_has_a_structured_divergence_in_json_notation(capsys, tmp_path):
    """Regression: fuzz results had `divergence: null` and quoted values in Python notation; the
    replay line left out --fuzz-dir."""
    report = tmp_path / "r.json"
    found = tmp_path / "found dir"
    code, out, _ = check(capsys, "--impl", "python:llcheck.mutants.engines:baron_higher_loses", "--edition",
                         "classic", "--fuzz", "20", "--run", "fuzz/classic/3p", "--fuzz-dir", str(found),
                         "--json", str(report), "-q")
    assert code == 1
    result = json.loads(report.read_text())["results"][0]
    schema_validator().validate(json.loads(report.read_text()))
    point = result["divergence"]
    assert point["round"] >= 1 and point["step"] >= 1 and point["action"]["card"] == "Baron"
    assert point["what"] in ("events", "state.eliminated") and point["expected"] != point["actual"]
    assert point["detail"] in result["message"]
    saved = json.loads(next(found.rglob("*.json")).read_text())["cases"][0]
    for text in (result["message"], saved["description"]):
        assert "'" not in text and "None" not in text and "True" not in text and "False" not in text
    assert f"--fuzz-dir '{found}' --edition classic --run fuzz/classic/3p" in out


def test_cases_not_run_because_the_engine_cannot_be_restarted_exit_3(capsys, tmp_path, monkeypatch):
    """Regression: they exited 1, as if the engine had broken a rule (docs/ci.md: 3 comes after a
    failure, before an errored case)."""
    monkeypatch.setenv("LLCHECK_TEST_MARKER", str(tmp_path / "crashed"))
    report = tmp_path / "r.json"
    code, out, _ = check(capsys, "--impl", f"{BROKEN} dies-after-crash", "--json", str(report), "-q")
    assert code == 3
    data = json.loads(report.read_text())
    assert data["exit_code"] == 3
    messages = [r["message"] for r in data["results"]]
    assert messages[0].startswith("round 1, deal: the engine exited with code 3 before answering start "
                                  "(request 2)")
    assert all(m.startswith("not run: the engine could not be restarted: ") for m in messages[1:])
    assert messages[1].endswith("stderr: cannot bind port 9999: address in use")
    ids = [r["id"] for r in data["results"]]
    assert out.count("not run: the engine could not be restarted") == 1  # shown once, then counted
    assert (f"ERRORED {len(ids) - 2} more not run, for the same reason as {ids[1]} (the --json and "
            f"--results reports list each): {', '.join(ids[2:])}\n") in out


def test_results_not_run_for_one_reason_are_shown_once_then_counted():
    """An engine that cannot be restarted leaves hundreds of cases not run: the text shows the
    first in full and names five of the rest; a different reason is shown in full again."""
    from llcheck.harness.results import ERRORED, Result
    from llcheck.harness.text import bad_results
    gone = "not run: the engine could not be restarted: cannot bind port"
    results = [Result(f"required/c{i}", ERRORED, message=gone, not_run=True) for i in range(9)]
    results.append(Result("fuzz/classic/2p", ERRORED, message="not run: the worker stopped", not_run=True))
    text = "\n".join(bad_results(results))
    assert text.count(gone) == 1 and text.count("not run: the worker stopped") == 1
    assert text.endswith("ERRORED 8 more not run, for the same reason as required/c0 (the --json and "
                         "--results reports list each): required/c1, required/c2, required/c3, "
                         "required/c4, required/c5, ...")


def test_failed_properties_and_fuzzing_name_their_clauses_as_failed_cases_do(capsys, tmp_path):
    """Regression: a failed property had no `clause` line, no row in the clause and tag tables, and
    `"clauses": []` in the JSON report; its clause was only inside its replay case."""
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    clause = "classic.tokens.round-win"
    code, out, _ = check(capsys, "--impl", "python:llcheck.mutants.engines:winner_gets_two_tokens",
                         "--edition", "classic", "--properties", "--fuzz", "20", "--fuzz-dir", str(tmp_path),
                         "--run", "property/tokens/classic/2p", "--run", "property/forced-play/classic/2p",
                         "--run", "fuzz/classic/2p", "--json", str(report), "--junit", str(junit))
    assert code == 1
    for name in ("property/tokens/classic/2p", "fuzz/classic/2p"):
        block = out[out.index(f"FAILED {name}"):].split("\n\n")[0].splitlines()
        assert block[2].startswith(f"  clause {clause}: ") and "«" in block[2], block
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()
            if line.startswith(("classic.", "property ", "tokens "))}
    assert rows[clause] == ["2", "0", "2", "0", "0", "0", "fails"]
    assert rows["classic.countess.forced"] == ["1", "1", "0", "0", "0", "0", "conforms"]
    assert rows["property"] == ["2", "1", "1", "0", "0", "0", "fails"]
    assert rows["tokens"] == ["1", "0", "1", "0", "0", "0", "fails"]
    data = json.loads(report.read_text())
    schema_validator().validate(data)
    assert [(r["id"], r["clauses"], r["tags"]) for r in data["results"]] == [
        ("property/forced-play/classic/2p", ["classic.countess.forced"], ["property", "forced-play"]),
        ("property/tokens/classic/2p", [clause], ["property", "tokens"]),
        ("fuzz/classic/2p", [clause], ["fuzz", "events"])]
    assert [(c["id"], c["verdict"]) for c in data["clauses"]] == [
        ("classic.countess.forced", "conforms"), (clause, "fails")]
    cases = list(ET.parse(junit).getroot().iter("testcase"))
    assert [case.get("classname") for case in cases] == ["classic.countess.forced", clause, clause]
    for case in cases[1:]:
        assert f"clause {clause}: " in case.find("failure").text


def test_a_run_that_judges_no_clause_prints_no_empty_tables(capsys, tmp_path):
    code, out, _ = check(capsys, "--impl", "reference", "--edition", "classic", "--fuzz", "2",
                         "--run", "fuzz/classic/2p", "--fuzz-dir", str(tmp_path))
    assert code == 0
    assert "\n\n\n" not in out


@pytest.mark.parametrize("cache", ["writable", "not writable"])
def test_campaigns_leave_no_hypothesis_folder_in_the_working_directory(tmp_path, cache):
    """Regression: --properties and --fuzz wrote hypothesis's `.hypothesis/constants/` into the
    directory the command ran in; now it goes to llcheck's cache folder, or a temporary one."""
    home, project = tmp_path / "cache", tmp_path / "project"
    project.mkdir()
    if cache == "not writable":
        home.write_text("a file, not a folder\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "HYPOTHESIS_STORAGE_DIRECTORY"}
    env["XDG_CACHE_HOME"] = str(home)
    command = [sys.executable, "-m", "llcheck", "check", "--impl", "reference", "--edition", "classic", "-q",
               "--properties", "--run", "property/legality/classic/2p", "--fuzz", "2", "--run", "fuzz/*/2p"]
    done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    assert list(project.iterdir()) == []
    if cache == "writable":
        assert list((home / "llcheck" / "hypothesis" / "constants").iterdir())


def test_an_engine_playing_no_corpus_edition_is_an_engine_problem_with_reports(capsys, tmp_path):
    report = tmp_path / "r.xml"
    code, out, err = check(capsys, "--impl", "python:adapters:MisspeltEdition", "--junit", str(report))
    assert (code, out) == (3, "")
    assert err == ("llcheck check: the engine plays none of the corpus editions (it plays: klassik; "
                   "the corpus has: classic)\n")
    assert "klassik" in report.read_text()


def test_a_whole_value_that_differs_is_shown_once_as_expected_and_actual(capsys):
    code, out, _ = check(capsys, "--impl", "python:adapters:TurnAsText", "--run", "runner/refusals")
    block = out.split("\n\n")[1].splitlines()
    at = next(i for i, line in enumerate(block) if line.endswith(": state.turn"))
    assert code == 1
    assert block[at + 1:at + 3] == ["    expected: 1", '    actual:   "1"']


def test_expected_and_actual_never_read_alike_when_they_differ():
    from llcheck.harness.text import compact_pair

    state = {"deck": ["Guard"] * 30, "hands": [["Baron"], ["King"]], "tokens": [0, 1]}
    expected, actual = compact_pair(state, {**state, "tokens": [0, 2]}, 160)
    assert (expected, actual) == ('..."tokens": [0, 1]}', '..."tokens": [0, 2]}')
    assert compact_pair({"a": 1}, {"a": 2}, 160) == ('{"a": 1}', '{"a": 2}')  # short: as they are
